// Package layers checks the direction of the module's imports, which the README's "Packages"
// section and the apiserver's layers (apiserver/doc.go) describe. It has only tests; it has
// no client-go counterpart.
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
//  6. rest/ and plugin/ sit below clientcmd/: no non-test file there imports it (kubeconfig
//     loading builds on the REST client, never the other way round).
//  7. apiserver/storage knows nothing of HTTP, protobuf or kinds: its non-test files import,
//     of the module, only api/ (but not api/protobuf), internal/clock, internal/trace and
//     apiserver/internal/continuetoken, and never net/http.
//  8. Each rule is also checked against made-up files that break it, so a rule that can no
//     longer fail is noticed.
package layers
