package labels_test

import (
	"testing"

	"github.com/informer-lab/informer-lab/api/labels"
)

// benchSelector has the shape a controller typically uses: a few equality terms and a set.
const benchSelector = "app=web,tier in (frontend,backend),environment!=prod,!canary"

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := labels.Parse(benchSelector); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatches is the per-object cost on a LIST or WATCH; it must not allocate.
func BenchmarkMatches(b *testing.B) {
	sel, err := labels.Parse(benchSelector)
	if err != nil {
		b.Fatal(err)
	}
	ls := labels.Set{"app": "web", "tier": "backend", "environment": "dev", "version": "v2"}
	b.ReportAllocs()
	for b.Loop() {
		if !sel.Matches(ls) {
			b.Fatal("want match")
		}
	}
}
