// Package ssacheck holds the differential check of the main module's field manager
// (apiserver/internal/fieldmanager, run through its ssaeval command) against
// sigs.k8s.io/structured-merge-diff/v6 and k8s.io/apimachinery's managedfields chain, with
// the type models kube-apiserver v1.36.3 builds (managedfields.NewTypeConverter over the
// OpenAPI definitions of each group-version).
//
// Each case is a seeded random sequence of 2 to 10 applies and updates by 2 to 4 managers on
// one object of a built-in kind. After each step both sides must agree on the error (and a
// conflict's message), the object and every managedFields entry, FieldsV1 byte for byte.
// Between steps the object goes through the kind's Go type, as storage takes it upstream.
package ssacheck
