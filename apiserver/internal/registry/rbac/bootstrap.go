package rbac

import (
	"embed"
	"encoding/json"
	"fmt"
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

// bootstrapObjects parses one embedded file into fresh trees on each call (the objects hold
// no numbers). The files are generated and pinned, so a parse error is a bug.
func bootstrapObjects(file string) []map[string]any {
	data, err := bootstrapFiles.ReadFile(bootstrapDir + "/" + file)
	if err != nil {
		panic(fmt.Sprintf("rbac: embedded %s: %v", file, err))
	}
	var objs []map[string]any
	if err := json.Unmarshal(data, &objs); err != nil {
		panic(fmt.Sprintf("rbac: embedded %s: %v", file, err))
	}
	return objs
}
