package gen

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// kubectlStep runs kubectl in the case's namespace.
func kubectlStep(name string, stdin any, args ...string) runner.Step {
	s := runner.Step{Name: name, Kubectl: append(args, "-n", ns)}
	if stdin != nil {
		s.Stdin = js(stdin)
	}
	return s
}

// applyQ is apply with more query parameters (each starting with &).
func applyQ(name, path, manager, query string, body any) runner.Step {
	s := apply(name, path, manager, false, body)
	s.Path += query
	return s
}

func withHeaders(s runner.Step, h map[string]string) runner.Step {
	if s.Headers == nil {
		s.Headers = map[string]string{}
	}
	for k, v := range h {
		s.Headers[k] = v
	}
	return s
}

func cmLabels(name string, labels map[string]any) map[string]any {
	c := cm(name, nil)
	c["metadata"].(map[string]any)["labels"] = labels
	return c
}

// ssaFlowScenarios: the field-ownership flows of server-side apply beyond two managers on a
// ConfigMap: the two stories new users meet first, kubectl's --server-side and
// --force-conflicts, the manager every other verb records, the fieldManager parameter and
// User-Agent, the cap of update managers, managedFields written by clients, the crossing
// between client-side and server-side apply, and list types of a CRD schema.
func ssaFlowScenarios() []runner.Case {
	var cs []runner.Case
	add := func(id string, steps ...runner.Step) {
		for i := range steps {
			steps[i] = keepMF(steps[i])
		}
		cs = append(cs, runner.Case{ID: "ssa/" + id, Category: "ssa", Steps: steps})
	}
	p := cmPath + "/c"
	dp := depPath + "/d"

	// The two stories: a replicas conflict with its exact 409, and a label another writer added
	// surviving the applier dropping its own.
	add("story-replicas-conflict",
		apply("alice", dp, "alice", false, deployment("d", 2)),
		apply("bob", dp, "bob", false, deployment("d", 5)),
		getStep("read-back", dp))
	add("story-label-kept",
		apply("alice", p, "alice", false, cmLabels("c", map[string]any{"a": "1", "b": "2"})),
		kubectlStep("kubectl-label", nil, "label", "configmap", "c", "c=3"),
		apply("alice-drops-b", p, "alice", false, cmLabels("c", map[string]any{"a": "1"})),
		getStep("read-back", p))

	// kubectl apply --server-side, a conflict, --force-conflicts, --show-managed-fields.
	d2, d3 := deployment("d", 2), deployment("d", 3)
	add("kubectl-server-side",
		kubectlStep("apply-creates", d2, "apply", "--server-side", "-f", "-"),
		patchStep("hpa", dp+"?fieldManager=hpa", ctMerge, map[string]any{"spec": map[string]any{"replicas": 4}}),
		kubectlStep("apply-conflict", d3, "apply", "--server-side", "-f", "-"),
		kubectlStep("apply-force", d3, "apply", "--server-side", "--force-conflicts", "-f", "-"),
		kubectlStep("get-json", nil, "get", "deployment", "d", "-o", "json", "--show-managed-fields"),
		kubectlStep("get-json-hidden", nil, "get", "deployment", "d", "-o", "json"))
	add("kubectl-server-side-field-manager",
		kubectlStep("apply", cm("c", map[string]any{"a": "1"}), "apply", "--server-side", "--field-manager=ctl", "-f", "-"),
		kubectlStep("apply-again-dry-run", cm("c", map[string]any{"a": "2"}), "apply", "--server-side", "--field-manager=other", "--dry-run=server", "-o", "json", "-f", "-"),
		kubectlStep("get-json", nil, "get", "configmap", "c", "-o", "json", "--show-managed-fields"))

	// The manager of every other write: create, update, each patch type, scale.
	withRV := func(o map[string]any) map[string]any {
		c := deepCopy(o)
		c["metadata"].(map[string]any)["resourceVersion"] = "${rv}"
		return c
	}
	capRV := runner.Step{Name: "get", Method: http.MethodGet, Path: p, Capture: map[string]string{"rv": "metadata.resourceVersion"}}
	add("update-managers",
		post("create", cmPath+"?fieldManager=a-creator", cm("c", map[string]any{"a": "1"})),
		capRV,
		put("update", p+"?fieldManager=b-updater", withRV(cm("c", map[string]any{"a": "1", "b": "2"}))),
		patchStep("json-patch", p+"?fieldManager=c-jsonpatcher", ctJSONPatch, []any{map[string]any{"op": "add", "path": "/data/c", "value": "3"}}),
		patchStep("merge-patch", p+"?fieldManager=d-mergepatcher", ctMerge, map[string]any{"data": map[string]any{"d": "4"}}),
		patchStep("strategic-patch", p+"?fieldManager=e-smppatcher", ctSMP, map[string]any{"data": map[string]any{"e": "5"}, "metadata": map[string]any{"labels": map[string]any{"l": "1"}}}),
		patchStep("merge-patch-takes-a", p+"?fieldManager=f-taker", ctMerge, map[string]any{"data": map[string]any{"a": "9", "d": "9"}}),
		patchStep("no-change", p+"?fieldManager=g-idle", ctMerge, map[string]any{"data": map[string]any{"a": "9"}}),
		getStep("read-back", p))
	add("update-managers-deployment",
		post("create", depPath+"?fieldManager=creator", deployment("d", 1)),
		patchStep("smp-container", dp+"?fieldManager=smp", ctSMP, obj(`{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"X","value":"1"}]}]}}}}`)),
		runner.Step{Name: "scale-put", Method: http.MethodPut, Path: dp + "/scale?fieldManager=scaler", Body: js(obj(`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d","namespace":"` + ns + `"},"spec":{"replicas":3}}`))},
		patchStep("scale-merge", dp+"/scale?fieldManager=scaler2", ctMerge, map[string]any{"spec": map[string]any{"replicas": 4}}),
		patchStep("status-merge", dp+"/status?fieldManager=statuser", ctMerge, map[string]any{"status": map[string]any{"observedGeneration": 1}}),
		getStep("read-back", dp))
	scaleObj := obj(`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d"},"spec":{"replicas":6}}`)
	// What the strategy adds on create is nobody's: the Job's generated selector and labels.
	add("create-strategy-fields",
		post("create-job", jobPath+"?fieldManager=creator", obj(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`)),
		getStep("read-back", jobPath+"/j"))
	add("apply-scale-and-status",
		apply("alice", dp, "alice", false, deployment("d", 2)),
		apply("scale-apply", dp+"/scale", "autoscaler", false, scaleObj),
		apply("scale-apply-force", dp+"/scale", "autoscaler", true, scaleObj),
		apply("status-apply", dp+"/status", "ctrl", false, obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"status":{"observedGeneration":1,"conditions":[{"type":"Available","status":"True","reason":"Ok","message":"fine","lastUpdateTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}`)),
		apply("alice-again", dp, "alice", false, deployment("d", 2)),
		getStep("read-back", dp))
	add("apply-dry-run",
		apply("alice", p, "alice", false, cm("c", map[string]any{"a": "1"})),
		applyQ("bob-dry-run", p, "bob", "&force=true&dryRun=All", cm("c", map[string]any{"a": "2"})),
		applyQ("create-dry-run", cmPath+"/other", "bob", "&dryRun=All", cm("other", map[string]any{"a": "2"})),
		getStep("read-back", p))

	// fieldManager: defaulted from the User-Agent, validated.
	ua := func(name, agent string, s runner.Step) runner.Step {
		s.Name = name
		return withHeaders(s, map[string]string{"User-Agent": agent})
	}
	add("user-agent-manager",
		ua("create", "a-controller/v1.2.3 (linux/amd64) kubernetes/abcdef", post("", cmPath, cm("c", map[string]any{"a": "1"}))),
		ua("patch-no-slash", "b-plainagent", patchStep("", p, ctMerge, map[string]any{"data": map[string]any{"b": "2"}})),
		ua("patch-long", "c"+strings.Repeat("x", 140)+"/1", patchStep("", p, ctMerge, map[string]any{"data": map[string]any{"c": "3"}})),
		ua("patch-explicit-wins", "ignored/1", patchStep("", p+"?fieldManager=d-explicit", ctMerge, map[string]any{"data": map[string]any{"d": "4"}})),
		getStep("read-back", p))
	long := strings.Repeat("m", 129)
	add("field-manager-invalid",
		post("create-too-long", cmPath+"?fieldManager="+long, cm("c", nil)),
		post("create-unprintable", cmPath+"?fieldManager=a%01b", cm("c", nil)),
		apply("apply-too-long", p, long, false, cm("c", nil)),
		post("create-128", cmPath+"?fieldManager="+long[:128], cm("c", nil)),
		getStep("read-back", p))

	// More than ten update managers: the oldest are bucketed.
	steps := []runner.Step{post("create", cmPath+"?fieldManager=m00", cm("c", map[string]any{"k00": "0"}))}
	for i := 1; i <= 12; i++ {
		steps = append(steps, patchStep(fmt.Sprintf("m%02d", i), fmt.Sprintf("%s?fieldManager=m%02d", p, i), ctMerge, map[string]any{"data": map[string]any{fmt.Sprintf("k%02d", i): "v"}}))
	}
	steps = append(steps, apply("applier", p, "applier", false, cm("c", map[string]any{"z": "1"})), getStep("read-back", p))
	add("update-managers-cap", steps...)

	// managedFields sent by the client.
	given := []any{map[string]any{"manager": "someone", "operation": "Update", "apiVersion": "v1", "time": "2020-01-01T00:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{"f:a": map[string]any{}}}}}
	withMF := func(o map[string]any, mf any) map[string]any {
		c := deepCopy(o)
		c["metadata"].(map[string]any)["managedFields"] = mf
		return c
	}
	add("client-managed-fields-create",
		post("create", cmPath+"?fieldManager=creator", withMF(cm("c", map[string]any{"a": "1", "b": "2"}), given)),
		getStep("read-back", p))
	add("client-managed-fields-create-invalid",
		post("create", cmPath+"?fieldManager=creator", withMF(cm("c", map[string]any{"a": "1"}), []any{map[string]any{"manager": "x", "operation": "Bogus", "fieldsType": "FieldsV2"}})),
		getStep("read-back", p))
	add("client-managed-fields-update",
		post("create", cmPath+"?fieldManager=creator", cm("c", map[string]any{"a": "1"})),
		capRV,
		put("update-given", p+"?fieldManager=updater", withMF(withRV(cm("c", map[string]any{"a": "1", "b": "2"})), given)),
		getStep("read-given", p),
		patchStep("json-clear", p+"?fieldManager=patcher", ctJSONPatch, []any{map[string]any{"op": "replace", "path": "/metadata/managedFields", "value": []any{map[string]any{}}}}),
		getStep("read-cleared", p),
		patchStep("merge-c", p+"?fieldManager=patcher", ctMerge, map[string]any{"data": map[string]any{"c": "3"}}),
		patchStep("merge-empty-list", p+"?fieldManager=patcher", ctMerge, map[string]any{"metadata": map[string]any{"managedFields": []any{}}}),
		getStep("read-empty-list", p),
		apply("apply-after-clear", p, "alice", false, cm("c", map[string]any{"a": "1"})),
		getStep("read-back", p))
	add("apply-with-managed-fields",
		apply("apply", p, "alice", false, withMF(cm("c", map[string]any{"a": "1"}), given)))

	// Client-side apply, then server-side apply, and back.
	c1, c2 := cm("c", map[string]any{"a": "1", "b": "2"}), cm("c", map[string]any{"a": "1"})
	add("client-side-then-server-side",
		kubectlStep("csa", c1, "apply", "-f", "-"),
		kubectlStep("ssa-drops-b", c2, "apply", "--server-side", "-f", "-"),
		getStep("read-back", p))
	add("server-side-then-client-side",
		kubectlStep("ssa", c1, "apply", "--server-side", "-f", "-"),
		kubectlStep("csa-drops-b", c2, "apply", "-f", "-"),
		getStep("read-back", p))
	lastApplied := cm("c", map[string]any{"a": "1", "b": "2"})
	lastApplied["metadata"].(map[string]any)["annotations"] = map[string]any{"kubectl.kubernetes.io/last-applied-configuration": string(js(cm("c", map[string]any{"a": "1", "b": "2"}))) + "\n"}
	add("last-applied-upgrade-http",
		post("create-csa", cmPath+"?fieldManager=kubectl-client-side-apply", lastApplied),
		apply("ssa-same-manager", p, "kubectl-client-side-apply", false, cm("c", map[string]any{"a": "1", "b": "3"})),
		apply("ssa-other-manager", p, "kubectl", false, cm("c", map[string]any{"a": "2"})),
		getStep("read-back", p))

	// A CRD's list and map types.
	group := "c" + runner.SuffixPlaceholder + ".example.com"
	crPath := "/apis/" + group + "/v1/namespaces/" + ns + "/widgets"
	w := crPath + "/w"
	first := apply("alice", w, "alice", false, listWidget(map[string]any{
		"ports": []any{map[string]any{"name": "a", "port": 1}}, "tags": []any{"x"}, "atomic": []any{"1"},
		"labels": map[string]any{"a": "1"}, "atomicMap": map[string]any{"a": "1"}}))
	first.RetryNotFound = true
	cleanup := del("delete-crd", crdPath+"/widgets."+group)
	cleanup.IgnoreBody = true
	add("crd-list-types",
		post("create-crd", crdPath, listCRD()),
		first,
		apply("bob-adds", w, "bob", false, listWidget(map[string]any{
			"ports": []any{map[string]any{"name": "b", "port": 2}}, "tags": []any{"y"}, "labels": map[string]any{"b": "2"}})),
		apply("bob-atomic", w, "bob", false, listWidget(map[string]any{"atomic": []any{"2"}, "atomicMap": map[string]any{"b": "2"}})),
		apply("bob-same-port", w, "bob", false, listWidget(map[string]any{"ports": []any{map[string]any{"name": "a", "port": 9}}})),
		apply("bob-force", w, "bob", true, listWidget(map[string]any{"atomic": []any{"2"}, "ports": []any{map[string]any{"name": "a", "port": 9}}})),
		apply("alice-drops", w, "alice", false, listWidget(map[string]any{"tags": []any{"x"}})),
		patchStep("merge-status", w+"/status?fieldManager=st", ctMerge, map[string]any{"status": map[string]any{"phase": "Ready"}}),
		getStep("read-back", w),
		cleanup)
	return cs
}

func listWidget(spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "c" + runner.SuffixPlaceholder + ".example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}, "spec": spec}
}

// listCRD is a CRD whose spec has a map list, a set, an atomic list, a granular and an atomic map.
func listCRD() map[string]any {
	str := map[string]any{"type": "string"}
	spec := map[string]any{"type": "object", "properties": map[string]any{
		"ports": map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"name"},
			"items": map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{"name": str, "port": map[string]any{"type": "integer"}}}},
		"tags":      map[string]any{"type": "array", "x-kubernetes-list-type": "set", "items": str},
		"atomic":    map[string]any{"type": "array", "x-kubernetes-list-type": "atomic", "items": str},
		"labels":    map[string]any{"type": "object", "additionalProperties": str},
		"atomicMap": map[string]any{"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": str},
	}}
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.c" + runner.SuffixPlaceholder + ".example.com"},
		"spec": map[string]any{"group": "c" + runner.SuffixPlaceholder + ".example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "widgets", "kind": "Widget"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec": spec, "status": map[string]any{"type": "object", "properties": map[string]any{"phase": str}}}}}}}}}
}

