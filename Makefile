# ILP-GNN Explorer. `make run` builds the app and serves it on 127.0.0.1
# (ADDR=127.0.0.1:8080); `make train` trains on the default dataset from the
# command line; `make site` builds the static site into build/site; `make
# test` runs every check the repository has. All work from a fresh clone: Go
# fetches the modules, npm the JavaScript tools, and apt Debian's Chromium
# (for the browser tests) when it is missing.

GO       ?= go
DATA     ?= synth:medium
SEEDS    ?= 0,1,2,3,4
FUZZTIME ?= 10s
ADDR     ?= 127.0.0.1:8080
# go test's limit per test binary. The tests assert no timing and must pass
# on a machine five times slower than a quiet 2-core one; go test's default
# 10m is too tight there (wasm/engine under node takes about 3 min on a
# loaded one).
GOTEST_TIMEOUT ?= 30m

GOROOT   := $(shell $(GO) env GOROOT)
# The browser's engine is built by Go 1.27 with its experimental SIMD
# package (GOEXPERIMENT=simd): its float32 loops run 1.5-2.4x faster in
# Chromium with the same bits (docs/simd.md). The module proxy serves
# the toolchain; everything else builds with the module's Go.
SIMD_GO     := GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=simd $(GO)
SIMD_GOROOT := $(shell GOTOOLCHAIN=go1.27.3 $(GO) env GOROOT)
SITE     := build/site
STAMPS   := build/.stamps
CHROMIUM ?= /usr/bin/chromium
# What the site's steps are made from: the Go of the engine and the card
# (tests aside), the page's TypeScript and static files.
GO_SOURCES := $(shell find core wasm -name '*.go' ! -name '*_test.go' ! -path '*/testdata/*') go.mod go.sum
PAGE_SOURCES := $(shell find frontend/src public -type f) frontend/build.mjs
# What `ilpgnn --version` names: the commit built, "+dirty" with changes.
BUILD_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git status --porcelain 2>/dev/null | grep -q . && echo +dirty)

.PHONY: all build embed run serve train test readme docs sizes fmt-check vet unit wasm-unit ts-unit browser fuzz bench bench-wasm bench-torch bench-app bench-workers bench-bigtab bench-card check-exports screenshot clean site wasm card frontend chromium

all: build

# One binary that is the whole app: the site is embedded (core/cmd/ilpgnn/webapp/site holds
# a copy of build/site at build time; only its .gitkeep is committed).
# Each step of the site runs only when one of its sources is newer than
# what it made, so a second `make run` with nothing changed serves in
# seconds; the binary's own go build is cached by Go.
build: embed
	@echo "==> build/ilpgnn: the command line with the site embedded"
	$(GO) build -ldflags "-X main.buildCommit=$(BUILD_COMMIT)" -o build/ilpgnn ./core/cmd/ilpgnn

embed: $(STAMPS)/embed

$(STAMPS)/embed: $(STAMPS)/site
	find core/cmd/ilpgnn/webapp/site -mindepth 1 ! -name .gitkeep -delete
	cp -R $(SITE)/. core/cmd/ilpgnn/webapp/site/
	@touch $@

# Build everything, then serve the app on $(ADDR) and print its URL.
run serve: build
	./build/ilpgnn serve --addr $(ADDR)

train:
	$(GO) run ./core/cmd/ilpgnn train --data $(DATA) --seeds $(SEEDS)

# npm's tools first; then two lanes side by side, each layer timed
# (scripts/layers.sh prints where the time went). One: the formatting,
# the links and the Go tests under node, then, once the build has
# written the site that core/cmd/ilpgnn embeds (^build), vet and the
# native Go tests. Beside it: the build, the browser suite, the README's
# commands, the TypeScript tests and the sizes the guides state (last, so
# a stale size in a guide never keeps the browser suite from running). The build and the browser suite
# leave a core idle much of the time; three browser files at a time
# instead of two starved the Go lane (measured in docs/test-time.md).
test:
	@scripts/layers.sh node_modules
	@scripts/layers.sh fmt-check docs wasm-unit ^build vet unit -- build browser readme ts-unit sizes

# The README's commands in order, as a newcomer runs them from a fresh
# clone (all but make run and make test); the output its console sample
# shows must be what they print (scripts/readme-commands.mjs).
readme: build
	node scripts/readme-commands.mjs

# Every size of a built file that the guides state is within 1% of the
# built site's, and every size they state near the card, the engine or
# the bundle is known to the check (scripts/check-sizes.mjs).
sizes: site
	node scripts/check-sizes.mjs

# Every relative link of the Markdown files names a file that exists.
docs:
	node scripts/check-links.mjs

fmt-check:
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./core/... ./wasm/...
	GOOS=js GOARCH=wasm $(SIMD_GO) vet ./core/f32 ./wasm/worker

unit:
	$(GO) test -count=1 -timeout=$(GOTEST_TIMEOUT) ./...

