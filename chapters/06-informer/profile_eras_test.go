package ch06_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
)

// TestCh06_ProfileEras pins which client-go era each profile models, by what its informer
// sends to sync: classic (≤ v0.32) and inorder (v0.33–v0.34) LIST then WATCH; current
// (v0.36–v0.37) syncs with one watch-list request and no LIST. v0.35 (non-atomic RealFIFO,
// batched pops, watch-list) has no profile of its own: inorder with UseWatchList comes
// closest, since batching changes nothing a handler sees (D-9).
func TestCh06_ProfileEras(t *testing.T) {
	on := true
	tests := []struct {
		name         string
		profile      informer.Profile
		useWatchList *bool
		lists        int
	}{
		{"classic: up to v0.32", informer.ProfileClassic, nil, 1},
		{"inorder: v0.33–v0.34", informer.ProfileInOrder, nil, 1},
		{"inorder with watch-list: closest to v0.35", informer.ProfileInOrder, &on, 0},
		{"current: v0.36–v0.37", informer.ProfileCurrent, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startCluster()
			defer c.stop()
			c.srv.ResetRequestCounts()

			lw := listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything())
			inf := informer.NewSharedIndexInformerWithOptions(lw, &api.ConfigMap{},
				informer.SharedIndexInformerOptions{Profile: tt.profile, UseWatchList: tt.useWatchList})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.RunWithContext(ctx) }()
			require.True(t, informer.WaitForCacheSync(ctx.Done(), inf.HasSynced))
			cancel()
			<-done

			counts := c.srv.RequestCounts()
			assert.Equal(t, tt.lists, counts[apiserver.RequestKey{Verb: "list", Resource: "configmaps"}], "LISTs")
			watches := counts[apiserver.RequestKey{Verb: "watch", Resource: "configmaps"}]
			if tt.lists == 0 {
				assert.Equal(t, 1, watches, "the watch-list request is the sync")
			} else {
				assert.LessOrEqual(t, watches, 1, "the WATCH opens after the LIST, maybe after the sync")
			}
			assert.Len(t, inf.GetStore().List(), 2, "kube-root-ca.crt and app-config")
		})
	}
}
