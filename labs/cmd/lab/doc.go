// Command lab runs the labs: it writes a lab's skeletons, grades the learner's files with the
// real tests, shows every lab's progress and prints hints. The Makefile's lab-* targets call it.
//
//	go run ./labs/cmd/lab start [-force] 04      # make lab-start LAB=04 [FORCE=1]
//	go run ./labs/cmd/lab check [-ref] [-all] 04 # make lab-check LAB=04 [REF=1] [ALL=1] [RACE=1]
//	go run ./labs/cmd/lab status                 # make lab-status
//	go run ./labs/cmd/lab hint [-lang zh] 04 2   # make lab-hint LAB=04 N=2 [ZH=1]
//	go run ./labs/cmd/lab mutants [-discover] 04 # make lab-mutants LAB=04
//	go run ./labs/cmd/lab timings [04 …]         # make lab-timings [LAB=04]
//
// The contract:
//
//  1. It finds the repository root by walking up to the main module's go.mod, so it works
//     from any directory inside the clone.
//  2. start never overwrites a learner's file without -force, and prints the functions to
//     write, step by step.
//  3. check exits 0 only when every graded test passes, and records the score in
//     labs/work/NN/.last-check.json for status; -ref grades the reference and records nothing.
//  4. hint prints one of three levels; it, start, check and status speak Chinese with -lang zh,
//     ZH=1 or a zh_* locale.
//  5. mutants exits 1 when any mutant of the lab passes the tests it names; -discover runs
//     every package and chapter test instead, to find the tests that catch a new mutant.
//  6. timings writes each lab's functions from the reference one at a time, in lab-start's
//     order, and prints a markdown table of every check's step, score and duration.
package main
