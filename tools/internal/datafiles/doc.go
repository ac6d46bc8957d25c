// Package datafiles is the scaffolding the generators of tools/cmd share: each builds a set of
// data files for the main module to embed, and this package writes them, with their digest
// list, and reports what it wrote.
//
// The contract:
//
//  1. SHA256Sums lists the digest of every file in sha256sum's text format ("<64 hex
//     digits>  <name>" per line), in name order; a generator stores it under SumsFile beside
//     the files it describes, and the main module's digest tests read it back.
//  2. Write makes a directory hold exactly the given files among its *.json files and
//     SHA256SUMS: a *.json file no longer generated is removed, every given file is
//     written, and a name that is not a plain file name is an error.
//  3. Main is a generator's main: it parses -out (defaulting to the directory the main
//     module embeds), generates, writes, prints each file's size and path in name order
//     and the time taken, and exits 1 with the generator's name on any error.
package datafiles
