package kubectl_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildTimeout bounds `go build ./cmd/demo` on a busy machine.
const buildTimeout = 5 * time.Minute

// demoServe is a running `demo serve` process: the binary a workshop
// starts, not the apiserver package behind a test harness.
type demoServe struct {
	url        string
	kubeconfig string
	cmd        *exec.Cmd
	banner     []string      // what it printed before it was ready
	rest       chan string   // later output lines
	exited     chan struct{} // closed when the process has exited
}

// startDemoServe builds cmd/demo into the test's directory and runs `demo serve` on a free
// loopback port with args (and no controllers unless args ask for them), and waits (bounded) for the banner that ends with the Ctrl-C line.
// The process is interrupted, then killed if need be, when the test ends.
func startDemoServe(t *testing.T, dir string, args ...string) *demoServe {
	t.Helper()
	bin := filepath.Join(dir, "demo")
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/informer-lab/informer-lab/cmd/demo")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/demo: %s", out)

	d := &demoServe{kubeconfig: filepath.Join(dir, "demo.kubeconfig"), rest: make(chan string, 100), exited: make(chan struct{})}
	// The apiserver alone, as these tests were written for, unless args name controllers (a
	// later flag wins): the cluster's controllers would add watchers, pods and status writes.
	full := append([]string{"serve", "--listen", "127.0.0.1:0", "--kubeconfig", d.kubeconfig, "--controllers=none", "--nodes=0"}, args...)
	d.cmd = exec.Command(bin, full...)
	d.cmd.Stderr = os.Stderr
	stdout, err := d.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, d.cmd.Start())
	banner := make(chan []string, 1)
	go func() {
		defer close(d.exited)
		defer close(d.rest)
		sc := bufio.NewScanner(stdout)
		var lines []string
		ready := false
		for sc.Scan() {
			if !ready {
				lines = append(lines, sc.Text())
				if strings.HasPrefix(sc.Text(), "Ctrl-C stops the server") {
					banner <- lines
					ready = true
				}
				continue
			}
			d.rest <- sc.Text()
		}
		_ = d.cmd.Wait()
	}()
	t.Cleanup(func() {
		select {
		case <-d.exited:
		default:
			_ = d.cmd.Process.Kill() // by its own PID
			<-d.exited
		}
	})
	select {
	case d.banner = <-banner:
	case <-d.exited:
		t.Fatal("demo serve exited before it was ready")
	case <-time.After(commandTimeout):
		t.Fatalf("demo serve printed no banner within %v", commandTimeout)
	}
	const prefix = "informer-lab apiserver (simulated) serving "
	require.True(t, strings.HasPrefix(d.banner[0], prefix), "banner: %q", d.banner)
	d.url = strings.TrimPrefix(d.banner[0], prefix)
	return d
}

// interrupt sends SIGINT (Ctrl-C) and waits, bounded, for a clean exit.
func (d *demoServe) interrupt(t *testing.T) []string {
	t.Helper()
	require.NoError(t, d.cmd.Process.Signal(syscall.SIGINT))
	var rest []string
	timeout := time.After(commandTimeout)
	for {
		select {
		case line, ok := <-d.rest:
			if !ok {
				<-d.exited
				require.NotNil(t, d.cmd.ProcessState)
				assert.Equal(t, 0, d.cmd.ProcessState.ExitCode(), "Ctrl-C is a clean stop")
				return rest
			}
			rest = append(rest, line)
		case <-timeout:
			t.Fatalf("demo serve did not stop within %v of SIGINT", commandTimeout)
		}
	}
}

