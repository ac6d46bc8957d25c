// Package schema reads the OpenAPI v3 documents kube-apiserver v1.36 publishes (embedded
// in openapi/, one per group-version) into resolved schema nodes, and checks JSON values
// against them the way decoding into the kinds' Go types does upstream. It mirrors the
// spec3 model of k8s.io/kube-openapi pkg/spec3 and the value rules of encoding/json (as
// sigs.k8s.io/json copies it), resource.Quantity, intstr.IntOrString and metav1.Time.
//
// The contract:
//
//  1. Nothing is read at start-up. ForKind indexes the document of a kind's group-version
//     on its first call, once (where each definition is and which kinds it declares), and
//     decodes and resolves the kind's definition, and what it references, on the kind's
//     first call; it is safe for concurrent use. Paths alone maps group-versions to
//     documents.
//  2. ForKind returns the definition whose x-kubernetes-group-version-kind names the kind.
//     $refs, plain or wrapped in a one-element allOf, resolve to the shared node of the
//     definition, so recursive definitions are finite graphs. Nodes never change.
//  3. Every node has one Kind: an object with properties, a map (additionalProperties), a
//     free-form object (no properties: RawExtension, FieldsV1 and unnamed ones keep any
//     members), an array, a scalar, IntOrString (format int-or-string) or Quantity.
//  4. Check says whether one JSON value decodes into a node's Go type, with the real text:
//     a *TypeError ("json: cannot unmarshal … of type int32") the caller completes with the
//     field path; a *StopError for Quantity, IntOrString and date-time values, whose own
//     decoders end the decode upstream; encoding/base64's error for a bad byte string.
//  5. GoType names the Go type as reflect prints it, from the definition name (package is
//     its second-to-last label: v1.Container) or from type and format (int32, []string,
//     map[string]string, core/v1 maps of quantities as v1.ResourceList). Named string types
//     (v1.PodPhase) cannot be told from the schema and print as string. Members promoted
//     from an inline embedded struct carry its Go name (Property.Via) for error paths.
//  6. Validate checks a decoded JSON tree against a node as package decode checks bytes:
//     it removes unknown members, drops null members, reports the first type or format
//     error and the missing required members. It walks members in sorted order, a tree
//     having no document order, and does not check presence under the top-level status.
//  7. A required member is missing when it is absent or null; an empty value is present.
package schema
