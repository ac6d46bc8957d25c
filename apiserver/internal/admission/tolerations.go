package admission

import "context"

// The taints every pod tolerates for 300 s unless it says otherwise.
const (
	taintNotReady        = "node.kubernetes.io/not-ready"
	taintUnreachable     = "node.kubernetes.io/unreachable"
	defaultTolerationSec = int64(300)
)

// DefaultTolerationSeconds mirrors plugin/pkg/admission/defaulttolerationseconds: a pod
// that does not tolerate the not-ready and unreachable NoExecute taints gets tolerations of
// them for 300 seconds (the flags' defaults).
type DefaultTolerationSeconds struct{}

// Name implements Interface.
func (DefaultTolerationSeconds) Name() string { return "DefaultTolerationSeconds" }

// Handles implements Interface.
func (DefaultTolerationSeconds) Handles(op Operation) bool { return op == Create || op == Update }

// Admit implements MutationInterface.
func (DefaultTolerationSeconds) Admit(_ context.Context, a *Attributes) error {
	if !isPod(a) {
		return nil
	}
	spec := podSpec(a)
	notReady, unreachable := false, false
	for _, t := range items(spec, "tolerations") {
		key, effect := str(t, "key"), str(t, "effect")
		noExec := effect == "NoExecute" || effect == ""
		notReady = notReady || (noExec && (key == taintNotReady || key == ""))
		unreachable = unreachable || (noExec && (key == taintUnreachable || key == ""))
	}
	for _, k := range []struct {
		has bool
		key string
	}{{notReady, taintNotReady}, {unreachable, taintUnreachable}} {
		if !k.has {
			appendItem(spec, "tolerations", map[string]any{"key": k.key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": defaultTolerationSec})
		}
	}
	return nil
}

// TaintNodesByCondition mirrors plugin/pkg/admission/nodetaint: a new Node starts with the
// not-ready NoSchedule taint, which the node lifecycle controller lifts once it is ready.
type TaintNodesByCondition struct{}

// Name implements Interface.
func (TaintNodesByCondition) Name() string { return "TaintNodesByCondition" }

// Handles implements Interface.
func (TaintNodesByCondition) Handles(op Operation) bool { return op == Create }

// Admit implements MutationInterface.
func (TaintNodesByCondition) Admit(_ context.Context, a *Attributes) error {
	if a.Resource.Group != "" || a.Resource.Resource != "nodes" || a.Subresource != "" || a.Object == nil {
		return nil
	}
	spec := ensureChild(a.Object.Object, "spec")
	for _, t := range items(spec, "taints") {
		// Taint.MatchTaint: same key and effect.
		if str(t, "key") == taintNotReady && str(t, "effect") == "NoSchedule" {
			return nil
		}
	}
	appendItem(spec, "taints", map[string]any{"key": taintNotReady, "effect": "NoSchedule"})
	return nil
}