# Packages whose output must be bit-identical natively and in the browser,
# run again under js/wasm (node executes the test binary).
# The wasm packages run under node with IndexedDB from npm's fake-indexeddb
# (wasm/testdata/node_exec).
# The engine's packages run under both toolchains: the SIMD loops must give
# the bits of the portable ones. Go 1.26's runs come first and the SIMD
# ones build with -trimpath, as the site's engine does: on a cold build
# cache they then reuse the packages the build (beside them in make test)
# compiled meanwhile instead of compiling them again.
WASM_EXEC = $(GOROOT)/lib/wasm/go_js_wasm_exec
SIMD_EXEC = $(SIMD_GOROOT)/lib/wasm/go_js_wasm_exec
SIMD_TEST = GOOS=js GOARCH=wasm $(SIMD_GO) test -trimpath -count=1 -timeout=$(GOTEST_TIMEOUT)
wasm-unit: node_modules
	GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout=$(GOTEST_TIMEOUT) -exec="$(WASM_EXEC)" ./core/detmath
	GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout=$(GOTEST_TIMEOUT) -exec="$(WASM_EXEC)" -run TestCheckpointPortable ./core/models
	GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout=$(GOTEST_TIMEOUT) -exec="$(WASM_EXEC)" -run TestSampledDeterministic ./core/synth
	$(SIMD_TEST) -exec="$(SIMD_EXEC)" ./core/f32 ./core/shard
	$(SIMD_TEST) -exec="$(SIMD_EXEC)" -run TestCheckpointPortable ./core/models
	$(SIMD_TEST) -exec="$(SIMD_EXEC)" -run TestPortable ./core/baselines/gnn ./core/baselines/gnnexplainer ./core/calibrate
	$(SIMD_TEST) -exec="$(CURDIR)/wasm/testdata/node_exec" ./wasm/...

# The TypeScript client: type check and unit tests under node.
ts-unit: node_modules
	node frontend/test/run.mjs

# The real worker in headless Chromium (frontend/e2e), two files at a
# time: each has its own server port, Chromium profile and temporary
# folders.
browser: build chromium
	node --test --test-concurrency=2 frontend/e2e/

node_modules: package.json package-lock.json
	@echo "==> npm's tools (npm ci)"
	npm ci --no-audit --no-fund
	@touch node_modules

# Debian's Chromium for the browser tests, installed when missing.
chromium:
	@test -x $(CHROMIUM) || { echo "installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# The deployable static site: the engine's WebAssembly (stripped: -s -w
# drop the symbol table and DWARF, -trimpath the build paths), Go's
# wasm_exec.js, the bundles, and precompressed .gz/.br twins.
site: $(STAMPS)/site

$(STAMPS)/site: $(SITE)/ilpgnn.wasm $(SITE)/card/ilpgnn-card.wasm $(SITE)/app.js frontend/scripts/compress.mjs
	@echo "==> precompressed .gz and .br twins of the site's files"
	node frontend/scripts/compress.mjs $(SITE) --json build/sizes.json
	node frontend/scripts/compress.mjs $(SITE)/card --json build/card-sizes.json
	@mkdir -p $(STAMPS) && touch $@

wasm: $(SITE)/ilpgnn.wasm card

$(SITE)/ilpgnn.wasm: $(GO_SOURCES)
	@echo "==> the engine's WebAssembly (Go 1.27 with SIMD; a first build fetches that toolchain and compiles for a few minutes)"
	@mkdir -p $(SITE)
	GOOS=js GOARCH=wasm $(SIMD_GO) build -trimpath -ldflags="-s -w" -o $@ ./wasm/worker
	cp "$(SIMD_GOROOT)/lib/wasm/wasm_exec.js" $(SITE)/

# The embeddable explanation card (wasm/card): built without inlining
# (-l), which makes it 7% smaller with brotli (wasm/card/README.md); it
# only explains, so speed matters little.
card: $(SITE)/card/ilpgnn-card.wasm

$(SITE)/card/ilpgnn-card.wasm: $(GO_SOURCES)
	@echo "==> the explanation card's WebAssembly"
	@mkdir -p $(SITE)/card
	GOOS=js GOARCH=wasm $(GO) build -trimpath -gcflags=all=-l -ldflags="-s -w" -o $@ ./wasm/card
	cp "$(GOROOT)/lib/wasm/wasm_exec.js" $(SITE)/card/

frontend: $(SITE)/app.js

$(SITE)/app.js: $(PAGE_SOURCES) node_modules
	@echo "==> the page: TypeScript bundles and static files"
	node frontend/build.mjs

# Short runs of every fuzzer (the seed corpora also run in `make unit`).
fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzLINQS$$' -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz='^FuzzEdgeList$$' -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz='^FuzzQuoting$$' -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz='^FuzzNPZ$$' -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz='^FuzzCompareIDs$$' -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz='^FuzzNPZArrays$$' -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz='^FuzzGroundtruth$$' -fuzztime=$(FUZZTIME) ./core/synth
	$(GO) test -run='^$$' -fuzz='^FuzzReadFiles$$' -fuzztime=$(FUZZTIME) ./core/synth
	$(GO) test -run='^$$' -fuzz='^FuzzUnmarshal$$' -fuzztime=$(FUZZTIME) ./core/checkpoint
	$(GO) test -run='^$$' -fuzz='^FuzzHeader$$' -fuzztime=$(FUZZTIME) ./core/checkpoint
	$(GO) test -run='^$$' -fuzz='^FuzzUnmarshal$$' -fuzztime=$(FUZZTIME) ./core/bundle
	$(GO) test -run='^$$' -fuzz='^FuzzOpenILPGNN$$' -fuzztime=$(FUZZTIME) ./core/models
	$(GO) test -run='^$$' -fuzz='^FuzzParseSplit$$' -fuzztime=$(FUZZTIME) ./core/train
	$(GO) test -run='^$$' -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME) ./core/dataset
	$(GO) test -run='^$$' -fuzz='^FuzzPair$$' -fuzztime=$(FUZZTIME) ./core/cmd/ilpgnn
	$(GO) test -run='^$$' -fuzz='^FuzzSet$$' -fuzztime=$(FUZZTIME) ./core/cmd/ilpgnn
	$(GO) test -run='^$$' -fuzz='^FuzzPlan$$' -fuzztime=$(FUZZTIME) ./core/tune
	$(GO) test -run='^$$' -fuzz='^FuzzDecodeRequest$$' -fuzztime=$(FUZZTIME) ./wasm/engine
	$(GO) test -run='^$$' -fuzz='^FuzzSigmoids$$' -fuzztime=$(FUZZTIME) ./core/detmath

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./core/...

