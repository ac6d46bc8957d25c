// Package chanctx turns the stop channels of client-go's older API (Run(stopCh),
// ListAndWatch(stopCh), Start(stopCh), WaitForCacheSync(stopCh)) into the context their
// WithContext forms take.
//
// Contract:
//  1. ForChannel(stopCh) is done exactly when stopCh is closed; its Err is then
//     context.Canceled. It has no deadline and no values.
//  2. It starts no goroutine and needs no cancel function: Done returns stopCh itself, so
//     nothing can outlive the channel, and a caller never has to remember to release it.
//  3. A nil stopCh gives a context that is never done, as a nil channel never closes.
//
// It mirrors wait.ContextForChannel of k8s.io/apimachinery, which client-go's reflector, shared
// informer, controller and informer factory all use for their stopCh forms.
package chanctx
