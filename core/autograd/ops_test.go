package autograd

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"ilpgnn/core/f32"
)

func closeTo(t *testing.T, name string, got []float32, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(float64(got[i]) - want[i]); !(d <= 1e-5*(1+math.Abs(want[i]))) {
			t.Fatalf("%s: value %d = %v, want %v", name, i, got[i], want[i])
		}
	}
}

func mapElements(a *Var, f func(x float64) float64) []float64 {
	out := make([]float64, len(a.Value))
	for i, x := range a.Value {
		out[i] = f(float64(x))
	}
	return out
}

// TestForward checks each op's value (nil tape) against a plain float64
// loop written from its definition.
func TestForward(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	a, b := randConst(r, 3, 4), randConst(r, 4, 5)
	x, y := randConst(r, 3, 4), randConst(r, 3, 4)
	at := func(v *Var, i, j int) float64 { return float64(v.Value[i*v.Cols+j]) }

	mm := make([]float64, 15)
	for i := 0; i < 3; i++ {
		for j := 0; j < 5; j++ {
			for p := 0; p < 4; p++ {
				mm[i*5+j] += at(a, i, p) * at(b, p, j)
			}
		}
	}
	closeTo(t, "MatMul", MatMul(nil, a, b).Value, mm)

	sp := testSparse()
	dense := [4][3]float64{{0.5, 0, -1.25}, {}, {0, 2, 0}, {0.75, -0.5, 1.5}}
	b3 := randConst(r, 3, 2)
	spmm := make([]float64, 8)
	for i := 0; i < 4; i++ {
		for j := 0; j < 2; j++ {
			for p := 0; p < 3; p++ {
				spmm[i*2+j] += dense[i][p] * at(b3, p, j)
			}
		}
	}
	closeTo(t, "SpMM", SpMM(nil, sp, b3).Value, spmm)

	pair := func(f func(x, y float64) float64) []float64 {
		out := make([]float64, 12)
		for i := range out {
			out[i] = f(float64(x.Value[i]), float64(y.Value[i]))
		}
		return out
	}
	closeTo(t, "Add", Add(nil, x, y).Value, pair(func(x, y float64) float64 { return x + y }))
	closeTo(t, "Sub", Sub(nil, x, y).Value, pair(func(x, y float64) float64 { return x - y }))
	closeTo(t, "Mul", Mul(nil, x, y).Value, pair(func(x, y float64) float64 { return x * y }))
	bias := randConst(r, 1, 4)
	ab := make([]float64, 12)
	for i := range ab {
		ab[i] = float64(x.Value[i]) + float64(bias.Value[i%4])
	}
	closeTo(t, "AddBias", AddBias(nil, x, bias).Value, ab)
	closeTo(t, "Scale", Scale(nil, x, -1.5).Value, mapElements(x, func(v float64) float64 { return -1.5 * v }))
	closeTo(t, "AddConst", AddConst(nil, x, y.Value).Value, pair(func(x, y float64) float64 { return x + y }))
	closeTo(t, "AddScalar", AddScalar(nil, x, 2.5).Value, mapElements(x, func(v float64) float64 { return v + 2.5 }))
	closeTo(t, "ReLU", ReLU(nil, x).Value, mapElements(x, func(v float64) float64 { return math.Max(v, 0) }))
	big := Const(1, 6, []float32{-100, -20, -0.5, 0, 3, 100})
	sigma := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	closeTo(t, "Sigmoid", Sigmoid(nil, x).Value, mapElements(x, sigma))
	closeTo(t, "Sigmoid/large", Sigmoid(nil, big).Value, mapElements(big, sigma))
	closeTo(t, "Square", Square(nil, x).Value, mapElements(x, func(v float64) float64 { return v * v }))

	g := randConst(r, 4, 3)
	idx := []int32{3, 0, 3}
	gather := make([]float64, 9)
	for i, row := range idx {
		for j := 0; j < 3; j++ {
			gather[i*3+j] = at(g, int(row), j)
		}
	}
	closeTo(t, "GatherRows", GatherRows(nil, g, idx).Value, gather)
	closeTo(t, "GatherRows/empty", GatherRows(nil, g, nil).Value, nil)

	rd := make([]float64, 3)
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			rd[i] += at(x, i, j) * at(y, i, j)
		}
	}
	closeTo(t, "RowDot", RowDot(nil, x, y).Value, rd)

	// Segments [0,3) [3,3) [3,4) [4,7); the last holds values that overflow
	// a naive exp.
	sx := Const(7, 1, []float32{0.5, -1, 2, 4, 1000, 999, -1000})
	offs := []int32{0, 3, 3, 4, 7}
	soft := make([]float64, 7)
	for s := 0; s+1 < len(offs); s++ {
		m := math.Inf(-1)
		for k := offs[s]; k < offs[s+1]; k++ {
			m = math.Max(m, float64(sx.Value[k]))
		}
		var sum float64
		for k := offs[s]; k < offs[s+1]; k++ {
			sum += math.Exp(float64(sx.Value[k]) - m)
		}
		for k := offs[s]; k < offs[s+1]; k++ {
			soft[k] = math.Exp(float64(sx.Value[k])-m) / sum
		}
	}
	closeTo(t, "SegmentSoftmax", SegmentSoftmax(nil, sx, offs).Value, soft)
	closeTo(t, "SegmentSoftmax/no segments", SegmentSoftmax(nil, Const(0, 1, nil), []int32{0}).Value, nil)

	w, rows := randConst(r, 7, 1), randConst(r, 7, 2)
	ws := make([]float64, 8) // segment 1 is empty: zero row
	for s := 0; s+1 < len(offs); s++ {
		for k := offs[s]; k < offs[s+1]; k++ {
			for j := 0; j < 2; j++ {
				ws[s*2+j] += float64(w.Value[k]) * at(rows, int(k), j)
			}
		}
	}
	closeTo(t, "SegmentWeightedSum", SegmentWeightedSum(nil, w, rows, offs).Value, ws)

	var sum float64
	for _, v := range x.Value {
		sum += float64(v)
	}
	closeTo(t, "Sum", Sum(nil, x).Value, []float64{sum})
	closeTo(t, "Mean", Mean(nil, x).Value, []float64{sum / 12})
	closeTo(t, "Mean/empty", Mean(nil, Const(0, 3, nil)).Value, []float64{0})

	// BCE against the textbook -y·log σ(z) - (1-y)·log(1-σ(z)) where that
	// is accurate, and against its limit |z| for large opposite-sign logits.
	z := Const(1, 5, []float32{-2, -0.5, 0, 0.7, 3})
	lab := []float32{0, 1, 1, 0, 0.25}
	var bce float64
	for i, v := range z.Value {
		s, y := sigma(float64(v)), float64(lab[i])
		bce += -y*math.Log(s) - (1-y)*math.Log(1-s)
	}
	closeTo(t, "BCEWithLogits", BCEWithLogits(nil, z, lab).Value, []float64{bce / 5})
	closeTo(t, "BCEWithLogits/large", BCEWithLogits(nil, Const(1, 2, []float32{100, -100}), []float32{0, 1}).Value, []float64{100})
	closeTo(t, "BCEWithLogits/empty", BCEWithLogits(nil, Const(0, 1, nil), nil).Value, []float64{0})

	c1, c2 := randConst(r, 2, 1), randConst(r, 2, 2)
	cc := []float64{float64(c1.Value[0]), float64(c2.Value[0]), float64(c2.Value[1]),
		float64(c1.Value[1]), float64(c2.Value[2]), float64(c2.Value[3])}
	closeTo(t, "ConcatCols", ConcatCols(nil, c1, c2).Value, cc)
	r1, r2 := randConst(r, 1, 2), randConst(r, 2, 2)
	cr := mapElements(Const(3, 2, append(append([]float32(nil), r1.Value...), r2.Value...)), func(v float64) float64 { return v })
	closeTo(t, "ConcatRows", ConcatRows(nil, r1, r2).Value, cr)
}

