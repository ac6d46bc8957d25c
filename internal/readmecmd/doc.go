// Package readmecmd checks the commands the READMEs tell a reader to type. It has only tests.
//
// Contract:
//  1. Every README.md and README.zh-CN.md at the root, under chapters/ and under interop/ is
//     read; a command is a line inside a fenced block that starts (after an optional "$ ")
//     with "make ", "go test ", "go run " or "cd interop && go ". A trailing "# comment" and
//     "# or:" are dropped.
//  2. The default run (part of make test) checks each command without running it: a make
//     target must exist (make -n), a go test -run pattern must list at least one test in its
//     packages (go test -list), and a go run of cmd/demo must accept its subcommand and flags
//     (the same arguments plus -h exit 0).
//  3. With -readme.run (make docs), each command also runs for real from the repository root
//     and must exit 0, except the commands in skipRun, each of which says why (it never ends,
//     or it is make test itself).
//  4. A Chinese README must hold exactly the commands of its English sibling, so the two
//     cannot drift apart.
//  5. A fenced block right after a line "<!-- script: testdata/x.txt -->" must equal that
//     scenario script, so a README's embedded trace cannot fall behind make update.
package readmecmd
