# informer-lab: every entry point. Needs only Go (and make).
GO          ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
PKGS        := ./...
BENCHTIME   ?= 1s

.PHONY: test fmt-check vet unit chapters bench lint help

help: ## list the targets
	@grep -E '^[a-z0-9%-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

test: fmt-check vet unit ## gofmt check, go vet, then every test with -race

fmt-check: ## fail if any file is not gofmt-ed
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet: ## go vet
	$(GO) vet $(PKGS)

unit: ## go test -race over the whole module
	$(GO) test -race -count=1 $(PKGS)

chapters: ## run every chapter verbosely, then print each chapter's checked example output
	$(GO) test -race -count=1 -v ./chapters/...
	@for dir in chapters/[0-9]*/; do echo; echo "== examples of $$dir (output checked by the run above)"; \
		$(GO) run ./internal/cmd/examples ./$$dir || exit 1; done

# make ch03 runs chapters/03-*/ verbosely (its tests and examples), then prints the output of
# each example, which go test -v does not show when an example passes.
ch%: ## run one chapter, e.g. make ch03
	@dir=$$(ls -d chapters/$*-*/ 2>/dev/null | head -n 1); \
	if [ -z "$$dir" ]; then echo "no chapter $* under chapters/"; exit 1; fi; \
	echo "== $$dir"; $(GO) test -race -count=1 -v ./$$dir && \
	echo && echo "== examples of $$dir (output checked by the run above)" && \
	$(GO) run ./internal/cmd/examples ./$$dir

bench: ## every benchmark, with allocations
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS)

lint: ## staticcheck at a pinned version, fetched with go run
	$(GO) run $(STATICCHECK) $(PKGS)
