// Package fieldmanager records who owns which field of an object (metadata.managedFields)
// and runs server-side apply. It mirrors k8s.io/apimachinery pkg/util/managedfields (the
// manager chain of internal/: fieldmanager.go, structuredmerge.go, stripmeta.go,
// managedfieldsupdater.go, buildmanagerinfo.go, capmanagers.go, skipnonapplied.go,
// lastappliedmanager.go, lastappliedupdater.go, versioncheck.go, conflict.go,
// managedfields.go; scalehandler.go), merge.Updater of sigs.k8s.io/structured-merge-diff/v6,
// and k8s.io/apiserver pkg/endpoints/handlers (prefixFromUserAgent, the timestamp
// equality of fieldmanager/equality.go).
//
// The contract, for the handlers that call it:
//
//  1. One FieldManager per kind and served version, run on the object at the version the
//     request was sent at (New with that version's type from package typed), so that its
//     entry records that apiVersion; WithResetFields gives a subresource's strategy reset
//     fields, WithVersions the other versions whose entries count, WithConverter the
//     conversion to them (the sets of a manager at another version are compared on the
//     objects converted to it; without one, every version's fields are the same, as for a
//     custom resource with conversion None). The scale subresource has a FieldManager of
//     its own (autoscaling/v1 Scale) and a ScaleHandler between its entries and the
//     parent's.
//  2. Every non-apply write (create, update, every patch type, scale) calls Update, or
//     UpdateNoErrors as the handlers do upstream; live is nil on create. A server-side
//     apply calls Apply, live nil when the object does not exist. Both want the objects as
//     the real server's type converter sees them: members a Go type writes without
//     omitempty present (null, "", 0, {}), and the applied configuration as sent.
//  3. The entries are written into metadata.managedFields, FieldsV1 as json.RawMessage so
//     that its key order is the real one (the encoder must keep raw messages as they are);
//     a tree decoded from storage (map[string]any) is read too. Apply's result carries the
//     members of the kind's zero object on create (as upstream before its typed decoding);
//     defaulting and pruning of nulls are the caller's.
//  4. Errors: a conflict is a 409 *api.Status with upstream's message and causes; a wrong
//     kind or version, or managedFields in the patch, a 400 *api.Status; an object the type
//     refuses a plain error with upstream's text, which the handlers report as upstream
//     does.
package fieldmanager
