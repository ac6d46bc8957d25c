package registry

import "context"

// trustedKey marks a context whose writes carry objects the server built itself.
type trustedKey struct{}

// WithServerObjects marks ctx for the server's own start-up writes (the objects of
// kube-apiserver's post-start hooks, which it builds from constants): Create and Update skip
// the validation of their objects, whose cost is mostly in compiling each kind's schema on
// first use, work the first request does not need. Admission, defaulting and the storage's
// checks still run. A test validates every start-up object, so one that is invalid still
// fails there. It has no counterpart in Kubernetes, whose hooks validate as every client does.
func WithServerObjects(ctx context.Context) context.Context {
	return context.WithValue(ctx, trustedKey{}, true)
}

// serverObjects reports whether ctx came from WithServerObjects.
func serverObjects(ctx context.Context) bool {
	v, _ := ctx.Value(trustedKey{}).(bool)
	return v
}
