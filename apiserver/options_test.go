package apiserver

import (
	"bytes"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver/internal/registry"
	"github.com/informer-lab/informer-lab/internal/clock"
)

// TestCh01_OptionsConvention checks the one convention of Options over every numeric field:
// zero takes the documented default, a positive value is kept, and a negative value either
// turns the field off (the server then holds 0, which it reads as off) or is invalid, in
// which case Validate names the field and New panics with the same error.
func TestCh01_OptionsConvention(t *testing.T) {
	dur := func(d time.Duration) int64 { return int64(d) }
	tests := []struct {
		name    string
		set     func(o *Options, v int64)
		get     func(o Options) int64
		def     int64
		offable bool // a negative value turns it off; otherwise a negative value is invalid
	}{
		{"HistorySize", func(o *Options, v int64) { o.HistorySize = int(v) }, func(o Options) int64 { return int64(o.HistorySize) }, DefaultHistorySize, false},
		{"BookmarkPeriod", func(o *Options, v int64) { o.BookmarkPeriod = time.Duration(v) }, func(o Options) int64 { return dur(o.BookmarkPeriod) }, dur(DefaultBookmarkPeriod), false},
		{"WatchBufferSize", func(o *Options, v int64) { o.WatchBufferSize = int(v) }, func(o Options) int64 { return int64(o.WatchBufferSize) }, DefaultWatchBufferSize, false},
		{"MaxBodyBytes", func(o *Options, v int64) { o.MaxBodyBytes = v }, func(o Options) int64 { return o.MaxBodyBytes }, DefaultMaxBodyBytes, false},
		{"MinRequestTimeout", func(o *Options, v int64) { o.MinRequestTimeout = time.Duration(v) }, func(o Options) int64 { return dur(o.MinRequestTimeout) }, dur(DefaultMinRequestTimeout), false},
		{"TooLargeResourceVersionWait", func(o *Options, v int64) { o.TooLargeResourceVersionWait = time.Duration(v) }, func(o Options) int64 { return dur(o.TooLargeResourceVersionWait) }, dur(DefaultTooLargeResourceVersionWait), true},
		{"ReadHeaderTimeout", func(o *Options, v int64) { o.ReadHeaderTimeout = time.Duration(v) }, func(o Options) int64 { return dur(o.ReadHeaderTimeout) }, dur(DefaultReadHeaderTimeout), true},
		{"IdleTimeout", func(o *Options, v int64) { o.IdleTimeout = time.Duration(v) }, func(o Options) int64 { return dur(o.IdleTimeout) }, dur(DefaultIdleTimeout), true},
		{"MaxHeaderBytes", func(o *Options, v int64) { o.MaxHeaderBytes = int(v) }, func(o Options) int64 { return int64(o.MaxHeaderBytes) }, DefaultMaxHeaderBytes, false},
		{"BodyReadTimeout", func(o *Options, v int64) { o.BodyReadTimeout = time.Duration(v) }, func(o Options) int64 { return dur(o.BodyReadTimeout) }, dur(DefaultBodyReadTimeout), true},
		{"MaxQueryBytes", func(o *Options, v int64) { o.MaxQueryBytes = int(v) }, func(o Options) int64 { return int64(o.MaxQueryBytes) }, DefaultMaxQueryBytes, true},
		{"MaxOpenWatches", func(o *Options, v int64) { o.MaxOpenWatches = int(v) }, func(o Options) int64 { return int64(o.MaxOpenWatches) }, DefaultMaxOpenWatches, true},
		{"WatchWriteTimeout", func(o *Options, v int64) { o.WatchWriteTimeout = time.Duration(v) }, func(o Options) int64 { return dur(o.WatchWriteTimeout) }, dur(DefaultWatchWriteTimeout), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			t.Cleanup(s.Close)
			assert.Equal(t, tc.def, tc.get(s.opts), "zero takes the default")

			var o Options
			tc.set(&o, 7)
			require.NoError(t, o.Validate())
			kept := New(o)
			t.Cleanup(kept.Close)
			assert.Equal(t, int64(7), tc.get(kept.opts), "a positive value is kept")

			for _, neg := range []int64{-1, -1 << 40} {
				o = Options{}
				tc.set(&o, neg)
				err := o.Validate()
				if tc.offable {
					require.NoError(t, err)
					off := New(o)
					t.Cleanup(off.Close)
					assert.Zero(t, tc.get(off.opts), "a negative value turns it off")
					continue
				}
				require.Error(t, err)
				assert.Contains(t, err.Error(), "Options."+tc.name+" must not be negative")
				assert.PanicsWithError(t, err.Error(), func() { New(o) }, "New refuses what Validate rejects")
			}
		})
	}
}

// TestCh01_OptionsConventionOthers checks the same convention over the other fields: the
// zero value is the default (off for the booleans), and what Validate rejects New panics on.
func TestCh01_OptionsConventionOthers(t *testing.T) {
	s := New(Options{})
	t.Cleanup(s.Close)
	assert.Equal(t, DefaultVersion, s.opts.Version, "Version: empty is DefaultVersion")
	assert.Equal(t, DefaultVersion, s.version.GitVersion)
	assert.Empty(t, s.opts.BearerToken, "BearerToken: empty accepts no token")
	assert.False(t, s.opts.ClientCertAuth, "ClientCertAuth: off")
	assert.False(t, s.opts.DebugFaults, "DebugFaults: off")
	assert.False(t, s.opts.RejectWatchList, "RejectWatchList: off")
	assert.False(t, s.opts.HonourLimitWithRV0, "HonourLimitWithRV0: off")
	assert.Len(t, s.Resources(), len(registry.BuiltinInfos()), "Resources: nil serves the built-in kinds only")
	assert.NotNil(t, s.clock, "Clock: nil is the real clock")
	assert.Nil(t, s.log, "Logger: nil is silent")

	var logs bytes.Buffer
	lg := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	fake := &optionsTestClock{}
	set := New(Options{Version: "v1.30.2", BearerToken: "t", Resources: []ResourceInfo{fooResource}, Clock: fake, Logger: lg})
	t.Cleanup(set.Close)
	assert.Equal(t, "30", set.version.Minor)
	assert.Equal(t, "t", set.opts.BearerToken)
	assert.Len(t, set.Resources(), len(registry.BuiltinInfos())+1)
	assert.Same(t, fake, set.clock)
	assert.Same(t, lg, set.log)

	dup := fooResource
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"Version", Options{Version: "1.32"}, `version "1.32" is not of the form v1.32.0`},
		{"BearerToken", Options{BearerToken: "a b"}, "must not contain white space"},
		{"Resources invalid", Options{Resources: []ResourceInfo{{Resource: "Bad", Version: "v1", Kind: "B"}}}, "must be lower case"},
		{"Resources twice", Options{Resources: []ResourceInfo{fooResource, dup}}, "resource foos.samplecontroller.k8s.io is already registered"},
		{"Resources built-in group", Options{Resources: []ResourceInfo{{Group: "apps", Version: "v1", Resource: "deployments", Kind: "Deployment"}}}, "resource deployments.apps is already registered"},
		{"Resources built-in", Options{Resources: []ResourceInfo{{Version: "v1", Resource: "pods", Kind: "Pod"}}}, "resource pods is already registered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.PanicsWithError(t, err.Error(), func() { New(tc.opts) })
		})
	}
}

// optionsTestClock is a real clock with an identity of its own, to tell it from the default.
type optionsTestClock struct{ clock.RealClock }
