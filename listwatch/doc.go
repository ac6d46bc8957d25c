// Package listwatch is what a Reflector lists and watches through: the ListerWatcher
// interfaces, ListWatch, NewListWatchFromClient (a ListWatch over a REST client of package
// rest) and the pager (ListPager). It mirrors client-go tools/cache/listwatch.go and
// tools/pager/pager.go. The REST client itself is package rest, the watch stream decoder
// package rest/watch, kubeconfig loading package clientcmd and exec credential plugins
// package plugin/pkg/client/auth/exec. It imports only api, rest and internal packages, never
// the apiserver: client and server share nothing but the wire.
//
// The contract (IDs refer to the behaviour and wire specifications):
//
//  1. ListWatch prefers its WithContext functions when they are set (LW-1), and
//     ToListerWatcherWithContext keeps the IsWatchListSemanticsUnSupported opt-out (LW-2).
//  2. A list result is an api.ListObject: items plus the list's resourceVersion and continue
//     token (LW-3).
//  3. ListPager.List sets an unset limit to PageSize (none when PageSize is 0), returns a
//     single page unchanged, concatenates several pages into one list of the first page's
//     type at the first page's resourceVersion, sends continuation requests with the token
//     and without resourceVersion or its match, falls back once to a full list at the
//     original resourceVersion when a continuation fails with reason Expired, and stops with
//     ctx.Err() when the context ends between pages (PG-1 … PG-6).
//  4. NewListWatchFromClient lists and watches one resource of the Getter's group-version in
//     one namespace ("" for all) with the field selector; a watch carries watch=true, and
//     the filtered form passes every request's options through its modifier first.
package listwatch
