// Package lab generates the labs' skeletons from the reference source and grades a learner's
// files with the reference's own tests. It is ours: client-go has no counterpart.
//
// The contract:
//
//  1. A lab region is a function whose doc comment ends with the directive "//lab:NN" or
//     "//lab:NN.S" (lab NN, step S, default 1). Only the component packages carry them; the
//     Catalogue names each lab's directories, steps and test runs.
//  2. Strip replaces the body of every region of one lab with a comment naming the hints and
//     panic("lab NN: not implemented"). Everything else, doc comments included, is kept
//     byte for byte, the imports too: one that only the stripped bodies used is kept by a blank
//     guard (var _ = pkg.Func, or var _ *pkg.Type), so a skeleton always compiles and the
//     learner's first function may use it. Skeletons are generated from the current source,
//     never stored; StripExcept keeps some bodies, for a lab partly solved.
//  3. Start writes the skeletons under labs/work/NN/ (git-ignored, a module of its own so the
//     main module's ./... skips it) and never overwrites a learner's file unless forced.
//  4. Grade builds each run's test binary once, with go test -c -overlay, so the learner's
//     files replace the reference's without touching the tree, then runs it with -test.v. A
//     binary that dies (a panic in a goroutine, a timeout) is run again without the tests
//     that already have a result; the test that was running is reported as crashed.
//  5. The scoreboard groups failures that panic in an unwritten function under that
//     function, and prints every other failure with its teaching point (the first sentence of
//     the test's doc comment) and the chapter README section that mentions the test's name or
//     its spec ID. Tests that compare trace lines are optional: shown, never graded.
//  6. A mutant (labs/NN-topic/testdata/mutants/*.go) names the reference file it patches and
//     the tests that must fail; Apply swaps in its functions by name. CheckMutant builds only
//     the packages holding those tests and reports whether every one of them failed.
//  7. Hints are three "## … N" sections per language in labs/NN-topic/hints.md and
//     hints.zh-CN.md: the idea, the data structure, the tricky case.
//  8. Each step names its Tests, and step 1 its First function and the named Test that
//     function alone turns green. Check runs the steps' tests in order and stops at the first
//     step that fails; the lab's whole Runs come once every step passes (or when asked). The
//     score's denominator is Graded: the lab's non-optional tests counted from the sources, so
//     it never moves.
//  9. Everything the lab command prints comes from one catalogue of messages keyed by ID, in
//     English and Chinese (T); Chinese is chosen by ZH=1 or a zh_* locale (LangFromEnv).
package lab