# One GAE epoch on Cora, one thread: Go's BenchmarkGAEEpoch against the
# PyTorch script core/baselines/gnn/torchref/gae_epoch.py (apt-get install
# python3-torch; never part of make test), 3 alternating rounds, medians.
bench-torch:
	core/baselines/gnn/torchref/bench.sh

# One Cora training epoch through the engine: native (1 and 2 threads),
# WebAssembly under node, and in headless Chromium; medians and ratios.
bench-wasm: site chromium
	node frontend/scripts/bench-epoch.mjs

# The app's timings in headless Chromium: first graph, training on
# synth:medium and Cora, panning and zooming Cora and Amazon Photo, sizes,
# and ILP-GNN training Amazon Photo and Computers in the tab for
# BENCH_APP_EPOCHS epochs (default 20; BENCH_APP_LARGE=photo or computers for one): setup, median epoch, memory, test AUC.
# BENCH_APP_ARGS=--only-large runs that section alone.
bench-app: site chromium
	node frontend/scripts/bench-app.mjs $(BENCH_APP_ARGS)

# ILP-GNN on Amazon Photo in headless Chromium with 1 and with 2 Web
# Workers computing each epoch's shards, alternating: one line per run,
# workers=N seconds_per_epoch=X (median epoch, the first left out), then the
# phases, memory, first_progress_ms and cancel_ms. BENCH_WORKERS_EPOCHS
# (default 3) epochs per run, BENCH_WORKERS_ROUNDS (default 2) rounds,
# BENCH_WORKERS_DATA (default amazon_photo) the folder under ../shared/datasets.
bench-workers: site chromium
	node frontend/scripts/bench-workers.mjs

# The large graphs in the tab through the app's controls, as a person
# uses them: first picture, layout settled, preparation, the default
# cores and an epoch's time, Train to the first explanation answered
# during training, and Cancel to Train back (frontend/scripts/bench-bigtab.mjs;
# BENCH_BIGTAB_DATA picks the graphs).
bench-bigtab: site chromium
	node frontend/scripts/bench-bigtab.mjs

# The embeddable card: its WebAssembly's size with brotli and the time to
# the first card on Cora, cold and warm (frontend/scripts/bench-card.mjs).
bench-card: build chromium
	node frontend/scripts/bench-card.mjs

# The graph exports in the tools that read them (never part of make test):
# DGL's random_partition.py and GraphStorm's GSPartition partition the DGL
# export, GraphStorm's gconstruct readers take the gconstruct one, PyTorch
# checks the PyG arrays (core/graphexport/toolcheck). DGL and GRAPHSTORM
# name checkouts of dmlc/dgl and awslabs/graphstorm; the parts that need
# one are skipped without it. Debian's Python packages are installed when
# missing.
check-exports:
	@/usr/bin/python3 -c 'import numpy, pandas, pydantic, torch' 2>/dev/null || { echo "installing Debian's python3-numpy, -pandas, -pydantic and -torch"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends python3-numpy python3-pandas python3-pydantic python3-torch >/dev/null; }
	core/graphexport/toolcheck/run.sh

# The README's picture of the app (frontend/screenshot.png): the demo graph
# trained with the defaults and a pair explained, in headless Chromium.
# Not part of make test.
screenshot: site chromium
	node frontend/scripts/screenshot.mjs

clean:
	rm -rf build
	find core/cmd/ilpgnn/webapp/site -mindepth 1 ! -name .gitkeep -delete
