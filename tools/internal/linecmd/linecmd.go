// Package linecmd runs one of the main module's line-protocol commands (celeval, ssaeval)
// for the tools module's differential tests: each request is one JSON line on the
// command's stdin, each answer one JSON line on its stdout.
//
//  1. Start builds the command from the repository root, three levels above the calling
//     test's package directory, with the main module's own go.mod (GOWORK=off), and stops
//     it when the test ends.
//  2. Do sends one request and decodes its answer; calls are serialised, so tests may
//     share one Cmd across goroutines.
package linecmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"testing"
)

// Cmd is a started line-protocol command.
type Cmd struct {
	name string
	mu   sync.Mutex
	in   io.WriteCloser
	out  *bufio.Scanner
}

// Start builds the main module's package pkg (e.g. "./apiserver/internal/cel/celeval")
// and starts it for the duration of t.
func Start(t testing.TB, pkg string) *Cmd {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	name := path.Base(pkg)
	bin := filepath.Join(t.TempDir(), name)
	build := exec.Command("go", "build", "-o", bin, pkg)
	build.Dir = root
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, out)
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
	sc.Buffer(make([]byte, 1<<20), 64<<20) // a whole object's answer can be large
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	return &Cmd{name: name, in: in, out: sc}
}

// Do sends req as one line and decodes the answering line into resp.
func (c *Cmd) Do(req, resp any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		return err
	}
	if !c.out.Scan() {
		return fmt.Errorf("%s stopped: %v", c.name, c.out.Err())
	}
	return json.Unmarshal(c.out.Bytes(), resp)
}
