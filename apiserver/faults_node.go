package apiserver

import (
	"context"
	"encoding/json"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// NodeFailureAnnotation is the annotation the node-failure fault sets on a Node: the time
// (RFC 3339, the server's clock) until which the node's simulated kubelet is down. While it
// lies in the future the kubelet neither renews its Lease nor posts node or pod status, as a
// node that lost power or network would; the node lifecycle controller then sees the
// heartbeats stop. Nothing in Kubernetes mirrors it: it is how the fault reaches the kubelet,
// which is a client and learns only what the server stores. It is ours.
const NodeFailureAnnotation = "sim.informer-lab.dev/failed-until"

// FailNode makes the simulated kubelet of node stop for d (virtual time on a virtual
// clock), by setting NodeFailureAnnotation; d ≤ 0 ends a failure at once. It is ours, a
// fault of the fault API; the node must exist.
func (s *Server) FailNode(ctx context.Context, node string, d time.Duration) error {
	var v any // null removes the annotation
	if d > 0 {
		v = s.clock.Now().UTC().Add(d).Truncate(time.Second).Format(time.RFC3339)
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{NodeFailureAnnotation: v}}})
	if err != nil {
		return err
	}
	_, err = s.Patch(ctx, "nodes", "", node, api.MergePatchType, patch)
	return err
}
