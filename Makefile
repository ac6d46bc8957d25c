# informer-lab: every entry point. Needs only Go (and make).
GO          ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
PKGS        := ./...
BENCHTIME   ?= 1s
FUZZTIME    ?= 60s

ARGS        ?=

.PHONY: cluster-scale tools-test discovery-reference conformance conformance-accept conformance-unit conformance-build lab-start lab-check lab-status lab-hint lab-timings lab-mutants chaos soak load abuse bench-compare bench-real docs schemas protos scenarios update e2e-browser fuzz test fmt-check vet unit interop e2e-kubectl chapters bench bench-interop lint demo serve ui help

help: ## list the targets
	@grep -E '^[a-z0-9%-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

test: fmt-check vet unit interop ## gofmt check, go vet, every test with -race, then the interop module

fmt-check: ## fail if any file is not gofmt-ed
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet: ## go vet
	$(GO) vet $(PKGS)

unit: ## go test -race over the whole module (the kubectl suite included)
	$(GO) test -race -count=1 $(PKGS)

# interop/ is its own module: real client-go v0.37 against the simulated apiserver. The first
# -race build compiles client-go, about 2.5 minutes on 2 cores.
interop: ## real client-go against our server: the interop module's tests with -race
	cd interop && $(GO) vet ./... && $(GO) test -race -count=1 ./...

e2e-kubectl: ## real kubectl against `demo serve` (skips with a message when kubectl is absent)
	$(GO) test -race -count=1 -v ./harness/e2e/kubectl/

E2E_ARTIFACTS ?= $(CURDIR)/artifacts/e2e
e2e-browser: ## the dashboards in headless Chromium (apt-get install chromium); screenshots in artifacts/e2e
	E2E_REQUIRE_BROWSER=1 E2E_ARTIFACTS=$(E2E_ARTIFACTS) $(GO) test -race -count=1 -v -run 'Browser' ./internal/dashboard/... ./cmd/demo/

demo: ## the guided tour of the pipeline on the embedded apiserver; e.g. make demo ARGS=--profile=classic, or ARGS=--lang=zh for the Chinese narration
	$(GO) run ./cmd/demo tour $(ARGS)

serve: ## the simulated cluster on 127.0.0.1:6443 (apiserver, controllers, 3 nodes), with a kubeconfig; ARGS="--controllers=none --nodes 0" for the apiserver alone, ARGS=--ui=127.0.0.1:8080 for the dashboard
	$(GO) run ./cmd/demo serve $(ARGS)

ui: ## the pipeline with a steady mutator and the live dashboard on http://127.0.0.1:8080
	$(GO) run ./cmd/demo run --ui 127.0.0.1:8080 $(ARGS)

chapters: ## run every chapter verbosely, then print each chapter's checked example output
	$(GO) test -race -count=1 -v ./chapters/...
	@for dir in chapters/[0-9]*/; do echo; echo "== examples of $$dir (output checked by the run above)"; \
		$(GO) run ./internal/cmd/examples ./$$dir || exit 1; done
	$(MAKE) ch15

# Chapter 15 lives in the interop module (controller-runtime is built on client-go, which the main
# module never imports); chapters/15-*/ holds only its READMEs. This rule wins over ch% below.
ch15: ## run chapter 15: the Foo controller on controller-runtime, in the interop module
	cd interop && $(GO) test -race -count=1 -v -run '^TestCh15_' ./controllerruntime/

