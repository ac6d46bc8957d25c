package apiserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const smp = "application/strategic-merge-patch+json"

// podState is what these tests read back of a pod.
type podState struct {
	Metadata struct {
		Generation int64
		Labels     map[string]string
	}
	Spec struct {
		Containers          []map[string]any
		EphemeralContainers []map[string]any
	}
}

// TestCh01_PodResize pins pods/resize against kube-apiserver v1.36.3: only the containers'
// cpu and memory change, each change moves the generation, and the real refusals.
func TestCh01_PodResize(t *testing.T) {
	_, c := newServer(t, Options{})
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, podsPath, `{"metadata":{"name":"rz"},"spec":{"containers":[`+
		`{"name":"c","image":"busybox","resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"200m","memory":"128Mi"}}},`+
		`{"name":"d","image":"busybox"}]}}`).code)
	get := c.get(podsPath + "/rz/resize")
	require.Equal(t, http.StatusOK, get.code)
	tests := []struct {
		patch      string
		code       int
		msg        string
		resources  []string // each container's resources, as JSON, after the step
		generation int64
	}{
		{`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"150m"}}}]}}`, 200, "",
			[]string{`{"limits":{"cpu":"200m","memory":"128Mi"},"requests":{"cpu":"150m","memory":"64Mi"}}`, `{}`}, 2},
		{`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"300m"}}}]}}`, 422,
			`Pod "rz" is invalid: spec.containers[0].resources.requests: Invalid value: "300m": must be less than or equal to cpu limit of 200m`, nil, 0},
		{`{"spec":{"containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"150m"}}}]}}`, 200, "",
			[]string{`{"limits":{"cpu":"200m","memory":"128Mi"},"requests":{"cpu":"150m","memory":"64Mi"}}`, `{}`}, 2},
		{`{"spec":{"containers":[{"name":"c","resources":{"requests":{"ephemeral-storage":"1Gi"}}}]}}`, 422,
			`Pod "rz" is invalid: spec: Forbidden: only cpu and memory resources are mutable`, nil, 0},
		{`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":null}}}]}}`, 200, "",
			[]string{`{"limits":{"cpu":"200m","memory":"128Mi"},"requests":{"cpu":"200m","memory":"64Mi"}}`, `{}`}, 3},
		{`{"spec":{"containers":[{"name":"d","resources":{"requests":{"cpu":"100m"}}}]}}`, 200, "",
			[]string{`{"limits":{"cpu":"200m","memory":"128Mi"},"requests":{"cpu":"200m","memory":"64Mi"}}`, `{"requests":{"cpu":"100m"}}`}, 4},
		{`{"metadata":{"labels":{"x":"y"}},"spec":{"nodeName":"n1"}}`, 200, "",
			[]string{`{"limits":{"cpu":"200m","memory":"128Mi"},"requests":{"cpu":"200m","memory":"64Mi"}}`, `{"requests":{"cpu":"100m"}}`}, 4},
		{`{"spec":{"containers":[{"name":"c","resources":{"limits":{"memory":null}}}]}}`, 422,
			`Pod "rz" is invalid: spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed`, nil, 0},
		{`{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"100m","memory":"64Mi"},"requests":{"cpu":"100m","memory":"64Mi"}}},` +
			`{"name":"d","resources":{"limits":{"cpu":"100m","memory":"64Mi"},"requests":{"cpu":"100m","memory":"64Mi"}}}]}}`, 422,
			`Pod "rz" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing`, nil, 0},
		{`{"spec":{"containers":[{"name":"c","resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"}]}]}}`, 422,
			`Pod "rz" is invalid: spec: Forbidden: only cpu and memory resources are mutable`, nil, 0},
		{`{"spec":{"containers":[{"name":"e","image":"x"}]}}`, 422,
			`Pod "rz" is invalid: spec.containers: Forbidden: containers may not be added or removed on resize`, nil, 0},
		{`{"spec":{"initContainers":[{"name":"i","image":"x"}]}}`, 422,
			`Pod "rz" is invalid: spec.initContainers: Forbidden: initContainers may not be added or removed on resize`, nil, 0},
	}
	for _, tc := range tests {
		r := c.do(http.MethodPatch, podsPath+"/rz/resize", tc.patch, "Content-Type", smp)
		require.Equal(t, tc.code, r.code, "%s: %s", tc.patch, r.body)
		if tc.code != http.StatusOK {
			assert.Equal(t, tc.msg, r.status(t).Message, tc.patch)
			continue
		}
		var p podState
		r.decode(t, &p)
		assert.Equal(t, tc.generation, p.Metadata.Generation, tc.patch)
		assert.Empty(t, p.Metadata.Labels, "labels are not the subresource's")
		for i, want := range tc.resources {
			got, _ := json.Marshal(p.Spec.Containers[i]["resources"])
			assert.JSONEq(t, want, string(got), "%s: container %d", tc.patch, i)
		}
		assert.Equal(t, "busybox", p.Spec.Containers[0]["image"], "the image is not the subresource's")
	}
}

