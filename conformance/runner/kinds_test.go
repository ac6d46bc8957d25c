package runner

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCh01_ConformanceKindAgreement(t *testing.T) {
	results := []Result{
		{ID: "1", Kind: "core/Pod"},
		{ID: "2", Kind: "core/Pod", Diffs: []Diff{{}}},
		{ID: "3", Kind: "apps/Deployment", Error: "setup failed"},
		{ID: "4"},
	}
	rows := KindAgreement(results)
	assert.Equal(t, []KindRow{
		{Kind: "apps/Deployment", Cases: 1, Differ: 1},
		{Kind: "core/Pod", Cases: 2, Agree: 1, Differ: 1},
		{Kind: OtherKinds, Cases: 1, Agree: 1},
	}, rows)
	assert.Equal(t, "| group/kind | cases | agree | differ | agreement |\n|---|---:|---:|---:|---:|\n"+
		"| apps/Deployment | 1 | 0 | 1 | 0.0% |\n| core/Pod | 2 | 1 | 1 | 50.0% |\n| (no kind) | 1 | 1 | 0 | 100.0% |\n",
		KindTable(rows))
	assert.Equal(t, "core", KindGroup("core/Pod"))
}
