// Package certificates holds the strategy of certificates.k8s.io/v1
// CertificateSigningRequests, on the model of kubernetes
// pkg/registry/certificates/certificates/strategy.go and
// pkg/apis/certificates/validation:
//
//  1. A create takes spec.username, uid, groups and extra from the requesting user
//     (rest.Context.User), whatever the body says, and starts with an empty status.
//  2. An update of the main resource changes only metadata: spec and status are the
//     stored ones.
//  3. The status subresource writes the status but keeps the stored Approved and Denied
//     conditions; the approval subresource writes only status.conditions. Both stamp the
//     conditions' missing lastUpdateTime and lastTransitionTime (the latter kept from a
//     stored condition of the same type and status).
//  4. Validation is the real one: the request must be a PEM CERTIFICATE REQUEST with a
//     valid signature, usages known and unique, signerName a domain and a path, no
//     expirationSeconds under 600, conditions well-formed with Approved and Denied
//     exclusive, status.certificate PEM CERTIFICATE blocks; no update removes an
//     Approved, Denied or Failed condition, only approval adds or changes Approved and
//     Denied, and a certificate once issued stays. Names are not checked.
package certificates

import "github.com/informer-lab/informer-lab/api"

// Group is the API group of the package's kinds.
const Group = "certificates.k8s.io"

func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	return c
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func list(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

// duplicate mirrors field.Duplicate in k8s.io/apimachinery/pkg/util/validation/field.
func duplicate(path string, value string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueDuplicate, Field: path, Message: "Duplicate value: \"" + value + "\""}
}