func TestDropout(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	a := randConst(r, 100, 100)
	if Dropout(nil, a, 0.5, r) != a {
		t.Error("Dropout with a nil tape must return its input")
	}
	tp := NewTape()
	if Dropout(tp, a, 0, r) != a {
		t.Error("Dropout with p = 0 must return its input")
	}
	const p = 0.3
	out := Dropout(tp, a, p, rand.New(rand.NewPCG(1, 2)))
	zeros := 0
	for i, v := range out.Value {
		switch {
		case v == 0:
			zeros++
		case v != a.Value[i]*(1/(1-float32(p))):
			t.Fatalf("kept value %d = %v, want %v/(1-p)", i, v, a.Value[i])
		}
	}
	// 10000 Bernoulli(0.3) draws: standard deviation 46, so ±200 is > 4σ.
	if zeros < 3000-200 || zeros > 3000+200 {
		t.Errorf("%d of 10000 dropped, want about 3000", zeros)
	}
	again := Dropout(tp, a, p, rand.New(rand.NewPCG(1, 2)))
	for i := range out.Value {
		if out.Value[i] != again.Value[i] {
			t.Fatal("same seed gave a different mask")
		}
	}
	if out.Grad != nil || len(tp.nodes) != 0 {
		t.Error("Dropout of a constant recorded a backward step")
	}
}