# make ch04 runs chapters/04-*/ verbosely (its tests and examples), then every TestCh04_ test and
# every Example of the packages the chapter names (deltafifo/ for chapter 04: the article map
# points at ExampleDeltaFIFO_Pop there), one line per test, then prints the output of each of
# the chapter's examples, which go test -v does not show when an example passes.
ch%: ## run one chapter, e.g. make ch04: its directory, the packages' TestCh04_ tests, its examples
	@dir=$$(ls -d chapters/$*-*/ 2>/dev/null | head -n 1); \
	if [ -z "$$dir" ]; then echo "no chapter $* under chapters/"; exit 1; fi; \
	echo "== $$dir"; $(GO) test -race -count=1 -v ./$$dir || exit 1; \
	pkgs=$$(grep -rlE '^func TestCh$*_' --include='*_test.go' . | grep -v -e "^./$$dir" -e '^./interop/' -e '^./tools/' -e '^./labs/work/' | \
		xargs -r -n1 dirname | sort -u | tr '\n' ' '); \
	if [ -n "$$pkgs" ]; then \
		echo && echo "== the TestCh$*_ tests and the examples of $$pkgs"; out=$$(mktemp); \
		$(GO) test -race -count=1 -v -run '^(TestCh$*_|Example)' $$pkgs >$$out 2>&1; rc=$$?; \
		if [ $$rc -eq 0 ]; then grep -E '^(--- |ok )' $$out; else cat $$out; fi; rm -f $$out; \
		[ $$rc -eq 0 ] || exit $$rc; \
	fi; \
	echo && echo "== examples of $$dir (output checked by the run above)" && \
	$(GO) run ./internal/cmd/examples ./$$dir

SCENARIO_PKGS := ./harness/scenario/ $(patsubst %,./%,$(wildcard chapters/0[5-9]-*/ chapters/1[0-4]-*/))
scenarios: ## the scenario scripts (golden traces) under both profiles
	$(GO) test -race -count=1 $(SCENARIO_PKGS)

update: ## rewrite the scenario scripts' expected output after a change (review the diff!)
	$(GO) test -count=1 $(SCENARIO_PKGS) -update

bench: ## every benchmark, with allocations
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS)

SEEDS ?= 10000
SEED  ?= 0
chaos: ## the chaos consistency suite: 200 seeds per profile under -race (make test runs 20)
	$(GO) test -race -count=1 -run 'TestChaos_' ./harness/chaos/ -chaos.seeds=200 $(ARGS)

# Under -race the race detector's own memory grows by about 0.3 MB per run (the suite's heap
# stays flat without it): SEEDS=10000 over three profiles peaks near 9 GB of RSS.
soak: ## the chaos suite with many seeds, e.g. make soak SEEDS=10000 SEED=1000 (about an hour)
	$(GO) test -race -count=1 -timeout=0 -run 'TestChaos_Consistency' ./harness/chaos/ -chaos.seeds=$(SEEDS) -chaos.seed=$(SEED) $(ARGS)

LOAD_DURATION ?= 60s
load: ## 1,000 HTTP watchers and an informer against 5,000 writes/s for LOAD_DURATION: events/s, p99 latency, peak RSS
	$(GO) test -run '^TestCh01_Load$$' -count=1 -v -timeout 30m ./apiserver/ -args -load -load.duration=$(LOAD_DURATION) $(ARGS)

ABUSE_N      ?= 2000
ABUSE_ROUNDS ?= 3
# The probe's enum had 20,000 values and its objects 1,000 bad values; its server died near
# update 1,600 of a 1 MiB ConfigMap. etcd's request limit (1.5 MiB) bounds the CRD, so its enum.
ABUSE_ENUM_VALUES ?= 100000
ABUSE_ENUM_BAD    ?= 10000
ABUSE_HISTORY     ?= 5400
abuse: ## rounds of 2,000 non-reading watches and 2,000 slow bodies, then of the enum-amplification and 1 MiB-history attacks at ten times the probe's size: goroutines, heap, peak RSS and the watch cap before, at peak and after
	$(GO) test -run '^TestCh01_Abuse$$' -count=1 -v -timeout 30m ./apiserver/ -args -abuse.n=$(ABUSE_N) -abuse.bodies=$(ABUSE_N) -abuse.rounds=$(ABUSE_ROUNDS) $(ARGS)
	$(GO) test -run '^TestCh01_AbuseCost$$' -count=1 -v -timeout 30m ./apiserver/ -args -abuse.rounds=$(ABUSE_ROUNDS) -abuse.enum.values=$(ABUSE_ENUM_VALUES) -abuse.enum.bad=$(ABUSE_ENUM_BAD) -abuse.enum.objects=10 -abuse.history.updates=$(ABUSE_HISTORY) $(ARGS)

