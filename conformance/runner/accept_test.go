package runner

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAcceptKeepsOnlyCurrentReasons: an entry whose class still describes the difference
// keeps its (hand-written) reason; one whose difference changed is classified afresh; a
// no-controllers entry is kept whatever the symptom; a case that agrees leaves the list.
func TestAcceptKeepsOnlyCurrentReasons(t *testing.T) {
	differ := func(id string) Result {
		return Result{ID: id, Diffs: []Diff{{Step: "create", Aspect: "message", Ref: "a", Sim: "b"}},
			Steps: []StepPair{{Name: "create"}}}
	}
	results := []Result{differ("same"), differ("changed"), differ("controllers"), {ID: "agrees"}}
	class, _ := Classify(differ("x"))
	known := map[string]Known{
		"same":        {Case: "same", Class: class, Reason: "written by hand"},
		"changed":     {Case: "changed", Class: "unserved-resource-type", Reason: "simulator 404"},
		"controllers": {Case: "controllers", Class: "no-controllers", Reason: "the reference's controllers race the read"},
		"agrees":      {Case: "agrees", Class: "error-text", Reason: "old"},
	}
	got := map[string]Known{}
	for _, k := range Accept(results, known) {
		got[k.Case] = k
	}
	assert.Len(t, got, 3)
	assert.Equal(t, "written by hand", got["same"].Reason)
	assert.Equal(t, class, got["changed"].Class)
	assert.NotEqual(t, "simulator 404", got["changed"].Reason)
	assert.Equal(t, "no-controllers", got["controllers"].Class)
}
