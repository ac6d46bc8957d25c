// Package openapi checks the simulated apiserver's /openapi/v2 against the readers real
// clients use. It holds tests only.
//
// The contract:
//
//  1. The protobuf answer is, byte for byte, what gnostic's compiler and proto.Marshal make
//     of the JSON answer (what kube-apiserver's handler does), with custom resources in it.
//  2. client-go's discovery client reads the protobuf document, and kubectl's reader of it
//     (k8s.io/kube-openapi pkg/util/proto) takes every definition.
//  3. kubectl's client-side validation (pkg/util/proto/validation) passes every round-trip
//     manifest of the main module and reports an unknown field as unknown; the fields
//     kubectl explain walks (pods.spec.containers, a CRD's spec) are there.
package openapi
