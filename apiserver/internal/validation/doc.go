// Package validation checks objects as the real create and update strategies do, with the
// real texts, so that a 422 from the simulator reads like a real server's (docs/behaviour/wire.md S3,
// E10–E16). It mirrors the field error constructors of apimachinery pkg/util/validation/field,
// the metadata validation of pkg/api/validation (ValidateObjectMetaAccessor), the name and
// label rules of pkg/util/validation and pkg/api/validate/content, the ConfigMap rules of the
// core validation and the name generator of k8s.io/apiserver pkg/storage/names.
//
// The contract:
//
//  1. Required, Invalid, Forbidden, NotSupported and TooLong give the StatusCause that a
//     field.Error becomes inside an Invalid Status: the message is the error body without
//     the path, the bad value printed as field.Error prints it.
//  2. ValidateObjectMeta checks, in upstream order, generateName, name, namespace,
//     generation, labels, annotations (their 256 KiB total included) and finalizers. Names
//     are DNS-1123 subdomains, or labels for namespaces. Every problem is a cause of one 422.
//  3. Map keys are checked in sorted order, where upstream walks maps at random, so that a
//     message is the same every time.
//  4. ValidateConfigMapSize: every key a valid config key in only one of data and
//     binaryData, the values together at most 1 MiB (E10).
//  5. GenerateNameSuffix gives five characters of the real generator's alphabet, so a
//     generated name is a valid label.
package validation
