package runner

import (
	"strings"
)

// Classify picks a class for a differing result from the first step that differs, and a
// reason that quotes it. It is a heuristic for make conformance-accept; a human may edit it.
func Classify(r Result) (class, reason string) {
	if r.Error != "" {
		return "other", "the case could not run: " + r.Error
	}
	var first *StepPair
	var firstDiffs []Diff
	for i := range r.Steps {
		sp := &r.Steps[i]
		var ds []Diff
		for _, d := range r.Diffs {
			if d.Step == sp.Name {
				ds = append(ds, d)
			}
		}
		if len(ds) > 0 {
			first, firstDiffs = sp, ds
			break
		}
	}
	if first == nil {
		return "other", "differences outside any step"
	}
	class = classOf(r.Category, first, firstDiffs)
	return class, first.Name + ": " + describe(first, firstDiffs)
}

func classOf(category string, sp *StepPair, ds []Diff) string {
	ref, sim := sp.Ref, sp.Sim
	if sim.Code == 404 && ref.Code != 404 && (sim.Message == "the server could not find the requested resource" || sim.Text == "404 page not found") {
		return "unserved-resource-type"
	}
	isCRD := strings.HasPrefix(category, "crd")
	refFail, simFail := ref.Code >= 400, sim.Code >= 400
	switch {
	case strings.HasPrefix(category, "kubectl"):
		return "kubectl-output"
	case category == "ssa":
		return "ssa-field-ownership-missing"
	case category == "lifecycle":
		return "no-controllers"
	case !refFail && !simFail && (category == "table" || strings.Contains(ref.Media+sim.Media, "as=Table")):
		return "table-output"
	case !refFail && !simFail && strings.Contains(category, "quantity") && isQuantityDiff(ds):
		return "canonical-forms"
	case category == "watch" || category == "paging":
		return "list-watch-semantics"
	case refFail && !simFail && category == "immutable":
		return "immutability-missing"
	case isCRD && (refFail != simFail || hasBodyDiff(ds)):
		return "crd-schema-features"
	case refFail && !simFail:
		return "validation-missing"
	case !refFail && simFail && strings.Contains(sim.Message, "does not match the current range"):
		return "allocation-differs"
	case !refFail && simFail:
		return "validation-overstrict"
	case refFail && simFail:
		if ref.Code != sim.Code || ref.Reason != sim.Reason {
			return "error-status"
		}
		return "error-text"
	}
	if ref.Media != sim.Media && strings.Contains(ref.Media+sim.Media, "as=Table") {
		return "table-output"
	}
	onlyAspect := func(a string) bool {
		for _, d := range ds {
			if d.Aspect != a {
				return false
			}
		}
		return true
	}
	switch {
	case onlyAspect("warnings"):
		return "warnings-differ"
	case onlyAspect("media"):
		return "media-type"
	}
	var paths []string
	for _, d := range ds {
		if d.Aspect == "body" {
			paths = append(paths, d.Path)
		}
	}
	all := strings.Join(paths, " ")
	switch {
	case strings.Contains(all, "managedFields"):
		return "ssa-field-ownership-missing"
	case strings.Contains(all, "columnDefinitions") || strings.Contains(all, "rows"):
		return "table-output"
	case containsAny(all, "kube-api-access", "volumes", "volumeMounts", "tolerations", "preemptionPolicy", "priority", "serviceAccount", "enableServiceLinks"):
		return "admission-defaults-missing"
	case containsAny(all, "clusterIP", "nodePort", "ipFamil", "internalTrafficPolicy"):
		return "allocation-differs"
	case isQuantityDiff(ds):
		return "canonical-forms"
	case strings.Contains(all, "events"):
		return "list-watch-semantics"
	case strings.HasSuffix(category, "dry-run"):
		return "dry-run"
	}
	return "defaulting-differs"
}

func hasBodyDiff(ds []Diff) bool {
	for _, d := range ds {
		if d.Aspect == "body" {
			return true
		}
	}
	return false
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// isQuantityDiff: a body value that differs only in its written form of a quantity.
func isQuantityDiff(ds []Diff) bool {
	for _, d := range ds {
		if d.Aspect == "body" && (strings.Contains(d.Path, "resources.") || strings.Contains(d.Path, "capacity") ||
			strings.Contains(d.Path, "hard.") || strings.Contains(d.Path, "storage")) {
			return true
		}
	}
	return false
}

// describe summarises a step's differences in one line.
func describe(sp *StepPair, ds []Diff) string {
	ref, sim := sp.Ref, sp.Sim
	var b strings.Builder
	if ref.Code != sim.Code {
		b.WriteString("reference " + statusLine(ref) + "; simulator " + statusLine(sim))
	} else {
		d := ds[0]
		b.WriteString(d.Aspect)
		if d.Path != "" {
			b.WriteString(" " + d.Path)
		}
		b.WriteString(": reference " + d.Ref + "; simulator " + d.Sim)
		if len(ds) > 1 {
			b.WriteString(" (+" + itoa(len(ds)-1) + " more)")
		}
	}
	s := b.String()
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

func statusLine(o Observation) string {
	s := itoa(o.Code)
	if o.Reason != "" {
		s += " " + o.Reason
	}
	if o.Message != "" {
		m := o.Message
		if len(m) > 160 {
			m = m[:160] + "…"
		}
		s += " (" + m + ")"
	}
	if o.Err != "" {
		s += " error " + o.Err
	}
	return s
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