# conformance/ is its own module (the only one importing k8s.io/kubernetes): the real
# kube-apiserver v1.36.3, built from source with an embedded etcd (cmd/refserver), against the
# simulated apiserver, case by case. The first build of the reference takes 11-12 minutes on 2
# cores; later builds come from the Go build cache. See conformance/README.md.
CONFORMANCE_ARGS ?=
conformance-unit: ## the conformance runner's own tests (normaliser, comparator, generators), no reference needed
	cd conformance && $(GO) vet ./... && $(GO) test -count=1 ./...

# A build outside the kubernetes repository gets no version stamp: set the one the release sets.
REF_VERSION_PKG := k8s.io/component-base/version
REF_LDFLAGS := -X $(REF_VERSION_PKG).gitVersion=v1.36.3 -X $(REF_VERSION_PKG).gitMajor=1 -X $(REF_VERSION_PKG).gitMinor=36 -X $(REF_VERSION_PKG).gitTreeState=clean
conformance-build: ## build the reference kube-apiserver (conformance/out/refserver) and the suite runner
	cd conformance && $(GO) build -ldflags '$(REF_LDFLAGS)' -o out/refserver ./cmd/refserver && $(GO) build -o out/conform ./cmd/conform

conformance: conformance-unit conformance-build ## compare our apiserver with the real kube-apiserver v1.36.3; rewrites CONFORMANCE.md
	cd conformance && ./out/conform -refserver out/refserver $(CONFORMANCE_ARGS)

conformance-accept: conformance-build ## like make conformance, then rewrite conformance/known-differences.yaml from the run (review the diff!)
	cd conformance && ./out/conform -refserver out/refserver -accept $(CONFORMANCE_ARGS)

cluster-scale: ## 100 Deployments of 100 replicas on 100 simulated nodes, every controller: seconds to Ready, to deleted, peak heap
	$(GO) test -run='^$$' -bench=BenchmarkCluster_100Deployments100Replicas -benchtime=1x -timeout 30m ./controllers/

bench-compare: ## each workload through our code and client-go in one process: the ratio table of interop/BENCHMARKS.md
	cd interop && $(GO) test -count=1 -timeout 30m -run TestBenchCompare ./bench -compare -v

# The reference is conformance/out/refserver (make conformance-build); without it the test skips.
# A measurement, not a check: CI does not run it.
REFSERVER ?= $(CURDIR)/conformance/out/refserver
bench-real: ## create 10,000 ConfigMaps, then sync a client-go informer, against `demo serve` and the real kube-apiserver (processes): ms and ratios, as in interop/BENCHMARKS.md
	cd interop && $(GO) test -count=1 -timeout 60m -run '^TestBenchRealServer$$' ./bench -v -real -real.refserver=$(REFSERVER) $(ARGS)

bench-interop: ## side-by-side benchmarks against client-go (interop module)
	cd interop && $(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) ./...

# go test -fuzz takes one target in one package at a time, so list them and run each in turn.
# A crasher lands in that package's testdata/fuzz and becomes a regression seed of make test.
fuzz: ## run every Fuzz target for FUZZTIME each (default 60s), e.g. make fuzz FUZZTIME=5m
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
		for fz in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$fz ($(FUZZTIME))"; \
			$(GO) test -run='^$$' -fuzz="^$$fz\$$" -fuzztime=$(FUZZTIME) $$pkg; \
		done; \
	done

# CI runs make docs and then fails if the tree changed: SOURCE_MAP.md and the behaviour
# reference must be current, and behaviourref fails on any ID, link, path or test name that does
# not resolve inside the repository.
docs: ## regenerate SOURCE_MAP.md and docs/behaviour/, check every reference, then run every README command for real
	$(GO) run ./internal/cmd/sourcemap
	$(GO) run ./internal/cmd/behaviourref
	$(GO) test -count=1 -timeout 45m ./internal/readmecmd/ -readme.run

