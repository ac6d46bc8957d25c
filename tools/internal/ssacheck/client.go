package ssacheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// request and response are ssaeval's line protocol.
type request struct {
	Op          string          `json:"op"`
	Group       string          `json:"group"`
	Version     string          `json:"version"`
	Kind        string          `json:"kind"`
	Live        json.RawMessage `json:"live,omitempty"`
	Object      json.RawMessage `json:"object"`
	Manager     string          `json:"manager"`
	Subresource string          `json:"subresource,omitempty"`
	Force       bool            `json:"force,omitempty"`
	Time        time.Time       `json:"time"`
	// CustomResource, when set, gives the type of a custom resource.
	CustomResource *customResource `json:"customResource,omitempty"`
}

type response struct {
	Object json.RawMessage `json:"object,omitempty"`
	Error  string          `json:"error,omitempty"`
	Code   int32           `json:"code,omitempty"`
}

// ours runs the main module's field manager through its ssaeval command.
type ours struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startOurs builds ssaeval from the repository root (two levels above this module's
// directory) and starts it.
func startOurs(t testing.TB) *ours {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "ssaeval")
	build := exec.Command("go", "build", "-o", bin, "./apiserver/internal/fieldmanager/ssaeval")
	build.Dir = root
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building ssaeval: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(outPipe)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	o := &ours{cmd: cmd, in: in, out: sc}
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	return o
}

func (o *ours) run(req request) (response, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		return response{}, err
	}
	if _, err := o.in.Write(append(b, '\n')); err != nil {
		return response{}, err
	}
	if !o.out.Scan() {
		return response{}, fmt.Errorf("ssaeval stopped: %v", o.out.Err())
	}
	var resp response
	err = json.Unmarshal(o.out.Bytes(), &resp)
	return resp, err
}
