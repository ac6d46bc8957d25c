package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Result is the comparison of one case.
type Result struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	Source   string `json:"source,omitempty"`
	Kind     string `json:"kind,omitempty"`
	// Diffs are the differences found; empty means the servers agree.
	Diffs []Diff `json:"diffs,omitempty"`
	// Error is a failure of the case's setup on either server (not a difference).
	Error string `json:"error,omitempty"`
	// Steps hold both observations of every step, kept only for differing cases.
	Steps []StepPair `json:"steps,omitempty"`
}

// StepPair is one step as both servers answered it.
type StepPair struct {
	Name string      `json:"name"`
	Ref  Observation `json:"ref"`
	Sim  Observation `json:"sim"`
}

// Agrees reports whether the case ran and both servers agreed.
func (r Result) Agrees() bool { return r.Error == "" && len(r.Diffs) == 0 }

// CaseNamespace is the namespace (and name suffix) of a case: stable across runs.
func CaseNamespace(id string) string {
	sum := sha256.Sum256([]byte(id))
	return "cf-" + hex.EncodeToString(sum[:])[:12]
}

// Runner replays cases against the reference and the simulator.
type Runner struct {
	Ref, Sim    *Target
	Concurrency int
	// Progress, if set, is called after each case.
	Progress func(done, total int)
}

// Run executes every case (serial ones first, in order) and returns one Result per case, in
// the order of cases.
func (r *Runner) Run(ctx context.Context, cases []Case) []Result {
	results := make([]Result, len(cases))
	var done int
	var mu sync.Mutex
	tick := func() {
		mu.Lock()
		done++
		d := done
		mu.Unlock()
		if r.Progress != nil {
			r.Progress(d, len(cases))
		}
	}
	var parallel []int
	for i, c := range cases {
		if c.Serial {
			results[i] = r.RunCase(ctx, c)
			tick()
		} else {
			parallel = append(parallel, i)
		}
	}
	n := r.Concurrency
	if n < 1 {
		n = 1
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = r.RunCase(ctx, cases[i])
				tick()
			}
		}()
	}
	for _, i := range parallel {
		work <- i
	}
	close(work)
	wg.Wait()
	return results
}

// RunCase runs one case on both servers (the reference first, then the simulator) and compares
// each step.
func (r *Runner) RunCase(ctx context.Context, c Case) Result {
	res := Result{ID: c.ID, Category: c.Category, Source: c.Source, Kind: c.Kind}
	ns := CaseNamespace(c.ID)
	urls := []string{r.Ref.URL, r.Sim.URL}
	var refOut, simOut []Outcome
	for _, t := range []*Target{r.Ref, r.Sim} {
		outs, err := runSteps(ctx, t, c, ns)
		if err != nil {
			res.Error = t.Name + ": " + err.Error()
			return res
		}
		if t == r.Ref {
			refOut = outs
		} else {
			simOut = outs
		}
	}
	for i, s := range c.Steps {
		if s.Setup {
			continue
		}
		opt := NormaliseOptions{KeepManagedFields: s.KeepManagedFields, IgnoreBody: s.IgnoreBody, Kubectl: s.Kubectl != nil, ServerURLs: urls}
		ro, so := Normalise(refOut[i], opt), Normalise(simOut[i], opt)
		name := s.Name
		if name == "" {
			name = "step" + strconv.Itoa(i)
		}
		d := Compare(name, ro, so)
		res.Diffs = append(res.Diffs, d...)
		res.Steps = append(res.Steps, StepPair{Name: name, Ref: ro, Sim: so})
	}
	if len(res.Diffs) == 0 {
		res.Steps = nil
	}
	return res
}

var varRE = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

func runSteps(ctx context.Context, t *Target, c Case, ns string) ([]Outcome, error) {
	sfx := strings.TrimPrefix(ns, "cf-")
	if !c.NoNamespace {
		if err := setupNamespace(ctx, t, ns); err != nil {
			return nil, err
		}
	}
	vars := map[string]string{}
	subst := func(s string) string {
		s = strings.ReplaceAll(s, NSPlaceholder, ns)
		s = strings.ReplaceAll(s, SuffixPlaceholder, sfx)
		return varRE.ReplaceAllStringFunc(s, func(m string) string { return vars[varRE.FindStringSubmatch(m)[1]] })
	}
	outs := make([]Outcome, len(c.Steps))
	for i, s := range c.Steps {
		var o Outcome
		switch {
		case s.Kubectl != nil:
			args := make([]string, len(s.Kubectl))
			for j, a := range s.Kubectl {
				args[j] = subst(a)
			}
			var stdin []byte
			if s.Stdin != nil {
				stdin = []byte(subst(string(s.Stdin)))
			}
			o = t.Kubectl(ctx, args, stdin)
		case s.Watch:
			o = t.Watch(ctx, subst(s.Path), s.Headers)
		default:
			var body []byte
			if s.Body != nil {
				body = []byte(subst(string(s.Body)))
			}
			deadline := time.Now().Add(15 * time.Second)
			for {
				o = t.Do(ctx, s.Method, subst(s.Path), s.Headers, body)
				retry := s.RetryNotFound && (o.Code == http.StatusNotFound || o.Code == http.StatusServiceUnavailable)
				retry = retry || (s.RetryUntil != 0 && o.Code != s.RetryUntil)
				if !retry || time.Now().After(deadline) {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
		if s.Setup && (o.Err != "" || o.Code >= 300) && s.Kubectl == nil {
			return nil, fmt.Errorf("setup step %q: %d %s %s", s.Name, o.Code, o.Err, short(string(o.Body)))
		}
		for name, path := range s.Capture {
			var v any
			if json.Unmarshal(o.Body, &v) == nil {
				vars[name] = lookup(v, path)
			}
		}
		outs[i] = o
	}
	return outs, nil
}

// setupNamespace creates the case's namespace and its default ServiceAccount (the
// reference runs no controller that would create the latter).
func setupNamespace(ctx context.Context, t *Target, ns string) error {
	o := t.Do(ctx, http.MethodPost, "/api/v1/namespaces", nil, []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))
	if o.Err != "" || (o.Code != http.StatusCreated && o.Code != http.StatusConflict) {
		return fmt.Errorf("creating namespace %s: %d %s %s", ns, o.Code, o.Err, short(string(o.Body)))
	}
	o = t.Do(ctx, http.MethodPost, "/api/v1/namespaces/"+ns+"/serviceaccounts", nil, []byte(`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`))
	if o.Err != "" || (o.Code != http.StatusCreated && o.Code != http.StatusConflict) {
		return fmt.Errorf("creating serviceaccount %s/default: %d %s %s", ns, o.Code, o.Err, short(string(o.Body)))
	}
	return nil
}

// lookup follows a dotted path (with [i] indices) in a decoded JSON value and returns the
// string form of what it finds, or "".
func lookup(v any, path string) string {
	for _, part := range strings.Split(path, ".") {
		name, idx := part, -1
		if i := strings.Index(part, "["); i >= 0 && strings.HasSuffix(part, "]") {
			name = part[:i]
			idx, _ = strconv.Atoi(part[i+1 : len(part)-1])
		}
		if name != "" {
			m, ok := v.(map[string]any)
			if !ok {
				return ""
			}
			v = m[name]
		}
		if idx >= 0 {
			a, ok := v.([]any)
			if !ok || idx >= len(a) {
				return ""
			}
			v = a[idx]
		}
	}
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	default:
		b, _ := json.Marshal(t)
		return string(b)
	}
}
