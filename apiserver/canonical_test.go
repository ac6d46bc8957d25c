package apiserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_CanonicalQuantitiesOnWrite: what is stored, and so read back and watched, for a
// quantity is resource.Quantity's text, through every way in (POST, PATCH, the Go API), as
// the real server stores it (finding-canonical-quantity of the conformance suite).
func TestCh01_CanonicalQuantitiesOnWrite(t *testing.T) {
	s, c := newServer(t, Options{})
	body := `{"metadata":{"name":"q"},"spec":{"containers":[{"name":"c","image":"busybox","resources":` +
		`{"requests":{"cpu":0.5,"memory":"1.5Gi"},"limits":{"cpu":"1000m","memory":"2048Mi","ephemeral-storage":1e3}}}]}}`
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, podsPath, body).code)
	resources := func() map[string]any {
		var p podState
		c.get(podsPath+"/q").decode(t, &p)
		return p.Spec.Containers[0]["resources"].(map[string]any)
	}
	assert.Equal(t, map[string]any{
		"requests": map[string]any{"cpu": "500m", "memory": "1536Mi", "ephemeral-storage": "1e3"}, // the limit defaults the request
		"limits":   map[string]any{"cpu": "1", "memory": "2Gi", "ephemeral-storage": "1e3"},
	}, resources())

	r := c.do(http.MethodPatch, podsPath+"/q", `{"metadata":{"annotations":{"a":"b"}}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = c.do(http.MethodPatch, podsPath+"/q/resize", `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"0.75"}}}]}}`, "Content-Type", smp)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Equal(t, "750m", resources()["requests"].(map[string]any)["cpu"])

	pod := &api.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "go"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "x",
			"resources": map[string]any{"limits": map[string]any{"memory": "1000000"}}}}}}}
	out, err := s.Create(context.Background(), "pods", "default", pod)
	require.NoError(t, err)
	data, err := json.Marshal(out)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"limits":{"memory":"1M"}`)
}

