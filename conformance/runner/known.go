package runner

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Classes is the fixed, documented set of reasons a case may differ (README.md explains each).
var Classes = map[string]string{
	"unserved-resource-type":      "the simulator does not serve the resource type (404 where the reference serves it)",
	"no-controllers":              "the outcome depends on a controller neither server runs in the same way",
	"validation-missing":          "the reference rejects the object (4xx), the simulator accepts it",
	"validation-overstrict":       "the simulator rejects what the reference accepts",
	"immutability-missing":        "the reference refuses an update of an immutable field, the simulator applies it",
	"error-status":                "both refuse, with a different status code or Status reason",
	"error-text":                  "both refuse with the same code and reason, but the message or details.causes differ",
	"ssa-field-ownership-missing": "server-side apply without field ownership: managedFields, conflicts, removal of fields",
	"admission-defaults-missing":  "admission plug-ins of the reference (ServiceAccount, DefaultTolerationSeconds, Priority, ...) add fields the simulator does not",
	"defaulting-differs":          "both accept, but the stored object differs in defaulted fields",
	"canonical-forms":             "a value is stored in another form (quantities, int-or-string, ...)",
	"allocation-differs":          "allocated values (cluster IPs, node ports, ip families) differ beyond normalisation",
	"crd-schema-features":         "a CustomResourceDefinition feature (schema, CEL, printer columns, defaults) differs",
	"warnings-differ":             "only the Warning headers differ",
	"media-type":                  "only the response Content-Type differs",
	"table-output":                "server-side printing (Table) differs",
	"list-watch-semantics":        "paging, watch event sequences or list metadata differ",
	"kubectl-output":              "a kubectl invocation prints or exits differently",
	"dry-run":                     "a dryRun request behaves differently",
	"other":                       "anything else (explain in the reason)",
}

// Known is one entry of the known-differences file.
type Known struct {
	Case   string `json:"case"`
	Class  string `json:"class"`
	Reason string `json:"reason"`
}

// KnownFile is the known-differences file.
type KnownFile struct {
	Differences []Known `json:"differences"`
}

// LoadKnown reads and checks the known-differences file (a missing file is an empty list).
func LoadKnown(path string) (map[string]Known, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]Known{}, nil
	}
	if err != nil {
		return nil, err
	}
	var f KnownFile
	if err := yaml.UnmarshalStrict(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string]Known{}
	for _, k := range f.Differences {
		if _, ok := Classes[k.Class]; !ok {
			return nil, fmt.Errorf("%s: case %s: unknown class %q", path, k.Case, k.Class)
		}
		if strings.TrimSpace(k.Reason) == "" {
			return nil, fmt.Errorf("%s: case %s: empty reason", path, k.Case)
		}
		if _, dup := out[k.Case]; dup {
			return nil, fmt.Errorf("%s: case %s listed twice", path, k.Case)
		}
		out[k.Case] = k
	}
	return out, nil
}

// WriteKnown writes entries sorted by class then case, one flow line per field.
func WriteKnown(path string, entries []Known) error {
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].Class != entries[j].Class {
			return entries[i].Class < entries[j].Class
		}
		return entries[i].Case < entries[j].Case
	})
	var b bytes.Buffer
	b.WriteString("# Cases where the simulator differs from kube-apiserver v1.36.3, by design or not yet fixed.\n")
	b.WriteString("# make conformance fails on a difference not listed here and reports listed cases that now\n")
	b.WriteString("# agree. Rewrite with make conformance-accept, then review the diff: every class is documented\n")
	b.WriteString("# in conformance/README.md; edit a reason to say more than the generated one.\n")
	b.WriteString("differences:\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "- case: %s\n  class: %s\n  reason: %s\n", strconv.Quote(e.Case), e.Class, strconv.Quote(e.Reason))
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// Verdict is the outcome of checking results against the known list.
type Verdict struct {
	Unexpected []Result // differing (or failing) cases not listed
	NowAgree   []Known  // listed cases that agree now
	Stale      []Known  // listed cases that did not run
	Listed     []Result // differing cases that are listed
}

// Check compares results with the known list.
func Check(results []Result, known map[string]Known) Verdict {
	var v Verdict
	ran := map[string]bool{}
	for _, r := range results {
		ran[r.ID] = true
		k, listed := known[r.ID]
		switch {
		case r.Agrees() && listed:
			v.NowAgree = append(v.NowAgree, k)
		case !r.Agrees() && listed:
			v.Listed = append(v.Listed, r)
		case !r.Agrees():
			v.Unexpected = append(v.Unexpected, r)
		}
	}
	for id, k := range known {
		if !ran[id] {
			v.Stale = append(v.Stale, k)
		}
	}
	sort.Slice(v.Stale, func(i, j int) bool { return v.Stale[i].Case < v.Stale[j].Case })
	return v
}

// Accept builds the known list from results: an existing entry keeps its class and reason
// (which may have been written by hand) while the case still differs the way its class
// says, or when its class is no-controllers, a judgment about the cause that holds whatever
// the symptom; a new one, or one that now differs another way (its old reason is stale:
// a type served since, a rule implemented since), is classified automatically.
func Accept(results []Result, known map[string]Known) []Known {
	var out []Known
	for _, r := range results {
		if r.Agrees() {
			continue
		}
		class, reason := Classify(r)
		if k, ok := known[r.ID]; ok && (k.Class == class || k.Class == "no-controllers") {
			out = append(out, k)
			continue
		}
		out = append(out, Known{Case: r.ID, Class: class, Reason: reason})
	}
	return out
}
