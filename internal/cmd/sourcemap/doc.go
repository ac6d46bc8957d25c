// Command sourcemap writes SOURCE_MAP.md, the table of every exported identifier of ours next
// to its client-go (or apimachinery, kube-apiserver, …) counterpart, taken from the doc
// comments, so the map cannot drift from the code.
//
// Usage, from the repository root (`make docs` runs the first form):
//
//	go run ./internal/cmd/sourcemap            # rewrite SOURCE_MAP.md
//	go run ./internal/cmd/sourcemap -check     # exit 1 if SOURCE_MAP.md is out of date
//	go run ./internal/cmd/sourcemap -lint      # list identifiers with no mirrors/ours statement
//
// The contract:
//
//  1. It covers every package of the main module whose directory is not, and is not under, a
//     directory named internal, harness, cmd, testdata or chapters, nor one starting with "."
//     or "_", nor a nested module (a directory with its own go.mod, such as interop/). Package
//     main is skipped. Only the non-test files that match the current build context are read.
//  2. From each package it collects every exported type, function and method (methods declared
//     on exported types, not those promoted from embedded fields), and every const or var group
//     that carries a doc comment. Undocumented const and var groups are left out.
//  3. A doc comment "mirrors" when one of its sentences says "<Name> mirrors X", "It mirrors X",
//     "They mirror X" or "mirroring X"; X may be followed by "in <module> [<path>]", e.g.
//     "in client-go tools/cache/delta_fifo.go" or "in k8s.io/apimachinery/pkg/fields".
//  4. A doc comment is "ours" when it names no counterpart: no sentence is needed to say so.
//     It may still say "<Name> is ours" (or "are ours", "It is ours") or "no client-go
//     counterpart", which wins over a later "mirrors" in the same comment; "Name is ours"
//     about a field of the identifier (any other Name) does not make the identifier ours,
//     it becomes a note.
//  5. The map shows every identifier that mirrors nothing as *ours*. -lint lists those whose
//     comments do not say so in words either, for a reviewer to check that none of them
//     forgot its counterpart; it is report-only and exits 0 whatever it finds.
//  6. The counterpart's package comes from the "in …" location when it names one, else from the
//     qualifier of X through a fixed table (cache → k8s.io/client-go/tools/cache, metav1 →
//     k8s.io/apimachinery/pkg/apis/meta/v1, …; see qualifiers), else, for a method whose X is
//     Type.Method, from the counterpart of its receiver type when that counterpart is Type.
//     The file is given only when the comment names it (or the receiver type's comment does).
//  7. The note gathers, from the comment: qualifiers of the mirror statement ("reduced to …",
//     "JSON only", "deprecated", "generated"), and every sentence that mentions a profile or
//     says that something is ours, left out, or deprecated.
//  8. The output is deterministic: packages sorted by import path, identifiers by name (a
//     method sorts as Type.Method, right after its type), links relative to the repository
//     root naming the file only (a line anchor would go stale with every edit), and a header that says the file is generated and by
//     which command. Two runs over the same tree give the same bytes.
//  9. -check regenerates in memory and exits 1, naming the first differing line and the
//     command to run, when SOURCE_MAP.md differs; the package's test does the same check, so
//     `go test ./...` catches drift too.
package main
