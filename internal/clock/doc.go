// Package clock is the time source every component takes, so tests can run in virtual time.
// It mirrors the small part of k8s.io/utils/clock that client-go's informer machinery uses.
//
// The contract:
//
//  1. RealClock is the time package, unchanged; the zero value is ready to use.
//  2. Components take a Clock and default to RealClock when given nil.
//  3. Tests either run real clocks inside a testing/synctest bubble, where time is virtual and
//     advances only when every goroutine is blocked, or use a component's own fake.
package clock
