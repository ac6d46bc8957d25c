// Package sha256sums reads the digest lists (SHA256SUMS) that the generators in tools/ write
// beside the data files the main module embeds, for the tests that pin those files: the
// OpenAPI documents (apiserver/internal/schema) and the protobuf descriptors
// (internal/builtinproto).
//
// The contract:
//
//  1. Parse reads sha256sum's text format, one "<64 hex digits>  <name>" line per file (two
//     spaces between), into a map from name to digest as written.
//  2. A line of another shape, a digest that is not 64 hex digits, an empty name, or a name
//     listed twice is an error naming the line; nothing is returned with it.
//  3. Sum gives a file's digest as Parse returns the ones the generators write (lowercase
//     hex), so the two compare with ==.
package sha256sums
