package gnn

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/internal/golden"
	"ilpgnn/core/split"
)

var updatePortable = flag.Bool("update-portable", false, "rewrite testdata/portable.sha256 after a deliberate change to the training arithmetic")

// portableGolden holds, per kind, the SHA-256 of the weights a short run
// trains. The same test runs natively and under js/wasm
// (GOOS=js GOARCH=wasm go test -exec $(go env GOROOT)/lib/wasm/go_js_wasm_exec),
// so both platforms must produce these exact bits.
const portableGolden = "testdata/portable.sha256"

// TestPortable checks that training is a pure function of the seed on
// every platform: dropout, VGAE's noise (detmath.Log) and GAT's softmax
// and ELU (detmath.Exp) included.
func TestPortable(t *testing.T) {
	g := planted(t, 300, 16, 11)
	sp, err := split.New(g, 3, 0.05, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, k := range kinds {
		cfg := DefaultConfig(k)
		cfg.Epochs, cfg.Dropout, cfg.Seed = 6, 0.2, 3
		res, err := RunSplit(context.Background(), sp, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, p := range res.Model.Params() {
			for _, v := range p.Value {
				h.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)))
			}
		}
		// Also every epoch's validation AUC, which depends on every
		// epoch's weights, not only the kept ones.
		for _, p := range res.History {
			h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(p.ValAUC)))
		}
		lines = append(lines, fmt.Sprintf("%s %s", k, hex.EncodeToString(h.Sum(nil))))
	}
	got := strings.Join(lines, "\n") + "\n"
	golden.Check(t, portableGolden, got, *updatePortable, "weights hashes")
}
