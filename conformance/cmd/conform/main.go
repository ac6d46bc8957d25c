// Command conform runs the conformance suite: it starts the reference (cmd/refserver, a real
// kube-apiserver v1.36.3 with embedded etcd) and the simulated apiserver, builds the cases from
// the pinned corpus and the scenarios, replays each against both, compares, checks the
// differences against known-differences.yaml and writes CONFORMANCE.md.
//
// Exit status: 0 when every difference is listed, 1 otherwise (or on a harness failure).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/conformance/corpus"
	"github.com/informer-lab/informer-lab/conformance/gen"
	"github.com/informer-lab/informer-lab/conformance/runner"
)

func main() {
	refBin := flag.String("refserver", "", "path of the built cmd/refserver binary")
	out := flag.String("out", "out", "directory for logs, results.json and the servers' kubeconfigs (git-ignored)")
	knownPath := flag.String("known", "known-differences.yaml", "the known-differences file")
	report := flag.String("report", "../CONFORMANCE.md", "where to write the report ('' for none)")
	accept := flag.Bool("accept", false, "rewrite the known-differences file from this run (keeps existing reasons)")
	concurrency := flag.Int("concurrency", 6, "cases run at once")
	only := flag.String("only", "", "run only cases whose ID matches this regexp (the report is then not written)")
	maxMut := flag.Int("max-mutations", 30, "schema mutations per manifest")
	kubectlN := flag.Int("kubectl", 60, "manifests that also get a kubectl case")
	flag.Parse()
	if err := run(*refBin, *out, *knownPath, *report, *accept, *concurrency, *only, *maxMut, *kubectlN); err != nil {
		fmt.Fprintln(os.Stderr, "conform:", err)
		os.Exit(1)
	}
}

func run(refBin, out, knownPath, reportPath string, accept bool, concurrency int, only string, maxMut, kubectlN int) error {
	start := time.Now()
	ctx := context.Background()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	known, err := runner.LoadKnown(knownPath)
	if err != nil {
		return err
	}
	var filter *regexp.Regexp
	if only != "" {
		if filter, err = regexp.Compile(only); err != nil {
			return err
		}
	}
	docs, cst, err := corpus.Load(corpus.Sources)
	if err != nil {
		return err
	}
	fmt.Printf("corpus: %d files, %d objects (skipped: %d template files, %d unparsable files, %d documents without kind)\n",
		cst.Files, cst.Docs, cst.SkippedTemplates, cst.SkippedUnparsable, cst.SkippedNoKind)

	ref, stopRef, err := startReference(refBin, out)
	if err != nil {
		return err
	}
	defer stopRef()
	version := referenceVersion(ctx, ref)
	sim := apiserver.New(apiserver.Options{Version: version})
	simURL, err := sim.Start("127.0.0.1:0")
	if err != nil {
		return err
	}
	defer sim.Close()
	simKC := filepath.Join(out, "simulator.kubeconfig")
	if err := os.WriteFile(simKC, []byte(kubeconfig(simURL, "")), 0o600); err != nil {
		return err
	}
	simT := runner.NewTarget("simulator", simURL, "", simKC, filepath.Join(out, "kubectl-cache-simulator"))
	fmt.Printf("reference %s (%s), simulator %s; setup %s\n", ref.URL, version, simURL, time.Since(start).Round(time.Second))

	r := &runner.Runner{Ref: ref, Sim: simT, Concurrency: concurrency}
	installCases, crds := gen.CRDInstallCases(docs)
	results := r.Run(ctx, installCases)
	if missing := gen.WaitServed(ctx, ref, crds, 90*time.Second); len(missing) > 0 {
		fmt.Printf("reference never served: %s\n", strings.Join(missing, ", "))
	}
	disc, err := gen.Discover(ctx, ref)
	if err != nil {
		return err
	}
	schemas, err := gen.FetchSchemas(ctx, ref)
	if err != nil {
		return err
	}
	cases, gst := gen.FromCorpus(docs, disc, schemas, gen.Options{MaxSchemaMutations: maxMut, KubectlManifests: kubectlN})
	cases = append(cases, gen.Scenarios()...)
	skipped := 0
	for _, n := range gst.UnservedKinds {
		skipped += n
	}
	fmt.Printf("cases: %d generated (+%d CRD installs); %d corpus objects of %d kinds the reference does not serve skipped\n",
		len(cases), len(installCases), skipped, len(gst.UnservedKinds))
	perCat := map[string]int{}
	for _, c := range cases {
		perCat[c.Category]++
	}
	for _, k := range gen.SortedKinds(perCat) {
		fmt.Printf("  %-28s %5d\n", k, perCat[k])
	}
	if filter != nil {
		var keep []runner.Case
		for _, c := range cases {
			if filter.MatchString(c.ID) {
				keep = append(keep, c)
			}
		}
		cases = keep
		var keepR []runner.Result
		for _, res := range results {
			if filter.MatchString(res.ID) {
				keepR = append(keepR, res)
			}
		}
		results = keepR
	}
	checkUnique(cases)
	runStart := time.Now()
	r.Progress = func(done, total int) {
		if done%500 == 0 || done == total {
			fmt.Printf("  %d/%d cases (%s)\n", done, total, time.Since(runStart).Round(time.Second))
		}
	}
	results = append(results, r.Run(ctx, cases)...)

	if err := writeResults(filepath.Join(out, "results.json"), results); err != nil {
		return err
	}
	if filter != nil {
		for id := range known {
			if !filter.MatchString(id) {
				delete(known, id)
			}
		}
	}
	if accept {
		if filter != nil {
			return fmt.Errorf("-accept needs the whole suite (no -only)")
		}
		entries := runner.Accept(results, known)
		if err := runner.WriteKnown(knownPath, entries); err != nil {
			return err
		}
		known, err = runner.LoadKnown(knownPath)
		if err != nil {
			return err
		}
		fmt.Printf("wrote %s: %d entries\n", knownPath, len(entries))
	}
	v := runner.Check(results, known)
	if reportPath != "" && filter == nil {
		pre := preamble(cst, gst, version, len(installCases))
		if err := os.WriteFile(reportPath, []byte(runner.Report(runner.ReportInput{Results: results, Known: known, Verdict: v, Preamble: pre})), 0o644); err != nil {
			return err
		}
	}
	agree := 0
	for _, res := range results {
		if res.Agrees() {
			agree++
		}
	}
	fmt.Printf("%d cases: %d agree, %d known differences, %d unexpected, %d listed cases now agree, %d listed cases did not run (%s)\n",
		len(results), agree, len(v.Listed), len(v.Unexpected), len(v.NowAgree), len(v.Stale), time.Since(start).Round(time.Second))
	for i, k := range v.NowAgree {
		if i == 20 {
			fmt.Printf("  ... %d more now agree\n", len(v.NowAgree)-20)
			break
		}
		fmt.Printf("  now agrees: %s (%s)\n", k.Case, k.Class)
	}
	for i, res := range v.Unexpected {
		if i == 30 {
			fmt.Printf("  ... %d more unexpected (see %s)\n", len(v.Unexpected)-30, filepath.Join(out, "results.json"))
			break
		}
		_, reason := runner.Classify(res)
		fmt.Printf("  UNEXPECTED %s: %s\n", res.ID, reason)
	}
	if len(v.Unexpected) > 0 {
		return fmt.Errorf("%d differences not in %s (make conformance-accept lists them, after review)", len(v.Unexpected), knownPath)
	}
	return nil
}

