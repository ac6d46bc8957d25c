// getPodsToDelete deletes the oldest pods first, whatever their state.
//
// Plausible because "first in, first out" sounds fair; but the oldest pods are the ones that
// are scheduled, running and ready, serving traffic, while a new pod still Pending (or not
// even scheduled) costs nothing to remove. Scaling down would cut capacity twice over.
//
// File: chapters/14-cluster-controllers/manage.go
// Caught by: TestCh14_Sync_PodsToDelete
package ch14

import (
	"slices"

	"github.com/informer-lab/informer-lab/api"
)

func getPodsToDelete(pods []*api.Unstructured, diff int) []*api.Unstructured {
	ranked := slices.Clone(pods)
	slices.SortStableFunc(ranked, func(a, b *api.Unstructured) int {
		return a.GetCreationTimestamp().Compare(b.GetCreationTimestamp().Time)
	})
	return ranked[:min(diff, len(ranked))]
}
