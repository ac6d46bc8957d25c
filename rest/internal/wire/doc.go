// Package wire holds what the REST client (package rest) and its watch decoder (package
// rest/watch) both need to read the wire: the Status decoder, the test for a dropped
// connection, and the trace vocabulary they share.
//
// The contract:
//
//  1. DecodeStatus accepts only an object of kind Status and defaults a missing apiVersion
//     to v1; anything else is an error that quotes the start of the input.
//  2. IsProbableEOF is true for the errors of a connection that went away (EOF in the middle,
//     a reset, a closed connection, a timeout) and false for nil.
//  3. Every trace hop of the client side is logged under TraceComponent, "listwatch", the name
//     chapter traces and the demo's journey view have always used.
//
// Nothing in client-go mirrors the package as a whole; each function names its original.
package wire
