# Roundtable: every command a developer or CI needs.
GO      ?= go
BIN     := .bin/roundtable
PKGS    := ./...
# Tools are installed by `make tools` into GOBIN (default ~/go/bin).
GOBIN   ?= $(shell $(GO) env GOPATH)/bin
LINT    := $(GOBIN)/golangci-lint
GOFUMPT := $(GOBIN)/gofumpt

.PHONY: build run test cross deps bench idlecpu lint fmt tools e2e-llm fuzz clean

build: ## Build the binary into .bin/roundtable
	$(GO) build -o $(BIN) ./cmd/roundtable

run: build ## Start the debate TUI on the mock provider (no keys needed)
	$(BIN) tui

# The platforms roundtable builds for besides Linux. Where a feature is
# Unix-only, a build-tagged file says so and holds the fallback (see
# room/files_other.go, room/inode_windows.go).
CROSS := darwin/arm64 windows/amd64

cross: ## go build and go vet (tests included) for macOS and Windows
	@set -e; for p in $(CROSS); do \
		echo "GOOS=$${p%/*} GOARCH=$${p#*/} go build + vet"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build $(PKGS); \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet $(PKGS); \
	done

deps: ## Install tmux and Chromium for the end-to-end tests when missing
	./.ci/deps

test: deps cross ## vet + cross builds + race tests (unit, integration, end-to-end in tmux and Chromium) + short fuzzing
	$(GO) vet $(PKGS)
	ROUNDTABLE_ARTIFACTS=$(CURDIR)/.artifacts $(GO) test -race -count=1 -timeout 20m $(PKGS)
	./.ci/fuzz $(or $(FUZZTIME_CI),5s)

bench: ## Go benchmarks and end-to-end measurements (figures go in BENCHMARKS.md)
	$(GO) test -run '^$$' -bench . -benchmem -count 1 -timeout 60m $(PKGS)

idlecpu: ## CPU of the real binary's screens left alone 30 s in tmux (home, finished debate, watch), each beside a bare Bubble Tea program at its frame rate (x-bare)
	$(GO) test -run '^$$' -bench IdleCPU -benchtime 1x ./tui/app

fuzz: ## Run every fuzz target for FUZZTIME each (default 1m)
	./.ci/fuzz $(or $(FUZZTIME),1m)

tools: ## Install golangci-lint and gofumpt at pinned versions
	$(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
	$(GO) install mvdan.cc/gofumpt@v0.12.0

lint: ## golangci-lint (config in .golangci.yml) and a gofumpt check
	@test -x $(LINT) || $(MAKE) tools
	$(LINT) run $(PKGS)
	$(LINT) run --build-tags llm,crashtest $(PKGS)
	@out=$$($(GOFUMPT) -l .); if [ -n "$$out" ]; then echo "gofumpt would change:"; echo "$$out"; exit 1; fi

fmt: ## Format every Go file with gofumpt
	@test -x $(GOFUMPT) || $(MAKE) tools
	$(GOFUMPT) -w .

e2e-llm: ## End-to-end tests against llama.cpp's server, the tiny real model and real coding agents over ACP
	./.ci/e2e-llm

clean:
	rm -rf .bin
