package ssacheck

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

var (
	sequences = flag.Int("ssa.sequences", 5000, "random apply/update sequences the differential test runs")
	firstSeed = flag.Int64("ssa.seed", 1, "seed of the first sequence; sequence i uses seed+i")
)

// stats counts what the sequences exercised, so the log shows the check is not vacuous.
var stats struct{ applies, updates, conflicts, errors, entries, kubectlOverLastApplied, subresource int }

// debugHook, when set, sees the state after every step.
var debugHook func(*sequence)

// debugUpdate, when set, sees each update's objects before the oracle runs.
var debugUpdate func(sq *sequence, live, newObj runtime.Object)

var managerNames = []string{"alice", "bob", "carol", "kubectl"}

// step is one write of a sequence, for the report of a difference.
type step struct {
	Op          string
	Manager     string
	Subresource string
	Force       bool
	Body        string
}

type sequence struct {
	o     *oracle
	us    *ours
	gvk   schema.GroupVersionKind
	g     *gen
	root  *spec.Schema
	steps []step

	smdLive runtime.Object // nil until created
	ourLive json.RawMessage
}

func (o *oracle) rootSchema(gvk schema.GroupVersionKind) *spec.Schema {
	var found *spec.Schema
	for name, s := range o.schemas[gvk.GroupVersion().String()] {
		gvks, _ := s.Extensions["x-kubernetes-group-version-kind"].([]any)
		for _, x := range gvks {
			m, _ := x.(map[string]any)
			if m["group"] == gvk.Group && m["version"] == gvk.Version && m["kind"] == gvk.Kind && (found == nil || strings.HasSuffix(name, "."+gvk.Kind)) {
				found = s
			}
		}
	}
	return found
}

// runSequence plays one seeded sequence on both sides and returns the first difference.
func runSequence(o *oracle, us *ours, seed int64) (string, error) {
	r := rand.New(rand.NewSource(seed))
	gvk := o.kinds[r.Intn(len(o.kinds))]
	root := o.rootSchema(gvk)
	if root == nil {
		return "", fmt.Errorf("no schema for %v", gvk)
	}
	sq := &sequence{o: o, us: us, gvk: gvk, g: &gen{r: r, defs: o.schemas[gvk.GroupVersion().String()]}, root: root}
	universe := sq.g.root(root, gvk.GroupVersion().String(), gvk.Kind)
	managers := append([]string(nil), managerNames...)
	r.Shuffle(len(managers), func(i, j int) { managers[i], managers[j] = managers[j], managers[i] })
	managers = managers[:2+r.Intn(3)]
	n := 2 + r.Intn(9)
	for i := 0; i < n; i++ {
		manager := managers[r.Intn(len(managers))]
		subresource := ""
		if sq.smdLive != nil && r.Float64() < 0.1 {
			subresource = "status"
		}
		var diff string
		var err error
		if r.Float64() < 0.6 {
			cfg := sq.g.subset(universe, root, 0.7, 0).(map[string]any)
			diff, err = sq.apply(manager, subresource, cfg, r.Float64() < 0.3)
		} else {
			diff, err = sq.update(manager, subresource, universe)
		}
		if err != nil || diff != "" {
			return sq.report(seed, diff), err
		}
	}
	return "", nil
}

func (sq *sequence) report(seed int64, diff string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, %v:\n", seed, sq.gvk)
	for i, s := range sq.steps {
		fmt.Fprintf(&b, "  %d. %s by %s on %q force=%v: %s\n", i+1, s.Op, s.Manager, s.Subresource, s.Force, s.Body)
	}
	b.WriteString(diff)
	return b.String()
}

func (sq *sequence) newLive() (runtime.Object, error) {
	if sq.smdLive != nil {
		return sq.smdLive.DeepCopyObject(), nil
	}
	obj, err := sq.o.scheme.New(sq.gvk)
	if err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(sq.gvk)
	return obj, nil
}

