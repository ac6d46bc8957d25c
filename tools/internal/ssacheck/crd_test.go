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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// debugUniverse, when set, sees each CRD sequence's universe object.
var debugUniverse func(map[string]any)

// crdConflicts counts the steps both sides refused, for the log.
var crdConflicts int

var crdSequences = flag.Int("ssa.crdSequences", 2000, "random apply/update sequences on a custom resource")

// crdSequence is a sequence on the custom resource: objects stay unstructured, as the
// custom resource handler keeps them.
type crdSequence struct {
	c       *crdCase
	us      *ours
	g       *gen
	steps   []step
	smdLive *unstructured.Unstructured
	ourLive json.RawMessage
}

func runCRDSequence(c *crdCase, us *ours, seed int64) (string, error) {
	r := rand.New(rand.NewSource(seed))
	sq := &crdSequence{c: c, us: us, g: &gen{r: r, defs: c.defs, maxProps: 10}}
	universe := sq.g.root(c.root, "example.com/v1", "Widget")
	if debugUniverse != nil {
		debugUniverse(universe)
	}
	managers := append([]string(nil), managerNames...)
	r.Shuffle(len(managers), func(i, j int) { managers[i], managers[j] = managers[j], managers[i] })
	managers = managers[:2+r.Intn(3)]
	for i, n := 0, 2+r.Intn(9); i < n; i++ {
		manager := managers[r.Intn(len(managers))]
		var body map[string]any
		op := "apply"
		if r.Float64() < 0.6 {
			body = sq.g.subset(universe, c.root, 0.7, 0).(map[string]any)
		} else {
			op = "update"
			if sq.smdLive == nil {
				body = sq.g.subset(universe, c.root, 0.7, 0).(map[string]any)
			} else {
				body = sq.g.mutate(runtime.DeepCopyJSON(sq.smdLive.Object), c.root, 0).(map[string]any)
			}
		}
		diff, err := sq.step(op, manager, body, r.Float64() < 0.3)
		if err != nil || diff != "" {
			var b strings.Builder
			fmt.Fprintf(&b, "seed %d, %v:\n", seed, c.gvk)
			for i, s := range sq.steps {
				fmt.Fprintf(&b, "  %d. %s by %s force=%v: %s\n", i+1, s.Op, s.Manager, s.Force, s.Body)
			}
			b.WriteString(diff)
			return b.String(), err
		}
	}
	return "", nil
}

func (sq *crdSequence) step(op, manager string, bodyObj map[string]any, force bool) (string, error) {
	body, err := json.Marshal(bodyObj)
	if err != nil {
		return "", err
	}
	sq.steps = append(sq.steps, step{Op: op, Manager: manager, Force: force, Body: string(body)})
	var live runtime.Object
	if sq.smdLive != nil {
		live = sq.smdLive.DeepCopy()
	} else {
		live, _ = crCreater{}.New(sq.c.gvk)
	}
	in := &unstructured.Unstructured{}
	if err := in.UnmarshalJSON(body); err != nil {
		return "", err
	}
	var smdOut runtime.Object
	var smdErr error
	if op == "apply" {
		smdOut, smdErr = sq.c.manager.Apply(live, in, manager, force)
	} else {
		smdOut, smdErr = sq.c.manager.Update(live, in, manager)
	}
	resp, err := sq.us.run(request{Op: op, Group: "example.com", Version: "v1", Kind: "Widget", CustomResource: sq.c.wire,
		Live: sq.ourLive, Object: body, Manager: manager, Force: force, Time: time.Now().UTC()})
	if err != nil {
		return "", err
	}
	if (smdErr != nil) != (resp.Error != "") {
		return fmt.Sprintf("error: smd %v, ours %q", smdErr, resp.Error), nil
	}
	if smdErr != nil {
		crdConflicts++
		if st, ok := smdErr.(apierrors.APIStatus); ok && st.Status().Code == 409 && resp.Error != st.Status().Message {
			return fmt.Sprintf("conflict: smd %q, ours %q", st.Status().Message, resp.Error), nil
		}
		return "", nil
	}
	smdU := smdOut.(*unstructured.Unstructured)
	smdJSON, err := smdU.MarshalJSON()
	if err != nil {
		return "", err
	}
	stored := &unstructured.Unstructured{}
	if err := stored.UnmarshalJSON(smdJSON); err != nil {
		return "", err
	}
	ours := &unstructured.Unstructured{}
	if err := ours.UnmarshalJSON(resp.Object); err != nil {
		return "", err
	}
	se, oe := entriesOf(stored.GetManagedFields()), entriesOf(ours.GetManagedFields())
	withoutMF := func(u *unstructured.Unstructured) map[string]any {
		c := u.DeepCopy()
		c.SetManagedFields(nil)
		return c.Object
	}
	if d := cmp.Diff(withoutMF(stored), withoutMF(ours)); d != "" {
		return "object (-smd +ours):\n" + d, nil
	}
	byID := func(list []metaEntry) map[string]string {
		m := map[string]string{}
		for _, e := range list {
			m[e.id] = e.fields
		}
		return m
	}
	if d := cmp.Diff(byID(se), byID(oe)); d != "" {
		return "managedFields (-smd +ours):\n" + d, nil
	}
	sq.smdLive = stored
	sq.ourLive = resp.Object
	return "", nil
}

func TestCh01_SSA_DifferentialOnCustomResource(t *testing.T) {
	c, err := newCRDCase()
	if err != nil {
		t.Fatal(err)
	}
	us := startOurs(t)
	failures := 0
	for i := 0; i < *crdSequences; i++ {
		diff, err := runCRDSequence(c, us, *firstSeed+int64(i))
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
	t.Logf("%d custom resource sequences, %d with a difference, %d steps refused by both sides", *crdSequences, failures, crdConflicts)
}
