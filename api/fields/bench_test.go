package fields_test

import (
	"testing"

	"github.com/informer-lab/informer-lab/api/fields"
)

// benchSelector is what a kubelet-style pod informer sends.
const benchSelector = "spec.nodeName=node-1,status.phase!=Succeeded,status.phase!=Failed"

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fields.ParseSelector(benchSelector); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatches is the per-object cost on a LIST or WATCH; it must not allocate.
func BenchmarkMatches(b *testing.B) {
	sel := fields.ParseSelectorOrDie(benchSelector)
	fs := fields.Set{"metadata.name": "p", "spec.nodeName": "node-1", "status.phase": "Running"}
	b.ReportAllocs()
	for b.Loop() {
		if !sel.Matches(fs) {
			b.Fatal("want match")
		}
	}
}