# tools/ is its own module: it builds the OpenAPI v3 schemas from the Kubernetes v1.36.3 sources
# (the first build compiles them: one to three minutes on 2 cores; a run takes well under a second).
schemas: ## regenerate the embedded OpenAPI v3 documents and their SHA256SUMS (apiserver/internal/schema/openapi)
	cd tools && $(GO) run ./cmd/openapi-gen -out ../apiserver/internal/schema/openapi
	cd tools && $(GO) run ./cmd/zero-gen -out ../apiserver/internal/typed/zero

# The protobuf message descriptors come from the same module, by reflection over the k8s.io/api
# and k8s.io/apimachinery v0.36.3 Go types (a run takes well under a second once compiled).
protos: ## regenerate the embedded protobuf message descriptors and their SHA256SUMS (internal/builtinproto/descriptors)
	cd tools && $(GO) run ./cmd/proto-gen -out ../internal/builtinproto/descriptors

# tools/ is its own module (generators and oracles: Kubernetes, cel-go, cel-spec). Its tests pin the
# generated data as current and check our CEL against cel-go and the cel-spec conformance files.
tools-test: ## the tools module's tests: generated data current, CEL conformance and differential
	cd tools && $(GO) vet ./... && $(GO) test -count=1 ./...

# The bootstrap RBAC objects (ClusterRoles, ClusterRoleBindings, and the Roles and RoleBindings of
# kube-system and kube-public) come from bootstrappolicy in the same module.
.PHONY: rbac
rbac: ## regenerate the embedded bootstrap RBAC objects and their SHA256SUMS (apiserver/internal/registry/rbac/bootstrap)
	cd tools && $(GO) run ./cmd/rbac-gen -out ../apiserver/internal/registry/rbac/bootstrap

# The real server's discovery and OpenAPI documents that apiserver's discovery and OpenAPI tests
# compare with: captured from the reference kube-apiserver the conformance suite builds
# (conformance-build first).
discovery-reference: conformance-build ## recapture apiserver/testdata/reference (discovery, OpenAPI) from the reference kube-apiserver
	cd conformance && ./out/conform -refserver out/refserver -capture ../apiserver/testdata/reference

lint: ## staticcheck at a pinned version, fetched with go run, on both modules
	$(GO) run $(STATICCHECK) $(PKGS)
	cd interop && $(GO) run $(STATICCHECK) ./...

# The labs: the learner rewrites a component's marked functions (see labs/README.md).
LAB ?=
N   ?= 1
# Built once per call into the git-ignored workspace, so that a failing check prints only the scoreboard.
LABCMD = $(GO) build -o labs/work/.bin/lab ./labs/cmd/lab && labs/work/.bin/lab
lab-start: ## write lab LAB's skeletons to labs/work/LAB (FORCE=1 overwrites), e.g. make lab-start LAB=04
	@$(LABCMD) start $(if $(FORCE),-force) $(if $(ZH),-lang zh) $(LAB)

lab-check: ## grade lab LAB step by step, stopping at the first failing step, and print the scoreboard (REF=1: the reference; ALL=1: every test and failure; ZH=1: in Chinese)
	@$(LABCMD) check $(if $(REF),-ref) $(if $(ALL),-all) $(if $(RACE),-race) $(if $(ZH),-lang zh) $(LAB)

lab-status: ## every lab at a glance: functions written, last lab-check
	@$(LABCMD) status $(if $(ZH),-lang zh)

lab-hint: ## hint N (1 the idea, 2 the data structure, 3 the tricky case) of lab LAB; ZH=1 in Chinese
	@$(LABCMD) hint $(if $(ZH),-lang zh) $(LAB) $(N)

lab-timings: ## solve each lab (or LAB) function by function from the reference and time every lab-check (the table in labs/INSTRUCTOR.md)
	@$(LABCMD) timings $(LAB)

lab-mutants: ## prove the grader fails every kept wrong solution of lab LAB (make test does it for all labs)
	@$(LABCMD) mutants $(LAB)
