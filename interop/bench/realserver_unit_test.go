package bench

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
)

// The harness of make bench-real needs both servers; its parsing and its report do not.
func TestBenchRealServer_ParseReady(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		parse      func(string) (string, bool)
		url        string
		ok         bool
	}{
		{"reference", "ready https://127.0.0.1:38211", parseRefReady, "https://127.0.0.1:38211", true},
		{"reference, trailing newline", "ready https://127.0.0.1:1\n", parseRefReady, "https://127.0.0.1:1", true},
		{"reference, other output", "refserver: etcd not ready after 60s", parseRefReady, "", false},
		{"demo", "informer-lab apiserver (simulated) serving https://127.0.0.1:40123", parseDemoReady, "https://127.0.0.1:40123", true},
		{"demo, plain http", "informer-lab apiserver (simulated) serving http://127.0.0.1:6443", parseDemoReady, "http://127.0.0.1:6443", true},
		{"demo, a later line", "kubeconfig: /tmp/x/kubeconfig", parseDemoReady, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, ok := tc.parse(tc.line)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.url, url)
		})
	}
}

func TestBenchRealServer_SyncMode(t *testing.T) {
	for _, tc := range []struct {
		name string
		reqs []string
		want string
	}{
		{"watch-list", []string{"GET /api/v1/namespaces/bench/configmaps?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true\tapplication/vnd.kubernetes.protobuf, */*"}, "watch-list"},
		{"fallback", []string{
			"GET /api/v1/namespaces/bench/configmaps?allowWatchBookmarks=true&sendInitialEvents=true&watch=true",
			"GET /api/v1/namespaces/bench/configmaps?limit=500&resourceVersion=0",
			"GET /api/v1/namespaces/bench/configmaps?allowWatchBookmarks=true&resourceVersion=12&watch=true"}, "watch-list, then a list"},
		{"list and watch", []string{"GET /api/v1/namespaces/bench/configmaps?limit=500&resourceVersion=0", "GET /api/v1/namespaces/bench/configmaps?resourceVersion=12&watch=true"}, "list+watch"},
		{"none", nil, "no request"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, syncMode(tc.reqs)) })
	}
}

func TestBenchRealServer_Table(t *testing.T) {
	var r realResults
	r.n, r.conc = 10_000, 16
	r.add("real", realRound{create: 6000 * time.Millisecond, sync: 900 * time.Millisecond})
	r.add("ours", realRound{create: 700 * time.Millisecond, sync: 500 * time.Millisecond})
	r.add("real", realRound{create: 5000 * time.Millisecond, sync: 1000 * time.Millisecond})
	r.add("ours", realRound{create: 500 * time.Millisecond, sync: 450 * time.Millisecond, floor: 400 * time.Millisecond, createFloor: 300 * time.Millisecond,
		processFloor: 420 * time.Millisecond, createProcessFloor: 450 * time.Millisecond})
	r.add("ours", realRound{create: 600 * time.Millisecond, sync: 460 * time.Millisecond, floor: 390 * time.Millisecond, createFloor: 310 * time.Millisecond,
		processFloor: 430 * time.Millisecond, createProcessFloor: 400 * time.Millisecond})
	// Each figure is its own best: the floors of different rounds may pair up.
	want := "10000 ConfigMaps, 16 creating goroutines, best of 3/2 rounds (ours/real), load average 1.00 2.00 3.00\n" +
		"| workload | ours ms | real server ms | ratio | goal |\n|---|---:|---:|---:|---:|\n" +
		"| create 10000 ConfigMaps | 500 | 5000 | 0.10 | ≤ 0.10 |\n" +
		"| client-go informer sync of those 10000 (watch-list) | 450 | 900 | 0.50 | ≤ 0.50 |\n" +
		"| client's floor: the creates against a server doing no work (ours' answer replayed) | 300 | 5000 | 0.06 | |\n" +
		"| client's floor: the sync of ours' stream replayed by a server doing no work | 390 | 900 | 0.43 | |\n" +
		"| process floor: the creates against the same server run as a process, as both servers are | 400 | 5000 | 0.08 | |\n" +
		"| process floor: the sync from the same server run as a process | 420 | 900 | 0.47 | |\n"
	assert.Equal(t, want, r.table("1.00 2.00 3.00"))

	var one realResults
	one.n, one.conc = 5, 1
	one.add("ours", realRound{create: time.Second, sync: time.Second})
	assert.Contains(t, one.table(""), "| create 5 ConfigMaps | 1000 | - | - | ≤ 0.10 |", "a side that did not run has no figure and no ratio")
	assert.NotContains(t, one.table(""), "floor", "no floor row when it was not measured")

	round := realRound{create: 1500 * time.Millisecond, sync: 90 * time.Millisecond, floor: 80 * time.Millisecond, createFloor: 700 * time.Millisecond,
		requests: []string{"GET /api/v1/namespaces/bench/configmaps?allowWatchBookmarks=true&sendInitialEvents=true&watch=true\tapplication/vnd.kubernetes.protobuf,application/json"}}
	assert.Equal(t, "create 1500 ms, sync 90 ms (watch-list, Accept: application/vnd.kubernetes.protobuf,application/json); against a server doing no work: create 700 ms, sync 80 ms", round.String())
	round.processFloor, round.createProcessFloor = 95*time.Millisecond, 1100*time.Millisecond
	assert.Equal(t, "create 1500 ms, sync 90 ms (watch-list, Accept: application/vnd.kubernetes.protobuf,application/json); against a server doing no work: create 700 ms, sync 80 ms; the same as a process: create 1100 ms, sync 95 ms", round.String())
}

