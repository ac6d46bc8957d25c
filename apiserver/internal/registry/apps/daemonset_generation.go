package apps

import (
	"reflect"
	"strconv"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// templateGenerationAnnotation is appsv1.DeprecatedTemplateGeneration: apps/v1 carries the
// internal spec.templateGeneration of a DaemonSet in this annotation.
const templateGenerationAnnotation = "deprecated.daemonset.template.generation"

// daemonSetStrategy is the workload strategy with the template generation of
// pkg/registry/apps/daemonset/strategy.go: 1 on create (or the annotation's value when a
// client set one), and one more each time an update changes the pod template; a client's
// own value on update is ignored. The DaemonSet controller labels its pods with it
// (pod-template-generation).
type daemonSetStrategy struct{ workloadStrategy }

// PrepareForCreate mirrors daemonSetStrategy.PrepareForCreate.
func (s daemonSetStrategy) PrepareForCreate(ctx rest.Context, obj *api.Unstructured) {
	s.workloadStrategy.PrepareForCreate(ctx, obj)
	g := templateGeneration(obj)
	setTemplateGeneration(obj, max(g, 1))
}

// PrepareForUpdate mirrors daemonSetStrategy.PrepareForUpdate.
func (s daemonSetStrategy) PrepareForUpdate(ctx rest.Context, obj, old *api.Unstructured) {
	s.workloadStrategy.PrepareForUpdate(ctx, obj, old)
	g := templateGeneration(old)
	if !reflect.DeepEqual(child(obj.Object, "spec")["template"], child(old.Object, "spec")["template"]) {
		g++
	}
	setTemplateGeneration(obj, g)
}

func templateGeneration(u *api.Unstructured) int64 {
	n, err := strconv.ParseInt(u.GetAnnotations()[templateGenerationAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// setTemplateGeneration writes the annotation as the v1 conversion does, always.
func setTemplateGeneration(u *api.Unstructured, g int64) {
	a := u.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[templateGenerationAnnotation] = strconv.FormatInt(g, 10)
	u.SetAnnotations(a)
}
