package ch14

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
)

// Ten pods to create and a quota that refuses the fourth: batches of 1, 2 and 4 are tried,
// and the batch with the failure is the last. Six pods exist, seven calls were made, and the
// next sync (after the retry's backoff) tries again from there.
func Example_slowStartBatch() {
	var calls atomic.Int64
	created, err := slowStartBatch(10, SlowStartInitialBatchSize, func() error {
		if calls.Add(1) == 4 {
			return errors.New(`pods "web-rs-4" is forbidden: exceeded quota`)
		}
		return nil
	})
	fmt.Printf("created %d of 10 in %d calls\n", created, calls.Load())
	fmt.Println("stopped by:", err)
	// Output:
	// created 6 of 10 in 7 calls
	// stopped by: pods "web-rs-4" is forbidden: exceeded quota
}

// Scaling from 4 to 2: the unscheduled pod and the Pending one go; the two Running, Ready
// pods, which serve traffic, stay.
func Example_getPodsToDelete() {
	pod := func(name, node, phase, ready string) *api.Unstructured {
		return &api.Unstructured{Object: map[string]any{
			"metadata": map[string]any{"name": name, "creationTimestamp": "2026-01-01T00:00:00Z"},
			"spec":     map[string]any{"nodeName": node},
			"status":   map[string]any{"phase": phase, "conditions": []any{map[string]any{"type": "Ready", "status": ready}}},
		}}
	}
	pods := []*api.Unstructured{
		pod("web-rs-1", "node-1", "Running", "True"),
		pod("web-rs-2", "node-2", "Pending", "False"),
		pod("web-rs-3", "", "Pending", "False"),
		pod("web-rs-4", "node-3", "Running", "True"),
	}
	for _, p := range getPodsToDelete(pods, 2) {
		fmt.Println("delete", p.GetName())
	}
	// Output:
	// delete web-rs-3
	// delete web-rs-2
}

// Expectations in one ReplicaSet's life: three creations asked for, seen one by one through
// the informer; only then may the next sync act on what its cache shows.
func ExampleExpectations() {
	e := NewExpectations()
	e.ExpectCreations("default/web-rs", 3)
	for i := 1; i <= 3; i++ {
		fmt.Printf("satisfied: %v\n", e.SatisfiedExpectations("default/web-rs"))
		e.CreationObserved("default/web-rs") // the informer's add of pod web-rs-i
	}
	fmt.Printf("satisfied: %v\n", e.SatisfiedExpectations("default/web-rs"))
	// Output:
	// satisfied: false
	// satisfied: false
	// satisfied: false
	// satisfied: true
}
