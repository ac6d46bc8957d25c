// Package watch mirrors k8s.io/apimachinery/pkg/watch: the typed events a watch delivers
// and the interface every watch implements, plus fakes for tests. Decoding a watch stream
// from the wire belongs to package rest/watch.
//
// The contract:
//
//  1. A watch delivers Events on the channel of ResultChan, in the order they happened.
//  2. The producer closes that channel when the watch ends, for any reason: Stop, a timeout,
//     an ERROR event, a broken connection. A closed channel is a normal end; the consumer
//     watches again from the last resourceVersion it saw.
//  3. Stop may be called any number of times, from any goroutine; after it returns, the
//     channel is closed and will receive nothing more.
//  4. An ERROR event carries an *api.Status; a BOOKMARK event carries an object of the
//     watched kind with only its resourceVersion (and annotations) set.
package watch
