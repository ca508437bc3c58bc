package gnnexplainer

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"ilpgnn/core/internal/golden"
)

var updatePortable = flag.Bool("update-portable", false, "rewrite testdata/portable.sha256 after a deliberate change to the explainer's arithmetic")

// portableGolden holds, per kind, the SHA-256 of the masks and logits of
// a few explanations. The same test runs natively and under js/wasm
// (GOOS=js GOARCH=wasm go test -exec $(go env GOROOT)/lib/wasm/go_js_wasm_exec),
// so both platforms must produce these exact bits.
const portableGolden = "testdata/portable.sha256"

// TestPortable: explanations are a pure function of the seed on every
// platform (the mask's Gaussian draws, sigmoid, softplus, GAT's softmax).
func TestPortable(t *testing.T) {
	g := randomGraph(t, 50, 6, 21)
	var lines []string
	for _, kind := range kinds {
		cfg := DefaultConfig()
		cfg.Seed, cfg.Epochs = 5, 40
		e, err := New(smallModel(t, kind, g, 8), g, cfg)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		put := func(v float32) { h.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(v))) }
		for _, p := range [][2]int{{0, 9}, {17, 3}, {44, 45}} {
			ex, err := e.Explain(p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			put(ex.Logit)
			put(ex.MaskedLogit)
			for _, s := range []Side{ex.SideI, ex.SideJ} {
				for k := range s.Mask {
					put(s.Mask[k])
					put(s.Reverse[k])
				}
			}
		}
		lines = append(lines, fmt.Sprintf("%s %s", kind, hex.EncodeToString(h.Sum(nil))))
	}
	got := strings.Join(lines, "\n") + "\n"
	golden.Check(t, portableGolden, got, *updatePortable, "explanations hashes")
}
