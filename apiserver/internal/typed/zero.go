package typed

import (
	"embed"
	"encoding/json"
	"sync"

	"github.com/informer-lab/informer-lab/api"
)

// zero/zero.json holds, per built-in kind, its Go type's zero value converted to
// unstructured (written by the tools module's zero-gen). A create's ownership is computed
// against it, as kube-apiserver compares a new object with objectCreater.New's.
//
//go:embed zero/zero.json
var zeroFiles embed.FS

var (
	zeroOnce sync.Once
	zeroRaw  map[string]json.RawMessage
)

// ZeroObject mirrors objectCreater.New followed by the type converter: a constructor of the zero object of a built-in kind (each call a fresh
// tree), or nil for a kind that has none (custom resources start from nothing).
func ZeroObject(gvk api.GroupVersionKind) func() map[string]any {
	zeroOnce.Do(func() {
		data, err := zeroFiles.ReadFile("zero/zero.json")
		if err == nil {
			_ = json.Unmarshal(data, &zeroRaw)
		}
	})
	raw, ok := zeroRaw[gvk.Group+"/"+gvk.Version+", Kind="+gvk.Kind]
	if !ok {
		return nil
	}
	var tree map[string]any
	if json.Unmarshal(raw, &tree) != nil {
		return nil
	}
	return func() map[string]any { return api.DeepCopyJSONValue(tree).(map[string]any) }
}