func (sq *sequence) apply(manager, subresource string, cfg map[string]any, force bool) (string, error) {
	body, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	sq.steps = append(sq.steps, step{"apply", manager, subresource, force, string(body)})
	f, err := sq.o.manager(sq.gvk, subresource)
	if err != nil {
		return "", err
	}
	live, err := sq.newLive()
	if err != nil {
		return "", err
	}
	applied := &unstructured.Unstructured{}
	if err := applied.UnmarshalJSON(body); err != nil {
		return "", err
	}
	stats.applies++
	if subresource != "" {
		stats.subresource++
	}
	if acc, err := metaAccessor(live); err == nil && manager == "kubectl" && acc.GetAnnotations()["kubectl.kubernetes.io/last-applied-configuration"] != "" {
		stats.kubectlOverLastApplied++
	}
	smdOut, smdErr := f.Apply(live, applied, manager, force)
	resp, err := sq.us.run(request{Op: "apply", Group: sq.gvk.Group, Version: sq.gvk.Version, Kind: sq.gvk.Kind,
		Live: sq.ourLive, Object: body, Manager: manager, Subresource: subresource, Force: force, Time: time.Now().UTC()})
	if err != nil {
		return "", err
	}
	return sq.compare(smdOut, smdErr, resp)
}

func (sq *sequence) update(manager, subresource string, universe map[string]any) (string, error) {
	var bodyObj map[string]any
	if sq.smdLive == nil {
		bodyObj = sq.g.subset(universe, sq.root, 0.7, 0).(map[string]any)
	} else {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(sq.smdLive)
		if err != nil {
			return "", err
		}
		bodyObj = sq.g.mutate(u, sq.root, 0).(map[string]any)
		switch x := sq.g.r.Float64(); {
		case x < 0.05: // the reset marker
			bodyObj["metadata"].(map[string]any)["managedFields"] = []any{}
		case x < 0.15: // a client that drops them
			delete(bodyObj["metadata"].(map[string]any), "managedFields")
		}
	}
	if sq.g.r.Float64() < 0.2 {
		// A client-side apply: the configuration goes into the last-applied annotation, which
		// a later server-side apply by kubectl reads.
		last, err := json.Marshal(sq.g.subset(universe, sq.root, 0.7, 0))
		if err != nil {
			return "", err
		}
		md := bodyObj["metadata"].(map[string]any)
		ann, _ := md["annotations"].(map[string]any)
		if ann == nil {
			ann = map[string]any{}
			md["annotations"] = ann
		}
		ann["kubectl.kubernetes.io/last-applied-configuration"] = string(last) + "\n"
	}
	raw, err := json.Marshal(bodyObj)
	if err != nil {
		return "", err
	}
	newObj, err := sq.o.typedOf(sq.gvk, raw)
	if err != nil {
		return "", fmt.Errorf("update body: %v", err)
	}
	// The body in its stored form: an empty list or map under omitempty is gone. Inside an
	// atomic value, structured-merge-diff's reflection tells {"type":""} from
	// {"type":"","default":{}} although both read the same; the harness keeps out of that
	// corner rather than feed the two sides different views.
	resetMarker := false
	if acc, err := metaAccessor(newObj); err == nil && acc.GetManagedFields() != nil && len(acc.GetManagedFields()) == 0 {
		resetMarker = true
	}
	if newObj, err = sq.o.stored(sq.gvk, newObj); err != nil {
		return "", err
	}
	if resetMarker {
		acc, _ := metaAccessor(newObj)
		acc.SetManagedFields([]metav1.ManagedFieldsEntry{})
	}
	view, err := sq.o.view(sq.gvk, newObj)
	if err != nil {
		return "", fmt.Errorf("update body: %v", err)
	}
	if acc, err := metaAccessor(newObj); err == nil && acc.GetManagedFields() != nil && len(acc.GetManagedFields()) == 0 {
		// The reset marker: an empty list present, which the reflected view leaves out.
		md, _ := view["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			view["metadata"] = md
		}
		md["managedFields"] = []any{}
	}
	body, err := json.Marshal(view)
	if err != nil {
		return "", err
	}
	sq.steps = append(sq.steps, step{"update", manager, subresource, false, string(body)})
	f, err := sq.o.manager(sq.gvk, subresource)
	if err != nil {
		return "", err
	}
	live, err := sq.newLive()
	if err != nil {
		return "", err
	}
	stats.updates++
	if subresource != "" {
		stats.subresource++
	}
	if debugUpdate != nil {
		debugUpdate(sq, live, newObj)
	}
	smdOut, smdErr := f.Update(live, newObj, manager)
	resp, err := sq.us.run(request{Op: "update", Group: sq.gvk.Group, Version: sq.gvk.Version, Kind: sq.gvk.Kind,
		Live: sq.ourLive, Object: body, Manager: manager, Subresource: subresource, Time: time.Now().UTC()})
	if err != nil {
		return "", err
	}
	return sq.compare(smdOut, smdErr, resp)
}

