package namespace

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/controllers/app"
)

func causeAttr(c string) slog.Attr { return slog.String("cause", c) }

// The condition types the deleter maintains, in upstream's order (conditionTypes).
var conditionTypes = []string{
	"NamespaceDeletionDiscoveryFailure",
	"NamespaceDeletionGroupVersionParsingFailure",
	"NamespaceDeletionContentFailure",
	"NamespaceContentRemaining",
	"NamespaceFinalizersRemaining",
}

// okReasons and okMessages mirror the "all is well" variant of each condition.
var (
	okReasons = map[string]string{
		"NamespaceDeletionDiscoveryFailure":           "ResourcesDiscovered",
		"NamespaceDeletionGroupVersionParsingFailure": "ParsedGroupVersions",
		"NamespaceDeletionContentFailure":             "ContentDeleted",
		"NamespaceContentRemaining":                   "ContentRemoved",
		"NamespaceFinalizersRemaining":                "ContentHasNoFinalizers",
	}
	okMessages = map[string]string{
		"NamespaceDeletionDiscoveryFailure":           "All resources successfully discovered",
		"NamespaceDeletionGroupVersionParsingFailure": "All legacy kube types successfully parsed",
		"NamespaceDeletionContentFailure":             "All content successfully deleted, may be waiting on finalization",
		"NamespaceContentRemaining":                   "All content successfully removed",
		"NamespaceFinalizersRemaining":                "All content-preserving finalizers finished",
	}
)

// condition is one failing condition: type, reason, message (status True).
type condition struct{ typ, reason, message string }

// conditionUpdater mirrors namespaceConditionUpdater of status_condition_utils.go.
type conditionUpdater struct {
	conds      []condition
	contentErr []error
}

// discoveryErr mirrors ProcessDiscoverResourcesErr.
func (u *conditionUpdater) discoveryErr(err error) {
	msg := err.Error()
	var derr *discovery.ErrGroupDiscoveryFailed
	if e, ok := err.(*discovery.ErrGroupDiscoveryFailed); ok {
		derr = e
		msg = fmt.Sprintf("Discovery failed for some groups, %d failing: %v", len(derr.Groups), err)
	}
	u.conds = append(u.conds, condition{"NamespaceDeletionDiscoveryFailure", "DiscoveryFailed", msg})
}

// deleteContentErr mirrors ProcessDeleteContentErr.
func (u *conditionUpdater) deleteContentErr(err error) { u.contentErr = append(u.contentErr, err) }

// contentTotals mirrors ProcessContentTotals.
func (u *conditionUpdater) contentTotals(remaining, byFinalizer map[string]int) {
	if len(remaining) > 0 {
		var parts []string
		for gr, n := range remaining {
			parts = append(parts, fmt.Sprintf("%s has %d resource instances", gr, n))
		}
		u.conds = append(u.conds, condition{"NamespaceContentRemaining", "SomeResourcesRemain", "Some resources are remaining: " + sortedJoin(parts)})
	}
	if len(byFinalizer) > 0 {
		var parts []string
		for f, n := range byFinalizer {
			parts = append(parts, fmt.Sprintf("%s in %d resource instances", f, n))
		}
		u.conds = append(u.conds, condition{"NamespaceFinalizersRemaining", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: " + sortedJoin(parts)})
	}
}

// update mirrors namespaceConditionUpdater.Update and updateConditions: every maintained
// condition is set, True with the failure or False with its ok message; it reports whether
// ns changed.
func (u *conditionUpdater) update(ns *api.Unstructured, now time.Time) bool {
	if len(u.contentErr) > 0 {
		var msgs []string
		for _, e := range u.contentErr {
			msgs = append(msgs, e.Error())
		}
		u.conds = append(u.conds, condition{"NamespaceDeletionContentFailure", "ContentDeletionFailed",
			fmt.Sprintf("Failed to delete all resource types, %d remaining: %v", len(u.contentErr), sortedJoin(msgs))})
	}
	raw, _ := app.Nested(ns.Object, "status", "conditions")
	existing, _ := raw.([]any)
	ts := now.UTC().Format(time.RFC3339)
	changed := false
	for _, typ := range conditionTypes {
		want := map[string]any{"type": typ, "status": "False", "reason": okReasons[typ], "message": okMessages[typ], "lastTransitionTime": ts}
		for _, c := range u.conds {
			if c.typ == typ {
				want = map[string]any{"type": typ, "status": "True", "reason": c.reason, "message": c.message, "lastTransitionTime": ts}
			}
		}
		found := false
		for _, e := range existing {
			old, ok := e.(map[string]any)
			if !ok || old["type"] != typ {
				continue
			}
			found = true
			if old["status"] != want["status"] || old["reason"] != want["reason"] || old["message"] != want["message"] {
				if old["status"] != want["status"] {
					old["lastTransitionTime"] = ts
				}
				old["status"], old["reason"], old["message"] = want["status"], want["reason"], want["message"]
				changed = true
			}
		}
		if !found {
			existing = append(existing, want)
			changed = true
		}
	}
	if changed {
		_ = api.SetNestedField(ns.Object, existing, "status", "conditions")
	}
	return changed
}

// failing names the conditions that are True, in upstream's order, for the trace.
func (u *conditionUpdater) failing() string {
	var out []string
	for _, typ := range conditionTypes {
		for _, c := range u.conds {
			if c.typ == typ {
				out = append(out, typ)
				break
			}
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}
