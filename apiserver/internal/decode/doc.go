// Package decode reads API requests as the handlers of k8s.io/apiserver pkg/endpoints/handlers
// do before anything reaches storage: the JSON body of a POST, PUT or patched object (Body;
// Object for a kind with an OpenAPI schema), and the query options of a LIST or WATCH
// (ParseListOptions), a DELETE (ParseDeleteOptions) and a create, update or patch
// (ParseWriteOptions). Every error is an *api.Status with the real server's code and text.
//
// The contract:
//
//  1. Bodies are JSON. kind and apiVersion may be missing and then default to the
//     endpoint's (docs/behaviour/wire.md C1); a body that is not an object, a value of the wrong type,
//     another kind or another group-version is 400 with the real text (E1–E5).
//  2. Unknown and duplicate fields follow fieldValidation: Strict is 400 naming them (E6);
//     Warn, or none, decodes and returns each as a warning text for a Warning header (E7);
//     Ignore decodes silently. Field names match case-sensitively, as the real decoder's.
//  3. Body decodes a kind of the scheme into its Go type, any other into *api.Unstructured,
//     where only duplicate fields can be found. Object decodes into *api.Unstructured
//     against the kind's schema in one pass: unknown members are pruned, every other member
//     is kept as sent, type and format errors are 400 with encoding/json's text (E3), and
//     missing required members are one 422 Invalid. Results have kind and apiVersion set.
//  4. JSON nesting is bounded by encoding/json's depth limit (10,000): a deeper body is 400
//     in E1's shape. Invalid UTF-8 inside strings becomes U+FFFD, as with the real decoder.
//  5. Query parameters read as the parameter codec reads them: a boolean is true unless its
//     first value is "0" or "false" (U10), an integer that does not parse is 400 with
//     strconv's text (E28). ListOptions are checked in the real server's order, with the
//     WatchList feature on (E26–E40); continue tokens by internal/continuetoken.
//  6. DeleteOptions come from a non-empty body, else from the query (D1). dryRun must be All
//     (api.DryRunAll); any other value, a bad propagationPolicy, fieldValidation or
//     fieldManager, or force on a non-apply patch is one 422 naming the options kind.
//  7. Nothing here knows the server: which field labels a kind has is the caller's to say
//     (ValidateFieldSelectorFields).
package decode
