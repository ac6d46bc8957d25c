// Command behaviourref writes the repository's behaviour reference, docs/behaviour/client-go.md
// and docs/behaviour/wire.md, and their Chinese twins client-go.zh-CN.md and wire.zh-CN.md, from
// the data files beside them, and checks that every reference a reader meets resolves inside the
// repository.
//
// Usage, from the repository root (`make docs` runs the first form):
//
//	go run ./internal/cmd/behaviourref                      # rewrite the reference, then check
//	go run ./internal/cmd/behaviourref -check               # exit 1 if stale or anything is unresolved
//	go run ./internal/cmd/behaviourref -verify "$(go env GOMODCACHE)" [-fix]
//
// The contract:
//
//  1. A data file holds one statement per line, "ID | source | text", under "§N title" section
//     lines; '#' starts a comment. A source is "<module> <file>:<line> <function>" at the module
//     versions of modules (client-go v0.37.2 and what it builds with), or "ours".
//  2. The scan reads every .go, .md and .txt file of the tree except dot directories, fuzz
//     corpora, docs/behaviour/, SOURCE_MAP.md (generated from comments scanned where written)
//     and this command. Behaviour IDs carry a dash (DF-7); wire IDs do not (W14). A bare E or T
//     number is the wire list's in the wire layer's directories (wireDirs) or on a line that
//     says "wire", the behaviour list's elsewhere. Ranges (E1–E11, D-1 … D-4) cite each ID.
//  3. A test's name cites IDs without their dash (TestCh04_T1_…, TestCh06_Controller_C1_…):
//     in TestCh00_, TestCh01_ and the wire layer's own tests the wire list's, elsewhere the
//     behaviour list's. The tests column of an entry lists the tests whose name, doc comment
//     or body cites it, and the scenario scripts (testdata/*.txt) that do.
//  4. The output is deterministic: entries in data-file order, tests sorted by name, upstream
//     links to github.com at the pinned tag or commit. Two runs give the same bytes.
//  5. The check reports, one line each with file and line: a cited ID with no entry; an entry
//     cited nowhere; an external link that does not go to the upstream sources (upstream); a
//     relative Markdown link whose file is missing, leaves the repository, or whose #anchor
//     the file does not define (explicit <a id> or a heading); a backquoted path
//     starting with one of the repository's top-level directories that exists neither from
//     the root, from the file's directory, nor under a top-level directory (a table row is
//     checked in its first cell only, as source-map tables put upstream paths after it); a
//     backquoted TestChNN_, TestInterop_ or Example_ name no test file declares; a TestChNN_
//     name that test files of two directories declare (DuplicateChapterTests), since make
//     chNN and the READMEs find tests by name; "../shared" or the working specs' paths; and
//     the old article-example labels (A1 … A16).
//  6. Without -check the command writes the reference and then checks; with -check it also
//     fails when a generated file differs from what it would write. The package's tests run
//     the same check, so `go test ./...` catches drift.
//  7. Each data file has a Chinese twin (client-go.zh-CN.txt, wire.zh-CN.txt): one line per
//     English line, in the same order, "ID | hash | 中文" or "§N | hash | 标题", where hash is
//     EnglishHash of the English text translated. The Chinese document has the English one's
//     sections, anchors, sources and tests. The check reports an English line without its twin,
//     a twin without its English line, a twin out of order, and a stale twin (its hash is not
//     the English text's): changing an English statement fails `make docs` until its Chinese is
//     checked and its hash rewritten.
//  8. -verify reads the module cache and fails unless every source's file exists and its line
//     declares the named function or type; -fix rewrites the lines it finds. It needs the
//     upstream modules downloaded, so only the maintainers run it, not make docs.
package main