// TestCh01_ServiceNodePortLifecycle: node ports allocated for NodePort and LoadBalancer
// services from 30000-32767, kept across updates that leave them out, refused when taken,
// and given back by a delete or a change of type, as the real REST storage does.
func TestCh01_ServiceNodePortLifecycle(t *testing.T) {
	_, c := newServer(t, Options{})
	create := func(name, spec string) response {
		return c.do(http.MethodPost, svcPath, `{"metadata":{"name":"`+name+`"},"spec":`+spec+`}`)
	}
	nodePorts := func(r response) []int {
		var svc struct {
			Spec struct {
				Ports               []struct{ NodePort int }
				HealthCheckNodePort int
			}
		}
		r.decode(t, &svc)
		var out []int
		for _, p := range svc.Spec.Ports {
			out = append(out, p.NodePort)
		}
		if svc.Spec.HealthCheckNodePort != 0 {
			out = append(out, svc.Spec.HealthCheckNodePort)
		}
		return out
	}
	r := create("a", `{"type":"NodePort","ports":[{"port":80}]}`)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	a := nodePorts(r)[0]
	assert.True(t, a >= 30086 && a <= 32767, "a dynamic port comes from the upper part of the range: %d", a)

	clash := create("b", `{"type":"NodePort","ports":[{"port":80,"nodePort":`+strconv.Itoa(a)+`}]}`)
	require.Equal(t, http.StatusUnprocessableEntity, clash.code)
	assert.Equal(t, `Service "b" is invalid: spec.ports[0].nodePort: Invalid value: `+strconv.Itoa(a)+`: provided port is already allocated`, clash.status(t).Message)

	// A PUT without the node port keeps it (patchAllocatedValues).
	var cur map[string]any
	c.get(svcPath+"/a").decode(t, &cur)
	delete(cur["spec"].(map[string]any)["ports"].([]any)[0].(map[string]any), "nodePort")
	r = c.do(http.MethodPut, svcPath+"/a", cur)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Equal(t, []int{a}, nodePorts(r))

	// A change of type to ClusterIP drops and frees it.
	r = c.do(http.MethodPatch, svcPath+"/a", `{"spec":{"type":"ClusterIP"}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	assert.Equal(t, []int{0}, nodePorts(r))
	r = create("b", `{"type":"NodePort","ports":[{"port":80,"nodePort":`+strconv.Itoa(a)+`}]}`)
	require.Equal(t, http.StatusCreated, r.code, "the port is free again: %s", r.body)

	// A delete frees it too.
	require.Equal(t, http.StatusOK, c.do(http.MethodDelete, svcPath+"/b", nil).code)
	r = create("c", `{"type":"LoadBalancer","externalTrafficPolicy":"Local","ports":[{"port":80,"nodePort":`+strconv.Itoa(a)+`}]}`)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	lb := nodePorts(r)
	require.Len(t, lb, 2, "a node port and a health check node port")
	assert.Equal(t, a, lb[0])

	// A dry run answers a port and holds nothing.
	r = c.do(http.MethodPost, svcPath+"?dryRun=All", `{"metadata":{"name":"d"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`)
	require.Equal(t, http.StatusCreated, r.code)
	assert.Equal(t, []int{32769}, nodePorts(r), "upstream's dry run numbers on from 32768")
	r = create("e", `{"type":"NodePort","ports":[{"port":80,"nodePort":40000}]}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, `Service "e" is invalid: spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767`, r.status(t).Message)
}

// TestCh01_ServiceTypeChanges pins a Service's walk through the types against the real
// server (the same steps against the reference): ExternalName → ClusterIP allocates a
// cluster IP and fills the family fields, → ExternalName drops them all, → NodePort
// allocates an IP and a node port, → LoadBalancer with Local traffic adds a health check
// port, → ClusterIP drops the ports.
func TestCh01_ServiceTypeChanges(t *testing.T) {
	_, c := newServer(t, Options{})
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, svcPath, `{"metadata":{"name":"tu"},"spec":{"type":"ExternalName","externalName":"a.b"}}`).code)
	steps := []struct{ patch, want string }{
		{`{"spec":{"type":"ClusterIP","externalName":null,"ports":[{"port":80}]}}`,
			`{"clusterIP":"<ip>","clusterIPs":["<ip>"],"internalTrafficPolicy":"Cluster","ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"port":80,"protocol":"TCP","targetPort":80}],"sessionAffinity":"None","type":"ClusterIP"}`},
		{`{"spec":{"type":"ExternalName","externalName":"c.d"}}`,
			`{"externalName":"c.d","ports":[{"port":80,"protocol":"TCP","targetPort":80}],"sessionAffinity":"None","type":"ExternalName"}`},
		{`{"spec":{"type":"NodePort"}}`,
			`{"clusterIP":"<ip>","clusterIPs":["<ip>"],"externalName":"c.d","externalTrafficPolicy":"Cluster","internalTrafficPolicy":"Cluster","ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"nodePort":"<port>","port":80,"protocol":"TCP","targetPort":80}],"sessionAffinity":"None","type":"NodePort"}`},
		{`{"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local"}}`,
			`{"allocateLoadBalancerNodePorts":true,"clusterIP":"<ip>","clusterIPs":["<ip>"],"externalName":"c.d","externalTrafficPolicy":"Local","healthCheckNodePort":"<port>","internalTrafficPolicy":"Cluster","ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"nodePort":"<port>","port":80,"protocol":"TCP","targetPort":80}],"sessionAffinity":"None","type":"LoadBalancer"}`},
		{`{"spec":{"type":"ClusterIP"}}`,
			`{"clusterIP":"<ip>","clusterIPs":["<ip>"],"externalName":"c.d","internalTrafficPolicy":"Cluster","ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"port":80,"protocol":"TCP","targetPort":80}],"sessionAffinity":"None","type":"ClusterIP"}`},
	}
	for _, step := range steps {
		r := c.do(http.MethodPatch, svcPath+"/tu", step.patch, "Content-Type", "application/merge-patch+json")
		require.Equal(t, http.StatusOK, r.code, "%s: %s", step.patch, r.body)
		var svc struct{ Spec map[string]any }
		r.decode(t, &svc)
		masked, _ := json.Marshal(maskAllocated(svc.Spec))
		assert.JSONEq(t, step.want, string(masked), step.patch)
	}
}

