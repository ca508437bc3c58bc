package ilpgnn

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShareAnchorEmbeddings: a model of the same start takes the H^0 that
// another computed, whatever their trained weights, and it is the start's
// own encoding (startEmbeddings, the oracle); models of another start,
// other settings or embeddings of other inputs take nothing.
func TestShareAnchorEmbeddings(t *testing.T) {
	g := testGraph(t, 30, 3, 5, 1)
	cfg := smallConfig()
	cfg.Anchor = 0.5
	holder, in := testModel(t, g, cfg)
	want := startEmbeddings(t, g, cfg, in)
	if got := holder.AnchorEmbeddings(in); !slices.Equal(got, want) {
		t.Fatal("the holder's H^0 is not its start's encoding")
	}
	trained, _ := testModel(t, g, cfg)
	nudge(trained, 0.1, 3) // trained weights differ; the start does not
	if !trained.ShareAnchorEmbeddings(holder, in) {
		t.Fatal("a model of the same start did not take the holder's H^0")
	}
	if got := trained.AnchorEmbeddings(in); !slices.Equal(got, want) {
		t.Error("the shared H^0 is not the start's encoding")
	}

	other, err := New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(8, 8)))
	if err != nil {
		t.Fatal(err)
	}
	if other.ShareAnchorEmbeddings(holder, in) {
		t.Error("a model of another start took the holder's H^0")
	}
	lighter := cfg
	lighter.Anchor = 0.25
	reweighed, _ := testModel(t, g, lighter)
	if reweighed.ShareAnchorEmbeddings(holder, in) {
		t.Error("a model of another anchor weight took the holder's H^0")
	}
	in2, err := Prepare(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := testModel(t, g, cfg)
	if fresh.ShareAnchorEmbeddings(holder, in2) {
		t.Error("H^0 of other inputs was shared")
	}
	// Taking them keeps the start: other inputs are still encoded.
	if got := trained.AnchorEmbeddings(in2); !slices.Equal(got, want) {
		t.Error("after sharing, the start no longer encodes other inputs")
	}
	plain := smallConfig()
	plain.Anchor = 0
	unanchored, _ := testModel(t, g, plain)
	if unanchored.ShareAnchorEmbeddings(holder, in) {
		t.Error("a model without an anchor took H^0")
	}
}