// TestTapeAndNilTapeAgree runs every gradient-check graph with and without a
// tape: the values must be bit-identical (Dropout excepted: a nil tape skips
// it).
func TestTapeAndNilTapeAgree(t *testing.T) {
	for i, c := range gradCases() {
		if c.name == "Dropout" {
			continue
		}
		want := c.f(nil).Value
		tp := NewTape()
		for pass := 0; pass < 2; pass++ { // second pass on reused buffers
			got := c.f(tp).Value
			for j := range want {
				if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
					t.Fatalf("case %d %s pass %d: value %d = %v with a tape, %v without", i, c.name, pass, j, got[j], want[j])
				}
			}
			tp.Reset()
		}
	}
}

func TestNilTapeRecordsNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	w := param(r, 4, 3, 0.1, 1)
	x := randConst(r, 5, 4)
	h := ReLU(nil, MatMul(nil, x, w))
	loss := Mean(nil, Sigmoid(nil, h))
	for _, v := range []*Var{h, loss} {
		if v.Grad != nil || v.backward != nil {
			t.Errorf("%v: nil tape allocated a gradient or recorded a backward step", v)
		}
	}
	for _, g := range w.Grad {
		if g != 0 {
			t.Fatal("nil-tape forward touched a parameter's gradient")
		}
	}
	tp := NewTape()
	c := Sigmoid(tp, MatMul(tp, x, randConst(r, 4, 3)))
	if c.Grad != nil || len(tp.nodes) != 0 {
		t.Error("ops on constants only recorded a backward step")
	}
	tp.Backward(Sum(tp, c)) // depends on no parameter: nothing to do
	if got := MatMul(tp, x, w); got.Grad == nil || len(tp.nodes) != 1 {
		t.Error("op on a parameter was not recorded")
	}
}

func TestBackwardAccumulates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	w := param(r, 3, 2, 0.1, 1)
	x := randConst(r, 4, 3)
	tp := NewTape()
	step := func() []float32 {
		tp.Reset()
		tp.Backward(Sum(tp, Square(tp, MatMul(tp, x, w))))
		return append([]float32(nil), w.Grad...)
	}
	once := step()
	twice := step()
	for i := range once {
		if math.Abs(float64(twice[i])-2*float64(once[i])) > 1e-6+1e-5*math.Abs(float64(once[i])) {
			t.Fatalf("gradient %d after two Backward = %v, want 2×%v", i, twice[i], once[i])
		}
	}
	w.ZeroGrad()
	if again := step(); again[0] != once[0] {
		t.Fatalf("after ZeroGrad gradient = %v, want %v", again[0], once[0])
	}
}

func TestDetachSurvivesReset(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	w := param(r, 3, 3, 0.1, 1)
	tp := NewTape()
	out := Scale(tp, w, 2)
	kept := out.Detach()
	want := append([]float32(nil), out.Value...)
	tp.Reset()
	Scale(tp, w, -7) // reuses out's buffer
	for i := range want {
		if kept.Value[i] != want[i] {
			t.Fatal("detached value changed after Reset")
		}
	}
	if kept.Grad != nil || kept.String() != "const 3x3" {
		t.Errorf("Detach gave %v with grad %v", kept, kept.Grad != nil)
	}
}