func TestBenchRealServer_WatchListStream(t *testing.T) {
	const accept = "application/vnd.kubernetes.protobuf, */*"
	reqs := []string{"GET /api/v1/namespaces/bench/configmaps?limit=1\t" + accept,
		"GET /api/v1/namespaces/bench/configmaps?allowWatchBookmarks=true&sendInitialEvents=true&watch=true\t" + accept}
	uri, acc := watchListRequest(reqs)
	assert.Equal(t, "/api/v1/namespaces/bench/configmaps?allowWatchBookmarks=true&sendInitialEvents=true&watch=true", uri)
	assert.Equal(t, accept, acc)
	uri, _ = watchListRequest(reqs[:1])
	assert.Equal(t, "", uri)

	added := `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x","annotations":{"k8s.io/initial-events-end":"true"}}}}`
	plain := `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"12"}}}`
	end := `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"12","annotations":{"k8s.io/initial-events-end":"true"}}}}`
	for _, tc := range []struct {
		line string
		end  bool
	}{{end, true}, {plain, false}, {added, false}} {
		assert.Equal(t, tc.end, isInitialEventsEnd([]byte(tc.line)), tc.line)
	}

	// JSON lines: up to and including the end bookmark, not what follows.
	lines := added + "\n" + plain + "\n" + end + "\n" + `{"type":"MODIFIED"}` + "\n"
	got, err := readInitialEvents(strings.NewReader(lines), false)
	require.NoError(t, err)
	assert.Equal(t, added+"\n"+plain+"\n"+end+"\n", string(got))
	_, err = readInitialEvents(strings.NewReader(added+"\n"), false)
	assert.Error(t, err, "a stream without the bookmark")

	// Protobuf frames: a 4-byte big-endian length, then the message.
	frame := func(msg string) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(msg))), msg...) }
	var frames []byte
	for _, m := range []string{"ADDED x k8s.io/initial-events-end", "BOOKMARK", "BOOKMARK k8s.io/initial-events-end"} {
		frames = append(frames, frame(m)...)
	}
	got, err = readInitialEvents(bytes.NewReader(append(frames, frame("MODIFIED")...)), true)
	require.NoError(t, err)
	assert.Equal(t, frames, got)
	_, err = readInitialEvents(bytes.NewReader(frames[:10]), true)
	assert.Error(t, err, "a truncated frame")
}

// The process floor's server is this test binary started again: it must answer as the
// in-process one does, a create with the object and a watch-list with the stream.
func TestBenchRealServer_ReplayProcess(t *testing.T) {
	rp := &replay{stream: []byte(`{"type":"BOOKMARK","object":{"metadata":{"annotations":{"k8s.io/initial-events-end":"true"}}}}` + "\n"), streamType: "application/json",
		object: []byte(`{"kind":"ConfigMap"}`), objectType: "application/json"}
	url, stop := startReplayProcess(t, rp)
	defer stop()
	cfg := &rest.Config{Host: url, TLSClientConfig: rest.TLSClientConfig{Insecure: true}}
	hc, err := rest.HTTPClientFor(cfg)
	require.NoError(t, err)
	defer hc.CloseIdleConnections()

	resp, err := hc.Post(url+"/api/v1/namespaces/bench/configmaps", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, rp.objectType, resp.Header.Get("Content-Type"))
	assert.Equal(t, string(rp.object), string(body))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, ct, err := captureWatchList(ctx, cfg, "/api/v1/namespaces/bench/configmaps?watch=true&sendInitialEvents=true", "application/json")
	require.NoError(t, err)
	assert.Equal(t, rp.streamType, ct)
	assert.Equal(t, string(rp.stream), string(stream))
}
