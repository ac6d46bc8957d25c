// Command demo is the workshop CLI: the guided tour of the informer pipeline (make demo), the
// pipeline with a steady mutator and the live dashboard (demo run --ui), our informer against
// any apiserver (demo watch), and the simulated apiserver alone for kubectl, curl and
// client-go (demo serve).
//
// The contract:
//
//  1. Everything runs on an embedded simulated apiserver on a loopback port; nothing but Go
//     is needed, and nothing is left running when a command returns.
//  2. A mistake on the command line exits 2 with a hint; "demo <command> -h" lists the flags.
//  3. demo serve writes its credentials (kubeconfig, CA, client certificate and key) as fresh
//     0600 files in a 0700 per-user directory and refuses symbolic links in their place.
//  4. The tour's story is checked by its tests: each step's counts (relists, tombstones,
//     retries, API requests during a resync) are asserted, not just printed.
//  5. Every line printed for a human speaks English or Chinese (--lang=en|zh; without it
//     LC_ALL, LC_MESSAGES, then LANG decide), from one catalogue of messages by ID
//     (messages.go) in which every message has its twin. The trace columns (component, op,
//     key, rv) and the values the components log stay as logged, except the notes of the
//     demo's own scheduler and audit handler. demo help and demo tour -h follow --lang too;
//     usage errors, and the help of the other commands' flags, stay English.
package main