// compare checks one step's outcomes and moves both sides on.
func (sq *sequence) compare(smdOut runtime.Object, smdErr error, resp response) (string, error) {
	if (smdErr != nil) != (resp.Error != "") {
		return fmt.Sprintf("error: smd %v, ours %q", smdErr, resp.Error), nil
	}
	if smdErr != nil {
		stats.errors++
		if st, ok := smdErr.(apierrors.APIStatus); ok && st.Status().Code == 409 {
			stats.conflicts++
			if resp.Code != 409 || resp.Error != st.Status().Message {
				return fmt.Sprintf("conflict: smd %q, ours %d %q", st.Status().Message, resp.Code, resp.Error), nil
			}
		}
		return "", nil
	}
	ourObj, err := sq.o.typedOf(sq.gvk, resp.Object)
	if err != nil {
		return fmt.Sprintf("our object does not decode: %v\n%s", err, resp.Object), nil
	}
	_, se, err := unstructuredOf(smdOut)
	if err != nil {
		return "", err
	}
	if smdOut, err = sq.o.stored(sq.gvk, smdOut); err != nil {
		return "", err
	}
	su, _, err := unstructuredOf(smdOut)
	if err != nil {
		return "", err
	}
	ou, oe, err := unstructuredOf(ourObj)
	if err != nil {
		return "", err
	}
	if d := cmp.Diff(su, ou); d != "" {
		return "object (-smd +ours):\n" + d, nil
	}
	entries := func(list []metaEntry) map[string]string {
		m := map[string]string{}
		for _, e := range list {
			m[e.id] = e.fields
		}
		return m
	}
	if d := cmp.Diff(entries(entriesOf(se)), entries(entriesOf(oe))); d != "" {
		return "managedFields (-smd +ours):\n" + d, nil
	}
	sq.smdLive = smdOut
	stats.entries += len(se)
	sq.ourLive, err = json.Marshal(ourObj)
	if debugHook != nil {
		debugHook(sq)
	}
	return "", err
}

func TestCh01_SSA_DifferentialAgainstStructuredMergeDiff(t *testing.T) {
	o, err := newOracle()
	if err != nil {
		t.Fatal(err)
	}
	us := startOurs(t)
	failures := 0
	for i := 0; i < *sequences; i++ {
		diff, err := runSequence(o, us, *firstSeed+int64(i))
		if err != nil {
			t.Fatalf("seed %d: %v", *firstSeed+int64(i), err)
		}
		if diff != "" {
			failures++
			if failures <= 3 {
				t.Errorf("difference:\n%s", diff)
			}
		}
	}
	t.Logf("%d sequences over %d kinds, %d with a difference; %d applies, %d updates (%d on status), %d errors (%d conflicts), "+
		"%d applies by kubectl over a last-applied annotation, %d managedFields entries compared",
		*sequences, len(o.kinds), failures, stats.applies, stats.updates, stats.subresource, stats.errors, stats.conflicts,
		stats.kubectlOverLastApplied, stats.entries)
}