// ssaVersionScenarios: a kind served at several versions. The field manager runs on the
// object at the request's version and records that apiVersion; the sets of managers at
// another version are compared in their own version's terms (the HPA's v1
// targetCPUUtilizationPercentage is v2's metrics), and a core/v1 write drops the
// events.k8s.io/v1 managers, which its converter cannot reach.
func ssaVersionScenarios() []runner.Case {
	var cs []runner.Case
	add := func(id string, steps ...runner.Step) {
		for i := range steps {
			steps[i] = keepMF(steps[i])
		}
		cs = append(cs, runner.Case{ID: "ssa/" + id, Category: "ssa", Steps: steps})
	}
	hpa := func(v string) string {
		return "/apis/autoscaling/" + v + "/namespaces/" + ns + "/horizontalpodautoscalers/h"
	}
	hpaV2 := func(min, max, util int) map[string]any {
		return obj(fmt.Sprintf(`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"minReplicas":%d,"maxReplicas":%d,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":%d}}}]}}`, min, max, util))
	}
	hpaV1 := func(max, util int) map[string]any {
		return obj(fmt.Sprintf(`{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"maxReplicas":%d,"targetCPUUtilizationPercentage":%d}}`, max, util))
	}
	add("version-hpa-v2-then-v1",
		apply("alice-v2", hpa("v2"), "alice", false, hpaV2(1, 5, 50)),
		apply("bob-v1-conflict", hpa("v1"), "bob", false, hpaV1(7, 60)),
		apply("bob-v1-force", hpa("v1"), "bob", true, hpaV1(7, 60)),
		patchStep("merge-v1", hpa("v1")+"?fieldManager=patcher", ctMerge, map[string]any{"spec": map[string]any{"targetCPUUtilizationPercentage": 70}}),
		getStep("read-v1", hpa("v1")),
		getStep("read-v2", hpa("v2")))
	add("version-hpa-v1-then-v2",
		apply("alice-v1", hpa("v1"), "alice", false, hpaV1(5, 50)),
		apply("bob-v2-conflict", hpa("v2"), "bob", false, hpaV2(2, 5, 80)),
		apply("bob-v2-force", hpa("v2"), "bob", true, hpaV2(2, 5, 80)),
		apply("alice-v1-again", hpa("v1"), "alice", false, hpaV1(5, 50)),
		getStep("read-v2", hpa("v2")),
		getStep("read-v1", hpa("v1")))

	evNew := "/apis/events.k8s.io/v1/namespaces/" + ns + "/events/e"
	evCore := "/api/v1/namespaces/" + ns + "/events/e"
	add("version-event",
		apply("alice-events-v1", evNew, "alice", false, obj(`{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e"},"eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"c/x","reportingInstance":"i","action":"Do","reason":"Why","type":"Normal","note":"hello","regarding":{"kind":"Pod","name":"p","namespace":"`+ns+`"}}`)),
		apply("carol-events-v1", evNew, "carol", false, obj(`{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e","labels":{"l":"1"}}}`)),
		getStep("read-core", evCore),
		apply("bob-core-v1", evCore, "bob", false, obj(`{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"message":"changed","involvedObject":{"kind":"Pod","name":"p","namespace":"`+ns+`"},"reason":"Why","type":"Normal"}`)),
		getStep("read-events", evNew),
		getStep("read-core-again", evCore))

	group := "v" + runner.SuffixPlaceholder + ".example.com"
	gizmos := func(v string) string { return "/apis/" + group + "/" + v + "/namespaces/" + ns + "/gizmos/g" }
	gizmo := func(v string, spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": group + "/" + v, "kind": "Gizmo", "metadata": map[string]any{"name": "g"}, "spec": spec}
	}
	first := apply("alice-v1", gizmos("v1"), "alice", false, gizmo("v1", map[string]any{"size": 1, "color": "red"}))
	first.RetryNotFound = true
	cleanup := del("delete-crd", crdPath+"/gizmos."+group)
	cleanup.IgnoreBody = true
	add("version-crd-none",
		post("create-crd", crdPath, twoVersionCRD()),
		first,
		apply("bob-v2-conflict", gizmos("v2"), "bob", false, gizmo("v2", map[string]any{"size": 2})),
		apply("bob-v2-force", gizmos("v2"), "bob", true, gizmo("v2", map[string]any{"size": 2, "shape": "round"})),
		patchStep("merge-v2", gizmos("v2")+"?fieldManager=patcher", ctMerge, map[string]any{"spec": map[string]any{"color": "blue"}}),
		apply("alice-v1-drops-color", gizmos("v1"), "alice", false, gizmo("v1", map[string]any{"size": 1})),
		getStep("read-v1", gizmos("v1")),
		getStep("read-v2", gizmos("v2")),
		cleanup)
	return cs
}

// twoVersionCRD serves Gizmos at v1 (stored) and v2, with the same schema and conversion None.
func twoVersionCRD() map[string]any {
	str := map[string]any{"type": "string"}
	schema := map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
		"spec": map[string]any{"type": "object", "properties": map[string]any{"size": map[string]any{"type": "integer"}, "color": str, "shape": str}}}}}
	version := func(name string, storage bool) map[string]any {
		return map[string]any{"name": name, "served": true, "storage": storage, "schema": schema}
	}
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "gizmos.v" + runner.SuffixPlaceholder + ".example.com"},
		"spec": map[string]any{"group": "v" + runner.SuffixPlaceholder + ".example.com", "scope": "Namespaced",
			"names":    map[string]any{"plural": "gizmos", "kind": "Gizmo"},
			"versions": []any{version("v1", true), version("v2", false)}}}
}
