package gen

import (
	"encoding/json"
	"net/http"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

// update is an update scenario appended to a create: patches, then a read-back.
type update struct {
	variant string
	steps   []runner.Step
}

func patchStep(name, path, contentType string, patch any) runner.Step {
	b, _ := json.Marshal(patch)
	return runner.Step{Name: name, Method: http.MethodPatch, Path: path, Headers: map[string]string{"Content-Type": contentType}, Body: b}
}

func get(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}

// updatesFor lists, for the kind of p, updates of fields the real strategy treats as
// immutable, and some mutable controls (a Pod's image, a Deployment's replicas).
func updatesFor(p prepared) []update {
	path := p.itemPath
	readBack := runner.Step{Name: "read-after", Method: http.MethodGet, Path: path}
	one := func(variant, ct string, patch any) update {
		return update{variant: variant, steps: []runner.Step{patchStep("patch", path, ct, patch), readBack}}
	}
	var out []update
	// Every object: a JSON patch renaming it, and one changing its uid.
	out = append(out,
		one("rename", ctJSONPatch, []any{map[string]any{"op": "replace", "path": "/metadata/name", "value": "renamed"}}),
		one("uid", ctJSONPatch, []any{map[string]any{"op": "add", "path": "/metadata/uid", "value": "00000000-0000-0000-0000-000000000001"}}),
	)
	obj := p.obj
	switch p.res.Kind {
	case "Pod":
		rp, _ := get(obj, "spec", "restartPolicy").(string)
		other := "Never"
		if rp == "Never" {
			other = "Always"
		}
		out = append(out, one("restartPolicy", ctMerge, map[string]any{"spec": map[string]any{"restartPolicy": other}}))
		if cs, ok := get(obj, "spec", "containers").([]any); ok && len(cs) > 0 {
			c0, _ := cs[0].(map[string]any)
			out = append(out,
				one("image-mutable", ctSMP, map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": c0["name"], "image": "registry.k8s.io/pause:3.10.1"}}}}),
				one("container-ports", ctSMP, map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": c0["name"], "ports": []any{map[string]any{"containerPort": 9999}}}}}}),
			)
		}
		out = append(out, one("activeDeadlineSeconds-mutable", ctMerge, map[string]any{"spec": map[string]any{"activeDeadlineSeconds": 600}}))
	case "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet":
		out = append(out, one("selector", ctMerge, map[string]any{"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"cf-extra": "x"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"cf-extra": "x"}}}}}))
		if p.res.Kind != "DaemonSet" {
			out = append(out, one("replicas-mutable", ctMerge, map[string]any{"spec": map[string]any{"replicas": 3}}))
		}
		if p.res.Kind == "StatefulSet" {
			out = append(out, one("serviceName", ctMerge, map[string]any{"spec": map[string]any{"serviceName": "other-service"}}))
		}
	case "Service":
		t, _ := get(obj, "spec", "type").(string)
		ip, _ := get(obj, "spec", "clusterIP").(string)
		if t != "ExternalName" && ip != "None" {
			out = append(out, one("clusterIP", ctMerge, map[string]any{"spec": map[string]any{"clusterIP": "10.0.0.222"}}))
		}
		if t == "" || t == "ClusterIP" {
			out = append(out, one("type-nodeport", ctMerge, map[string]any{"spec": map[string]any{"type": "NodePort"}}))
		}
	case "Job":
		out = append(out,
			one("template", ctMerge, map[string]any{"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"cf-extra": "x"}}}}}),
			one("parallelism-mutable", ctMerge, map[string]any{"spec": map[string]any{"parallelism": 2}}),
		)
	case "ConfigMap", "Secret":
		out = append(out, update{variant: "immutable-data", steps: []runner.Step{
			patchStep("set-immutable", path, ctMerge, map[string]any{"immutable": true}),
			patchStep("change-data", path, ctMerge, map[string]any{"data": map[string]any{"cf-extra": "eA=="}}),
			patchStep("unset-immutable", path, ctMerge, map[string]any{"immutable": false}),
			readBack,
		}})
	case "PersistentVolumeClaim":
		out = append(out, one("storageClassName", ctMerge, map[string]any{"spec": map[string]any{"storageClassName": "other-class"}}))
	case "Namespace":
		out = append(out, one("finalizers", ctMerge, map[string]any{"spec": map[string]any{"finalizers": []any{"example.com/x"}}}))
	case "PersistentVolume":
		out = append(out, one("volume-source", ctMerge, map[string]any{"spec": map[string]any{"hostPath": map[string]any{"path": "/other"}}}))
	case "RoleBinding", "ClusterRoleBinding":
		out = append(out, one("roleRef", ctMerge, map[string]any{"roleRef": map[string]any{"name": "other-role"}}))
	}
	return out
}
