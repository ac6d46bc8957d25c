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
	"strings"
	"syscall"
	"time"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/conformance/corpus"
	"github.com/informer-lab/informer-lab/conformance/gen"
	"github.com/informer-lab/informer-lab/conformance/runner"
)

// config holds the flags.
type config struct {
	refBin, out, knownPath, reportPath, only, from, capture, roundtrip string
	accept                                                             bool
	concurrency, maxMut, kubectlN                                      int
}

func main() {
	var c config
	flag.StringVar(&c.refBin, "refserver", "", "path of the built cmd/refserver binary")
	flag.StringVar(&c.out, "out", "out", "directory for logs, results.json and the servers' kubeconfigs (git-ignored)")
	flag.StringVar(&c.knownPath, "known", "known-differences.yaml", "the known-differences file")
	flag.StringVar(&c.reportPath, "report", "../CONFORMANCE.md", "where to write the report ('' for none)")
	flag.BoolVar(&c.accept, "accept", false, "rewrite the known-differences file from this run (an entry keeps its reason while its class still holds)")
	flag.IntVar(&c.concurrency, "concurrency", 6, "cases run at once")
	flag.StringVar(&c.only, "only", "", "run only cases whose ID matches this regexp (the report is then not written)")
	flag.IntVar(&c.maxMut, "max-mutations", 30, "schema mutations per manifest")
	flag.IntVar(&c.kubectlN, "kubectl", 60, "manifests that also get a kubectl case")
	flag.StringVar(&c.from, "from", "", "check (and -accept, report) the results.json of an earlier run instead of running the servers")
	flag.StringVar(&c.roundtrip, "roundtrip", "../apiserver/testdata/roundtrip", "the apiserver's round-trip manifests, read as corpus too (one object of every kind it serves)")
	flag.StringVar(&c.capture, "capture", "", "write the reference's discovery documents into this directory and exit (make discovery-reference)")
	flag.Parse()
	runFn := run
	if c.capture != "" {
		runFn = func(c config) error { return capture(c, c.capture) }
	}
	if err := runFn(c); err != nil {
		fmt.Fprintln(os.Stderr, "conform:", err)
		os.Exit(1)
	}
}

// saved is results.json: the report's preamble and every result (steps only for differences).
type saved struct {
	Preamble []string        `json:"preamble"`
	Results  []runner.Result `json:"results"`
}

func run(c config) error {
	start := time.Now()
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	known, err := runner.LoadKnown(c.knownPath)
	if err != nil {
		return err
	}
	var filter *regexp.Regexp
	if c.only != "" {
		if filter, err = regexp.Compile(c.only); err != nil {
			return err
		}
	}
	var s saved
	if c.from != "" {
		b, err := os.ReadFile(c.from)
		if err == nil {
			err = json.Unmarshal(b, &s)
		}
		if err != nil {
			return err
		}
		if filter != nil {
			s.Results = filterResults(s.Results, filter)
		}
	} else {
		if s, err = collect(c, filter); err != nil {
			return err
		}
		if err := writeJSON(filepath.Join(c.out, "results.json"), s); err != nil {
			return err
		}
	}
	return finish(c, s, known, filter, start)
}

func filterResults(rs []runner.Result, filter *regexp.Regexp) []runner.Result {
	var keep []runner.Result
	for _, r := range rs {
		if filter.MatchString(r.ID) {
			keep = append(keep, r)
		}
	}
	return keep
}

