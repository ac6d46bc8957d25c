// Command lab runs the labs: it writes a lab's skeletons, grades the learner's files with the
// real tests, shows every lab's progress and prints hints. The Makefile's lab-* targets call it.
//
//	go run ./labs/cmd/lab start [-force] 04      # make lab-start LAB=04 [FORCE=1]
//	go run ./labs/cmd/lab check [-ref] [-all] 04 # make lab-check LAB=04 [REF=1] [ALL=1]
//	go run ./labs/cmd/lab status                 # make lab-status
//	go run ./labs/cmd/lab hint [-lang zh] 04 2   # make lab-hint LAB=04 N=2 [ZH=1]
//	go run ./labs/cmd/lab mutants 04             # make lab-mutants LAB=04
package main
