package rest

import "github.com/informer-lab/informer-lab/api"

// SubresourceStrategy is the strategy of a kind's subresources that write their own part of
// the object where the generic status strategy (the stored object with the body's status)
// does not fit: certificatesigningrequests/status keeps the approval conditions, and
// certificatesigningrequests/approval writes only the conditions. It mirrors the status and
// approval strategies a registry passes to its further REST storages.
type SubresourceStrategy interface {
	// PreparesSubresource reports whether the strategy prepares updates of sub.
	PreparesSubresource(sub string) bool
	// PrepareForSubresourceUpdate mirrors that subresource strategy's PrepareForUpdate: the
	// object to store, made from the body obj and the stored old (neither is changed).
	PrepareForSubresourceUpdate(ctx Context, sub string, obj, old *api.Unstructured) *api.Unstructured
	// ValidateSubresourceUpdate mirrors that strategy's ValidateUpdate beyond what the
	// kind's own ValidateUpdate and Validate check.
	ValidateSubresourceUpdate(sub string, obj, old *api.Unstructured) []api.StatusCause
}

// UncheckedNamer is a kind whose names are not checked against the DNS rules: a
// CertificateSigningRequest, whose ValidateCertificateRequestName accepts any name (the
// path-segment rules of every name still apply).
type UncheckedNamer interface {
	NameIsUnchecked() bool
}
