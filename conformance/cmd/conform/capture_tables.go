package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// tableAccept asks for server-side printing, as kubectl get does.
const tableAccept = "application/json;as=Table;g=meta.k8s.io;v=v1"

// captureTables writes table-columns.json: the column definitions of the Table the reference
// answers for a list of every resource type it can list, in each group's preferred version,
// keyed by the list's path ("/api/v1/pods"). An empty list still carries its columns, so
// nothing has to be created. The apiserver's tests ask the simulator the same questions.
func captureTables(ctx context.Context, ref *runner.Target, files map[string][]byte) error {
	type resourceList struct {
		Resources []struct {
			Name  string   `json:"name"`
			Verbs []string `json:"verbs"`
		} `json:"resources"`
	}
	var groups struct {
		Groups []struct {
			PreferredVersion struct {
				GroupVersion string `json:"groupVersion"`
			} `json:"preferredVersion"`
		} `json:"groups"`
	}
	if o := ref.Do(ctx, "GET", "/apis", map[string]string{"Accept": "application/json"}, nil); o.Code != 200 || json.Unmarshal(o.Body, &groups) != nil {
		return fmt.Errorf("GET /apis: %d %s", o.Code, o.Err)
	}
	paths := []string{"/api/v1"}
	for _, g := range groups.Groups {
		paths = append(paths, "/apis/"+g.PreferredVersion.GroupVersion)
	}
	out := map[string]json.RawMessage{}
	for _, gv := range paths {
		var list resourceList
		if o := ref.Do(ctx, "GET", gv, map[string]string{"Accept": "application/json"}, nil); o.Code != 200 || json.Unmarshal(o.Body, &list) != nil {
			return fmt.Errorf("GET %s: %d %s", gv, o.Code, o.Err)
		}
		for _, r := range list.Resources {
			if strings.Contains(r.Name, "/") || !slices.Contains(r.Verbs, "list") {
				continue // a subresource, or a type that cannot be listed
			}
			var table struct {
				ColumnDefinitions json.RawMessage `json:"columnDefinitions"`
			}
			p := gv + "/" + r.Name
			if o := ref.Do(ctx, "GET", p, map[string]string{"Accept": tableAccept}, nil); o.Code != 200 || json.Unmarshal(o.Body, &table) != nil {
				return fmt.Errorf("GET %s as a Table: %d %s", p, o.Code, o.Err)
			}
			out[p] = table.ColumnDefinitions
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	files["table-columns.json"] = append(b, '\n')
	return nil
}
