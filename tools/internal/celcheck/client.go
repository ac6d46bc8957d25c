package celcheck

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
)

// request and response are celeval's line protocol.
type request struct {
	Expr        string `json:"expr"`
	Vars        []jvar `json:"vars,omitempty"`
	NoCheck     bool   `json:"noCheck,omitempty"`
	NoMacros    bool   `json:"noMacros,omitempty"`
	Limit       uint64 `json:"costLimit,omitempty"`
	Schema      any    `json:"schema,omitempty"`
	Self        any    `json:"self,omitempty"`
	OldSelf     any    `json:"oldSelf,omitempty"`
	Root        bool   `json:"root,omitempty"`
	OptionalOld bool   `json:"optionalOldSelf,omitempty"`
}

type jvar struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value *jv    `json:"value,omitempty"`
}

type response struct {
	CompileError string `json:"compileError,omitempty"`
	OutType      string `json:"outType,omitempty"`
	Value        *jv    `json:"value,omitempty"`
	EvalError    string `json:"evalError,omitempty"`
	Cost         uint64 `json:"cost"`
	EstMin       uint64 `json:"estMin"`
	EstMax       uint64 `json:"estMax"`
}

// ours runs the main module's interpreter through its celeval command.
type ours struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startOurs builds celeval from the repository root (two levels above this module's
// directory) and starts it.
func startOurs(t testing.TB) *ours {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "celeval")
	build := exec.Command("go", "build", "-o", bin, "./apiserver/internal/cel/celeval")
	build.Dir = root
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building celeval: %v\n%s", err, out)
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

func (o *ours) eval(req request) (response, error) {
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
		return response{}, fmt.Errorf("celeval stopped: %v", o.out.Err())
	}
	var resp response
	err = json.Unmarshal(o.out.Bytes(), &resp)
	return resp, err
}