func TestString(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	a, b := param(r, 3, 4, 0, 1), randConst(r, 4, 5)
	for _, c := range []struct {
		v    *Var
		want string
	}{{a, "param 3x4"}, {b, "const 4x5"}, {MatMul(nil, a, b), "matmul 3x5"}, {Sum(NewTape(), a), "sum 1x1"}} {
		if got := c.v.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}

func TestPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	a, b := param(r, 3, 4, 0, 1), param(r, 4, 5, 0, 1)
	col := param(r, 4, 1, 0, 1)
	tp := NewTape()
	for i, f := range []func(){
		func() { MatMul(nil, a, a) },
		func() { SpMM(nil, testSparse(), b) },
		func() { Add(nil, a, b) },
		func() { Sub(nil, a, b) },
		func() { Mul(nil, a, b) },
		func() { RowDot(nil, a, b) },
		func() { AddBias(nil, a, param(r, 1, 3, 0, 1)) },
		func() { AddConst(nil, a, make([]float32, 5)) },
		func() { Dropout(nil, a, 1, r) },
		func() { Dropout(nil, a, -0.1, r) },
		func() { GatherRows(nil, a, []int32{3}) },
		func() { GatherRows(nil, a, []int32{-1}) },
		func() { SegmentSoftmax(nil, a, []int32{0, 3}) },
		func() { SegmentSoftmax(nil, col, []int32{0, 3}) },
		func() { SegmentSoftmax(nil, col, []int32{0, 3, 2, 4}) },
		func() { SegmentSoftmax(nil, col, nil) },
		func() { SegmentWeightedSum(nil, col, a, []int32{0, 3}) },
		func() { BCEWithLogits(nil, col, []float32{1}) },
		func() { ConcatCols(nil, a, b) },
		func() { ConcatRows(nil, a, b) },
		func() { Const(2, 2, make([]float32, 3)) },
		func() { NewParam(-1, 2) },
		func() { tp.Backward(Scale(tp, a, 2)) },           // not 1x1
		func() { tp.Backward(Sum(nil, a)) },               // not recorded
		func() { tp.Backward(Sum(NewTape(), a)) },         // recorded on another tape
		func() { tp.Backward(Const(1, 1, []float32{1})) }, // a constant
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, "autograd: ") {
					t.Errorf("case %d: panic %q, want an \"autograd: \" panic", i, msg)
				}
			}()
			f()
		}()
	}
}

// epochGraph records one training step of a small link predictor (the
// shape of the composite gradient check, a little larger) and runs Backward.
type epochGraph struct {
	adj            *Sparse
	x              *Var
	w1, b1, w2, b2 *Var
	src, dst       []int32
	labels         []float32
	rng            *rand.Rand
}

func newEpochGraph(n, f, h, d, pairs int) *epochGraph {
	r := rand.New(rand.NewPCG(9, 9))
	a := &f32.CSR{Rows: n, Cols: n, Indptr: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		cols := map[int32]bool{int32(i): true}
		for len(cols) < 5 && len(cols) < n {
			cols[int32(r.IntN(n))] = true
		}
		for c := int32(0); c < int32(n); c++ {
			if cols[c] {
				a.Indices = append(a.Indices, c)
				a.Values = append(a.Values, 1/float32(len(cols)))
			}
		}
		a.Indptr[i+1] = int32(len(a.Indices))
	}
	g := &epochGraph{adj: NewSparse(a), x: randConst(r, n, f),
		w1: param(r, f, h, 0, 0.3), b1: param(r, 1, h, 0, 0.1),
		w2: param(r, h, d, 0, 0.3), b2: param(r, 1, d, 0, 0.1),
		rng: rand.New(rand.NewPCG(1, 1))}
	for i := 0; i < pairs; i++ {
		g.src = append(g.src, int32(r.IntN(n)))
		g.dst = append(g.dst, int32(r.IntN(n)))
		g.labels = append(g.labels, float32(i%2))
	}
	return g
}

func (g *epochGraph) step(tp *Tape) float32 {
	for _, p := range []*Var{g.w1, g.b1, g.w2, g.b2} {
		p.ZeroGrad()
	}
	h1 := Dropout(tp, ReLU(tp, AddBias(tp, SpMM(tp, g.adj, MatMul(tp, g.x, g.w1)), g.b1)), 0.5, g.rng)
	h2 := AddBias(tp, SpMM(tp, g.adj, MatMul(tp, h1, g.w2)), g.b2)
	logits := RowDot(tp, GatherRows(tp, h2, g.src), GatherRows(tp, h2, g.dst))
	loss := BCEWithLogits(tp, logits, g.labels)
	tp.Backward(loss)
	return loss.Value[0]
}

