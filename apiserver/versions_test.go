package apiserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	pb "github.com/informer-lab/informer-lab/api/protobuf"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

const (
	hpaV1Path = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers"
	hpaV2Path = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers"
)

// hpaView is what the tests read of a HorizontalPodAutoscaler at either version.
type hpaView struct {
	APIVersion string `json:"apiVersion"`
	Metadata   struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		MinReplicas  *int64          `json:"minReplicas"`
		MaxReplicas  int64           `json:"maxReplicas"`
		TargetCPU    *int64          `json:"targetCPUUtilizationPercentage"`
		MetricsField json.RawMessage `json:"metrics"`
	} `json:"spec"`
	Status map[string]any `json:"status"`
}

// TestCh01_HPAServedAtTwoVersions checks autoscaling/v1 beside the stored v2: a v1 create,
// read, list, merge patch, update and watch each convert, and the v2 object shows the
// metric v1 wrote as its CPU target.
func TestCh01_HPAServedAtTwoVersions(t *testing.T) {
	s, c := newServer(t, Options{})
	r := c.do("POST", hpaV1Path, `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},
		"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":5,"targetCPUUtilizationPercentage":50}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	assert.JSONEq(t, `{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v1","spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},
		"minReplicas":1,"maxReplicas":5,"targetCPUUtilizationPercentage":50},"status":{"currentReplicas":0,"desiredReplicas":0}}`, jsonWithoutMeta(t, r.body))

	var v2 hpaView
	c.get(hpaV2Path+"/web").decode(t, &v2)
	assert.Equal(t, "autoscaling/v2", v2.APIVersion)
	assert.JSONEq(t, `[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]`, string(v2.Spec.MetricsField))
	assert.Equal(t, map[string]any{"desiredReplicas": float64(0), "currentMetrics": nil}, v2.Status)

	r = c.do("PATCH", hpaV1Path+"/web", `{"spec":{"targetCPUUtilizationPercentage":70}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
	var v1 hpaView
	r.decode(t, &v1)
	assert.Equal(t, "autoscaling/v1", v1.APIVersion)
	assert.Equal(t, int64(70), *v1.Spec.TargetCPU)
	r = c.do("PATCH", hpaV1Path+"/web", `{"spec":{"targetCPUUtilizationPercentage":75}}`, "Content-Type", "application/strategic-merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)

	// A v2 metric v1 has no field for survives a v1 read-modify-write in the annotation.
	r = c.do("PATCH", hpaV2Path+"/web", `{"spec":{"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":75}}},
		{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}}]}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
	r = c.get(hpaV1Path + "/web")
	r.decode(t, &v1)
	assert.Equal(t, `[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]`, v1.Metadata.Annotations["autoscaling.alpha.kubernetes.io/metrics"])
	var obj map[string]any
	r.decode(t, &obj)
	obj["spec"].(map[string]any)["maxReplicas"] = 9
	r = c.do("PUT", hpaV1Path+"/web", obj)
	require.Equal(t, 200, r.code, "%s", r.body)
	c.get(hpaV2Path+"/web").decode(t, &v2)
	assert.Equal(t, int64(9), v2.Spec.MaxReplicas)
	assert.Empty(t, v2.Metadata.Annotations, "the stored object keeps no v1 annotation")
	assert.JSONEq(t, `[{"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}},
		{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":75}}}]`, string(v2.Spec.MetricsField))

	var list struct {
		APIVersion string    `json:"apiVersion"`
		Kind       string    `json:"kind"`
		Items      []hpaView `json:"items"`
	}
	c.get(hpaV1Path).decode(t, &list)
	assert.Equal(t, "autoscaling/v1", list.APIVersion)
	assert.Equal(t, "HorizontalPodAutoscalerList", list.Kind)
	require.Len(t, list.Items, 1)
	assert.Equal(t, "autoscaling/v1", list.Items[0].APIVersion)
	assert.Equal(t, int64(75), *list.Items[0].Spec.TargetCPU)

	r = c.do("GET", hpaV1Path+"?includeObject=Object", nil, "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	require.Equal(t, 200, r.code)
	var table api.Table
	r.decode(t, &table)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"web", "Deployment/web", "<unknown>/10, cpu: <unknown>/75%", "1", float64(9), float64(0)}, table.Rows[0].Cells[:6])
	assert.Contains(t, string(table.Rows[0].Object), `"apiVersion":"autoscaling/v1"`)

	w := c.watch(hpaV1Path + "?watch=1&resourceVersion=" + rvString(s))
	r = c.do("PATCH", hpaV2Path+"/web", `{"spec":{"minReplicas":2}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
	ev := w.next()
	assert.Equal(t, "MODIFIED", ev.Type)
	require.NoError(t, json.Unmarshal(ev.Object, &v1))
	assert.Equal(t, "autoscaling/v1", v1.APIVersion)
	assert.Equal(t, int64(2), *v1.Spec.MinReplicas)
	assert.Equal(t, int64(75), *v1.Spec.TargetCPU)
}

// jsonWithoutMeta returns an object's JSON without its metadata.
func jsonWithoutMeta(t *testing.T, data []byte) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	delete(m, "metadata")
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return string(out)
}

// TestCh02_HPAProtobufAtV1 checks the autoscaling/v1 view in protobuf, as client-go's typed
// client speaks it: a protobuf create at v1, a get and a list answered at v1, and a watch
// whose events are v1.
func TestCh02_HPAProtobufAtV1(t *testing.T) {
	s, c := newServer(t, Options{})
	v1 := api.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"}
	body, err := iprotobuf.Codec().Encode(v1, map[string]any{
		"metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"scaleTargetRef": map[string]any{"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"},
			"maxReplicas": int64(4), "targetCPUUtilizationPercentage": int64(60)},
	})
	require.NoError(t, err)
	both := "application/vnd.kubernetes.protobuf, application/json"
	r := c.do("POST", hpaV1Path, body, "Content-Type", protobufType, "Accept", both)
	require.Equal(t, 201, r.code, "%q", r.body)
	gvk, obj, err := iprotobuf.Codec().Decode(r.body)
	require.NoError(t, err)
	assert.Equal(t, v1, gvk)
	assert.Equal(t, int64(60), obj["spec"].(map[string]any)["targetCPUUtilizationPercentage"])

	r = c.do("GET", hpaV1Path+"/web", nil, "Accept", both)
	gvk, obj, err = iprotobuf.Codec().Decode(r.body)
	require.NoError(t, err)
	assert.Equal(t, v1, gvk)
	assert.Equal(t, int64(4), obj["spec"].(map[string]any)["maxReplicas"])

	r = c.do("GET", hpaV1Path, nil, "Accept", both)
	gvk, obj, err = iprotobuf.Codec().Decode(r.body)
	require.NoError(t, err)
	assert.Equal(t, api.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscalerList"}, gvk)
	items := obj["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, int64(60), items[0].(map[string]any)["spec"].(map[string]any)["targetCPUUtilizationPercentage"])

	req, err := http.NewRequest("GET", c.base+hpaV1Path+"?watch=1&resourceVersion="+rvString(s), nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf;stream=watch, application/json")
	resp, err := c.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	r = c.do("PATCH", hpaV2Path+"/web", `{"spec":{"maxReplicas":6}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
	frame, err := pb.NewLengthDelimitedFrameReader(resp.Body).ReadFrame()
	require.NoError(t, err)
	typ, gvk, obj, err := iprotobuf.Codec().DecodeWatchEvent(frame)
	require.NoError(t, err)
	assert.Equal(t, "MODIFIED", typ)
	assert.Equal(t, v1, gvk)
	assert.Equal(t, int64(6), obj["spec"].(map[string]any)["maxReplicas"])
	assert.Equal(t, int64(60), obj["spec"].(map[string]any)["targetCPUUtilizationPercentage"])
}
