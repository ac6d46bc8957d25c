// Package differential runs one seeded operation script through an informer-lab component
// and through the matching component of real client-go v0.37.2, in one process, and
// requires the observable outputs to be identical.
//
// Every test draws its scripts from a seeded generator. By default each test runs seeds
// 1…50; -seeds=N runs seeds 1…N and -seed=S runs seed S alone (for soaks and for replaying
// a failure). A mismatch is reported with its seed, the script shrunk to a minimal one that
// still differs, and a go-cmp diff (-ours +client-go) of the first differing observation.
//
// Scripts run inside a testing/synctest bubble: a consumer blocked in Pop or Get is
// "durably blocked", so synctest.Wait tells an empty queue from a slow one without any
// sleep, and time (rate limiters, AddAfter) is virtual and identical for both sides.
package differential
