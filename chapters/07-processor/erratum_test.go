package ch07_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/processor"
)

// TestCh07_Erratum_DistributeHonoursTheSyncFlag pins the correction to 《client-go学习》
// (section processor 是如何处理数据的), whose distribute loops over every listener and never
// reads its sync argument. client-go's distribute sends an ordinary notification to every
// listener, but a resync notification only to the listeners the last ShouldResync marked as
// due (SP-2, INV-10). Here a handler without a resync period never hears a resync, and the
// one asking for 2 s hears it only when its period has passed.
func TestCh07_Erratum_DistributeHonoursTheSyncFlag(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const check = time.Second
		upstream, _ := informerSynced()
		p := processor.NewSharedProcessor(processor.ProcessorOptions{})
		noResync, every2s := &recorder{}, &recorder{}
		p.AddListener(listener(t, noResync, upstream, "no resync", 0, check, processor.ListenerOptions{}))
		p.AddListener(listener(t, every2s, upstream, "every 2s", 2*time.Second, check, processor.ListenerOptions{}))
		stop := start(p)
		defer stop()

		obj := pod("a", "1")
		resync := processor.UpdateNotification{OldObj: obj, NewObj: obj}
		deliveredTo := func() []string {
			synctest.Wait()
			var who []string
			if len(noResync.take()) > 0 {
				who = append(who, "no resync")
			}
			if len(every2s.take()) > 0 {
				who = append(who, "every 2s")
			}
			return who
		}

		p.Distribute(processor.AddNotification{NewObj: obj}, false)
		assert.Equal(t, []string{"no resync", "every 2s"}, deliveredTo(), "an ordinary notification goes to everyone")

		time.Sleep(check)
		require.False(t, p.ShouldResync(), "nobody is due after 1 s")
		p.Distribute(resync, true)
		assert.Empty(t, deliveredTo(), "a resync with nobody due reaches nobody")

		time.Sleep(check)
		require.True(t, p.ShouldResync(), "the 2 s listener is due")
		p.Distribute(resync, true)
		assert.Equal(t, []string{"every 2s"}, deliveredTo(), "a resync reaches only the listener that is due")

		p.Distribute(processor.UpdateNotification{OldObj: obj, NewObj: pod("a", "2")}, false)
		assert.Equal(t, []string{"no resync", "every 2s"}, deliveredTo(), "the next real update reaches everyone again")
	})
}
