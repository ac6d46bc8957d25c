package kubectl_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

const podYAML = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
  - name: c
    image: nginx
`

// TestCh01_Kubectl_T1_GetPods checks T1 and K7: an empty namespace prints kubectl's "No
// resources found" line; with pods, the server's Table columns NAME READY STATUS RESTARTS
// AGE; -o wide adds the priority-1 columns.
func TestCh01_Kubectl_T1_GetPods(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	out, errOut, err := e.run("get", "pods")
	require.NoError(t, err)
	assert.Empty(t, out)
	assert.Equal(t, "No resources found in default namespace.\n", errOut)

	e.createPod("a", nil)
	e.createPod("b", nil, "c", "d")
	lines := strings.Split(strings.TrimSpace(e.ok("get", "pods")), "\n")
	require.Len(t, lines, 3, "%q", lines)
	assert.Equal(t, []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}, fields(lines[0]))
	assert.Equal(t, []string{"a", "0/1", "Pending", "0"}, fields(lines[1])[:4])
	assert.Equal(t, []string{"b", "0/2", "Pending", "0"}, fields(lines[2])[:4])
	assert.Regexp(t, `^\d+s$`, fields(lines[1])[4])

	wide := strings.Split(strings.TrimSpace(e.ok("get", "pods", "-o", "wide")), "\n")
	assert.Equal(t, "NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES", strings.Join(fields(wide[0]), " "))

	// Every listing asked for a Table, and got one from the list endpoint (K7).
	lists := e.rec.matching("GET", "/api/v1/namespaces/default/pods")
	require.NotEmpty(t, lists)
	for _, l := range lists {
		assert.Contains(t, l.Accept, "as=Table;v=v1;g=meta.k8s.io")
		assert.Equal(t, 200, l.Code)
	}
}

// TestCh01_Kubectl_T2_CreateTwice checks T2, K10 and K11: kubectl create -f with its default
// strict validation finds fieldValidation in our OpenAPI v3 document and sends
// fieldValidation=Strict (no --validate=false needed); a second create, also with
// --validate=false, fails with AlreadyExists.
func TestCh01_Kubectl_T2_CreateTwice(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	file := e.file("pod.yaml", podYAML)
	assert.Equal(t, "pod/web created\n", e.ok("create", "-f", file))
	posts := e.rec.matching("POST", "/api/v1/namespaces/default/pods")
	require.Len(t, posts, 1)
	assert.Contains(t, posts[0].URI, "fieldValidation=Strict")
	assert.Equal(t, 201, posts[0].Code)
	assert.NotEmpty(t, e.rec.matching("GET", "/openapi/v3"), "K11: strict validation reads OpenAPI v3")
	assert.Empty(t, e.rec.matching("GET", "/openapi/v2"), "v3 was enough")
	assert.Equal(t, map[string]string{"app": "web"}, e.getPod("web").Labels)

	for _, args := range [][]string{{"create", "-f", file}, {"create", "-f", file, "--validate=false"}} {
		out, errOut, err := e.run(args...)
		require.Error(t, err, strings.Join(args, " "))
		assert.Empty(t, out)
		assert.Equal(t, `Error from server (AlreadyExists): error when creating "`+file+`": pods "web" already exists`+"\n", errOut)
	}
}

// TestCh01_Kubectl_T3_ChunkSize checks T3 and K8: --chunk-size=1 over 3 pods makes 3 LIST
// requests, all answered at the first page's resourceVersion, and prints 3 rows under one
// header.
func TestCh01_Kubectl_T3_ChunkSize(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	for _, n := range []string{"a", "b", "c"} {
		e.createPod(n, nil)
	}
	e.srv.ResetRequestCounts()
	lines := strings.Split(strings.TrimSpace(e.ok("get", "pods", "--chunk-size=1")), "\n")
	require.Len(t, lines, 4, "%q", lines)
	assert.Equal(t, "NAME", fields(lines[0])[0])
	for i, n := range []string{"a", "b", "c"} {
		assert.Equal(t, n, fields(lines[i+1])[0])
	}
	assert.Equal(t, 3, e.srv.RequestCounts()[apiserver.RequestKey{Verb: "list", Resource: "pods"}])
	pages := e.rec.matching("GET", "/api/v1/namespaces/default/pods")
	require.Len(t, pages, 3)
	assert.Contains(t, pages[0].URI, "limit=1")
	assert.NotContains(t, pages[0].URI, "continue=")
	for _, p := range pages[1:] {
		assert.Contains(t, p.URI, "continue=")
	}
	assert.NotEmpty(t, pages[0].ListRV)
	assert.Equal(t, []string{pages[0].ListRV, pages[0].ListRV, pages[0].ListRV},
		[]string{pages[0].ListRV, pages[1].ListRV, pages[2].ListRV}, "every page at the snapshot RV (L7)")
}

// TestCh01_Kubectl_T4_GetPodsWatch checks T4 and K9: kubectl get pods -w prints a row for
// each create, update and delete made by another client, and is still running afterwards.
func TestCh01_Kubectl_T4_GetPodsWatch(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.createPod("a", nil)
	w := e.start("get", "pods", "-w")
	assert.Equal(t, "NAME", fields(w.next())[0])
	assert.Equal(t, "a", fields(w.next())[0])

	e.createPod("b", nil)
	assert.Equal(t, []string{"b", "0/1", "Pending"}, fields(w.next())[:3])
	e.relabel("a", map[string]string{"x": "1"})
	assert.Equal(t, "a", fields(w.next())[0])
	e.deletePod("b")
	assert.Equal(t, "b", fields(w.next())[0])
	assert.True(t, w.running(), "T4: the watch stays open until interrupted")

	// The watch started at the list's resourceVersion, without timeoutSeconds (K9).
	var watches []string
	for _, ex := range e.rec.exchanges() {
		if strings.Contains(ex.URI, "watch=true") {
			watches = append(watches, ex.URI)
		}
	}
	require.Len(t, watches, 1)
	list := e.rec.matching("GET", "/api/v1/namespaces/default/pods")[0]
	assert.Contains(t, watches[0], "resourceVersion="+list.ListRV)
	assert.NotContains(t, watches[0], "timeoutSeconds")
}

// TestCh01_Kubectl_T5_GetPodWatch checks T5, K9 and R10: kubectl get pod x -w prints the
// current row once, then each change of x exactly once, and nothing for other pods.
func TestCh01_Kubectl_T5_GetPodWatch(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.createPod("x", map[string]string{"app": "x"})
	e.createPod("y", nil)
	w := e.start("get", "pod", "x", "-w", "--show-labels")
	assert.Equal(t, "LABELS", fields(w.next())[5])
	assert.Equal(t, []string{"x", "app=x"}, pick(fields(w.next()), 0, 5))
	// kubectl prints the row of its GET, then opens the watch from RV 0 and discards the
	// watch's first event, which it expects to be that same state (K9). A change made before
	// the watch opens is therefore never shown, against a real server too; wait for it.
	e.waitForWatch("metadata.name=x")

	e.relabel("y", map[string]string{"ignored": "yes"})
	e.relabel("x", map[string]string{"app": "x", "v": "1"})
	assert.Equal(t, []string{"x", "app=x,v=1"}, pick(fields(w.next()), 0, 5), "no duplicate of the first row, nothing for y")
	e.relabel("x", map[string]string{"app": "x", "v": "2"})
	assert.Equal(t, []string{"x", "app=x,v=2"}, pick(fields(w.next()), 0, 5))
	e.deletePod("x")
	assert.Equal(t, []string{"x", "app=x,v=2"}, pick(fields(w.next()), 0, 5))
	assert.True(t, w.running())

	var watch string
	for _, ex := range e.rec.exchanges() {
		if strings.Contains(ex.URI, "watch=true") {
			watch = ex.URI
		}
	}
	assert.Contains(t, watch, "fieldSelector=metadata.name%3Dx")
	assert.Contains(t, watch, "resourceVersion=0")
}

func pick(cells []string, idx ...int) []string {
	var out []string
	for _, i := range idx {
		if i < len(cells) {
			out = append(out, cells[i])
		}
	}
	return out
}

// TestCh01_Kubectl_T6_Delete checks T6, K12 and D5: kubectl delete pod x returns at once
// for a pod no node runs, which the server deletes immediately as the real one does: the GET
// after the DELETE is already 404, so kubectl never needs its wait-for-deletion watch. A
// pod bound to a node is deleted gracefully: it stays Terminating (deletionTimestamp,
// deletionGracePeriodSeconds 30) until its kubelet's final delete, and no kubelet runs
// here, so only --force --grace-period=0 removes it, as on a real server without kubelets.
func TestCh01_Kubectl_T6_Delete(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.createPod("x", nil)
	// Created already bound: an update may not set spec.nodeName (a scheduler binds).
	scheduled := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "y"},
		Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	_, err := e.srv.Create(t.Context(), "pods", "default", scheduled)
	require.NoError(t, err)

	e.rec.reset()
	assert.Equal(t, `pod "x" deleted`+"\n", e.ok("delete", "pod", "x"))
	dels := e.rec.matching("DELETE", "/api/v1/namespaces/default/pods/x")
	require.Len(t, dels, 1)
	assert.Equal(t, 200, dels[0].Code)
	gets := e.rec.matching("GET", "/api/v1/namespaces/default/pods/x")
	require.NotEmpty(t, gets)
	assert.Equal(t, 404, gets[len(gets)-1].Code)
	for _, ex := range e.rec.exchanges() {
		assert.NotContains(t, ex.URI, "watch=", "no wait-for-deletion watch")
	}
	_, errOut, err := e.run("delete", "pod", "x")
	require.Error(t, err)
	assert.Equal(t, `Error from server (NotFound): pods "x" not found`+"\n", errOut)

	assert.Equal(t, `pod "y" deleted`+"\n", e.ok("delete", "pod", "y", "--wait=false"))
	assert.Equal(t, "30", e.ok("get", "pod", "y", "-o", "jsonpath={.metadata.deletionGracePeriodSeconds}"))
	assert.Equal(t, `pod "y" force deleted`+"\n", e.ok("delete", "pod", "y", "--force", "--grace-period=0"))
	_, _, err = e.run("get", "pod", "y")
	require.Error(t, err)
}

// TestCh01_Kubectl_T7_APIResources checks T7, K5 and K6: kubectl api-resources -o wide lists
// the served kinds with short names, API version, scope, kind, verbs and categories, from
// aggregated discovery alone, exactly as it lists those of a real v1.36.3 server
// (apiserver/testdata/reference/api-resources.txt, captured from one).
func TestCh01_Kubectl_T7_APIResources(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	ref, err := os.ReadFile("../../../apiserver/testdata/reference/api-resources.txt")
	require.NoError(t, err)
	table := func(out string) (header []string, rows []string) {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		for _, l := range lines[1:] {
			rows = append(rows, strings.Join(fields(l), " "))
		}
		return fields(lines[0]), rows
	}
	wantHeader, want := table(string(ref))
	gotHeader, got := table(e.ok("api-resources", "-o", "wide"))
	assert.Equal(t, wantHeader, gotHeader)
	// kubectl sorts by group, then name: the same rows in the same order.
	assert.Equal(t, want, got)
	for _, ex := range e.rec.exchanges() {
		assert.NotEqual(t, "/api/v1", strings.Split(ex.URI, "?")[0], "aggregated discovery: no per-group-version request")
	}
	// The short names work.
	e.createPod("a", nil)
	assert.Contains(t, e.ok("get", "po"), "a ")
	assert.Contains(t, e.ok("get", "ns"), "kube-system")
}

// TestCh01_Kubectl_K13_GetRawWatch checks K13: kubectl get --raw streams a raw watch, one
// JSON event per line, until it is killed.
func TestCh01_Kubectl_K13_GetRawWatch(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.createPod("a", nil)
	w := e.start("get", "--raw", "/api/v1/pods?watch=1")
	type event struct {
		Type   string `json:"type"`
		Object struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		} `json:"object"`
	}
	decode := func(line string) string {
		var ev event
		require.NoError(t, json.Unmarshal([]byte(line), &ev), line)
		return ev.Type + " " + ev.Object.Kind + " " + ev.Object.Metadata.Name
	}
	assert.Equal(t, "ADDED Pod a", decode(w.next()))
	e.createPod("b", nil)
	assert.Equal(t, "ADDED Pod b", decode(w.next()))
	e.deletePod("a")
	assert.Equal(t, "DELETED Pod a", decode(w.next()))
	assert.True(t, w.running())
}

// TestCh01_Kubectl_GetConfigMapsJSON checks -o json: plain JSON (no Table), every field kept.
func TestCh01_Kubectl_GetConfigMapsJSON(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.file("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  k: v\n")
	e.ok("create", "-f", e.dir+"/cm.yaml")
	var list struct {
		Items []struct {
			Kind     string            `json:"kind"`
			Data     map[string]string `json:"data"`
			Metadata struct {
				Name, Namespace, ResourceVersion, UID string
			} `json:"metadata"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(e.ok("get", "configmaps", "-o", "json")), &list))
	require.Len(t, list.Items, 1)
	it := list.Items[0]
	assert.Equal(t, "ConfigMap", it.Kind)
	assert.Equal(t, map[string]string{"k": "v"}, it.Data)
	assert.Equal(t, "cfg", it.Metadata.Name)
	assert.Equal(t, "default", it.Metadata.Namespace)
	assert.NotEmpty(t, it.Metadata.ResourceVersion)
	assert.NotEmpty(t, it.Metadata.UID)
	lists := e.rec.matching("GET", "/api/v1/namespaces/default/configmaps")
	require.NotEmpty(t, lists)
	assert.Equal(t, "application/json", lists[len(lists)-1].Accept, "K7: -o json asks for plain JSON")

	lines := strings.Split(strings.TrimSpace(e.ok("get", "cm")), "\n")
	assert.Equal(t, []string{"NAME", "DATA", "AGE"}, fields(lines[0]))
	assert.Equal(t, []string{"cfg", "1"}, fields(lines[1])[:2])
}