// TestCh01_PodEphemeralContainers pins pods/ephemeralcontainers against the real server:
// an update adds ephemeral containers and nothing else (kubectl debug's path), and the
// real refusals of a duplicate name, a change, a removal and the fields an ephemeral
// container may not set.
func TestCh01_PodEphemeralContainers(t *testing.T) {
	_, c := newServer(t, Options{})
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, podsPath, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`).code)
	dbg := `{"name":"dbg","image":"busybox","targetContainerName":"c","stdin":true,"tty":true}`
	tests := []struct {
		ephemeral  string // the spec.ephemeralContainers the PUT sends
		extra      func(pod map[string]any)
		code       int
		msg        string
		names      []string
		generation int64
	}{
		{ephemeral: `[` + dbg + `]`, code: 200, names: []string{"dbg"}, generation: 2},
		{ephemeral: `[` + dbg + `,{"name":"c","image":"x"}]`, code: 422, msg: `Pod "p" is invalid: spec.ephemeralContainers[1].name: Duplicate value: "c"`},
		{ephemeral: `[{"name":"dbg","image":"busybox2","targetContainerName":"c","stdin":true,"tty":true}]`, code: 422,
			msg: "Pod \"p\" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers \"dbg\" may not be changed\n- \"image\": \"busybox\"\n+ \"image\": \"busybox2\"\n"},
		{ephemeral: `[]`, code: 422, msg: "Pod \"p\" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers \"dbg\" may not be removed\n"},
		{ephemeral: `[` + dbg + `,{"name":"e2","targetContainerName":"zz","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"1"}},` +
			`"livenessProbe":{"exec":{"command":["x"]}},"volumeMounts":[{"name":"v","mountPath":"/x","subPath":"a"}]}]`, code: 422,
			msg: `Pod "p" is invalid: [spec.ephemeralContainers[1].image: Required value, spec.ephemeralContainers[1].volumeMounts[0].name: Not found: "v", ` +
				`spec.ephemeralContainers[1].targetContainerName: Not found: "zz", spec.ephemeralContainers[1].ports: Forbidden: cannot be set for an Ephemeral Container, ` +
				`spec.ephemeralContainers[1].resources: Forbidden: cannot be set for an Ephemeral Container, spec.ephemeralContainers[1].livenessProbe: Forbidden: cannot be set for an Ephemeral Container, ` +
				`spec.ephemeralContainers[1].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container]`},
		{ephemeral: `[` + dbg + `,{"name":"e3","image":"x"}]`, code: 200, names: []string{"dbg", "e3"}, generation: 3,
			extra: func(pod map[string]any) {
				pod["metadata"].(map[string]any)["labels"] = map[string]any{"q": "r"}
				pod["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"] = "nginx"
			}},
	}
	for _, tc := range tests {
		var pod map[string]any
		c.get(podsPath+"/p/ephemeralcontainers").decode(t, &pod)
		var eph []any
		require.NoError(t, json.Unmarshal([]byte(tc.ephemeral), &eph))
		pod["spec"].(map[string]any)["ephemeralContainers"] = eph
		if tc.extra != nil {
			tc.extra(pod)
		}
		r := c.do(http.MethodPut, podsPath+"/p/ephemeralcontainers", pod)
		require.Equal(t, tc.code, r.code, "%s: %s", tc.ephemeral, r.body)
		if tc.code != http.StatusOK {
			assert.Equal(t, tc.msg, r.status(t).Message)
			continue
		}
		var p podState
		r.decode(t, &p)
		var names []string
		for _, ec := range p.Spec.EphemeralContainers {
			names = append(names, ec["name"].(string))
		}
		assert.Empty(t, cmp.Diff(tc.names, names))
		assert.Equal(t, tc.generation, p.Metadata.Generation)
		assert.Empty(t, p.Metadata.Labels, "labels are not the subresource's")
		assert.Equal(t, "busybox", p.Spec.Containers[0]["image"], "containers are not the subresource's")
	}
	r := c.do(http.MethodPatch, podsPath+"/p/ephemeralcontainers", `{"spec":{"ephemeralContainers":[{"name":"dbg2","image":"busybox"}]}}`, "Content-Type", smp)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	var p podState
	r.decode(t, &p)
	assert.Len(t, p.Spec.EphemeralContainers, 3, "a strategic merge patch adds by name, as kubectl debug sends it")
}
