package scenario

import (
	"fmt"
	"strings"
)

// The commands:
//
//	server writes   create|update|label pod NS/NAME [phase=P] [image=I] [node=N] [k=v labels…] [k-]
//	                delete pod NS/NAME;  burst N pod NS/NAME (N label updates)
//	faults          drop-next N [key=NS/NAME] [type=ADDED|MODIFIED|DELETED];  compact;
//	                close-watches;  close-next-watches N;  fail-next VERB CODE [count=N] [as-event];
//	                delay 2s;  cut-next;  no-initial-events-end;  clear-faults
//	informer        profiles P…;  start informer [profile=P] [resync=30s];
//	                add-handler NAME [kind=record|quiet|unsafe-delete|safe-delete|mutate]
//	                [resync=D] [held=true];  slow-handler NAME | hold NAME;  release NAME;
//	                pause;  resume (processLoop, through informer.Pauser)
//	controller      start controller [workers=1] [fail=NS/NAME:N,…] [max-retries=5];
//	                hold worker;  release worker
//	time and waits  advance D;  wait synced [timeout=30s];  wait quiet
//	inspection      show cache|server|requests|handlers|queue;  check-mutations;  trace C…
//
// no-initial-events-end is the runner's own fault: its lister-watcher drops the watch-list's
// initial-events-end BOOKMARK, as a server that accepts watch-list but never ends the initial
// list would. check-mutations is a cache mutation detector: a transform keeps a deep copy of
// every pod as it enters the queue, and the check reports each JSON path where a cached pod
// no longer matches its copy.

// separator divides a command from its expected output, as in etcd-io/raft's data-driven
// tests.
const separator = "----"

// block is one command of a script with what precedes it (comments, blank lines) and its
// expected output.
type block struct {
	prefix []string // comment and blank lines before the command, verbatim
	line   int      // the command's line number, from 1
	cmd    string   // the command line
	want   []string // the expected output
}

// script is a parsed scenario file.
type script struct {
	blocks []block
	tail   []string // comment and blank lines after the last block
}

// command is a parsed command line: a name, positional arguments and key=value options.
type command struct {
	name string
	args []string
	opts map[string]string
	keys []string // option keys in the order written
}

// parseScript reads a scenario file: blocks of optional "#" comments, one command line, a
// "----" line and the expected output, which ends at a blank line or the end of the file.
func parseScript(text string) (*script, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	s := &script{}
	var pending []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			pending = append(pending, l)
			continue
		}
		b := block{prefix: pending, line: i + 1, cmd: strings.TrimSpace(l)}
		pending = nil
		if i+1 >= len(lines) || lines[i+1] != separator {
			return nil, fmt.Errorf("line %d: command %q is not followed by %q", i+1, b.cmd, separator)
		}
		i += 2
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			b.want = append(b.want, lines[i])
		}
		if i < len(lines) {
			pending = append(pending, lines[i])
		}
		s.blocks = append(s.blocks, b)
	}
	s.tail = pending
	return s, nil
}

// render writes the script back with got as each block's output. An empty output is
// written as "ok" so that a block always has at least one output line.
func (s *script) render(got [][]string) string {
	var sb strings.Builder
	for i, b := range s.blocks {
		for _, p := range b.prefix {
			sb.WriteString(p + "\n")
		}
		sb.WriteString(b.cmd + "\n" + separator + "\n")
		out := got[i]
		if len(out) == 0 {
			out = []string{"ok"}
		}
		for _, o := range out {
			sb.WriteString(o + "\n")
		}
	}
	for _, p := range s.tail {
		sb.WriteString(p + "\n")
	}
	return sb.String()
}

// parseCommand splits a command line into its name, positional arguments and key=value
// options.
func parseCommand(line string) command {
	f := strings.Fields(line)
	c := command{name: f[0], opts: map[string]string{}}
	for _, a := range f[1:] {
		if k, v, ok := strings.Cut(a, "="); ok && k != "" {
			c.opts[k] = v
			c.keys = append(c.keys, k)
			continue
		}
		c.args = append(c.args, a)
	}
	return c
}

// arg returns the i-th positional argument or "".
func (c command) arg(i int) string {
	if i < len(c.args) {
		return c.args[i]
	}
	return ""
}
