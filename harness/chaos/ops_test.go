package chaos

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/informer"
)

// TestChaos_GenerateIsDeterministic: a seed always gives the same op list (sentence 2 of
// doc.go), different seeds give different lists, and every kind appears in a long list.
func TestChaos_GenerateIsDeterministic(t *testing.T) {
	a, b := Generate(7, 300), Generate(7, 300)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, Generate(8, 300))
	kinds := map[Kind]bool{}
	for _, op := range Generate(1, 5000) {
		kinds[op.Kind] = true
	}
	for k := OpCreate; k <= OpSettle; k++ {
		assert.True(t, kinds[k], "kind %s never generated", k)
	}
	assert.True(t, a[0].Prelude && a[0].Kind == OpCreate, "a list starts with creates before the informer starts")
}

// TestChaos_KeepRoundTrip: the -chaos.keep syntax a failure prints parses back.
func TestChaos_KeepRoundTrip(t *testing.T) {
	keep := []int{0, 1, 2, 5, 7, 8, 9, 20}
	assert.Equal(t, "0-2,5,7-9,20", FormatKeep(keep))
	got, err := ParseKeep("0-2, 5,7-9,20,8")
	require.NoError(t, err)
	assert.Equal(t, keep, got)
	for _, bad := range []string{"x", "3-1", "-2", "1-y"} {
		_, err := ParseKeep(bad)
		assert.Error(t, err, bad)
	}
}

// TestChaos_ShrinkFindsTheCulprits: delta debugging narrows 200 ops down to the two whose
// presence makes the run fail, within its budget.
func TestChaos_ShrinkFindsTheCulprits(t *testing.T) {
	keep := all(200)
	fails := func(k []int) bool { return slices.Contains(k, 17) && slices.Contains(k, 150) }
	got, runs := Shrink(keep, 500, fails)
	assert.Equal(t, []int{17, 150}, got)
	assert.LessOrEqual(t, runs, 100)

	got, runs = Shrink(keep, 3, fails)
	assert.Equal(t, 3, runs, "the budget bounds the runs")
	assert.True(t, fails(got), "whatever it returns still fails")
}

// TestChaos_HarnessCatchesMissedEvents checks the checks: with the repairing relist left out
// of quiescence, a dropped MODIFIED event must break INV-1 (cache), INV-3 (every handler's
// last notification) and the controller's convergence, under every profile; with the relist
// the same ops pass.
func TestChaos_HarnessCatchesMissedEvents(t *testing.T) {
	ops := []Op{
		{Kind: OpCreate, Prelude: true, Key: "default/a", N: 1},
		{Kind: OpSettle},
		{Kind: OpDrop, N: 1, Type: "MODIFIED"},
		{Kind: OpUpdate, Key: "default/a", N: 42},
		{Kind: OpAdvance, D: time.Second},
	}
	for _, p := range []informer.Profile{informer.ProfileClassic, informer.ProfileInOrder, informer.ProfileCurrent} {
		t.Run(p.String(), func(t *testing.T) {
			broken := runOnce(t, runConfig{profile: p, ops: ops, skipRelist: true})
			found := map[string]bool{}
			for _, v := range broken.violations {
				found[v.inv] = true
			}
			for _, inv := range []string{"INV-1", "INV-3", "CTRL", "QUIESCENCE"} {
				assert.True(t, found[inv], "%s not reported; got %v", inv, broken.violations)
			}
			fixed := runOnce(t, runConfig{profile: p, ops: ops})
			assert.Empty(t, fixed.violations)
		})
	}
}

// TestChaos_ShrinkReproduces runs the whole failure path on a generated list that ends with a
// lost update and no repairing relist: the run fails, and the report shrinks the 150-odd ops
// to a handful that still hold the drop, and names the replay flags.
func TestChaos_ShrinkReproduces(t *testing.T) {
	// A generated list, then a lost update that only the final relist would repair: the
	// informer is given time to get back to watching first, so that the drop hits its watch.
	// The generated list ends with a failure armed for the next watch request; the watch
	// open then times out at a random moment (5 to 10 minutes after it began), and when that
	// came after the drop, the failed re-watch made the reflector relist and repair it (half
	// the runs). Closing the watches before the drop spends that failure; after the drop a
	// bookmark moves the informer past the lost event, so no later re-watch brings it back.
	ops := append(Generate(3, 150),
		Op{Kind: OpDelayEvents}, Op{Kind: OpRelease}, Op{Kind: OpResume}, Op{Kind: OpAdvance, D: 2 * time.Minute},
		Op{Kind: OpCloseWatch}, Op{Kind: OpAdvance, D: time.Minute},
		Op{Kind: OpDrop, N: 1}, Op{Kind: OpUpdate, Key: "default/a", N: 7}, Op{Kind: OpSettle})
	cfg := runConfig{profile: informer.ProfileClassic, ops: ops, keep: all(len(ops)), skipRelist: true}
	// The reflector's backoff jitter and watch timeouts are random; 120 runs of this list
	// were all broken, and a few tries keep a rare repaired run from failing the test.
	var res *result
	for range 5 {
		if res = runOnce(t, cfg); len(res.violations) > 0 {
			break
		}
	}
	require.NotEmpty(t, res.violations, "the dropped update is never repaired")
	text, shrunk, shrunkRes := investigate(t, cfg, res, 120)
	t.Log(text)
	assert.NotEmpty(t, shrunkRes.violations)
	assert.LessOrEqual(t, len(shrunk), 12, "shrunk list")
	assert.Contains(t, text, "keep="+FormatKeep(shrunk))
	lost := slices.ContainsFunc(shrunk, func(i int) bool {
		k := ops[i].Kind
		return k == OpDrop || k == OpCut || k == OpCloseWatch || k == OpShortWatch || strings.Contains(k.String(), "fail") ||
			k == OpExpire || k == OpCompact || k == OpDelayEvents || k == OpPause || k == OpStall
	})
	assert.True(t, lost, "the shrunk list should hold the fault that lost an event")
}
