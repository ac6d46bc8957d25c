// Package layers checks the direction of the module's imports, which the README's "Packages"
// section describes. It has only tests; it has no client-go counterpart.
//
// Contract:
//
//  1. The test reads every .go file of the main module with go/parser (imports only, every
//     build tag at once), skipping testdata/, directories whose name starts with "." or "_",
//     and nested modules (interop/, tools/, labs/work/). It runs no go command and needs no
//     network.
//  2. harness/ is the test floor: no non-test file outside harness/ imports a package under
//     it. Code that cmd/demo runs (the testbed, the dashboard) therefore lives under
//     internal/.
//  3. Chapters are course content, never infrastructure: no file outside chapters/, test or
//     not, imports a package under chapters/, and nothing under harness/ does either.
//  4. internal/ is the ground floor: a non-test file under internal/ imports, of the module,
//     only internal/ and api/ packages. internal/testbed, which assembles whole pipelines for
//     the demo and the harnesses, is the one package allowed above that floor.
//  5. controller/, the worker loop, imports of the module only workqueue/.
//  6. Each rule is also checked against made-up files that break it, so a rule that can no
//     longer fail is noticed.
package layers
