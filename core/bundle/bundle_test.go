package bundle

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/fingerprint"
	"ilpgnn/core/ilpgnn"
	"ilpgnn/core/synth"
)

// predictor is an untrained model on synth:sparse with settings away from
// the defaults, so that a field the format forgets shows in the answers.
func predictor(t testing.TB) *ilpgnn.Predictor { return anchoredPredictor(t, 0) }

// anchoredPredictor is predictor with the anchor weight ρ, its weights
// moved from the start so that H^r and the start's H^0 differ.
func anchoredPredictor(t testing.TB, anchor float64) *ilpgnn.Predictor {
	t.Helper()
	sc, err := synth.Preset("sparse")
	if err != nil {
		t.Fatal(err)
	}
	d, err := synth.Generate(sc, 3)
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graph
	cfg := ilpgnn.DefaultConfig()
	cfg.Hidden, cfg.K, cfg.Alpha, cfg.Beta, cfg.Tau = 16, 2, 0.3, 0.75, 0.5
	cfg.Candidates = 4
	cfg.Order = ilpgnn.OrderScore
	cfg.Anchor = anchor
	m, err := ilpgnn.New(cfg, g.FeatureDim(), rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	if anchor != 0 {
		rng := rand.New(rand.NewPCG(8, 8))
		for _, w := range m.Params() {
			for k := range w.Value {
				w.Value[k] += float32(0.2 * (2*rng.Float64() - 1))
			}
		}
	}
	in, err := ilpgnn.Prepare(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := ilpgnn.NewPredictor(m, in)
	p.Seed, p.Temperature, p.Bias, p.CalibrationError = 42, 1.7, -0.2, 0.03
	return p
}

// pairs returns pairs of p's graph worth explaining: linked ones (target
// masking), ones with common neighbours and ones far apart, among nodes.
func pairs(p *ilpgnn.Predictor, nodes []int) [][2]int {
	g := p.Inputs.Graph
	var out [][2]int
	for a, i := range nodes {
		for _, j := range nodes[a+1:] {
			if g.Degree(i) > 0 && g.Degree(j) > 0 {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

func roundTrip(t *testing.T, b *Bundle) *Bundle {
	t.Helper()
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// The bundle's explanations and suggestions are the predictor's, bit for
// bit: the oracle is the predictor that prepared and encoded the graph.
// With an anchor too, in format 2; without one the bundle stays format 1.
func TestRoundTripExplains(t *testing.T) {
	for _, anchor := range []float64{0, 0.5} {
		t.Run(fmt.Sprintf("anchor=%v", anchor), func(t *testing.T) { roundTripExplains(t, anchor) })
	}
}

func roundTripExplains(t *testing.T, anchor float64) {
	p := anchoredPredictor(t, anchor)
	g := p.Inputs.Graph
	b, err := New(p, "synth:sparse", fingerprint.Of(g), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v, want := binary.LittleEndian.Uint32(data[8:]), map[bool]uint32{false: 1, true: 2}[anchor != 0]; v != want {
		t.Fatalf("format %d, want %d", v, want)
	}
	got := roundTrip(t, b)
	if anchor != 0 && !slices.Equal(got.Predictor.Anchor, p.Anchor) {
		t.Fatal("the start's H^0 differs after the round trip")
	}
	if got.Dataset != "synth:sparse" || got.Fingerprint != fingerprint.Of(g) || got.Explainable != nil {
		t.Fatalf("header: %q %x %v", got.Dataset, got.Fingerprint, got.Explainable)
	}
	if !reflect.DeepEqual(got.Graph().IDs, g.IDs) || !reflect.DeepEqual(got.Graph().Indices, g.Indices) {
		t.Fatal("graph differs")
	}
	nodes := make([]int, 0, 12)
	for i := 0; len(nodes) < 12 && i < g.NumNodes(); i += 7 {
		nodes = append(nodes, i)
	}
	// A linked pair too, to cover masking.
	e0 := g.Edges()[0]
	checked := 0
	for _, pr := range append(pairs(p, nodes), [2]int{int(e0.U), int(e0.V)}) {
		want, err := p.Explain(pr[0], pr[1])
		if err != nil {
			t.Fatal(err)
		}
		have, err := got.Explain(pr[0], pr[1])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("pair %v: explanation differs:\n got %+v\nwant %+v", pr, have, want)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d pairs checked", checked)
	}
	want, err := p.Suggest(nodes[1], 4)
	if err != nil {
		t.Fatal(err)
	}
	have, err := got.Suggest(nodes[1], 4)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(have, want) {
		t.Fatal("suggestions differ")
	}
}

// A bundle of some nodes explains their pairs as the full predictor does,
// suggests among them only (the oracle: the full list filtered), and
// refuses the others.
func TestRestrictedBundle(t *testing.T) {
	for _, anchor := range []float64{0, 0.5} {
		t.Run(fmt.Sprintf("anchor=%v", anchor), func(t *testing.T) { restrictedBundle(t, anchor) })
	}
}

func restrictedBundle(t *testing.T, anchor float64) {
	p := anchoredPredictor(t, anchor)
	g := p.Inputs.Graph
	var nodes []int
	for i := 0; i < g.NumNodes() && len(nodes) < 40; i += 3 {
		if g.Degree(i) > 0 {
			nodes = append(nodes, i)
		}
	}
	b, err := New(p, "synth:sparse", fingerprint.Of(g), nodes)
	if err != nil {
		t.Fatal(err)
	}
	full, err := roundTrip(t, &Bundle{Dataset: "x", Predictor: p}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	some, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got := roundTrip(t, b)
	if len(got.Explainable) != len(nodes) {
		t.Fatalf("%d explainable, want %d", len(got.Explainable), len(nodes))
	}
	for _, pr := range pairs(p, nodes[:10]) {
		want, _ := p.Explain(pr[0], pr[1])
		have, err := got.Explain(pr[0], pr[1])
		if err != nil || !reflect.DeepEqual(have, want) {
			t.Fatalf("pair %v differs (%v)", pr, err)
		}
	}
	all, err := p.Suggest(nodes[0], g.NumNodes())
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, s := range all {
		if got.CanExplain(s.Node) {
			want = append(want, s.Node)
		}
	}
	sugg, err := got.Suggest(nodes[0], len(want))
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range sugg {
		if s.Node != want[k] {
			t.Fatalf("suggestion %d is node %d, want %d", k, s.Node, want[k])
		}
		if e, _ := p.Explain(nodes[0], s.Node); !reflect.DeepEqual(e, s.Explanation) {
			t.Fatalf("suggestion %d's explanation differs", k)
		}
	}
	outside := nodes[0] + 1
	if _, err := got.Explain(nodes[0], outside); err == nil {
		t.Fatal("explained a pair outside the bundle")
	}
	if _, err := got.Node(g.IDs[outside]); err == nil || !strings.Contains(err.Error(), "not among") {
		t.Fatalf("Node(outside) = %v", err)
	}
	if _, err := got.Node("no such id"); err == nil || !strings.Contains(err.Error(), "no node") {
		t.Fatalf("Node(missing) = %v", err)
	}
	t.Logf("bundle: %d bytes of every node, %d of %d nodes", len(full), len(some), len(nodes))
}

func TestUnmarshalErrors(t *testing.T) {
	p := predictor(t)
	b, err := New(p, "synth:sparse", fingerprint.Of(p.Inputs.Graph), nil)
	if err != nil {
		t.Fatal(err)
	}
	good, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func([]byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, c := range []struct {
		name string
		data []byte
		want error
		text string
	}{
		{"empty", nil, ErrNotBundle, ""},
		{"html", []byte("<!doctype html><title>404</title>"), ErrNotBundle, ""},
		{"header cut", good[:12], ErrDamaged, "header"},
		{"contents cut", good[:len(good)-100], ErrDamaged, "cut short in transfer"},
		{"a flipped bit", edit(func(d []byte) []byte { d[len(d)/2] ^= 4; return d }), ErrDamaged, "checksum"},
		{"newer", edit(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[8:], Version+1); return d }), ErrNewer, fmt.Sprintf("format %d", Version+1)},
		{"version 0", edit(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[8:], 0); return d }), ErrDamaged, "format 0"},
	} {
		_, err := Unmarshal(c.data)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want %v containing %q", c.name, err, c.want, c.text)
		}
	}
}

// FuzzUnmarshal: any bytes, checksum fixed up so that the decoder's own
// checks are reached, give a bundle or an error, never a panic; a bundle
// that decodes explains its first pair without panicking.
func FuzzUnmarshal(f *testing.F) {
	p := predictor(f)
	var nodes []int
	for i := range 30 {
		nodes = append(nodes, i)
	}
	b, err := New(p, "synth:sparse", [32]byte{}, nodes)
	if err != nil {
		f.Fatal(err)
	}
	good, err := b.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	anchored, err := New(anchoredPredictor(f, 0.5), "synth:sparse", [32]byte{}, nodes)
	if err != nil {
		f.Fatal(err)
	}
	two, err := anchored.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[headerLen:], uint16(0), byte(0), false)
	f.Add(good[headerLen:], uint16(40), byte(0xff), false)
	f.Add([]byte{}, uint16(0), byte(0), false)
	f.Add(two[headerLen:], uint16(0), byte(0), true)
	f.Add(two[headerLen:], uint16(120), byte(0x7f), true)
	f.Fuzz(func(t *testing.T, payload []byte, at uint16, v byte, format2 bool) {
		payload = append([]byte(nil), payload...)
		if int(at) < len(payload) {
			payload[at] = v
		}
		data := wrap(payload)
		if format2 {
			data = wrapAs(2, payload)
		}
		got, err := Unmarshal(data)
		if err != nil {
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("error %v is not ErrDamaged", err)
			}
			return
		}
		g := got.Graph()
		if g.NumNodes() >= 2 && got.CanExplain(0) && got.CanExplain(1) {
			got.Explain(0, 1)
		}
	})
}

// wrap puts a format 1 header with the right checksum and length before
// payload.
func wrap(payload []byte) []byte { return wrapAs(1, payload) }

// wrapAs is wrap for the given format.
func wrapAs(version uint32, payload []byte) []byte {
	out := []byte(Magic)
	out = binary.LittleEndian.AppendUint32(out, version)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(payload))
	out = binary.LittleEndian.AppendUint64(out, uint64(len(payload)))
	return append(out, payload...)
}

// The writer refuses the names its reader refuses, and only those: an id
// that is not UTF-8 (the reader's only rule for names a loaded graph can
// break) is refused by MarshalBinary, naming the node; the same bytes put
// into a bundle behind its back are refused by Unmarshal; any other id,
// markup and control characters included, comes back exactly.
func TestNamesTheCardCannotRead(t *testing.T) {
	hostile := []string{"a,b", `x" onmouseover="alert(4)`, "</code><img src=x onerror=alert(1)>", "nul\x00id", "cr\rlf\n", "\x01\x1f\x7f", "\u0085\u009f", " padded ", "", "é ♥ 中", "\u2028"}
	p := predictor(t)
	g := p.Inputs.Graph
	copy(g.IDs, hostile)
	b, err := New(p, "synth:sparse", fingerprint.Of(g), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := roundTrip(t, b).Graph().IDs; !slices.Equal(got, g.IDs) {
		t.Errorf("ids after a round trip: %q, want %q", got[:len(hostile)], hostile)
	}

	// A placeholder of the same length, swapped for invalid bytes in the
	// encoded payload: what the reader says of such an id.
	g.IDs[3] = "a?b"
	good, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	payload := slices.Clone(good[headerLen:])
	k := strings.Index(string(payload), "a?b")
	payload[k+1] = 0xff
	if _, err := Unmarshal(wrap(payload)); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "a name is not UTF-8") {
		t.Fatalf("a bundle holding id \"a\\xffb\": %v", err)
	}

	g.IDs[3], g.IDs[7] = "a\xffb", "\xc3("
	_, err = b.MarshalBinary()
	want := `bundle: node 3's id "a\xffb" (and 1 more ids) is not UTF-8 text, which the card cannot read: convert the data file to UTF-8 (for example with iconv -f latin1 -t utf-8), then train and export again`
	if err == nil || err.Error() != want {
		t.Errorf("MarshalBinary with ids not UTF-8: %v\nwant %s", err, want)
	}
	g.IDs[7] = "seven"
	if _, err = b.MarshalBinary(); err == nil || !strings.HasPrefix(err.Error(), `bundle: node 3's id "a\xffb" is not UTF-8 text`) {
		t.Errorf("one id not UTF-8: %v", err)
	}
	g.IDs[3] = "three"
	b.Dataset = "caf\xe9"
	_, err = b.MarshalBinary()
	want = `bundle: the dataset's name "caf\xe9" is not UTF-8 text, which the card cannot read: give the data file or folder a UTF-8 name`
	if err == nil || err.Error() != want {
		t.Errorf("MarshalBinary with a name not UTF-8: %v\nwant %s", err, want)
	}
}

// A bundle whose H^r holds a NaN (a model whose weights overflowed) is
// refused by the writer, and the same bytes put into a bundle behind its
// back by the reader: every p that read it would be NaN.
func TestNotFinite(t *testing.T) {
	p := predictor(t)
	b, err := New(p, "synth:sparse", fingerprint.Of(p.Inputs.Graph), nil)
	if err != nil {
		t.Fatal(err)
	}
	good, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// Find H^r's first value in the payload and make it NaN.
	first := binary.LittleEndian.AppendUint32(nil, math.Float32bits(b.Predictor.Hr[0]))
	payload := good[len(wrap(nil)):]
	at := bytes.Index(payload, first)
	if at < 0 || bytes.Index(payload[at+1:], first) >= 0 {
		t.Skip("H^r's first value is not unique in the bytes")
	}
	bad := append([]byte(nil), payload...)
	binary.LittleEndian.PutUint32(bad[at:], math.Float32bits(float32(math.NaN())))
	if _, err := Unmarshal(wrap(bad)); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "H^r holds NaN at value 0, not a finite number") {
		t.Errorf("Unmarshal: %v", err)
	}
	b.Predictor.Hr[0] = float32(math.Inf(1))
	if _, err := b.MarshalBinary(); err == nil || err.Error() != "bundle: H^r holds +Inf at value 0, not a finite number" {
		t.Errorf("MarshalBinary: %v", err)
	}
}
