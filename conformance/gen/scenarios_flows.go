package gen

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

func keepMF(s runner.Step) runner.Step { s.KeepManagedFields = true; return s }

func cm(name string, data map[string]any) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": data}
}

// ssaScenarios: server-side apply by two and three managers.
func ssaScenarios() []runner.Case {
	var cs []runner.Case
	add := func(id string, steps ...runner.Step) {
		for i := range steps {
			steps[i] = keepMF(steps[i])
		}
		cs = append(cs, runner.Case{ID: "ssa/" + id, Category: "ssa", Steps: steps})
	}
	p := cmPath + "/c"
	add("apply-creates", apply("apply", p, "alice", false, cm("c", map[string]any{"a": "1", "b": "2"})), getStep("read-back", p))
	add("two-managers-conflict",
		apply("alice", p, "alice", false, cm("c", map[string]any{"a": "1", "b": "2"})),
		apply("bob", p, "bob", false, cm("c", map[string]any{"b": "3"})),
		getStep("read-back", p))
	add("two-managers-force",
		apply("alice", p, "alice", false, cm("c", map[string]any{"a": "1", "b": "2"})),
		apply("bob-force", p, "bob", true, cm("c", map[string]any{"b": "3"})),
		getStep("read-back", p))
	add("two-managers-shared-same-value",
		apply("alice", p, "alice", false, cm("c", map[string]any{"a": "1", "b": "2"})),
		apply("bob-same", p, "bob", false, cm("c", map[string]any{"b": "2"})),
		apply("alice-drops-b", p, "alice", false, cm("c", map[string]any{"a": "1"})),
		getStep("read-back", p))
	add("field-dropped",
		apply("alice", p, "alice", false, cm("c", map[string]any{"a": "1", "b": "2"})),
		apply("alice-drops-b", p, "alice", false, cm("c", map[string]any{"a": "1"})),
		getStep("read-back", p))
	add("three-managers",
		apply("alice", p, "alice", false, cm("c", map[string]any{"a": "1"})),
		apply("bob", p, "bob", false, cm("c", map[string]any{"b": "2"})),
		apply("carol", p, "carol", false, cm("c", map[string]any{"c": "3"})),
		apply("carol-takes-a", p, "carol", false, cm("c", map[string]any{"a": "9", "c": "3"})),
		apply("carol-forces-a", p, "carol", true, cm("c", map[string]any{"a": "9", "c": "3"})),
		apply("alice-empty", p, "alice", false, cm("c", nil)),
		getStep("read-back", p))
	add("update-then-apply",
		post("create", cmPath+"?fieldManager=kubectl-create", cm("c", map[string]any{"a": "1"})),
		apply("apply-a", p, "alice", false, cm("c", map[string]any{"a": "2"})),
		getStep("read-back", p))
	add("merge-patch-takes-ownership",
		apply("alice", p, "alice", false, cm("c", map[string]any{"a": "1"})),
		runner.Step{Name: "patch", Method: http.MethodPatch, Path: p + "?fieldManager=patcher", Headers: map[string]string{"Content-Type": ctMerge}, Body: js(map[string]any{"data": map[string]any{"a": "5"}})},
		apply("alice-again", p, "alice", false, cm("c", map[string]any{"a": "1"})),
		getStep("read-back", p))
	add("no-field-manager", runner.Step{Name: "apply", Method: http.MethodPatch, Path: p, Headers: map[string]string{"Content-Type": "application/apply-patch+yaml"}, Body: js(cm("c", map[string]any{"a": "1"}))})
	add("force-on-non-apply", runner.Step{Name: "patch", Method: http.MethodPatch, Path: p + "?force=true&fieldManager=x", Headers: map[string]string{"Content-Type": ctMerge}, Body: js(map[string]any{"data": map[string]any{"a": "5"}})})
	add("apply-wrong-name", apply("apply", p, "alice", false, cm("other", map[string]any{"a": "1"})))
	add("apply-invalid", apply("apply", p, "alice", false, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{"bad key": "x"}}))
	dp := depPath + "/d"
	add("deployment-replicas-conflict",
		apply("alice", dp, "alice", false, deployment("d", 2)),
		runner.Step{Name: "scale-by-update", Method: http.MethodPatch, Path: dp + "?fieldManager=hpa", Headers: map[string]string{"Content-Type": ctMerge}, Body: js(map[string]any{"spec": map[string]any{"replicas": 5}})},
		apply("alice-again", dp, "alice", false, deployment("d", 3)),
		apply("alice-drops-replicas", dp, "alice", true, deployment("d", nil)),
		getStep("read-back", dp))
	add("deployment-container-list-merge",
		apply("alice", dp, "alice", false, deployment("d", 1)),
		apply("bob-adds-env", dp, "bob", false, obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","env":[{"name":"X","value":"1"}]}]}}}}`)),
		getStep("read-back", dp))
	return cs
}

