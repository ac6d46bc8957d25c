package printers

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// testNow is the clock of the printer tests; created is five minutes before it, so a
// creationTimestamp of created prints AGE "5m".
var testNow = time.Date(2026, 1, 2, 3, 10, 5, 0, time.UTC)

const created = "2026-01-02T03:05:05Z"

// ago is the RFC 3339 text of testNow minus d.
func ago(d time.Duration) string { return testNow.Add(-d).Format(time.RFC3339) }

// mustTree decodes an object's JSON as the server holds it, numbers as int64 or float64.
func mustTree(t testing.TB, js string) object {
	t.Helper()
	var u api.Unstructured
	require.NoError(t, u.UnmarshalJSON([]byte(js)))
	return u.Object
}

// withMeta is an object named name, created at created, with the members in rest (JSON
// members, each starting with a comma).
func withMeta(name, rest string) string {
	return fmt.Sprintf(`{"metadata":{"name":%q,"creationTimestamp":%q}%s}`, name, created, rest)
}

// columnSpecs lists a printer's columns as "Name type format priority".
func columnSpecs(p *Printer) []string {
	out := make([]string, len(p.columns()))
	for i, c := range p.columns() {
		out[i] = fmt.Sprintf("%s|%s|%s|%d", c.Name, c.Type, c.Format, c.Priority)
	}
	return out
}

// assertColumns checks a printer's columns against the kube-apiserver's and that each one
// quoting the API documentation names a member the embedded documents describe.
func assertColumns(t *testing.T, p *Printer, want ...string) {
	t.Helper()
	if diff := cmp.Diff(want, columnSpecs(p)); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	for _, c := range p.specs {
		if c.desc.definition != "" {
			assert.NotEmpty(t, c.desc.resolve(), "column %s: %s.%s is documented", c.def.Name, c.desc.definition, c.desc.member)
		}
	}
}

// cellCase is one object and the row the printer must make of it.
type cellCase struct {
	name  string
	json  string
	want  []any
	conds []api.TableRowCondition
}

func runCellCases(t *testing.T, p *Printer, cases []cellCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cells, conds := p.cells(mustTree(t, tc.json), testNow)
			require.Len(t, cells, len(p.columns()), "one cell per column")
			if diff := cmp.Diff(tc.want, cells); diff != "" {
				t.Errorf("cells (-want +got):\n%s", diff)
			}
			assert.Equal(t, tc.conds, conds)
		})
	}
}

// TestCh01_Printers_For checks which printer each kind gets: the built-in kinds by group and
// kind, everything else and every registered custom kind NAME AGE.
func TestCh01_Printers_For(t *testing.T) {
	for _, tc := range []struct {
		group, kind string
		builtin     bool
		want        *Printer
	}{
		{"", "Pod", true, podPrinter},
		{"", "Event", true, eventPrinter},
		{"events.k8s.io", "Event", true, eventsV1Printer},
		{"apps", "Deployment", true, deploymentPrinter},
		{"batch", "CronJob", true, cronJobPrinter},
		{"coordination.k8s.io", "Lease", true, leasePrinter},
		{"discovery.k8s.io", "EndpointSlice", true, endpointSlicePrinter},
		{"apps", "Deployment", false, defaultPrinter}, // registered as a custom kind
		{"", "Deployment", true, defaultPrinter},      // wrong group
		{"example.com", "Foo", false, defaultPrinter},
		{"", "RangeAllocation", true, defaultPrinter}, // built in, but we have no printer for it
		{"", "PodTemplate", true, podTemplatePrinter},
		{"", "LimitRange", true, createdAtPrinter}, // no printer upstream: Created At
	} {
		assert.Same(t, tc.want, For(tc.group, tc.kind, tc.builtin), "%s/%s builtin=%v", tc.group, tc.kind, tc.builtin)
	}
	// Every printer's first column is the object's name, except the Event's (LAST SEEN).
	for gk, p := range builtinPrinters {
		if gk.kind != "Event" {
			assert.Equal(t, "Name", p.columns()[0].Name, "%v", gk)
		}
	}
}

// TestCh01_Printers_FieldReaders checks the readers of the generic tree on wrong shapes:
// they give zero values, never panic.
func TestCh01_Printers_FieldReaders(t *testing.T) {
	o := mustTree(t, `{"a":{"n":3,"f":2.5,"s":"x","b":true,"l":[1,"y",{"k":"v"}]},"s":"not an object"}`)
	assert.Equal(t, int64(3), o.int("a", "n"))
	_, ok := o.integer("a", "f")
	assert.False(t, ok, "2.5 is not an integer")
	assert.Equal(t, "", o.str("a", "n"))
	assert.Equal(t, "", o.str("s", "deeper"))
	assert.Equal(t, []string{"y"}, o.strings("a", "l"))
	assert.Len(t, o.objects("a", "l"), 1)
	assert.Nil(t, o.obj("a", "missing"))
	assert.Equal(t, int64(7), o.intOr(7, "a", "missing"))
	b, ok := o.boolean("a", "b")
	assert.True(t, b && ok)
	q, ok := o.quantity("a", "f")
	assert.Equal(t, "2.5", q)
	assert.True(t, ok)
	assert.Equal(t, int64(5), object{"i": 5}.int("i"), "a tree built in Go may hold an int")
	_, ok = o.time("a", "s")
	assert.False(t, ok, "x is not a timestamp")
}