// TestCh01_Kubectl_LabelAnnotatePatch checks X2: label and annotate (merge patches), patch
// (strategic by default: containers merge by name) and patch --type=merge (lists replaced).
func TestCh01_Kubectl_LabelAnnotatePatch(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	e.createPod("x", map[string]string{"app": "x"}, "c", "d")

	assert.Equal(t, "pod/x labeled\n", e.ok("label", "pod", "x", "tier=front"))
	assert.Equal(t, map[string]string{"app": "x", "tier": "front"}, e.getPod("x").Labels)
	assert.Equal(t, "pod/x annotated\n", e.ok("annotate", "pod", "x", "note=hello"))
	assert.Equal(t, "hello", e.getPod("x").Annotations["note"])
	assert.Equal(t, "pod/x unlabeled\n", e.ok("label", "pod", "x", "tier-"))
	assert.Equal(t, map[string]string{"app": "x"}, e.getPod("x").Labels)

	assert.Equal(t, "pod/x patched\n", e.ok("patch", "pod", "x", "-p", `{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}`))
	cs := e.getPod("x").Spec.Containers
	require.Len(t, cs, 2, "strategic merge keeps d")
	assert.Equal(t, []string{"c nginx:2", "d nginx"}, []string{cs[0].Name + " " + cs[0].Image, cs[1].Name + " " + cs[1].Image})

	// A merge patch would replace the containers list, which a pod update may not do (it
	// would drop container d and the token mount admission added): it patches metadata.
	assert.Equal(t, "pod/x patched\n", e.ok("patch", "pod", "x", "--type=merge", "-p", `{"metadata":{"annotations":{"note":"merged"}}}`))
	assert.Equal(t, "merged", e.getPod("x").Annotations["note"])

	assert.Equal(t, "pod/x patched\n", e.ok("patch", "pod", "x", "--type=json", "-p", `[{"op":"add","path":"/metadata/labels/j","value":"1"}]`))
	assert.Equal(t, "1", e.getPod("x").Labels["j"])

	types := map[string]string{}
	for _, ex := range e.rec.matching("PATCH", "/api/v1/namespaces/default/pods/x") {
		types[ex.URI[strings.Index(ex.URI, "fieldManager="):]] += ex.ContentType + ";"
	}
	assert.Equal(t, map[string]string{
		"fieldManager=kubectl-label":    "application/merge-patch+json;application/merge-patch+json;",
		"fieldManager=kubectl-annotate": "application/merge-patch+json;",
		"fieldManager=kubectl-patch":    "application/strategic-merge-patch+json;application/merge-patch+json;application/json-patch+json;",
	}, types)

	// A no-op patch changes nothing (R16).
	rv := e.getPod("x").ResourceVersion
	assert.Equal(t, "pod/x patched (no change)\n", e.ok("patch", "pod", "x", "--type=merge", "-p", `{"metadata":{"labels":{"j":"1"}}}`))
	assert.Equal(t, rv, e.getPod("x").ResourceVersion)
}

