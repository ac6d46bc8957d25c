package validation

import "github.com/informer-lab/informer-lab/api"

// Checks of object metadata that custom resources reuse for the objects they embed
// (x-kubernetes-embedded-resource), whose metadata is checked with other name rules.

// LabelCauses mirrors v1validation.ValidateLabels, keys sorted.
func LabelCauses(labels map[string]string, path string) []api.StatusCause {
	return validateLabels(labels, path)
}

// AnnotationCauses mirrors apimachinery's ValidateAnnotations.
func AnnotationCauses(annotations map[string]string, path string) []api.StatusCause {
	return validateAnnotations(annotations, path)
}

// IsQualifiedName mirrors validation.IsQualifiedName in k8s.io/apimachinery: the rule of
// label and annotation keys and of finalizer names.
func IsQualifiedName(v string) []string { return isQualifiedName(v) }
