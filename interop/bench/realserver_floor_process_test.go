package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Both servers run as processes of their own, and the client talks to them across a process
// boundary: every request wakes another process, on a machine whose cores the client shares.
// The in-process floor pays none of that, so it is the client's floor alone, and lower than
// any server process can reach. The process floor runs the same replaying server as a
// process (this test binary, started again): what a server doing no work costs when it is
// a process, as ours and the reference are.

// replayDirEnv names the directory a replaying process reads its answers from; when set, the
// test binary serves them instead of running tests (TestMain).
const replayDirEnv = "INFORMER_LAB_BENCH_REPLAY_DIR"

// replayFile is how a replay travels to the replaying process.
type replayFile struct {
	Stream, Object         []byte
	StreamType, ObjectType string
}

func (rp *replay) save(dir string) error {
	b, err := json.Marshal(replayFile{Stream: rp.stream, Object: rp.object, StreamType: rp.streamType, ObjectType: rp.objectType})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "replay.json"), b, 0o600)
}

func loadReplay(dir string) (*replay, error) {
	b, err := os.ReadFile(filepath.Join(dir, "replay.json"))
	if err != nil {
		return nil, err
	}
	var f replayFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	return &replay{stream: f.Stream, object: f.Object, streamType: f.StreamType, objectType: f.ObjectType}, nil
}

// serveReplayProcess is the replaying process: it serves the replay in dir, prints
// "ready <url>" and serves until SIGTERM or SIGINT. It returns the exit code.
func serveReplayProcess(dir string) int {
	rp, err := loadReplay(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		return 2
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	srv := replayServer(rp)
	fmt.Println("ready " + srv.URL)
	<-stop
	srv.CloseClientConnections()
	srv.Close()
	return 0
}

// startReplayProcess starts this test binary as a replaying process serving rp and returns
// its URL and a stop.
func startReplayProcess(t *testing.T, rp *replay) (string, func()) {
	dir := t.TempDir()
	require.NoError(t, rp.save(dir))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), replayDirEnv+"="+dir)
	url, stop := startProcess(t, dir, cmd, parseRefReady)
	return strings.TrimSuffix(url, "/"), stop
}

// replayProcessRound is replayRound with the replaying server a process of its own.
func replayProcessRound(t *testing.T, rp *replay, ns string) (create, sync time.Duration) {
	url, stop := startReplayProcess(t, rp)
	defer stop()
	return replayRoundAt(t, url, ns)
}
