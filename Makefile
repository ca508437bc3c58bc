# ILP-GNN Explorer. `make run` trains on the default dataset; `make test`
# runs every check the repository has. Both work from a fresh clone: Go
# fetches the modules on first use.

GO       ?= go
DATA     ?= synth:medium
SEEDS    ?= 0,1,2,3,4
FUZZTIME ?= 10s

.PHONY: all build run test fmt-check vet unit wasm-unit fuzz bench clean

all: build

build:
	$(GO) build -o build/ilpgnn ./core/cmd/ilpgnn

run:
	$(GO) run ./core/cmd/ilpgnn train --data $(DATA) --seeds $(SEEDS)

test: fmt-check vet unit wasm-unit

fmt-check:
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./core/...

unit:
	$(GO) test -count=1 ./...

# Packages whose output must be bit-identical natively and in the browser,
# run again under js/wasm (node executes the test binary).
WASM_EXEC = $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
wasm-unit:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" ./core/detmath
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASM_EXEC)" -run TestCheckpointPortable ./core/train

# Short runs of every fuzzer (the seed corpora also run in `make unit`).
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzLINQS -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz=FuzzEdgeList -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz=FuzzNPZ -fuzztime=$(FUZZTIME) ./core/load
	$(GO) test -run='^$$' -fuzz=FuzzUnmarshal -fuzztime=$(FUZZTIME) ./core/checkpoint
	$(GO) test -run='^$$' -fuzz=FuzzHeader -fuzztime=$(FUZZTIME) ./core/checkpoint

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./core/...

clean:
	rm -rf build
