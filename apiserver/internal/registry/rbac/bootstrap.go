package rbac

import (
	"embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/informer-lab/informer-lab/api"
)

// bootstrapDir holds the objects of the rbac/bootstrap-roles post-start hook, written by
// tools/cmd/rbac-gen (make rbac) with their SHA256SUMS.
const bootstrapDir = "bootstrap"

// The embedded files, one JSON array per kind.
const (
	clusterRolesFile        = "clusterroles.json"
	clusterRoleBindingsFile = "clusterrolebindings.json"
	rolesFile               = "roles.json"
	roleBindingsFile        = "rolebindings.json"
)

//go:embed bootstrap/*.json bootstrap/SHA256SUMS
var bootstrapFiles embed.FS

// parsed holds each embedded file parsed once, on first use.
var parsed sync.Map // file name → func() []map[string]any (a sync.OnceValue)

// bootstrapObjects returns the objects of one embedded file as fresh trees, which the caller
// may keep and change: the file is parsed once (the objects hold no numbers), and each call
// gets deep copies. The files are generated and pinned, so a parse error is a bug.
func bootstrapObjects(file string) []map[string]any {
	load, _ := parsed.LoadOrStore(file, sync.OnceValue(func() []map[string]any {
		data, err := bootstrapFiles.ReadFile(bootstrapDir + "/" + file)
		if err != nil {
			panic(fmt.Sprintf("rbac: embedded %s: %v", file, err))
		}
		var objs []map[string]any
		if err := json.Unmarshal(data, &objs); err != nil {
			panic(fmt.Sprintf("rbac: embedded %s: %v", file, err))
		}
		return objs
	}))
	shared := load.(func() []map[string]any)()
	out := make([]map[string]any, len(shared))
	for i, o := range shared {
		out[i] = api.DeepCopyJSONValue(o).(map[string]any)
	}
	return out
}
