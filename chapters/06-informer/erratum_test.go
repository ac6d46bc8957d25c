package ch06_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/fields"
	"github.com/informer-lab/informer-lab/informer"
	"github.com/informer-lab/informer-lab/listwatch"
	"github.com/informer-lab/informer-lab/processor"
	"github.com/informer-lab/informer-lab/store"
)

// skipSignal is a slog handler that reports each watch event the reflector skipped for its
// type, so the test knows the event was seen and dropped.
type skipSignal struct{ skipped chan string }

func (s skipSignal) Enabled(context.Context, slog.Level) bool { return true }
func (s skipSignal) WithAttrs([]slog.Attr) slog.Handler       { return s }
func (s skipSignal) WithGroup(string) slog.Handler            { return s }
func (s skipSignal) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "unexpected watch event object type") {
		s.skipped <- r.Message
	}
	return nil
}

// TestCh06_Erratum_ConfigMapListWatchWithPodType pins the correction to the runnable-examples
// article (Informer/IndexerInformer, 使用示例): its NewIndexerInformer example lists and watches
// configmaps but declares &v1.Pod{}, and still claims to print pod names. In client-go the
// LIST does not check types, so the cache fills with configmaps; every later watch event is a
// configmap too and is dropped as the wrong type; the pod index finds nothing, and the
// article's objList[0] would panic. With watch-list (the v0.37 default) even the initial
// configmaps arrive as watch events and are dropped, so the cache stays empty.
func TestCh06_Erratum_ConfigMapListWatchWithPodType(t *testing.T) {
	byApp := func(obj any) ([]string, error) { // the article's index: any object's app label
		m, err := api.Accessor(obj)
		if err != nil {
			return nil, err
		}
		return []string{m.GetLabels()["app"]}, nil
	}
	tests := []struct {
		name       string
		watchList  bool
		wantCached []string
	}{
		{"LIST then WATCH, as in the article", false, []string{"default/app-config", "default/kube-root-ca.crt"}},
		{"watch-list, the v0.37 default", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startCluster()
			defer c.stop()
			c.createPod("busy-box-6698", map[string]string{"app": "busy-box"})

			sig := skipSignal{skipped: make(chan string, 16)}
			lw := listwatch.NewListWatchFromClient(c.client, "configmaps", "default", fields.Everything())
			st, controller := informer.NewInformerWithOptions(informer.InformerOptions{
				ListerWatcher: lw, ObjectType: &api.Pod{}, Handler: processor.ResourceEventHandlerFuncs{},
				Indexers: store.Indexers{"app": byApp}, UseWatchList: &tt.watchList,
				Logger: slog.New(sig),
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); controller.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()
			if !tt.watchList {
				require.True(t, informer.WaitForCacheSync(ctx.Done(), controller.HasSynced))
			} else {
				<-sig.skipped // the two initial configmaps arrive on the stream and are dropped
				<-sig.skipped
			}

			c.createConfigMap("late")
			<-sig.skipped // the watch saw it, and dropped it

			keys := st.ListKeys()
			assert.ElementsMatch(t, tt.wantCached, keys, "the LIST is not type-checked; watch events are")
			for _, obj := range st.List() {
				_, isConfigMap := obj.(*api.ConfigMap)
				assert.True(t, isConfigMap, "the cache of a pod informer holds %T", obj)
			}
			pods, err := st.(store.Indexer).ByIndex("app", "busy-box")
			require.NoError(t, err)
			assert.Empty(t, pods, "a configmap ListWatch never sees the pod")
		})
	}
}
