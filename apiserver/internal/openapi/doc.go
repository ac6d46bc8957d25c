// Package openapi builds the OpenAPI documents the simulated apiserver publishes, byte for
// byte as kube-apiserver v1.36 writes them, from the embedded v3 documents of package schema:
// /openapi/v2 (Swagger 2.0, in JSON and in gnostic's protobuf form), the components of each
// /openapi/v3 document, and the schemas of custom resources in both. It mirrors
// k8s.io/kube-openapi (pkg/builder, pkg/builder3, pkg/handler, pkg/validation/spec), the
// OpenAPI builder of k8s.io/apiextensions-apiserver (pkg/controller/openapi) and the
// compiler of github.com/google/gnostic-models (openapiv2).
//
// The contract:
//
//  1. A Node is a JSON value that keeps member order and number text. Schemas are written
//     with kube-openapi's keyword order (orderSchema); /openapi/v2 without HTML escaping
//     (JSON), /openapi/v3 with it (JSONHTMLEscaped), as the reference writes each.
//  2. DefinitionsV2 gives an embedded v3 document's definitions in their v2 form: an allOf
//     that only wraps a $ref becomes the $ref, refs point into #/definitions/, defaults go.
//     What the v3 documents cannot give (discovery types, the v2 forms of Quantity and
//     IntOrString, DeleteOptions and WatchEvent with every group-version) comes from
//     schema.SwaggerOnly. Derived and embedded definitions are cached once and shared:
//     nobody changes them.
//  3. Swagger assembles /openapi/v2 from the served group-versions, custom resources and
//     resources: every definition as the reference writes it, and one PATCH operation per
//     resource (what kubectl reads of the paths), not every route.
//  4. CustomResource.Definitions gives a CRD version's kind and list schemas as
//     apiextensions' builder does: the schema read as a structural schema (Unfold adding the
//     int-or-string anyOf), metadata, apiVersion and kind added, embedded resources given
//     theirs; in v2 the junctors, nullable types and the members of fields that keep unknown
//     ones go, and a root that keeps unknown fields is a bare object.
//  5. ToProto writes a Swagger document as gnostic's openapi_v2.Document message, exactly
//     the bytes kube-apiserver answers in protobuf; it fails where gnostic's compiler fails.
//  6. Every claim above is pinned by a test against documents captured from the real
//     server (testdata/reference, make discovery-reference).
package openapi
