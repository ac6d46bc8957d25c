// Package origin is the same-origin check the dashboard and the simulated apiserver share
// against web pages of other sites. A browser names the page behind a request in the Origin
// header: on every cross-origin request and every POST, and on the simple requests (a form,
// a text/plain or untyped fetch) it sends without asking the server first. Clients that are
// not browsers (kubectl, client-go, curl) send none.
package origin
