// Package resttest holds the test servers and stream helpers that the tests of the client
// side (rest, rest/watch, clientcmd, plugin/pkg/client/auth/exec) share, so that each
// package does not keep its own copy.
//
// Contract:
//  1. WhoAmI answers every request with a Pod named after the client certificate's common
//     name ("anonymous" without one) carrying the request's Authorization header in
//     annotation "auth"; NewMTLSServer serves it over TLS to clients whose certificate is one
//     of the trusted PEMs, and ServerCA is the PEM a client trusts it by.
//  2. PodEvent is one watch frame of a demo pod and ExpiredEvent the ERROR frame of a 410;
//     Collect reads a watch until its channel closes, failing the test after 10 s; Summary
//     is one line per event for table tests.
//  3. BenchPod is a pod of about 1 KiB of JSON, the same for every benchmark.
//
// Nothing in client-go mirrors it: client-go's tests build their servers inline.
package resttest
