package gen

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/conformance/runner"
)

const ns = runner.NSPlaceholder

func js(v any) []byte { b, _ := json.Marshal(v); return b }

// yamlish parses a JSON literal written in Go source (panics on a typo: a programming error).
func obj(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(fmt.Sprintf("gen: bad literal %q: %v", s, err))
	}
	return m
}

func post(name, path string, body any) runner.Step {
	return runner.Step{Name: name, Method: http.MethodPost, Path: path, Body: js(body)}
}

func getStep(name, path string) runner.Step {
	return runner.Step{Name: name, Method: http.MethodGet, Path: path}
}

func del(name, path string) runner.Step {
	return runner.Step{Name: name, Method: http.MethodDelete, Path: path}
}

func put(name, path string, body any) runner.Step {
	return runner.Step{Name: name, Method: http.MethodPut, Path: path, Body: js(body)}
}

func apply(name, path, manager string, force bool, body any) runner.Step {
	q := "?fieldManager=" + manager
	if force {
		q += "&force=true"
	}
	return runner.Step{Name: name, Method: http.MethodPatch, Path: path + q, Body: js(body),
		Headers: map[string]string{"Content-Type": "application/apply-patch+yaml"}}
}

var (
	podsPath = "/api/v1/namespaces/" + ns + "/pods"
	svcPath  = "/api/v1/namespaces/" + ns + "/services"
	cmPath   = "/api/v1/namespaces/" + ns + "/configmaps"
	depPath  = "/apis/apps/v1/namespaces/" + ns + "/deployments"
	jobPath  = "/apis/batch/v1/namespaces/" + ns + "/jobs"
	crdPath  = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
)

func pod(name string, mutate func(spec map[string]any)) map[string]any {
	p := obj(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `"},"spec":{"containers":[{"name":"app","image":"registry.k8s.io/pause:3.10.1"}]}}`)
	if mutate != nil {
		mutate(p["spec"].(map[string]any))
	}
	return p
}

func container(spec map[string]any) map[string]any {
	return spec["containers"].([]any)[0].(map[string]any)
}

func service(name string, mutate func(spec map[string]any)) map[string]any {
	s := obj(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"` + name + `"},"spec":{"selector":{"app":"x"},"ports":[{"port":80,"targetPort":8080}]}}`)
	if mutate != nil {
		mutate(s["spec"].(map[string]any))
	}
	return s
}

func deployment(name string, replicas any) map[string]any {
	d := obj(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + name + `"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"registry.k8s.io/pause:3.10.1"}]}}}}`)
	if replicas != nil {
		d["spec"].(map[string]any)["replicas"] = replicas
	}
	return d
}

func createAndRead(path, name string, body any) []runner.Step {
	return []runner.Step{post("create", path, body), getStep("read-back", path+"/"+name)}
}

