package gen

import (
	"net/http"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// ratchetCRD is a CRD whose schema is loose (strict false: types only) or tightened: a
// format, an enum, a maxLength (on a member and on the items of a list set), a required
// member, CEL rules on the spec, on the items of a list set and on a map-list and its items.
func ratchetCRD(strict bool) map[string]any {
	tight := func(s map[string]any, extra map[string]any) map[string]any {
		if strict {
			for k, v := range extra {
				s[k] = v
			}
		}
		return s
	}
	rule := func(r string) map[string]any {
		return map[string]any{"x-kubernetes-validations": []any{map[string]any{"rule": r}}}
	}
	spec := tight(map[string]any{"type": "object", "properties": map[string]any{
		"other": map[string]any{"type": "string"},
		"ip":    tight(map[string]any{"type": "string"}, map[string]any{"format": "ipv4"}),
		"color": tight(map[string]any{"type": "string"}, map[string]any{"enum": []any{"red", "blue"}}),
		"name":  tight(map[string]any{"type": "string"}, map[string]any{"maxLength": 5}),
		"min":   map[string]any{"type": "integer"},
		"max":   map[string]any{"type": "integer"},
		"extra": tight(map[string]any{"type": "object", "properties": map[string]any{
			"owner": map[string]any{"type": "string"}, "note": map[string]any{"type": "string"}}},
			map[string]any{"required": []any{"owner"}}),
		"labels": map[string]any{"type": "array", "x-kubernetes-list-type": "set",
			"items": tight(map[string]any{"type": "string"}, map[string]any{"maxLength": 3})},
		"tags": map[string]any{"type": "array", "x-kubernetes-list-type": "set",
			"items": tight(map[string]any{"type": "string"}, rule("self.size() < 5"))},
		"ports": tight(map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"name"},
			"items": tight(map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
				"name": map[string]any{"type": "string"}, "port": map[string]any{"type": "integer"}}}, rule("self.port > 0"))},
			rule("self.all(p, p.port < 100)")),
	}}, map[string]any{"x-kubernetes-validations": []any{map[string]any{"rule": "self.min <= self.max", "message": "min must not exceed max"}}})
	group := "r" + runner.SuffixPlaceholder + ".example.com"
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "ratchets." + group},
		"spec": map[string]any{"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": "ratchets", "kind": "Ratchet"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec": spec, "status": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}}}}
}

// ratchetScenarios: an object stored under a loose schema, the schema tightened, then
// updates that leave the invalid fields as they are (tolerated: ratcheting) or change them
// (refused), for formats, enums, maxLength, required, CEL rules and list items.
func ratchetScenarios() []runner.Case {
	group := "r" + runner.SuffixPlaceholder + ".example.com"
	crItem := crdPath + "/ratchets." + group
	crPath := "/apis/" + group + "/v1/namespaces/" + ns + "/ratchets"
	spec := obj(`{"other":"a","ip":"not-an-ip","color":"purple","name":"toolongname","min":3,"max":2,"extra":{"note":"n"},"labels":["long-label","ok"],"tags":["toolong","ok"],"ports":[{"name":"a","port":0},{"name":"b","port":200}]}`)
	merge := func(name string, patch string) runner.Step {
		return patchStep(name, crPath+"/r", ctMerge, obj(patch))
	}
	flows := []struct {
		id    string
		steps []runner.Step
	}{
		{"unchanged", []runner.Step{
			merge("change-other", `{"spec":{"other":"b"}}`),
			merge("no-op", `{"spec":{"other":"b"}}`),
			merge("add-label", `{"metadata":{"labels":{"a":"b"}}}`),
		}},
		{"format", []runner.Step{
			merge("still-invalid", `{"spec":{"ip":"still-bad"}}`),
			merge("fixed", `{"spec":{"ip":"10.0.0.1"}}`),
			merge("broken-again", `{"spec":{"ip":"bad"}}`),
		}},
		{"enum", []runner.Step{
			merge("other-invalid", `{"spec":{"color":"green"}}`),
			merge("fixed", `{"spec":{"color":"red"}}`),
		}},
		{"maxLength", []runner.Step{
			merge("still-too-long", `{"spec":{"name":"alsotoolong"}}`),
			merge("shortened", `{"spec":{"name":"abc"}}`),
		}},
		{"required", []runner.Step{
			merge("sibling-changed", `{"spec":{"extra":{"note":"m"}}}`),
			merge("owner-added", `{"spec":{"extra":{"owner":"o"}}}`),
			merge("owner-removed", `{"spec":{"extra":{"owner":null}}}`),
		}},
		{"cel", []runner.Step{
			merge("min-raised", `{"spec":{"min":4}}`),
			merge("max-raised", `{"spec":{"max":10}}`),
			merge("min-above-again", `{"spec":{"min":11}}`),
		}},
		// The reorder comes last: the reference's first attempt at an update may run on its
		// watch cache's older copy (then retried on the stored one), and the warnings of both
		// attempts are sent, which would name items at their old places.
		{"lists", []runner.Step{
			merge("schema-set-grows", `{"spec":{"labels":["long-label","ok","x"]}}`),
			merge("schema-set-reordered", `{"spec":{"labels":["ok","long-label"]}}`),
			merge("set-grows", `{"spec":{"tags":["toolong","ok","x"]}}`),
			merge("map-list-grows", `{"spec":{"ports":[{"name":"a","port":0},{"name":"b","port":200},{"name":"c","port":1}]}}`),
			merge("map-list-item-changed", `{"spec":{"ports":[{"name":"a","port":-1},{"name":"b","port":200}]}}`),
			merge("map-list-reordered", `{"spec":{"ports":[{"name":"b","port":200},{"name":"a","port":0}]}}`),
		}},
		{"status", []runner.Step{
			patchStep("status-write", crPath+"/r/status", ctMerge, obj(`{"status":{"phase":"Ready"}}`)),
			patchStep("status-and-spec", crPath+"/r/status", ctMerge, obj(`{"spec":{"ip":"bad"},"status":{"phase":"Done"}}`)),
		}},
	}
	var cs []runner.Case
	for _, f := range flows {
		create := post("create-cr", crPath, map[string]any{"apiVersion": group + "/v1", "kind": "Ratchet", "metadata": map[string]any{"name": "r"}, "spec": spec})
		create.RetryNotFound = true
		tighten := patchStep("tighten-schema", crItem, ctMerge, map[string]any{"spec": map[string]any{"versions": ratchetCRD(true)["spec"].(map[string]any)["versions"]}})
		tighten.IgnoreBody = true
		// The reference applies the new schema once its handler has seen the update: a dry
		// run of an object only the new schema refuses waits for it.
		probe := post("probe-new-schema", crPath+"?dryRun=All", map[string]any{"apiVersion": group + "/v1", "kind": "Ratchet", "metadata": map[string]any{"name": "probe"}, "spec": map[string]any{"color": "green"}})
		probe.RetryUntil = http.StatusUnprocessableEntity
		cleanup := del("delete-crd", crItem)
		cleanup.IgnoreBody = true
		steps := []runner.Step{post("create-crd", crdPath, ratchetCRD(false)), create, tighten, probe}
		steps = append(steps, f.steps...)
		steps = append(steps, getStep("read-back", crPath+"/r"), cleanup)
		cs = append(cs, runner.Case{ID: "ratchet/" + f.id, Category: "crd-ratchet", Steps: steps})
	}
	return cs
}