// TestCh01_Kubectl_Apply checks client-side apply: create, then a configured update. It
// reads OpenAPI (and tolerates the missing v2), then patches strategically.
func TestCh01_Kubectl_Apply(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	file := e.file("pod.yaml", podYAML)
	assert.Equal(t, "pod/web created\n", e.ok("apply", "-f", file))
	e.file("pod.yaml", strings.Replace(podYAML, "app: web", "app: web2", 1))
	assert.Equal(t, "pod/web configured\n", e.ok("apply", "-f", file))
	assert.Equal(t, map[string]string{"app": "web2"}, e.getPod("web").Labels)
	assert.Contains(t, e.getPod("web").Annotations, "kubectl.kubernetes.io/last-applied-configuration")
}

// TestCh01_Kubectl_N2_GeneratorsSendProtobuf checks N2 and CG1: the generator commands use
// kubectl's typed clients, which send protobuf bodies and ask for protobuf back; the server
// reads them as it reads JSON, and kubectl prints what it stored.
func TestCh01_Kubectl_N2_GeneratorsSendProtobuf(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"create", "namespace", "team-a"}, "namespace/team-a created\n"},
		{[]string{"create", "configmap", "x", "--from-literal=a=b"}, "configmap/x created\n"},
		{[]string{"create", "secret", "generic", "creds", "--from-literal=user=admin"}, "secret/creds created\n"},
		{[]string{"create", "deployment", "web", "--image=nginx:1.27", "--replicas=2"}, "deployment.apps/web created\n"},
		{[]string{"create", "service", "clusterip", "web", "--tcp=80:8080"}, "service/web created\n"},
		{[]string{"create", "serviceaccount", "robot"}, "serviceaccount/robot created\n"},
		{[]string{"create", "job", "once", "--image=busybox"}, "job.batch/once created\n"},
		{[]string{"create", "cronjob", "tick", "--image=busybox", "--schedule=*/5 * * * *"}, "cronjob.batch/tick created\n"},
	} {
		assert.Equal(t, tc.out, e.ok(tc.args...), strings.Join(tc.args, " "))
	}
	posts := e.rec.matching("POST", "/api/v1/namespaces/default/configmaps")
	require.Len(t, posts, 1)
	assert.Equal(t, "application/vnd.kubernetes.protobuf", posts[0].ContentType)
	assert.Equal(t, 201, posts[0].Code)
	assert.Equal(t, "b", e.ok("get", "configmap", "x", "-o", "jsonpath={.data.a}"))
	assert.Equal(t, "YWRtaW4=", e.ok("get", "secret", "creds", "-o", "jsonpath={.data.user}"))
	assert.Equal(t, "2 nginx:1.27", e.ok("get", "deployment", "web", "-o", "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}"))
	assert.Equal(t, "80 8080", e.ok("get", "service", "web", "-o", "jsonpath={.spec.ports[0].port} {.spec.ports[0].targetPort}"))
	// kubectl delete sends DeleteOptions in protobuf too.
	assert.Equal(t, "configmap \"x\" deleted\n", e.ok("delete", "configmap", "x"))
}