// TestResetReusesBuffers: recording the same graph again after Reset must
// allocate (almost) nothing, against dozens of allocations on a fresh tape.
func TestResetReusesBuffers(t *testing.T) {
	g := newEpochGraph(20, 6, 5, 4, 16)
	fresh := testing.AllocsPerRun(20, func() { g.step(NewTape()) })
	tp := NewTape()
	reused := testing.AllocsPerRun(20, func() {
		tp.Reset()
		g.step(tp)
	})
	t.Logf("allocations per step: fresh tape %.0f, after Reset %.0f", fresh, reused)
	// The ops that may split work over goroutines allocate their closure
	// (one per call); nothing else may allocate.
	if reused > 3 || fresh < 20 {
		t.Errorf("allocations per step: fresh tape %.0f, after Reset %.0f; want ≥ 20 and ≤ 3", fresh, reused)
	}
}

var sink float32

// BenchmarkEpoch is one training step (forward, Backward, Reset) of a
// two-layer GCN link predictor on a Cora-sized random graph: 2708 nodes,
// ~5 neighbours each, 128 input features, hidden 64, output 32, 4096 scored
// pairs. It measures the steady state: the first epoch runs before the
// timer starts.
func BenchmarkEpoch(b *testing.B) {
	g := newEpochGraph(2708, 128, 64, 32, 4096)
	tp := NewTape()
	g.step(tp) // the first epoch fills the tape's free list
	b.ReportAllocs()
	for b.Loop() {
		tp.Reset()
		sink += g.step(tp)
	}
}

// TestReLUMatchesMax checks that relu gives max(v, 0) bit for bit, signed
// zeros included, and a NaN for a NaN (which NaN max returns differs between
// amd64 and wasm).
func TestReLUMatchesMax(t *testing.T) {
	x := []float32{-1, 0, float32(math.Copysign(0, -1)), 2, float32(math.NaN()), -float32(math.NaN()),
		float32(math.Inf(-1)), float32(math.Inf(1)), 1e-45, -1e-45}
	got := make([]float32, len(x))
	relu(got, x)
	for i, v := range x {
		if want := max(v, 0); v != v {
			if got[i] == got[i] {
				t.Errorf("relu(NaN) = %v, want NaN", got[i])
			}
		} else if math.Float32bits(got[i]) != math.Float32bits(want) {
			t.Errorf("relu(%v) = %v (%#x), want %v (%#x)", v, got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
		}
	}
}

// TestConcatColsAll: the balanced tree gives the columns in order, for odd
// and even counts.
func TestConcatColsAll(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5} {
		tp := NewTape()
		var vs []*Var
		for k := range n {
			vs = append(vs, Const(2, 1, []float32{float32(k), float32(10 + k)}))
		}
		got := ConcatColsAll(tp, vs)
		if got.Rows != 2 || got.Cols != n {
			t.Fatalf("%d vars: %v", n, got)
		}
		for k := range n {
			if got.Value[k] != float32(k) || got.Value[n+k] != float32(10+k) {
				t.Errorf("%d vars: column %d is %v, %v", n, k, got.Value[k], got.Value[n+k])
			}
		}
	}
}

// TestLargeBuffersFitTheirLength: a buffer above the power-of-two classes
// gets 1/32 of headroom, not up to twice its length; after Reset a request
// that fits reuses it, and one that does not replaces it rather than adding
// a second buffer to the class.
func TestLargeBuffersFitTheirLength(t *testing.T) {
	n := 1<<(exactClass-1) + 1000 // just above the last power-of-two class
	tp := NewTape()
	b := tp.buf(n, false)
	if want := n + n/32; cap(b) != want {
		t.Fatalf("cap of a %d-float buffer = %d, want %d", n, cap(b), want)
	}
	b[0] = 7
	tp.Reset()
	r := tp.buf(n-500, true) // same class, fits: reused and zeroed
	if &r[:1][0] != &b[:1][0] || r[0] != 0 || len(r) != n-500 {
		t.Fatalf("a fitting request did not reuse the zeroed buffer (len %d, r[0] %v)", len(r), r[0])
	}
	tp.Reset()
	big := tp.buf(n+n/16, false) // same class, too long for the free buffer
	c := sizeClass(n)
	if sizeClass(len(big)) != c || &big[:1][0] == &b[:1][0] {
		t.Fatalf("test setup: %d is not a longer request of class %d", len(big), c)
	}
	if len(tp.free[c]) != 0 {
		t.Errorf("class %d keeps %d free buffers after a replacement, want 0", c, len(tp.free[c]))
	}
	tp.Reset()
	if len(tp.free[c]) != 1 || cap(tp.free[c][0]) != len(big)+len(big)/32 {
		t.Errorf("class %d after Reset: %d buffers, want one of cap %d", c, len(tp.free[c]), len(big)+len(big)/32)
	}
}
