// Package autoscaling holds the HorizontalPodAutoscaler of the autoscaling group, on the
// model of kubernetes pkg/registry/autoscaling/horizontalpodautoscaler and
// pkg/apis/autoscaling/v1/conversion.go:
//
//  1. Objects are stored at autoscaling/v2 and served at v2 (preferred) and v1. A v1 object
//     is converted on the way in and out (FromV1, ToV1): v1 has one metric field,
//     targetCPUUtilizationPercentage, and keeps every other metric, the current metrics,
//     the behavior and the conditions in annotations, which no stored object carries.
//  2. A create starts with an empty status; only the status subresource writes it. There
//     is no generation.
//  3. Every write stores the object as the typed v2 object would be written out
//     (CanonicalV2): desiredReplicas and a null currentMetrics are always there.
package autoscaling

import "github.com/informer-lab/informer-lab/api"

// Group is the autoscaling API group.
const Group = "autoscaling"

func gvk(version, kind string) api.GroupVersionKind {
	return api.GroupVersionKind{Group: Group, Version: version, Kind: kind}
}
