package apiserver

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// admissionNS creates a namespace and, unless noSA, the `default` ServiceAccount the
// service account controller would make.
func admissionNS(t *testing.T, c *client, name string, noSA bool) {
	t.Helper()
	r := c.do("POST", "/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}})
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	if !noSA {
		r = c.do("POST", "/api/v1/namespaces/"+name+"/serviceaccounts", map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}})
		require.Equal(t, http.StatusCreated, r.code, string(r.body))
	}
}

func podBody(name string, containers ...map[string]any) map[string]any {
	cs := make([]any, len(containers))
	for i, c := range containers {
		cs[i] = c
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name}, "spec": map[string]any{"containers": cs}}
}

// TestCh01_Admission_FreshNamespacePodDefaults: a pod in a fresh namespace gets what the
// reference's ServiceAccount, Priority and DefaultTolerationSeconds plugins add, and with
// StrictServiceAccounts it is refused until the `default` account exists, with the
// reference's message.
func TestCh01_Admission_FreshNamespacePodDefaults(t *testing.T) {
	_, c := newServer(t, Options{StrictServiceAccounts: true})
	admissionNS(t, c, "fresh", true)
	r := c.do("POST", "/api/v1/namespaces/fresh/pods", map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"generateName": "p-"}, "spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "x"}}}})
	require.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods "p-" is forbidden: error looking up service account fresh/default: serviceaccount "default" not found`, r.status(t).Message)

	r = c.do("POST", "/api/v1/namespaces/fresh/serviceaccounts", map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}})
	require.Equal(t, http.StatusCreated, r.code)
	r = c.do("POST", "/api/v1/namespaces/fresh/pods", podBody("p", map[string]any{"name": "c", "image": "x"}))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	var pod map[string]any
	r.decode(t, &pod)
	spec := pod["spec"].(map[string]any)
	vols := spec["volumes"].([]any)
	require.Len(t, vols, 1)
	volName := vols[0].(map[string]any)["name"].(string)
	assert.Regexp(t, regexp.MustCompile(`^kube-api-access-[a-z0-9]{5}$`), volName)
	// The reference's answer, the generated name aside.
	want := map[string]any{
		"serviceAccount": "default", "serviceAccountName": "default", "priority": 0.0, "preemptionPolicy": "PreemptLowerPriority",
		"tolerations": []any{
			map[string]any{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300.0},
			map[string]any{"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300.0},
		},
		"volumes": []any{map[string]any{"name": volName, "projected": map[string]any{"defaultMode": 420.0, "sources": []any{
			map[string]any{"serviceAccountToken": map[string]any{"expirationSeconds": 3607.0, "path": "token"}},
			map[string]any{"configMap": map[string]any{"items": []any{map[string]any{"key": "ca.crt", "path": "ca.crt"}}, "name": "kube-root-ca.crt"}},
			map[string]any{"downwardAPI": map[string]any{"items": []any{map[string]any{"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}}}},
		}}}},
		"mounts":   []any{map[string]any{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": volName, "readOnly": true}},
		"qosClass": "BestEffort",
	}
	got := map[string]any{"mounts": spec["containers"].([]any)[0].(map[string]any)["volumeMounts"],
		"qosClass": pod["status"].(map[string]any)["qosClass"]}
	for _, k := range []string{"serviceAccount", "serviceAccountName", "priority", "preemptionPolicy", "tolerations", "volumes"} {
		got[k] = spec[k]
	}
	assert.Empty(t, cmp.Diff(want, got))

	r = c.do("POST", "/api/v1/namespaces/fresh/pods", map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "q"},
		"spec": map[string]any{"serviceAccountName": "other", "containers": []any{map[string]any{"name": "c", "image": "x"}}}})
	require.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods "q" is forbidden: error looking up service account fresh/other: serviceaccount "other" not found`, r.status(t).Message)
}

// TestCh01_Admission_AssumedDefaultServiceAccount: without StrictServiceAccounts the
// `default` account is assumed, as on a cluster whose controller made it.
func TestCh01_Admission_AssumedDefaultServiceAccount(t *testing.T) {
	var pod map[string]any
	_, lenient := newServer(t, Options{})
	admissionNS(t, lenient, "fresh", true)
	r := lenient.do("POST", "/api/v1/namespaces/fresh/pods", podBody("p", map[string]any{"name": "c", "image": "x"}))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	r.decode(t, &pod)
	assert.Equal(t, "default", pod["spec"].(map[string]any)["serviceAccountName"])
	assert.Len(t, pod["spec"].(map[string]any)["volumes"], 1)
}

