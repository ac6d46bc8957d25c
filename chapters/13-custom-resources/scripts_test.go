package ch13_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/apiserver"
	ch13 "github.com/informer-lab/informer-lab/chapters/13-custom-resources"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/*.txt")

// TestCh13_Scripts runs every script of testdata/*.txt and compares its output with the
// golden trace written in it. The format is harness/scenario's (a command, "----", the
// expected output up to a blank line, "ok" when empty); the commands are this chapter's own,
// because that harness drives pods:
//
//	create foo NAME deployment=D replicas=N;  replicas foo NAME N;  label foo NAME k=v
//	create deployment NAME (one no Foo controls);  delete foo|deployment NAME
//	deployment-controller NAME (mark its pods available);  drop-next N [key=NS/NAME] [type=T]
//	advance D (virtual time);  show foo|deployment|events NAME
//
// A command's output is its own lines, then what the controller did: the handlers' hops
// (enqueue, orphan) sorted, because the two informers deliver in either order, then the
// worker's hops (sync, event) in order, then errors reported. Every sync is held until
// everything in flight has settled, so it reads caches that have caught up: one worker, one
// sync at a time, the same trace on every run.
func TestCh13_Scripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var got string
			synctest.Test(t, func(t *testing.T) { got = runScript(t, string(data)) })
			if *update {
				require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
				return
			}
			if diff := cmp.Diff(string(data), got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", file, diff)
			}
		})
	}
}

// gate holds every sync twice: before it starts, until everything in flight has settled (so
// it reads caches that have caught up), and after it returns, until the events its own writes
// caused have reached the handlers (so they all land while the key is still being processed,
// and cost exactly one more sync). Chapter 10's stepper does the same.
type gate struct {
	ready, done chan string
	proceed     chan struct{}
}

func newGate() *gate {
	return &gate{ready: make(chan string), done: make(chan string), proceed: make(chan struct{})}
}

func (g *gate) wrap(sync func(context.Context, string) error) func(context.Context, string) error {
	return func(ctx context.Context, key string) error {
		if !g.pass(ctx, g.ready, key) {
			return ctx.Err()
		}
		err := sync(ctx, key)
		g.pass(ctx, g.done, key)
		return err
	}
}

// pass announces key on ch and waits for the runner's go-ahead.
func (g *gate) pass(ctx context.Context, ch chan string, key string) bool {
	select {
	case ch <- key:
	case <-ctx.Done():
		return false
	}
	select {
	case <-g.proceed:
		return true
	case <-ctx.Done():
		return false
	}
}

// drain runs the syncs one by one until none is ready once everything has settled.
func (g *gate) drain() {
	for {
		synctest.Wait()
		select {
		case <-g.ready:
		default:
			return
		}
		g.proceed <- struct{}{}
		synctest.Wait() // the sync has returned and its writes have come back as events
		<-g.done
		g.proceed <- struct{}{}
	}
}

// runScript runs one script and returns it with every block's output replaced by what it did.
func runScript(t *testing.T, text string) string {
	g := newGate()
	l := startLab(t, g.wrap)
	var out []string
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" || strings.HasPrefix(line, "#") {
			out = append(out, line)
			continue
		}
		require.Less(t, i+1, len(lines), "line %d: a command needs ----", i+1)
		require.Equal(t, "----", lines[i+1], "line %d: a command needs ----", i+1)
		for i += 2; i < len(lines) && lines[i] != ""; i++ {
		} // skip the old output
		i-- // the loop's i++ lands on the blank line (or the end)
		l.rec.take()
		reported := len(l.errors())
		own := runCommand(t, l, strings.Fields(line))
		g.drain()
		got := append(own, traceLines(l.rec.take())...)
		for _, err := range l.errors()[reported:] {
			got = append(got, "error: "+err.Error())
		}
		if len(got) == 0 {
			got = []string{"ok"}
		}
		out = append(out, line, "----")
		out = append(out, got...)
	}
	return strings.Join(out, "\n") + "\n"
}

// traceLines puts the handler lane (sorted) before the worker lane (in order).
func traceLines(hops []string) []string {
	var handlers, worker []string
	for _, h := range hops {
		if strings.HasPrefix(h, "enqueue ") || strings.HasPrefix(h, "orphan ") {
			handlers = append(handlers, h)
		} else {
			worker = append(worker, h)
		}
	}
	slices.Sort(handlers)
	return append(handlers, worker...)
}

// runCommand runs one command and returns its own output lines.
func runCommand(t *testing.T, l *lab, f []string) []string {
	ctx := context.Background()
	opts := map[string]string{}
	for _, a := range f {
		if k, v, ok := strings.Cut(a, "="); ok {
			opts[k] = v
		}
	}
	arg := func(i int) string {
		require.Greater(t, len(f), i, "%v: missing argument %d", f, i)
		return f[i]
	}
	foos := l.dc.Resource(ch13.FooGVR).Namespace("default")
	deployments := l.dc.Resource(ch13.DeploymentGVR).Namespace("default")
	var err error
	cmd := f[0]
	if slices.Contains([]string{"create", "replicas", "label", "delete", "show"}, cmd) {
		cmd += " " + arg(1) // the kind
	}
	switch cmd {
	case "create foo":
		n, convErr := strconv.ParseInt(opts["replicas"], 10, 64)
		require.NoError(t, convErr)
		_, err = foos.Create(ctx, ch13.NewFoo("default", arg(2), opts["deployment"], n), api.CreateOptions{})
	case "create deployment":
		_, err = deployments.Create(ctx, plainDeployment(arg(2)), api.CreateOptions{})
	case "replicas foo", "label foo":
		foo := l.get(t, ch13.FooGVR, arg(2))
		if f[0] == "replicas" {
			n, convErr := strconv.ParseInt(arg(3), 10, 64)
			require.NoError(t, convErr)
			require.NoError(t, api.SetNestedField(foo.Object, n, "spec", "replicas"))
		} else {
			k, v, _ := strings.Cut(arg(3), "=")
			foo.SetLabels(map[string]string{k: v})
		}
		_, err = foos.Update(ctx, foo, api.UpdateOptions{})
	case "delete foo":
		err = foos.Delete(ctx, arg(2), api.DeleteOptions{})
	case "delete deployment":
		err = deployments.Delete(ctx, arg(2), api.DeleteOptions{})
	case "deployment-controller":
		l.playDeploymentController(t, arg(1))
	case "drop-next":
		n, convErr := strconv.Atoi(arg(1))
		require.NoError(t, convErr)
		l.srv.DropNextEvents(apiserver.DropRule{Count: n, Key: opts["key"], Type: watch.EventType(opts["type"])})
	case "advance":
		d, parseErr := time.ParseDuration(arg(1))
		require.NoError(t, parseErr)
		time.Sleep(d) // virtual time: the bubble's clock jumps once every goroutine is blocked
	case "show foo":
		foo := l.get(t, ch13.FooGVR, arg(2))
		spec, specErr := ch13.SpecOf(foo)
		require.NoError(t, specErr)
		return []string{fmt.Sprintf("foo default/%s@%s generation=%d replicas=%d status=%+v",
			foo.GetName(), foo.GetResourceVersion(), foo.GetGeneration(), *spec.Replicas, ch13.StatusOf(foo))}
	case "show deployment":
		d, getErr := deployments.Get(ctx, arg(2), api.GetOptions{})
		if getErr != nil {
			return []string{"error: " + getErr.Error()}
		}
		owner := "none"
		if ref := ch13.GetControllerOf(d); ref != nil {
			owner = ref.Kind + "/" + ref.Name
			if foo, fooErr := foos.Get(ctx, ref.Name, api.GetOptions{}); fooErr != nil || foo.GetUID() != ref.UID {
				owner += " (gone)"
			}
		}
		return []string{fmt.Sprintf("deployment default/%s@%s generation=%d replicas=%d available=%d controller=%s",
			d.GetName(), d.GetResourceVersion(), d.GetGeneration(), ch13.Replicas(d), ch13.AvailableReplicas(d), owner)}
	case "show events":
		return l.events(t, arg(2))
	default:
		t.Fatalf("unknown command %q", strings.Join(f, " "))
	}
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	return nil
}
