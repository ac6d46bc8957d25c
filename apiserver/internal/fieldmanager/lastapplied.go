package fieldmanager

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	fp "github.com/informer-lab/informer-lab/apiserver/internal/fieldpath"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// LastAppliedConfigAnnotation mirrors corev1.LastAppliedConfigAnnotation, the annotation
// client-side kubectl apply keeps its last configuration in.
const LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// totalAnnotationSizeLimit mirrors TotalAnnotationSizeLimitB of apimachinery validation.
const totalAnnotationSizeLimit = 256 * 1024

func annotationsOf(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	a, _ := md["annotations"].(map[string]any)
	return a
}

// hasLastApplied mirrors hasLastApplied in lastappliedupdater.go.
func hasLastApplied(obj map[string]any) bool {
	s, _ := annotationsOf(obj)[LastAppliedConfigAnnotation].(string)
	return s != ""
}

// buildLastApplied mirrors buildLastApplied: the applied configuration without the
// annotation itself, encoded as the unstructured JSON scheme encodes (encoding/json with a
// trailing newline).
func buildLastApplied(applied map[string]any) (string, error) {
	obj := api.DeepCopyJSONValue(applied).(map[string]any)
	if md, ok := obj["metadata"].(map[string]any); ok {
		if a, ok := md["annotations"].(map[string]any); ok {
			delete(a, LastAppliedConfigAnnotation)
		}
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(obj); err != nil {
		return "", fmt.Errorf("couldn't encode object into last applied annotation: %v", err)
	}
	return b.String(), nil
}

// setLastApplied mirrors SetLastApplied: the annotation is dropped when it would take the
// annotations past their size limit. It returns obj with fresh metadata and annotations.
func setLastApplied(obj map[string]any, value string) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	md := map[string]any{}
	if old, ok := obj["metadata"].(map[string]any); ok {
		for k, v := range old {
			md[k] = v
		}
	}
	out["metadata"] = md
	a := map[string]any{}
	for k, v := range annotationsOf(obj) {
		a[k] = v
	}
	a[LastAppliedConfigAnnotation] = value
	size := 0
	for k, v := range a {
		s, _ := v.(string)
		size += len(k) + len(s)
	}
	if size > totalAnnotationSizeLimit {
		delete(a, LastAppliedConfigAnnotation)
	}
	md["annotations"] = a
	return out
}

// allowedConflictsFromLastApplied mirrors lastAppliedManager.allowedConflictsFromLastApplied:
// the fields of the last-applied configuration that live still holds as configured. kubectl
// may take those over from their owners without --force-conflicts when it upgrades from
// client-side to server-side apply.
func (f *FieldManager) allowedConflictsFromLastApplied(live map[string]any) (*fp.Set, error) {
	last, _ := annotationsOf(live)[LastAppliedConfigAnnotation].(string)
	if last == "" {
		return nil, errors.New("no last applied annotation")
	}
	var lastObj api.Unstructured
	if err := json.Unmarshal([]byte(last), &lastObj); err != nil {
		return nil, fmt.Errorf("failed to decode last applied obj: %v in '%s'", err, last)
	}
	if lastObj.Object == nil {
		lastObj.Object = map[string]any{}
	}
	if lastObj.GetAPIVersion() != f.gvk.APIVersion() {
		return nil, fmt.Errorf("expected version of last applied to match live object '%s', but got '%s'", f.gvk.APIVersion(), lastObj.GetAPIVersion())
	}
	liveObj := withoutManagedFields(live)
	if err := typed.Validate(liveObj, f.typ, false); err != nil {
		return nil, fmt.Errorf("failed to convert live obj to typed: %v", err)
	}
	if err := typed.Validate(lastObj.Object, f.typ, false); err != nil {
		return nil, fmt.Errorf("failed to convert last applied to typed: %v", err)
	}
	set := typed.ToFieldSet(lastObj.Object, f.typ)
	cmp, err := typed.Compare(lastObj.Object, liveObj, f.typ)
	if err != nil {
		return nil, fmt.Errorf("failed to compare last applied object and live object: %v", err)
	}
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed), nil
}

// without mirrors conflictsDifference: the conflicts whose path allowed does not hold.
func (c *conflictError) without(allowed *fp.Set) *conflictError {
	out := &conflictError{managers: map[string]*fp.Set{}}
	for m, s := range c.managers {
		rest := fp.NewSet()
		s.Iterate(func(p fp.Path) {
			if !allowed.Has(p) {
				rest.Insert(p.Copy())
			}
		})
		if !rest.Empty() {
			out.managers[m] = rest
		}
	}
	return out
}
