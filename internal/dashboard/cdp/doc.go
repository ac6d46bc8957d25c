// Package cdp drives a headless Chromium over the Chrome DevTools Protocol, for the browser
// tests of the dashboard (internal/dashboard) and of `demo run --ui` (cmd/demo). It uses the
// standard library only: no npm, no WebSocket, no downloaded browser build. It has no
// client-go counterpart.
//
// The contract:
//
//  1. Launch starts the Chromium binary it is given (Debian's apt package "chromium" is
//     enough) headless, with a throwaway profile, and talks to it over
//     --remote-debugging-pipe: no port is opened.
//  2. Close asks the browser to quit, kills its whole process group if it has not within a
//     few seconds, waits for it and removes the profile: nothing outlives the test.
//  3. Every call is bounded by its context; a browser that exits makes pending calls fail
//     at once instead of hanging.
//  4. Errors reports every uncaught exception, console.error and page crash seen so far, so a
//     test can assert that the page raised none.
//  5. Click dispatches real mouse events at the centre of the element, so a hidden or covered
//     button does not count as clicked.
//  6. RequireChromium skips a test only when no Chromium is installed, with a message that
//     says how to install it, and fails it instead when $E2E_REQUIRE_BROWSER is set.
//  7. The package builds on unix only (it uses process groups).
package cdp