// TestCh01_Kubectl_DemoServe runs the README's quick start for real: `demo serve` writes a
// kubeconfig and prints a kubectl line; that kubectl line works and shows the seeded pods;
// T1's and T2's commands behave against it; an instructor's curl to /debug/faults closes a
// running `kubectl get pods -w`'s watch, which kubectl then reports; Ctrl-C stops the server
// cleanly.
func TestCh01_Kubectl_DemoServe(t *testing.T) {
	kubectl := kubectlPath(t)
	dir := t.TempDir()
	d := startDemoServe(t, dir, "--seed-pods", "2")
	assert.Contains(t, d.banner, "  kubectl --kubeconfig "+d.kubeconfig+" get pods", "the ready-to-paste kubectl line")
	assert.True(t, strings.HasPrefix(d.url, "http://127.0.0.1:"), "loopback by default: %s", d.url)

	// The kubeconfig demo serve wrote is all kubectl needs; discovery is cached under dir.
	e := &env{t: t, kubectl: kubectl, dir: dir, config: d.kubeconfig}
	lines := strings.Split(strings.TrimSpace(e.ok("get", "pods")), "\n")
	require.Len(t, lines, 3, "%q", lines)
	assert.Equal(t, []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}, fields(lines[0]))
	assert.Equal(t, []string{"web-1", "web-2"}, []string{fields(lines[1])[0], fields(lines[2])[0]})
	assert.Equal(t, "Running", fields(lines[1])[2])

	out, errOut, err := e.run("get", "pods", "-n", "kube-system")
	require.NoError(t, err)
	assert.Empty(t, out)
	assert.Equal(t, "No resources found in kube-system namespace.\n", errOut, "T1")

	file := e.file("pod.yaml", podYAML)
	assert.Equal(t, "pod/web created\n", e.ok("create", "-f", file), "T2")
	_, errOut, err = e.run("create", "-f", file)
	require.Error(t, err)
	assert.Contains(t, errOut, `Error from server (AlreadyExists): error when creating "`+file+`": pods "web" already exists`)

	var cms struct {
		Items []struct {
			Metadata struct{ Name string } `json:"metadata"`
			Data     map[string]string     `json:"data"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(e.ok("get", "configmaps", "-o", "json")), &cms))
	require.Len(t, cms.Items, 1)
	assert.Equal(t, "app-config", cms.Items[0].Metadata.Name)

	// The instructor's fault endpoint: close every watch under a running kubectl get -w.
	w := e.start("get", "pods", "-w")
	assert.Equal(t, "NAME", fields(w.next())[0])
	for range 3 {
		w.next()
	}
	faults := func(body string) map[string]any {
		t.Helper()
		var resp *http.Response
		if body == "" {
			resp, err = http.Get(d.url + "/debug/faults")
		} else {
			resp, err = http.Post(d.url+"/debug/faults", "application/json", strings.NewReader(body))
		}
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, 200, resp.StatusCode, "%s", data)
		var m map[string]any
		require.NoError(t, json.Unmarshal(data, &m), "%s", data)
		return m
	}
	require.Eventually(t, func() bool {
		ws, _ := faults("")["watchers"].([]any)
		return len(ws) == 1
	}, lineTimeout, time.Millisecond, "kubectl's watch is open")
	faults(`{"action":"close-all-watches"}`)
	select {
	case <-w.done: // kubectl get -w ends when its watch ends, as against a real server
	case <-time.After(lineTimeout):
		t.Fatal("kubectl get -w did not notice its watch was closed")
	}

	rest := d.interrupt(t)
	assert.Equal(t, []string{"stopped"}, rest)
}

// TestCh01_Kubectl_DemoServeToken: with --token, demo serve serves https (kubectl sends a
// bearer token only over TLS) and writes a kubeconfig holding the CA and the token, so the
// printed kubectl line works as is; a wrong token is refused with 401.
func TestCh01_Kubectl_DemoServeToken(t *testing.T) {
	kubectl := kubectlPath(t)
	dir := t.TempDir()
	d := startDemoServe(t, dir, "--seed-pods", "1", "--token", "s3cret")
	assert.True(t, strings.HasPrefix(d.url, "https://127.0.0.1:"), "a token implies https: %s", d.url)
	assert.Contains(t, d.banner, "  kubectl --kubeconfig "+d.kubeconfig+" get pods")

	e := &env{t: t, kubectl: kubectl, dir: dir, config: d.kubeconfig}
	lines := strings.Split(strings.TrimSpace(e.ok("get", "pods")), "\n")
	require.Len(t, lines, 2, "%q", lines)
	assert.Equal(t, "web-1", fields(lines[1])[0])

	_, errOut, err := e.run("get", "pods", "--token", "wrong")
	require.Error(t, err)
	assert.Contains(t, errOut, "You must be logged in to the server")

	assert.Equal(t, []string{"stopped"}, d.interrupt(t))
}