func checkUnique(cases []runner.Case) {
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.ID] {
			panic("duplicate case ID " + c.ID)
		}
		seen[c.ID] = true
	}
}

func preamble(cst corpus.Stats, gst gen.Stats, version string, installs int) []string {
	var l []string
	l = append(l, fmt.Sprintf("Reference: kube-apiserver %s built from k8s.io/kubernetes with an embedded etcd, no controllers.", version))
	l = append(l, "Simulator: package apiserver of this repository, started with the reference's version.", "")
	l = append(l, "Corpus (read from the Go module cache at pinned versions, never copied here):", "")
	for _, s := range corpus.Sources {
		l = append(l, fmt.Sprintf("- %s@%s (%s): %d objects", s.Module, s.Version, strings.Join(s.Dirs, ", "), cst.PerSource[s.Module]))
	}
	skipped := 0
	for _, n := range gst.UnservedKinds {
		skipped += n
	}
	l = append(l, "", fmt.Sprintf("%d files, %d objects; skipped %d Helm template files, %d unparsable files, %d documents without kind; %d CRDs installed first.",
		cst.Files, cst.Docs, cst.SkippedTemplates, cst.SkippedUnparsable, cst.SkippedNoKind, installs))
	kinds := gen.SortedKinds(gst.UnservedKinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s (%d)", strings.Replace(k, "|", " ", 1), gst.UnservedKinds[k]))
	}
	l = append(l, fmt.Sprintf("Objects of kinds the reference does not serve, skipped (%d): %s.", skipped, strings.Join(parts, ", ")))
	return l
}

func writeResults(path string, results []runner.Result) error {
	var diff []runner.Result
	for _, r := range results {
		if !r.Agrees() {
			diff = append(diff, r)
		}
	}
	sort.Slice(diff, func(i, j int) bool { return diff[i].ID < diff[j].ID })
	b, err := json.MarshalIndent(diff, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// startReference runs cmd/refserver and waits for its "ready" line.
func startReference(bin, out string) (*runner.Target, func(), error) {
	if bin == "" {
		return nil, nil, fmt.Errorf("-refserver is required (make conformance builds it)")
	}
	dir, err := filepath.Abs(filepath.Join(out, "reference"))
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	logf, err := os.Create(filepath.Join(out, "refserver.log"))
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(bin, "-out", dir)
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
		}
		logf.Close()
	}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "ready ") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			stop()
			return nil, nil, fmt.Errorf("refserver exited before ready; see %s", logf.Name())
		}
	case <-time.After(5 * time.Minute):
		stop()
		return nil, nil, fmt.Errorf("refserver not ready after 5 minutes; see %s", logf.Name())
	}
	var info struct{ URL, Token, Kubeconfig string }
	b, err := os.ReadFile(filepath.Join(dir, "server.json"))
	if err == nil {
		err = json.Unmarshal(b, &info)
	}
	if err != nil {
		stop()
		return nil, nil, err
	}
	return runner.NewTarget("reference", info.URL, info.Token, info.Kubeconfig, filepath.Join(out, "kubectl-cache-reference")), stop, nil
}

func referenceVersion(ctx context.Context, t *runner.Target) string {
	o := t.Do(ctx, http.MethodGet, "/version", nil, nil)
	var v struct{ GitVersion string }
	_ = json.Unmarshal(o.Body, &v)
	if m := regexp.MustCompile(`^v\d+\.\d+\.\d+`).FindString(v.GitVersion); m != "" {
		return m
	}
	return "v1.36.3"
}

func kubeconfig(url, token string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: simulator
  cluster:
    server: %s
users:
- name: admin
  user:
    token: %q
contexts:
- name: simulator
  context: {cluster: simulator, user: admin}
current-context: simulator
`, url, token)
}
