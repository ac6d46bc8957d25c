package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Diff is one difference between the reference (Ref) and the simulator (Sim) in one step.
type Diff struct {
	Step   string `json:"step"`
	Aspect string `json:"aspect"` // code, reason, message, causes, details, warnings, media, body, events, text, stderr, err
	Path   string `json:"path,omitempty"`
	Ref    string `json:"ref"`
	Sim    string `json:"sim"`
}

func (d Diff) String() string {
	where := d.Aspect
	if d.Path != "" {
		where += " " + d.Path
	}
	return fmt.Sprintf("%s: %s: reference %s, simulator %s", d.Step, where, d.Ref, d.Sim)
}

// maxBodyDiffs bounds the body differences reported per step.
const maxBodyDiffs = 20

// Compare lists the differences between two observations of one step.
func Compare(step string, ref, sim Observation) []Diff {
	var out []Diff
	add := func(aspect, path string, r, s any) {
		out = append(out, Diff{Step: step, Aspect: aspect, Path: path, Ref: short(r), Sim: short(s)})
	}
	if ref.Err != sim.Err {
		add("err", "", ref.Err, sim.Err)
	}
	if ref.Code != sim.Code {
		add("code", "", ref.Code, sim.Code)
	}
	if ref.Reason != sim.Reason {
		add("reason", "", ref.Reason, sim.Reason)
	}
	if ref.Message != sim.Message {
		add("message", "", ref.Message, sim.Message)
	}
	if !reflect.DeepEqual(ref.Causes, sim.Causes) {
		add("causes", "", strings.Join(ref.Causes, "; "), strings.Join(sim.Causes, "; "))
	}
	if ref.Details != sim.Details {
		add("details", "", ref.Details, sim.Details)
	}
	if !reflect.DeepEqual(ref.Warnings, sim.Warnings) {
		add("warnings", "", strings.Join(ref.Warnings, " | "), strings.Join(sim.Warnings, " | "))
	}
	if ref.Media != sim.Media && ref.Code < 300 && sim.Code < 300 {
		add("media", "", ref.Media, sim.Media)
	}
	if ref.Text != sim.Text {
		add("text", "", ref.Text, sim.Text)
	}
	if ref.Stderr != sim.Stderr {
		add("stderr", "", ref.Stderr, sim.Stderr)
	}
	var body []Diff
	JSONDiff(ref.Body, sim.Body, "", &body)
	if len(ref.Events) != len(sim.Events) {
		add("events", "count", len(ref.Events), len(sim.Events))
	}
	for i := 0; i < len(ref.Events) && i < len(sim.Events); i++ {
		JSONDiff(ref.Events[i], sim.Events[i], "events["+strconv.Itoa(i)+"]", &body)
	}
	for i, d := range body {
		if i == maxBodyDiffs {
			add("body", "...", fmt.Sprintf("%d more", len(body)-i), "")
			break
		}
		d.Step = step
		out = append(out, d)
	}
	return out
}

// JSONDiff appends a Diff per leaf where two decoded JSON values differ, with a dotted path.
func JSONDiff(a, b any, path string, out *[]Diff) {
	switch at := a.(type) {
	case map[string]any:
		bt, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range at {
			keys[k] = true
		}
		for k := range bt {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			av, aok := at[k]
			bv, bok := bt[k]
			p := join(path, k)
			switch {
			case !aok:
				*out = append(*out, Diff{Aspect: "body", Path: p, Ref: "(absent)", Sim: short(bv)})
			case !bok:
				*out = append(*out, Diff{Aspect: "body", Path: p, Ref: short(av), Sim: "(absent)"})
			default:
				JSONDiff(av, bv, p, out)
			}
		}
		return
	case []any:
		bt, ok := b.([]any)
		if !ok {
			break
		}
		if len(at) != len(bt) {
			*out = append(*out, Diff{Aspect: "body", Path: path, Ref: short(a), Sim: short(b)})
			return
		}
		for i := range at {
			JSONDiff(at[i], bt[i], path+"["+strconv.Itoa(i)+"]", out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, Diff{Aspect: "body", Path: path, Ref: short(a), Sim: short(b)})
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// short renders a value for a report line, cut at 300 characters.
func short(v any) string {
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case nil:
		s = "(none)"
	default:
		b, _ := json.Marshal(t)
		s = string(b)
	}
	if s == "" {
		s = `""`
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