// Scenarios are the hand-written cases.
func Scenarios() []runner.Case {
	var cs []runner.Case
	add := func(cat, id string, steps ...runner.Step) {
		cs = append(cs, runner.Case{ID: cat + "/" + id, Category: cat, Steps: steps})
	}

	// Invalid pods the real validation refuses.
	invalidPods := map[string]func(spec map[string]any){
		"imagePullPolicy-Sometimes": func(s map[string]any) { container(s)["imagePullPolicy"] = "Sometimes" },
		"container-name-Bad_Name":   func(s map[string]any) { container(s)["name"] = "Bad_Name" },
		"containerPort-70000": func(s map[string]any) {
			container(s)["ports"] = []any{map[string]any{"containerPort": 70000}}
		},
		"duplicate-container-names": func(s map[string]any) {
			s["containers"] = append(s["containers"].([]any), map[string]any{"name": "app", "image": "busybox"})
		},
		"mount-of-missing-volume": func(s map[string]any) {
			container(s)["volumeMounts"] = []any{map[string]any{"name": "missing", "mountPath": "/data"}}
		},
		"requests-above-limits": func(s map[string]any) {
			container(s)["resources"] = map[string]any{"requests": map[string]any{"cpu": "2"}, "limits": map[string]any{"cpu": "1"}}
		},
		"dnsPolicy-Nope":      func(s map[string]any) { s["dnsPolicy"] = "Nope" },
		"restartPolicy-Maybe": func(s map[string]any) { s["restartPolicy"] = "Maybe" },
		"no-containers":       func(s map[string]any) { s["containers"] = []any{} },
		"missing-image":       func(s map[string]any) { delete(container(s), "image") },
		"negative-grace":      func(s map[string]any) { s["terminationGracePeriodSeconds"] = -5 },
		"hostPort-without-net": func(s map[string]any) {
			container(s)["ports"] = []any{map[string]any{"containerPort": 80, "protocol": "SCTPX"}}
		},
		"env-name-empty": func(s map[string]any) { container(s)["env"] = []any{map[string]any{"name": "", "value": "x"}} },
		"port-name-too-long": func(s map[string]any) {
			container(s)["ports"] = []any{map[string]any{"containerPort": 80, "name": "a-very-long-port-name"}}
		},
		"volume-two-sources": func(s map[string]any) {
			s["volumes"] = []any{map[string]any{"name": "v", "emptyDir": map[string]any{}, "hostPath": map[string]any{"path": "/x"}}}
		},
	}
	for _, k := range sortedKeys(invalidPods) {
		add("finding-invalid-pod", k, createAndRead(podsPath, "p", pod("p", invalidPods[k]))...)
	}
	invalidServices := map[string]func(spec map[string]any){
		"port-0":     func(s map[string]any) { s["ports"] = []any{map[string]any{"port": 0}} },
		"port-70000": func(s map[string]any) { s["ports"] = []any{map[string]any{"port": 70000}} },
		"type-Bogus": func(s map[string]any) { s["type"] = "Bogus" },
		"duplicate-port-names": func(s map[string]any) {
			s["ports"] = []any{map[string]any{"name": "a", "port": 80}, map[string]any{"name": "a", "port": 81}}
		},
		"clusterIP-out-of-cidr": func(s map[string]any) { s["clusterIP"] = "192.168.7.7" },
		"nodePort-on-ClusterIP": func(s map[string]any) { s["ports"] = []any{map[string]any{"port": 80, "nodePort": 30080}} },
		"externalName-no-name":  func(s map[string]any) { s["type"] = "ExternalName"; delete(s, "selector") },
		"protocol-HTTP":         func(s map[string]any) { s["ports"] = []any{map[string]any{"port": 80, "protocol": "HTTP"}} },
		"multi-ports-unnamed":   func(s map[string]any) { s["ports"] = []any{map[string]any{"port": 80}, map[string]any{"port": 81}} },
	}
	for _, k := range sortedKeys(invalidServices) {
		add("finding-invalid-service", k, createAndRead(svcPath, "s", service("s", invalidServices[k]))...)
	}
	add("finding-invalid-deployment", "replicas-minus-1", createAndRead(depPath, "d", deployment("d", -1))...)
	add("finding-invalid-deployment", "selector-mismatch", createAndRead(depPath, "d", func() map[string]any {
		d := deployment("d", 1)
		d["spec"].(map[string]any)["selector"] = map[string]any{"matchLabels": map[string]any{"app": "other"}}
		return d
	}())...)

	// Canonical forms, allocation, generated selectors, admission defaults.
	for _, q := range []string{"0.5", "500m", "1", "1000m", "0.1", "100Mi", "1e3", "1.5Gi", "2048Ki", "0.25"} {
		add("finding-canonical-quantity", "cpu-and-memory-"+q, createAndRead(podsPath, "p", pod("p", func(s map[string]any) {
			container(s)["resources"] = map[string]any{"requests": map[string]any{"cpu": q, "memory": q}}
		}))...)
	}
	add("finding-allocation", "nodePort", createAndRead(svcPath, "s", service("s", func(s map[string]any) { s["type"] = "NodePort" }))...)
	add("finding-allocation", "loadBalancer", createAndRead(svcPath, "s", service("s", func(s map[string]any) { s["type"] = "LoadBalancer" }))...)
	add("finding-allocation", "nodePort-explicit", createAndRead(svcPath, "s", service("s", func(s map[string]any) {
		s["type"] = "NodePort"
		s["ports"] = []any{map[string]any{"port": 80, "nodePort": 30999}}
	}))...)
	add("finding-allocation", "headless", createAndRead(svcPath, "s", service("s", func(s map[string]any) { s["clusterIP"] = "None" }))...)
	add("finding-job", "generated-selector", createAndRead(jobPath, "j", obj(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`))...)
	add("finding-job", "manual-selector-missing", createAndRead(jobPath, "j", obj(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"manualSelector":true,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`))...)
	cronJob := func(extra string) any {
		return obj(`{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"cj"},"spec":{` + extra + `"jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}}}`)
	}
	cronJobPath := "/apis/batch/v1/namespaces/" + ns + "/cronjobs"
	for _, c := range []struct{ name, spec string }{
		{"schedule-hourly", `"schedule":"0 * * * *",`},
		{"schedule-names-and-steps", `"schedule":"*/15 9-17 ? JAN-jun mon-FRI",`},
		{"schedule-every", `"schedule":"@every 90s",`},
		{"schedule-one-field", `"schedule":"bad",`},
		{"schedule-minute-60", `"schedule":"60 * * * *",`},
		{"schedule-weekday-7", `"schedule":"0 0 * * 7",`},
		{"schedule-step-0", `"schedule":"*/0 * * * *",`},
		{"schedule-descriptor-unknown", `"schedule":"@fortnightly",`},
		{"schedule-TZ", `"schedule":"TZ=UTC 0 * * * *",`},
		{"schedule-CRON_TZ-and-timeZone", `"schedule":"CRON_TZ=UTC 0 * * * *","timeZone":"UTC",`},
		{"schedule-TZ-bad-zone", `"schedule":"TZ=Mars/Olympus 0 * * * *",`},
		{"timeZone-Tokyo", `"schedule":"0 9 * * *","timeZone":"Asia/Tokyo",`},
		{"timeZone-unknown", `"schedule":"0 * * * *","timeZone":"Mars/Olympus",`},
		{"timeZone-Local", `"schedule":"0 * * * *","timeZone":"Local",`},
		{"timeZone-empty", `"schedule":"0 * * * *","timeZone":"",`},
		{"timeZone-lowercase", `"schedule":"0 * * * *","timeZone":"utc",`},
		{"timeZone-dotdot", `"schedule":"0 * * * *","timeZone":"../etc",`},
	} {
		add("finding-cronjob", c.name, createAndRead(cronJobPath, "cj", cronJob(c.spec))...)
	}
	add("finding-cronjob", "update-adds-TZ", append(createAndRead(cronJobPath, "cj", cronJob(`"schedule":"0 * * * *",`)),
		patchStep("patch", cronJobPath+"/cj", ctMerge, obj(`{"spec":{"schedule":"TZ=UTC 0 * * * *"}}`)))...)
	add("finding-cronjob", "update-bad-schedule", append(createAndRead(cronJobPath, "cj", cronJob(`"schedule":"0 * * * *",`)),
		patchStep("patch", cronJobPath+"/cj", ctMerge, obj(`{"spec":{"schedule":"0 0 0 * *"}}`)))...)
	add("finding-admission-defaults", "pod", createAndRead(podsPath, "p", pod("p", nil))...)
	add("finding-admission-defaults", "pod-no-automount", createAndRead(podsPath, "p", pod("p", func(s map[string]any) { s["automountServiceAccountToken"] = false }))...)
	add("finding-admission-defaults", "pod-missing-serviceaccount", createAndRead(podsPath, "p", pod("p", func(s map[string]any) { s["serviceAccountName"] = "nobody" }))...)
	add("finding-admission-defaults", "pod-priorityclass-missing", createAndRead(podsPath, "p", pod("p", func(s map[string]any) { s["priorityClassName"] = "no-such-class" }))...)
	add("finding-admission-defaults", "pod-system-priority", createAndRead(podsPath, "p", pod("p", func(s map[string]any) { s["priorityClassName"] = "system-node-critical" }))...)
	add("finding-admission-defaults", "pod-own-toleration", createAndRead(podsPath, "p", pod("p", func(s map[string]any) {
		s["tolerations"] = []any{map[string]any{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 10}}
	}))...)
	add("finding-immutable", "pod-restartPolicy", append(createAndRead(podsPath, "p", pod("p", nil)),
		patchStep("patch", podsPath+"/p", ctMerge, obj(`{"spec":{"restartPolicy":"Never"}}`)))...)
	add("finding-immutable", "deployment-selector", append(createAndRead(depPath, "d", deployment("d", 1)),
		patchStep("patch", depPath+"/d", ctMerge, obj(`{"spec":{"selector":{"matchLabels":{"app":"web","v":"2"}},"template":{"metadata":{"labels":{"v":"2"}}}}}`)))...)
	add("finding-immutable", "service-clusterIP", append(createAndRead(svcPath, "s", service("s", nil)),
		patchStep("patch", svcPath+"/s", ctMerge, obj(`{"spec":{"clusterIP":"10.0.0.77","clusterIPs":["10.0.0.77"]}}`)))...)
	add("finding-immutable", "job-template", append(createAndRead(jobPath, "j", obj(`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`)),
		patchStep("patch", jobPath+"/j", ctSMP, obj(`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox:2"}]}}}}`)))...)
	add("finding-immutable", "configmap-immutable", append(createAndRead(cmPath, "c", obj(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"immutable":true,"data":{"a":"1"}}`)),
		patchStep("patch", cmPath+"/c", ctMerge, obj(`{"data":{"a":"2"}}`)), getStep("read-after", cmPath+"/c"))...)
	add("finding-immutable", "pod-image-mutable", append(createAndRead(podsPath, "p", pod("p", nil)),
		patchStep("patch", podsPath+"/p", ctSMP, obj(`{"spec":{"containers":[{"name":"app","image":"registry.k8s.io/pause:3.9"}]}}`)))...)

	cs = append(cs, ssaScenarios()...)
	cs = append(cs, ssaFlowScenarios()...)
	cs = append(cs, ssaVersionScenarios()...)
	cs = append(cs, dryRunScenarios()...)
	cs = append(cs, listWatchScenarios()...)
	cs = append(cs, lifecycleScenarios()...)
	cs = append(cs, gcScenarios()...)
	cs = append(cs, ratchetScenarios()...)
	return cs
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

var _ = strings.TrimSpace