// maskAllocated replaces allocated values (cluster IPs, node ports) by placeholders, as the
// conformance suite's normaliser does.
func maskAllocated(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			switch {
			case k == "clusterIP" && e != "None":
				out[k] = "<ip>"
			case k == "clusterIPs":
				out[k] = []any{"<ip>"}
			case (k == "nodePort" || k == "healthCheckNodePort") && e != nil:
				out[k] = "<port>"
			default:
				out[k] = maskAllocated(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = maskAllocated(e)
		}
		return out
	}
	return v
}

// TestCh01_JobSelectorOverHTTP: a Job created without a selector gets the generated one and
// the four labels on its template, and (through defaulting) as its own labels, as the real
// server answers (finding-job of the conformance suite).
func TestCh01_JobSelectorOverHTTP(t *testing.T) {
	_, c := newServer(t, Options{})
	const jobs = "/apis/batch/v1/namespaces/default/jobs"
	r := c.do(http.MethodPost, jobs, `{"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`)
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var job struct {
		Metadata struct {
			UID    string
			Labels map[string]string
		}
		Spec struct {
			Selector struct{ MatchLabels map[string]string }
			Template struct {
				Metadata struct{ Labels map[string]string }
			}
		}
	}
	r.decode(t, &job)
	uid := job.Metadata.UID
	want := map[string]string{"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": "j", "controller-uid": uid, "job-name": "j"}
	assert.Equal(t, want, job.Spec.Template.Metadata.Labels)
	assert.Equal(t, want, job.Metadata.Labels)
	assert.Equal(t, map[string]string{"batch.kubernetes.io/controller-uid": uid}, job.Spec.Selector.MatchLabels)

	r = c.do(http.MethodPost, jobs, `{"metadata":{"name":"m"},"spec":{"manualSelector":true,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, "Job.batch \"m\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`]", r.status(t).Message)
}

// TestCh01_ServiceClusterIPRange: Options.ServiceClusterIPRange is kube-apiserver's
// --service-cluster-ip-range. Its first address belongs to the `kubernetes` Service, so a
// manifest asking for it is refused as taken; an address outside the range is refused as
// outside it; the default ServiceCIDR object shows the range. The texts are the reference's.
func TestCh01_ServiceClusterIPRange(t *testing.T) {
	_, c := newServer(t, Options{ServiceClusterIPRange: "10.0.0.0/16", Bootstrap: true})
	create := func(name, ip string) response {
		return c.do(http.MethodPost, svcPath, `{"metadata":{"name":"`+name+`"},"spec":{"clusterIP":"`+ip+`","ports":[{"port":443}]}}`)
	}
	taken := create("taken", "10.0.0.1")
	require.Equal(t, http.StatusUnprocessableEntity, taken.code, "%s", taken.body)
	assert.Equal(t, `Service "taken" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.1"]: failed to allocate IP 10.0.0.1: provided IP is already allocated`, taken.status(t).Message)
	outside := create("outside", "10.96.0.10")
	require.Equal(t, http.StatusUnprocessableEntity, outside.code, "%s", outside.body)
	assert.Contains(t, outside.status(t).Message, "the provided network does not match the current range")
	ok := create("ok", "10.0.3.4")
	require.Equal(t, http.StatusCreated, ok.code, "%s", ok.body)
	cidr := c.get("/apis/networking.k8s.io/v1/servicecidrs/kubernetes")
	require.Equal(t, http.StatusOK, cidr.code)
	assert.Contains(t, string(cidr.body), `"cidrs":["10.0.0.0/16"]`)

	err := Options{ServiceClusterIPRange: "10.0.0.0/31"}.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Options.ServiceClusterIPRange")
}