// collect starts both servers, generates the cases and runs them.
func collect(c config, filter *regexp.Regexp) (saved, error) {
	start := time.Now()
	ctx := context.Background()
	docs, cst, err := corpus.Load(corpus.Sources)
	if err != nil {
		return saved{}, err
	}
	local, err := corpus.LoadLocal(corpus.Local{Label: "roundtrip", Dir: c.roundtrip}, &cst)
	if err != nil {
		return saved{}, err
	}
	docs = append(docs, local...)
	fmt.Printf("corpus: %d files, %d objects (skipped: %d template files, %d unparsable files, %d documents without kind)\n",
		cst.Files, cst.Docs, cst.SkippedTemplates, cst.SkippedUnparsable, cst.SkippedNoKind)

	ref, stopRef, err := startReference(c.refBin, c.out)
	if err != nil {
		return saved{}, err
	}
	defer stopRef()
	version := referenceVersion(ctx, ref)
	// The start-up objects of a fresh server, as the reference has them.
	sim := apiserver.New(apiserver.Options{Version: version, Bootstrap: true, StrictServiceAccounts: true,
		ServiceClusterIPRange: runner.ServiceClusterIPRange})
	simURL, err := sim.Start("127.0.0.1:0")
	if err != nil {
		return saved{}, err
	}
	defer sim.Close()
	simKC := filepath.Join(c.out, "simulator.kubeconfig")
	if err := os.WriteFile(simKC, []byte(kubeconfig(simURL, "")), 0o600); err != nil {
		return saved{}, err
	}
	simT := runner.NewTarget("simulator", simURL, "", simKC, filepath.Join(c.out, "kubectl-cache-simulator"))
	fmt.Printf("reference %s (%s), simulator %s; setup %s\n", ref.URL, version, simURL, time.Since(start).Round(time.Second))

	r := &runner.Runner{Ref: ref, Sim: simT, Concurrency: c.concurrency}
	installCases, crds := gen.CRDInstallCases(docs)
	results := r.Run(ctx, installCases)
	if missing := gen.WaitServed(ctx, ref, crds, 90*time.Second); len(missing) > 0 {
		fmt.Printf("reference never served: %s\n", strings.Join(missing, ", "))
	}
	disc, err := gen.Discover(ctx, ref)
	if err != nil {
		return saved{}, err
	}
	schemas, err := gen.FetchSchemas(ctx, ref)
	if err != nil {
		return saved{}, err
	}
	crdGroups := map[string]bool{}
	for _, c := range crds {
		crdGroups[c.Group] = true
	}
	generated := gen.GeneratedDocs(docs, disc, schemas, crdGroups)
	cases, gst := gen.FromCorpus(append(docs, generated...), disc, schemas, gen.Options{MaxSchemaMutations: c.maxMut, KubectlManifests: c.kubectlN})
	cases = append(cases, gen.Scenarios()...)
	gen.InferKinds(cases, disc)
	cases = append(cases, gen.ReadOnlyCases(cases, disc)...)
	coverage := coverageLines(generated, gen.Uncovered(cases, disc), len(local))
	for _, l := range coverage {
		fmt.Println(l)
	}
	checkUnique(cases)
	serial := gen.SerialiseGlobalAllocations(cases)
	skipped := 0
	for _, n := range gst.UnservedKinds {
		skipped += n
	}
	fmt.Printf("cases: %d generated (+%d CRD installs), %d of them serial (a node port or cluster IP of their own); %d corpus objects of %d kinds the reference does not serve skipped\n",
		len(cases), len(installCases), serial, skipped, len(gst.UnservedKinds))
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
		results = filterResults(results, filter)
	}
	runStart := time.Now()
	r.Progress = func(done, total int) {
		if done%500 == 0 || done == total {
			fmt.Printf("  %d/%d cases (%s)\n", done, total, time.Since(runStart).Round(time.Second))
		}
	}
	results = append(results, r.Run(ctx, cases)...)
	return saved{Preamble: append(preamble(cst, gst, version, len(installCases)), coverage...), Results: results}, nil
}

// finish checks the results against the known list, optionally rewrites it, writes the
// report and prints the verdict.
func finish(c config, s saved, known map[string]runner.Known, filter *regexp.Regexp, start time.Time) error {
	results := s.Results
	if filter != nil {
		for id := range known {
			if !filter.MatchString(id) {
				delete(known, id)
			}
		}
	}
	if c.accept {
		if filter != nil {
			return fmt.Errorf("-accept needs the whole suite (no -only)")
		}
		entries := runner.Accept(results, known)
		if err := runner.WriteKnown(c.knownPath, entries); err != nil {
			return err
		}
		var err error
		if known, err = runner.LoadKnown(c.knownPath); err != nil {
			return err
		}
		fmt.Printf("wrote %s: %d entries\n", c.knownPath, len(entries))
	}
	v := runner.Check(results, known)
	if c.reportPath != "" && filter == nil {
		if err := os.WriteFile(c.reportPath, []byte(runner.Report(runner.ReportInput{Results: results, Known: known, Verdict: v, Preamble: s.Preamble})), 0o644); err != nil {
			return err
		}
	}
	agree := 0
	for _, res := range results {
		if res.Agrees() {
			agree++
		}
	}
	fmt.Print("agreement per kind:\n" + runner.KindTable(runner.KindAgreement(results)))
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
			fmt.Printf("  ... %d more unexpected (see %s)\n", len(v.Unexpected)-30, filepath.Join(c.out, "results.json"))
			break
		}
		_, reason := runner.Classify(res)
		fmt.Printf("  UNEXPECTED %s: %s\n", res.ID, reason)
	}
	if len(v.Unexpected) > 0 {
		return fmt.Errorf("%d differences not in %s (make conformance-accept lists them, after review)", len(v.Unexpected), c.knownPath)
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

// coverageLines say where the cases of the kinds without a corpus object came from, and
// which resource types of the reference no case is about (none, unless discovery changed).
func coverageLines(generated []corpus.Doc, uncovered []string, local int) []string {
	var kinds []string
	for _, d := range generated {
		kinds = append(kinds, d.APIVersion()+" "+d.Kind())
	}
	l := []string{"", fmt.Sprintf("The apiserver's round-trip manifests (apiserver/testdata/roundtrip, one object of every kind it serves) add %d objects.", local),
		fmt.Sprintf("Kinds the reference serves that no manifest holds get a minimal object made from the reference's OpenAPI schema (%d): %s.", len(generated), strings.Join(kinds, ", "))}
	if len(uncovered) > 0 {
		l = append(l, fmt.Sprintf("Resource types of the reference no case is about (%d): %s.", len(uncovered), strings.Join(uncovered, ", ")))
	} else {
		l = append(l, "Every resource type of the reference has cases: the agreement per kind below lists them.")
	}
	return l
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
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
