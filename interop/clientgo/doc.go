// Package clientgo runs stock client-go v0.37.2 against the simulated apiserver over loopback
// HTTP and checks, request by request, that it works as it does against a real
// kube-apiserver (docs/behaviour/wire.md §8 and §11 T8–T15). The package has tests and benchmarks only.
//
// What the tests show:
//
//  1. A typed clientset configured with ContentType "application/json" creates, gets, lists,
//     updates, patches (merge and strategic) and deletes pods, configmaps and namespaces; left
//     at client-go's protobuf default, reads work and writes get 415 (CG1, N2).
//  2. A stock SharedIndexInformer syncs through watch-list with exactly one request, a WATCH
//     with sendInitialEvents=true and no LIST (CG4, T8); against a server that rejects
//     watch-list it falls back to LIST then WATCH (CG5, T9).
//  3. After compaction and a dropped connection the informer's resumed watch gets ERROR 410,
//     it relists, and its cache equals the server's (T10).
//  4. client-go's pager, handed an expired continue token (410), falls back to one full list
//     (T11).
//  5. Through client-go's REST client: stale-RV PUT is 409, no-RV PUT is 200 (T12); a no-op
//     PUT keeps the RV and sends no event (T13); a selector watch sees relabels as DELETED and
//     ADDED (T14); bookmarks come only when allowed, with kind, apiVersion and rising RVs (T15).
package clientgo
