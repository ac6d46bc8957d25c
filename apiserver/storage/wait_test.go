package storage

import (
	"context"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// tooLarge is the 504 a read of revision want gets while the store is at cur.
func tooLarge(want, cur uint64) *api.Status {
	return &api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure,
		Code:     504,
		Reason:   api.StatusReasonTimeout,
		Message:  "Timeout: Too large resource version: " + itoa(want) + ", current: " + itoa(cur),
		Details: &api.StatusDetails{RetryAfterSeconds: 1, Causes: []api.StatusCause{{
			Type: api.CauseTypeResourceVersionTooLarge, Message: "Too large resource version",
		}}},
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// TestCh01_Storage_WaitForFutureResourceVersion checks the reads of a revision not reached
// yet (the clock is the real one inside a synctest bubble, so time is virtual): they wait
// TooLargeResourceVersionWait, then fail with the 504 whose cause the reflector knows; a
// write reaching the revision in time answers at once; no wait fails at once; a cancelled
// context is a 504 Timeout too.
func TestCh01_Storage_WaitForFutureResourceVersion(t *testing.T) {
	const wait = 3 * time.Second
	type read func(ctx context.Context, s *Store, c *Collection, rv uint64) error
	reads := map[string]read{
		"Get": func(ctx context.Context, s *Store, c *Collection, rv uint64) error {
			_, err := s.Get(ctx, c, "ns/a", GetOptions{ResourceVersion: rv})
			return err
		},
		"GetList": func(ctx context.Context, s *Store, c *Collection, rv uint64) error {
			_, err := s.GetList(ctx, c, ListOptions{ResourceVersion: rv})
			return err
		},
		"WaitForResourceVersion": func(ctx context.Context, s *Store, _ *Collection, rv uint64) error {
			return s.WaitForResourceVersion(ctx, rv)
		},
		"Watch with initial events": func(ctx context.Context, s *Store, c *Collection, rv uint64) error {
			w, err := s.Watch(ctx, c, WatchOptions{ResourceVersion: rv, SendInitialEvents: true})
			if err != nil {
				return err
			}
			if w.InitErr != nil {
				assert.Equal(t, rv, w.StartRV)
				assert.Empty(t, s.Watchers(), "a watch that failed to start is not registered")
				return w.InitErr
			}
			s.Unregister(w)
			return nil
		},
	}
	for name, rd := range reads {
		t.Run(name+"/times out", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newTestStore(Config{TooLargeResourceVersionWait: wait})
				c := s.NewCollection("configmaps", "cm")
				mustCreate(t, s, c, "ns", "a", "1")
				start := time.Now()
				err := rd(context.Background(), s, c, 5)
				assert.Equal(t, wait, time.Since(start), "waits exactly TooLargeResourceVersionWait")
				st := statusOf(t, err)
				assert.Empty(t, cmp.Diff(tooLarge(5, 1), st))
				assert.True(t, api.IsTooLargeResourceVersion(err))
			})
		})
		t.Run(name+"/reached in time", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newTestStore(Config{TooLargeResourceVersionWait: wait})
				c := s.NewCollection("configmaps", "cm")
				mustCreate(t, s, c, "ns", "a", "1")
				done := make(chan error, 1)
				start := time.Now()
				go func() { done <- rd(context.Background(), s, c, 3) }()
				synctest.Wait() // the reader is blocked on the revision
				select {
				case err := <-done:
					t.Fatalf("answered before the revision was reached: %v", err)
				default:
				}
				time.Sleep(time.Second) // virtual time: one second passes in the bubble
				mustUpdate(t, s, c, "ns/a", "2")
				synctest.Wait()
				select {
				case err := <-done:
					t.Fatalf("answered at revision 2: %v", err)
				default:
				}
				mustUpdate(t, s, c, "ns/a", "3")
				require.NoError(t, <-done)
				assert.Equal(t, time.Second, time.Since(start), "answers as soon as the revision is reached")
			})
		})
		t.Run(name+"/no wait", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newTestStore(Config{})
				c := s.NewCollection("configmaps", "cm")
				mustCreate(t, s, c, "ns", "a", "1")
				start := time.Now()
				err := rd(context.Background(), s, c, 2)
				assert.Zero(t, time.Since(start))
				assert.Empty(t, cmp.Diff(tooLarge(2, 1), statusOf(t, err)))
				require.NoError(t, rd(context.Background(), s, c, 1), "a revision reached answers")
			})
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newTestStore(Config{TooLargeResourceVersionWait: wait})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.WaitForResourceVersion(ctx, 1) }()
			synctest.Wait()
			cancel()
			st := statusOf(t, <-done)
			assert.Equal(t, int32(504), st.Code)
			assert.Equal(t, api.StatusReasonTimeout, st.Reason)
			assert.Equal(t, "Timeout: context canceled", st.Message)
		})
	})
}
