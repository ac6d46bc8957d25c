package core

import (
	"github.com/informer-lab/informer-lab/api"
)

// CheckGracefulDelete implements rest.GracefulDeleter, mirroring podStrategy's
// CheckGracefulDelete: the requested period, else spec.terminationGracePeriodSeconds; but 0
// for a pod no node runs (unscheduled) and for one that has already terminated, since no
// kubelet would ever finish its deletion.
func (podStrategy) CheckGracefulDelete(obj *api.Unstructured, requested *int64) int64 {
	var period int64
	if requested != nil {
		period = *requested
	} else if spec, _ := obj.Object["spec"].(map[string]any); spec != nil {
		period = asInt64(spec["terminationGracePeriodSeconds"])
	}
	if n, _, _ := api.NestedString(obj.Object, "spec", "nodeName"); n == "" {
		period = 0
	}
	if p, _, _ := api.NestedString(obj.Object, "status", "phase"); p == string(api.PodFailed) || p == string(api.PodSucceeded) {
		period = 0
	}
	return period
}

func asInt64(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	case int:
		return int64(n)
	}
	return 0
}
