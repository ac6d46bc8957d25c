package resource

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// ResourceSlices is the resourceslices resource (pkg/registry/resource/resourceslice),
// selectable by the node and the driver (ResourceSliceSelectorNodeName and
// ResourceSliceSelectorDriver).
func ResourceSlices() rest.Kind {
	return rest.Kind{Group: "resource.k8s.io", Resource: "resourceslices", Kind: "ResourceSlice", ReturnDeletedObject: true,
		Fields: map[string]rest.FieldRead{
			"spec.nodeName": rest.TextField("spec.nodeName"),
			"spec.driver":   rest.TextField("spec.driver"),
		},
		Strategy: sliceStrategy{rest.Base{GVK: gvk("ResourceSlice"), Cluster: true, Generation: true, Unconditional: true}}}
}

type sliceStrategy struct{ rest.Base }

// listAttributes are a device attribute's list-typed members (DRAListTypeAttributes).
var listAttributes = []string{"bools", "ints", "strings", "versions"}

// PrepareForCreate mirrors resourceSliceStrategy.PrepareForCreate: the generation is the
// store's 1, and the fields of gates that are off go.
func (sliceStrategy) PrepareForCreate(_ rest.Context, obj *api.Unstructured) {
	dropDisabledSliceFields(obj, nil)
}

// PrepareForUpdate mirrors resourceSliceStrategy.PrepareForUpdate, which compares the specs
// before it drops the gated fields: a body that only adds such a field still moves the
// generation.
func (sliceStrategy) PrepareForUpdate(_ rest.Context, obj, old *api.Unstructured) {
	if !reflect.DeepEqual(old.Object["spec"], obj.Object["spec"]) {
		obj.SetGeneration(old.GetGeneration() + 1)
	}
	dropDisabledSliceFields(obj, old)
}

// WarningsOnCreate mirrors resourceSliceStrategy.WarningsOnCreate.
func (sliceStrategy) WarningsOnCreate(obj *api.Unstructured) []string { return driverWarnings(obj) }

// WarningsOnUpdate mirrors resourceSliceStrategy.WarningsOnUpdate: the same warning.
func (sliceStrategy) WarningsOnUpdate(obj, _ *api.Unstructured) []string { return driverWarnings(obj) }

func driverWarnings(obj *api.Unstructured) []string {
	driver, _ := sliceSpec(obj)["driver"].(string)
	if driver == strings.ToLower(driver) {
		return nil
	}
	return []string{fmt.Sprintf("spec.driver: driver names should be lowercase; %q contains uppercase characters", driver)}
}

// dropDisabledSliceFields mirrors dropDisabledFields for the gates that are off in v1.36:
// a gated field is dropped from every device unless old (nil on create) uses it anywhere.
func dropDisabledSliceFields(obj, old *api.Unstructured) {
	devices := sliceDevices(obj)
	if !usesAny(old, func(d map[string]any) bool {
		m, _ := d["nodeAllocatableResourceMappings"].(map[string]any)
		return len(m) > 0
	}) {
		for _, d := range devices {
			delete(d, "nodeAllocatableResourceMappings")
		}
	}
	if !usesAny(old, hasListAttribute) {
		for _, d := range devices {
			attrs, _ := d["attributes"].(map[string]any)
			for _, a := range attrs {
				if am, ok := a.(map[string]any); ok {
					for _, k := range listAttributes {
						delete(am, k)
					}
				}
			}
		}
	}
}

// hasListAttribute reports whether a device has an attribute with a list value.
func hasListAttribute(d map[string]any) bool {
	attrs, _ := d["attributes"].(map[string]any)
	for _, a := range attrs {
		am, _ := a.(map[string]any)
		for _, k := range listAttributes {
			if am[k] != nil {
				return true
			}
		}
	}
	return false
}

// usesAny reports whether some device of obj (false for nil) satisfies uses.
func usesAny(obj *api.Unstructured, uses func(map[string]any) bool) bool {
	if obj == nil {
		return false
	}
	for _, d := range sliceDevices(obj) {
		if uses(d) {
			return true
		}
	}
	return false
}

func sliceSpec(obj *api.Unstructured) map[string]any {
	s, _ := obj.Object["spec"].(map[string]any)
	return s
}

// sliceDevices returns the device objects of spec.devices.
func sliceDevices(obj *api.Unstructured) []map[string]any {
	l, _ := sliceSpec(obj)["devices"].([]any)
	out := make([]map[string]any, 0, len(l))
	for _, e := range l {
		if d, ok := e.(map[string]any); ok {
			out = append(out, d)
		}
	}
	return out
}
