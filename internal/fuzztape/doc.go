// Package fuzztape turns a fuzzer's bytes into the choices of a property test.
//
// Contract:
//  1. Tape.IntN(n) has the shape of (*math/rand/v2.Rand).IntN, so one op-driver serves both a
//     seeded property test (which passes a *rand.Rand) and a fuzz target (which passes a Tape).
//  2. Each call consumes one byte and returns it modulo n; once the bytes run out it returns 0,
//     so every input, including the empty one, is a valid and finite run.
//  3. Exhausted reports whether the bytes have run out, so a fuzz driver can stop early.
package fuzztape