// dryRunScenarios: dryRun=All on every verb, each followed by a read.
func dryRunScenarios() []runner.Case {
	var cs []runner.Case
	type kind struct {
		name, path string
		obj        map[string]any
		patch      map[string]any
	}
	kinds := []kind{
		{"configmap", cmPath, cm("x", map[string]any{"a": "1"}), map[string]any{"data": map[string]any{"a": "2"}}},
		{"secret", "/api/v1/namespaces/" + ns + "/secrets", obj(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"},"stringData":{"a":"1"}}`), map[string]any{"metadata": map[string]any{"labels": map[string]any{"l": "1"}}}},
		{"service", svcPath, service("x", nil), map[string]any{"spec": map[string]any{"type": "NodePort"}}},
		{"pod", podsPath, pod("x", nil), map[string]any{"metadata": map[string]any{"labels": map[string]any{"l": "1"}}}},
		{"deployment", depPath, deployment("x", 1), map[string]any{"spec": map[string]any{"replicas": 4}}},
		{"job", jobPath, obj(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"x"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`), map[string]any{"spec": map[string]any{"parallelism": 3}}},
	}
	for _, k := range kinds {
		item := k.path + "/x"
		id := func(v string) string { return "dry-run/" + k.name + "/" + v }
		cs = append(cs,
			runner.Case{ID: id("create"), Category: "dry-run", Steps: []runner.Step{post("create", k.path+"?dryRun=All", k.obj), getStep("read", item), getStep("list", k.path)}},
			runner.Case{ID: id("update"), Category: "dry-run", Steps: []runner.Step{
				post("create", k.path, k.obj),
				{Name: "get", Method: http.MethodGet, Path: item, Capture: map[string]string{"rv": "metadata.resourceVersion"}, Setup: true},
				{Name: "update", Method: http.MethodPut, Path: item + "?dryRun=All", Body: js(withLabels(k.obj, "${rv}"))},
				getStep("read", item)}},
			runner.Case{ID: id("patch-merge"), Category: "dry-run", Steps: []runner.Step{post("create", k.path, k.obj), patchStep("patch", item+"?dryRun=All", ctMerge, k.patch), getStep("read", item)}},
			runner.Case{ID: id("patch-json"), Category: "dry-run", Steps: []runner.Step{post("create", k.path, k.obj), patchStep("patch", item+"?dryRun=All", ctJSONPatch, []any{map[string]any{"op": "add", "path": "/metadata/labels", "value": map[string]any{"j": "1"}}}), getStep("read", item)}},
			runner.Case{ID: id("patch-strategic"), Category: "dry-run", Steps: []runner.Step{post("create", k.path, k.obj), patchStep("patch", item+"?dryRun=All", ctSMP, k.patch), getStep("read", item)}},
			runner.Case{ID: id("patch-apply"), Category: "dry-run", Steps: []runner.Step{apply("apply", item+"?dryRun=All", "m", false, k.obj), getStep("read", item)}},
			runner.Case{ID: id("delete"), Category: "dry-run", Steps: []runner.Step{post("create", k.path, k.obj), {Name: "delete", Method: http.MethodDelete, Path: item + "?dryRun=All"}, getStep("read", item)}},
			runner.Case{ID: id("deletecollection"), Category: "dry-run", Steps: []runner.Step{post("create", k.path, k.obj), {Name: "deletecollection", Method: http.MethodDelete, Path: k.path + "?dryRun=All"}, getStep("list", k.path)}},
			runner.Case{ID: id("dryrun-bogus"), Category: "dry-run", Steps: []runner.Step{post("create", k.path+"?dryRun=Some", k.obj)}},
		)
	}
	return cs
}

func withLabels(o map[string]any, rv string) map[string]any {
	c := deepCopy(o)
	md := c["metadata"].(map[string]any)
	md["labels"] = map[string]any{"updated": "yes"}
	md["resourceVersion"] = rv
	return c
}

// listWatchScenarios: paging and short watches.
func listWatchScenarios() []runner.Case {
	var cs []runner.Case
	var seven []runner.Step
	for i := 0; i < 7; i++ {
		s := post("seed", cmPath, cm("c"+strconv.Itoa(i), map[string]any{"i": strconv.Itoa(i)}))
		s.Setup = true
		seven = append(seven, s)
	}
	page := func(name, q string, capture bool) runner.Step {
		s := getStep(name, cmPath+q)
		if capture {
			s.Capture = map[string]string{"cont": "metadata.continue", "rv": "metadata.resourceVersion"}
		}
		return s
	}
	for _, limit := range []int{1, 2, 3, 5, 7, 10} {
		l := strconv.Itoa(limit)
		steps := append([]runner.Step{}, seven...)
		steps = append(steps, page("page1", "?limit="+l, true), page("page2", "?limit="+l+"&continue=${cont}", true), page("page3", "?limit="+l+"&continue=${cont}", true))
		cs = append(cs, runner.Case{ID: "paging/limit-" + l, Category: "paging", Steps: steps})
	}
	more := map[string]string{
		"rv0-ignores-limit":    "?limit=2&resourceVersion=0",
		"label-selector":       "?labelSelector=nope%3Dx&limit=2",
		"field-selector":       "?fieldSelector=metadata.name%3Dc3",
		"field-selector-bad":   "?fieldSelector=data.i%3D3",
		"label-selector-bad":   "?labelSelector=a%3D%3D%3Db",
		"bad-continue":         "?limit=2&continue=garbage",
		"limit-negative":       "?limit=-1",
		"rvmatch-without-rv":   "?resourceVersionMatch=NotOlderThan",
		"rvmatch-exact-future": "?resourceVersionMatch=Exact&resourceVersion=999999999",
		"table":                "?limit=3",
	}
	for _, k := range sortedKeys(more) {
		steps := append([]runner.Step{}, seven...)
		st := page("list", more[k], false)
		if k == "table" {
			st.Headers = map[string]string{"Accept": acceptTable}
		}
		if k == "rv0-ignores-limit" {
			// resourceVersion=0 reads the real server's watch cache as it is, which may not
			// hold the last seed yet; a consistent list first waits for the cache to catch up.
			sync := page("sync", "", false)
			sync.Setup = true
			steps = append(steps, sync)
		}
		cs = append(cs, runner.Case{ID: "paging/" + k, Category: "paging", Steps: append(steps, st)})
	}

	// Watches: from a list's RV, with selectors, with initial events.
	w := func(name, q string) runner.Step {
		return runner.Step{Name: name, Method: http.MethodGet, Path: cmPath + q, Watch: true}
	}
	mutations := []runner.Step{
		post("create-b", cmPath, cm("b", map[string]any{"x": "1"})),
		patchStep("update-a", cmPath+"/a", ctMerge, map[string]any{"data": map[string]any{"x": "2"}}),
		del("delete-b", cmPath+"/b"),
	}
	base := func() []runner.Step {
		return []runner.Step{post("create-a", cmPath, cm("a", map[string]any{"x": "0"})), page("list", "", true)}
	}
	for _, v := range []struct{ id, q string }{
		{"from-list-rv", "?watch=true&resourceVersion=${rv}&timeoutSeconds=1"},
		{"from-list-rv-field-selector", "?watch=true&resourceVersion=${rv}&timeoutSeconds=1&fieldSelector=metadata.name%3Da"},
		{"from-list-rv-label-selector", "?watch=true&resourceVersion=${rv}&timeoutSeconds=1&labelSelector=nope"},
		{"from-rv0", "?watch=true&resourceVersion=0&timeoutSeconds=1"},
		{"no-rv", "?watch=true&timeoutSeconds=1"},
		{"initial-events", "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1"},
		{"initial-events-without-bookmarks", "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1"},
		{"rv-too-old", "?watch=true&resourceVersion=1&timeoutSeconds=1"},
		{"bad-rv", "?watch=true&resourceVersion=abc&timeoutSeconds=1"},
	} {
		steps := append(base(), mutations...)
		if v.id == "from-rv0" {
			// As for the rv=0 list: the watch starts from the watch cache as it is.
			sync := page("sync", "", false)
			sync.Setup = true
			steps = append(steps, sync)
		}
		cs = append(cs, runner.Case{ID: "watch/" + v.id, Category: "watch", Steps: append(steps, w("watch", v.q))})
	}
	return cs
}

// crd returns a CRD of the case's own group with a schema and the given extras.
func crd(withCEL bool) map[string]any {
	spec := map[string]any{"type": "object", "properties": map[string]any{
		"replicas":    map[string]any{"type": "integer", "minimum": 0},
		"maxReplicas": map[string]any{"type": "integer"},
		"port":        map[string]any{"x-kubernetes-int-or-string": true, "anyOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}},
		"mode":        map[string]any{"type": "string", "enum": []any{"A", "B"}, "default": "A"},
		"name":        map[string]any{"type": "string", "maxLength": 10},
	}}
	if withCEL {
		spec["x-kubernetes-validations"] = []any{
			map[string]any{"rule": "self.replicas <= self.maxReplicas", "message": "replicas must not exceed maxReplicas"},
			map[string]any{"rule": "self.mode == oldSelf.mode", "message": "mode is immutable"},
		}
	}
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.c" + runner.SuffixPlaceholder + ".example.com"},
		"spec": map[string]any{"group": "c" + runner.SuffixPlaceholder + ".example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "widgets", "kind": "Widget"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"additionalPrinterColumns": []any{
					map[string]any{"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
					map[string]any{"name": "First", "type": "string", "jsonPath": `.status.conditions[?(@.type=="Ready")].status`},
				},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec": spec, "status": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}}}}
}

func widget(name string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "c" + runner.SuffixPlaceholder + ".example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}, "spec": spec}
}

// lifecycleScenarios: namespace and CRD lifecycles, CEL rules.
func lifecycleScenarios() []runner.Case {
	var cs []runner.Case
	nsName := "nsl-" + runner.SuffixPlaceholder
	nsItem := "/api/v1/namespaces/" + nsName
	inNS := nsItem + "/configmaps"
	cs = append(cs, runner.Case{ID: "lifecycle/namespace", Category: "lifecycle", NoNamespace: true, Steps: []runner.Step{
		post("create-ns", "/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": nsName}}),
		post("create-cm", inNS, cm("c", map[string]any{"a": "1"})),
		del("delete-ns", nsItem),
		getStep("get-ns", nsItem),
		post("create-in-terminating", inNS, cm("d", nil)),
		getStep("list-cm", inNS),
		post("create-in-missing-ns", "/api/v1/namespaces/nope-"+runner.SuffixPlaceholder+"/configmaps", cm("x", nil)),
		del("delete-default-ns", "/api/v1/namespaces/default?dryRun=All"),
		del("delete-kube-system", "/api/v1/namespaces/kube-system?dryRun=All"),
	}})
	group := "c" + runner.SuffixPlaceholder + ".example.com"
	crPath := "/apis/" + group + "/v1/namespaces/" + ns + "/widgets"
	crItem := crdPath + "/widgets." + group
	firstCR := post("create-cr", crPath, widget("w", map[string]any{"replicas": 1, "maxReplicas": 2, "port": "http"}))
	firstCR.RetryNotFound = true
	cleanup := del("delete-crd", crItem)
	cleanup.IgnoreBody = true
	cs = append(cs, runner.Case{ID: "lifecycle/crd", Category: "crd-lifecycle", Steps: []runner.Step{
		post("create-crd", crdPath, crd(false)),
		firstCR,
		getStep("get-cr", crPath+"/w"),
		{Name: "table", Method: http.MethodGet, Path: crPath, Headers: map[string]string{"Accept": acceptTable}},
		post("create-cr-bad-enum", crPath, widget("w2", map[string]any{"mode": "C"})),
		post("create-cr-negative", crPath, widget("w3", map[string]any{"replicas": -1})),
		post("create-cr-too-long", crPath, widget("w4", map[string]any{"name": "01234567890"})),
		post("create-cr-unknown-field", crPath, widget("w5", map[string]any{"extra": 1})),
		post("create-cr-port-int", crPath, widget("w6", map[string]any{"port": 80})),
		post("create-cr-port-bool", crPath, widget("w7", map[string]any{"port": true})),
		patchStep("patch-cr-smp", crPath+"/w", ctSMP, map[string]any{"spec": map[string]any{"replicas": 2}}),
		patchStep("patch-status", crPath+"/w/status", ctMerge, map[string]any{"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}}}),
		{Name: "table-after-status", Method: http.MethodGet, Path: crPath, Headers: map[string]string{"Accept": acceptTable}},
		cleanup,
		getStep("get-crd-after-delete", crItem),
	}})
	celCR := post("create-valid", crPath, widget("w", map[string]any{"replicas": 1, "maxReplicas": 2}))
	celCR.RetryNotFound = true
	cleanup2 := cleanup
	cs = append(cs, runner.Case{ID: "lifecycle/crd-cel", Category: "crd-cel", Steps: []runner.Step{
		post("create-crd", crdPath, crd(true)),
		celCR,
		post("create-violating", crPath, widget("w2", map[string]any{"replicas": 3, "maxReplicas": 2})),
		patchStep("transition-violating", crPath+"/w", ctMerge, map[string]any{"spec": map[string]any{"mode": "B"}}),
		patchStep("update-valid", crPath+"/w", ctMerge, map[string]any{"spec": map[string]any{"replicas": 2}}),
		getStep("read-back", crPath+"/w"),
		cleanup2,
	}})
	badRule := crd(false)
	badRule["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["x-kubernetes-validations"] = []any{map[string]any{"rule": "self.nope +"}}
	cs = append(cs, runner.Case{ID: "lifecycle/crd-cel-bad-rule", Category: "crd-cel", Steps: []runner.Step{post("create-crd", crdPath, badRule), cleanup}})
	for i, tweak := range []func(m map[string]any){
		func(m map[string]any) { delete(m["spec"].(map[string]any)["names"].(map[string]any), "kind") },
		func(m map[string]any) { m["spec"].(map[string]any)["scope"] = "Galaxy" },
		func(m map[string]any) { m["metadata"].(map[string]any)["name"] = "wrong.name" },
		func(m map[string]any) {
			m["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["storage"] = false
		},
	} {
		c := crd(false)
		tweak(c)
		cs = append(cs, runner.Case{ID: fmt.Sprintf("lifecycle/crd-invalid-%d", i), Category: "crd-lifecycle", NoNamespace: true, Steps: []runner.Step{post("create-crd", crdPath, c), cleanup}})
	}
	return cs
}