// TestCh01_Kubectl_BearerTokenTLS checks Options.BearerToken with kubectl, which sends a
// token only over https: against StartTLS and the server's own Kubeconfig the right token
// works, a wrong one gets kubectl's "You must be logged in" (S2: 401 Unauthorized).
func TestCh01_Kubectl_BearerTokenTLS(t *testing.T) {
	e := newTLSEnv(t, apiserver.Options{BearerToken: "s3cret"})
	e.createPod("a", nil)
	assert.Equal(t, "a", fields(strings.Split(e.ok("get", "pods"), "\n")[1])[0])
	_, errOut, err := e.run("get", "pods", "--token", "wrong")
	require.Error(t, err)
	assert.Contains(t, errOut, "error: You must be logged in to the server (Unauthorized)")
}

// TestCh01_Kubectl_K1_Dispatcher checks K1: the reported minor picks the kubectl that runs.
// The plain kubectl of other machines reports its own version; then only the server half is
// checked.
func TestCh01_Kubectl_K1_Dispatcher(t *testing.T) {
	e := newEnv(t, apiserver.Options{Version: "v1.30.2"})
	var v struct {
		ClientVersion struct{ GitVersion, Minor string } `json:"clientVersion"`
		ServerVersion struct{ GitVersion, Minor string } `json:"serverVersion"`
	}
	require.NoError(t, json.Unmarshal([]byte(e.ok("version", "-o", "json")), &v))
	assert.Equal(t, "v1.30.2", v.ServerVersion.GitVersion)
	assert.Equal(t, "30", v.ServerVersion.Minor)
	if strings.Contains(e.ok("version", "--client"), "dispatcher") {
		assert.Equal(t, "30", v.ClientVersion.Minor, "the dispatcher ran kubectl 1.30")
	}
}