// TestCh01_Admission_LimitRangeDefaultsContainerResources: LimitRanger fills a container's
// missing requests and limits from the namespace's LimitRange, notes it in the
// kubernetes.io/limit-ranger annotation, and refuses containers above max, with the
// reference's texts.
func TestCh01_Admission_LimitRangeDefaultsContainerResources(t *testing.T) {
	_, c := newServer(t, Options{StrictServiceAccounts: true})
	admissionNS(t, c, "lr", false)
	r := c.do("POST", "/api/v1/namespaces/lr/limitranges", map[string]any{"apiVersion": "v1", "kind": "LimitRange", "metadata": map[string]any{"name": "lr"},
		"spec": map[string]any{"limits": []any{map[string]any{"type": "Container", "default": map[string]any{"cpu": "500m", "memory": "128Mi"},
			"defaultRequest": map[string]any{"cpu": "250m"}, "max": map[string]any{"cpu": "1"}}}}})
	require.Equal(t, http.StatusCreated, r.code, string(r.body))

	r = c.do("POST", "/api/v1/namespaces/lr/pods", podBody("lr1", map[string]any{"name": "c", "image": "x"}))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	var pod map[string]any
	r.decode(t, &pod)
	assert.Equal(t, map[string]any{"kubernetes.io/limit-ranger": "LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c"},
		pod["metadata"].(map[string]any)["annotations"])
	assert.Equal(t, map[string]any{"limits": map[string]any{"cpu": "500m", "memory": "128Mi"}, "requests": map[string]any{"cpu": "250m", "memory": "128Mi"}},
		pod["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["resources"])
	assert.Equal(t, "Burstable", pod["status"].(map[string]any)["qosClass"])

	r = c.do("POST", "/api/v1/namespaces/lr/pods", podBody("lr2",
		map[string]any{"name": "c", "image": "x", "resources": map[string]any{"limits": map[string]any{"cpu": "2"}}},
		map[string]any{"name": "d", "image": "x", "resources": map[string]any{"limits": map[string]any{"cpu": "3"}}}))
	require.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods "lr2" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum cpu usage per Container is 1, but limit is 3]`, r.status(t).Message)
}

// TestCh01_Admission_ResourceQuotaStopsThePodThatExceedsIt: as on a server without the
// quota controller, a quota counts once its status.hard is set, asks for status.used
// first, then charges each admitted pod and refuses the one beyond it (403), with the
// reference's texts.
func TestCh01_Admission_ResourceQuotaStopsThePodThatExceedsIt(t *testing.T) {
	_, c := newServer(t, Options{StrictServiceAccounts: true})
	admissionNS(t, c, "rq", false)
	hard := map[string]any{"pods": "1", "requests.cpu": "1", "count/configmaps": "1"}
	r := c.do("POST", "/api/v1/namespaces/rq/resourcequotas", map[string]any{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": map[string]any{"name": "rq"},
		"spec": map[string]any{"hard": hard}})
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	pod := func(name string) map[string]any {
		return podBody(name, map[string]any{"name": "c", "image": "x", "resources": map[string]any{"requests": map[string]any{"cpu": "600m"}}})
	}
	r = c.do("POST", "/api/v1/namespaces/rq/pods", pod("q0"))
	require.Equal(t, http.StatusCreated, r.code, "no status.hard yet: the quota does not count")

	patchStatus := func(status map[string]any) {
		t.Helper()
		r := c.do("PATCH", "/api/v1/namespaces/rq/resourcequotas/rq/status", map[string]any{"status": status}, "Content-Type", "application/merge-patch+json")
		require.Equal(t, http.StatusOK, r.code, string(r.body))
	}
	patchStatus(map[string]any{"hard": hard})
	r = c.do("POST", "/api/v1/namespaces/rq/pods", pod("q1"))
	require.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods "q1" is forbidden: status unknown for quota: rq, resources: pods,requests.cpu`, r.status(t).Message)

	patchStatus(map[string]any{"used": map[string]any{"pods": "0", "requests.cpu": "0", "count/configmaps": "0"}})
	r = c.do("POST", "/api/v1/namespaces/rq/pods", pod("q1"))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	r = c.do("POST", "/api/v1/namespaces/rq/pods", pod("q2"))
	require.Equal(t, http.StatusForbidden, r.code)
	st := r.status(t)
	assert.Equal(t, `pods "q2" is forbidden: exceeded quota: rq, requested: pods=1,requests.cpu=600m, used: pods=1,requests.cpu=600m, limited: pods=1,requests.cpu=1`, st.Message)
	assert.Equal(t, "Forbidden", string(st.Reason))

	for i, want := range []int{http.StatusCreated, http.StatusForbidden} {
		r = c.do("POST", "/api/v1/namespaces/rq/configmaps", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": []string{"c1", "c2"}[i]}})
		require.Equal(t, want, r.code, string(r.body))
	}
	assert.Equal(t, `configmaps "c2" is forbidden: exceeded quota: rq, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1`, r.status(t).Message)

	var q map[string]any
	c.get("/api/v1/namespaces/rq/resourcequotas/rq").decode(t, &q)
	assert.Equal(t, map[string]any{"count/configmaps": "1", "pods": "1", "requests.cpu": "600m"}, q["status"].(map[string]any)["used"])
}

// TestCh01_Admission_RestrictedLabelRefusesPrivilegedPod: PodSecurity's enforce label
// refuses a privileged pod with the reference's list of failed checks, its warn label
// warns of a pod and of a Deployment's template, and a bad label value is refused on the
// namespace.
func TestCh01_Admission_RestrictedLabelRefusesPrivilegedPod(t *testing.T) {
	_, c := newServer(t, Options{StrictServiceAccounts: true})
	nsWithLabels := func(name string, labels map[string]any) response {
		return c.do("POST", "/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name, "labels": labels}})
	}
	require.Equal(t, http.StatusCreated, nsWithLabels("restricted", map[string]any{"pod-security.kubernetes.io/enforce": "restricted"}).code)
	r := c.do("POST", "/api/v1/namespaces/restricted/serviceaccounts", map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}})
	require.Equal(t, http.StatusCreated, r.code)
	priv := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "priv"}, "spec": map[string]any{"hostNetwork": true,
		"containers": []any{map[string]any{"name": "c", "image": "x", "securityContext": map[string]any{"privileged": true},
			"ports": []any{map[string]any{"containerPort": 80, "hostPort": 80}}}},
		"volumes": []any{map[string]any{"name": "h", "hostPath": map[string]any{"path": "/"}}}}}
	r = c.do("POST", "/api/v1/namespaces/restricted/pods", priv)
	require.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `pods "priv" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), hostPort (container "c" uses hostPort 80), `+
		`privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), `+
		`unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), restricted volume types (volume "h" uses restricted volume type "hostPath"), `+
		`runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), `+
		`seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`, r.status(t).Message)

	require.Equal(t, http.StatusCreated, nsWithLabels("warned", map[string]any{"pod-security.kubernetes.io/enforce": "baseline",
		"pod-security.kubernetes.io/warn": "restricted", "pod-security.kubernetes.io/warn-version": "v1.30"}).code)
	r = c.do("POST", "/api/v1/namespaces/warned/serviceaccounts", map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}})
	require.Equal(t, http.StatusCreated, r.code)
	r = c.do("POST", "/api/v1/namespaces/warned/pods", podBody("plain", map[string]any{"name": "c", "image": "x"}))
	require.Equal(t, http.StatusCreated, r.code, string(r.body))
	assert.Equal(t, []string{`299 - "would violate PodSecurity \"restricted:v1.30\": allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), ` +
		`unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), ` +
		`seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"`}, r.header.Values("Warning"))
	r = c.do("POST", "/apis/apps/v1/namespaces/warned/deployments", map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"a": "b"}}, "template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "x", "securityContext": map[string]any{"privileged": true}}}}}}})
	require.Equal(t, http.StatusCreated, r.code, "templates are only warned of")
	assert.Equal(t, []string{`299 - "would violate PodSecurity \"restricted:v1.30\": privileged (container \"c\" must not set securityContext.privileged=true), ` +
		`allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), ` +
		`runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), ` +
		`seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"`}, r.header.Values("Warning"))

	// Tightening a namespace's enforce level warns of the pods already there.
	for _, name := range []string{"lr1", "pc2"} {
		require.Equal(t, http.StatusCreated, c.do("POST", "/api/v1/namespaces/warned/pods", podBody(name, map[string]any{"name": "c", "image": "x"})).code)
	}
	r = c.do("PATCH", "/api/v1/namespaces/warned", map[string]any{"metadata": map[string]any{"labels": map[string]any{"pod-security.kubernetes.io/enforce": "restricted"}}},
		"Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, string(r.body))
	assert.Equal(t, []string{`299 - "existing pods in namespace \"warned\" violate the new PodSecurity enforce level \"restricted:latest\""`,
		`299 - "lr1 (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile"`}, r.header.Values("Warning"))

	r = nsWithLabels("bad", map[string]any{"pod-security.kubernetes.io/enforce": "strict", "pod-security.kubernetes.io/warn-version": "1.2"})
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, `Namespace "bad" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, `+
		`metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.2": must be "latest" or "v1.x"]`, r.status(t).Message)
}
