// Package jsonpath is the JSONPath template language of kubectl's -o jsonpath and of the
// apiserver's additionalPrinterColumns: k8s.io/client-go util/jsonpath, written over
// decoded JSON values. It parses text with {actions} (fields .a.b, ['key'], indices and
// slices [1], [-1], [0:2], [::2], wildcards [*] and .*, recursive descent .., unions
// [0,1] and ['a','b'], filters [?(@.type=="Ready")] and [?(@.x)], and range/end), finds the
// values a template selects (FindResults) and prints them (PrintResults).
//
// The contract:
//
//  1. Parse gives the real parser's errors ("unrecognized character in action: U+0021 '!'",
//     "unterminated filter", "invalid array index x", …).
//  2. FindResults gives one list of values per top-level node. A missing member is an error
//     ("x is not found") unless AllowMissingKeys; an index out of range, a filter on what is
//     not a list, and a comparison of values of different kinds (an integer with a float,
//     a string with a number) are errors too, as in the real package.
//  3. Where the real package walks a Go map (wildcards, recursive descent), this one walks
//     the keys in sorted order, so its results come in a stable order.
//  4. PrintResults prints objects and lists as JSON, a null as "<no value>" (Execute: "null"), anything else
//     as fmt.Print does, separated by spaces.
package jsonpath
