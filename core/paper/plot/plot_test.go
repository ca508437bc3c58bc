package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// chart is what LineChart and BarChart have in common.
type chart interface{ WriteSVG(io.Writer) error }

// node is an element of a parsed SVG document.
type node struct {
	name string
	attr map[string]string
	text string
	kids []*node
}

// parseSVG parses data strictly as XML, failing the test if it is not
// well-formed, and returns the root element.
func parseSVG(t *testing.T, data []byte) *node {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var root *node
	var stack []*node
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("output is not well-formed XML: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					t.Fatal("more than one root element")
				}
				root = n
			} else {
				top := stack[len(stack)-1]
				top.kids = append(top.kids, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
	if root == nil {
		t.Fatal("no root element")
	}
	return root
}

// find returns the elements under n, in document order, whose class is
// class.
func find(n *node, class string) []*node {
	var out []*node
	for _, k := range n.kids {
		if k.attr["class"] == class {
			out = append(out, k)
		}
		out = append(out, find(k, class)...)
	}
	return out
}

// textsOf returns the content of the text elements under n, in order.
func textsOf(n *node) []string {
	var out []string
	for _, k := range n.kids {
		if k.name == "text" {
			out = append(out, k.text)
		}
		out = append(out, textsOf(k)...)
	}
	return out
}

// render returns the SVG of c, failing the test on an error.
func render(t *testing.T, c chart) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := c.WriteSVG(&buf); err != nil {
		t.Fatalf("WriteSVG: %v", err)
	}
	return buf.Bytes()
}

func sampleLine() *LineChart {
	return &LineChart{
		Title:  "AUC vs. hidden size",
		XLabel: "hidden units",
		YLabel: "AUC",
		Series: []Series{
			{Name: "GCN", X: []float64{16, 32, 64, 128}, Y: []float64{0.87, 0.89, 0.9, 0.91}, Err: []float64{0.01, 0.01, 0.008, 0.007}},
			{Name: `ILP <rules> & "facts" 'x'`, X: []float64{16, 32, 64}, Y: []float64{0.9, 0.92, 0.93}},
			{Name: "MLP", X: []float64{16, 128}, Y: []float64{0.83, 0.85}, Err: []float64{0.02, 0}},
		},
	}
}

func sampleBar() *BarChart {
	return &BarChart{
		Title:      "Ablation",
		YLabel:     "AUC",
		Categories: []string{"Cora", "CiteSeer", "Pub<Med>"},
		Series: []Series{
			{Name: "full", Y: []float64{0.93, 0.94, 0.96}, Err: []float64{0.005, 0.007, 0.003}},
			{Name: "no rules & more", Y: []float64{0.91, 0.92, 0.95}},
		},
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{0.83, 0.97, []float64{0.82, 0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98}},
		{0.97, 0.83, []float64{0.82, 0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98}},
		{16, 256, []float64{0, 50, 100, 150, 200, 250, 300}},
		{-3.2, 7.9, []float64{-4, -2, 0, 2, 4, 6, 8}},
		{1e-5, 5e-5, []float64{1e-5, 1.5e-5, 2e-5, 2.5e-5, 3e-5, 3.5e-5, 4e-5, 4.5e-5, 5e-5}},
		{0, 0.3, []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3}},
		{5, 5, []float64{4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6}}, // padded by 10%
		{0, 0, []float64{-1, -0.5, 0, 0.5, 1}},             // padded by 1
		{-2, -2, []float64{-2.2, -2.15, -2.1, -2.05, -2, -1.95, -1.9, -1.85, -1.8}},
	}
	for _, tt := range tests {
		if got := NiceTicks(tt.lo, tt.hi); !slices.Equal(got, tt.want) {
			t.Errorf("NiceTicks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
	for _, r := range [][2]float64{{-1, 0}, {0, 1}, {-0.5, 0.5}} {
		for _, v := range NiceTicks(r[0], r[1]) {
			if v == 0 && math.Signbit(v) {
				t.Errorf("NiceTicks(%v, %v) has a tick at -0", r[0], r[1])
			}
		}
	}
	for _, bad := range [][2]float64{{math.NaN(), 1}, {0, math.Inf(1)}, {math.Inf(-1), 0}, {-1e308, 1e308}} {
		if got := NiceTicks(bad[0], bad[1]); got != nil {
			t.Errorf("NiceTicks(%v, %v) = %v, want nil", bad[0], bad[1], got)
		}
	}
}

// TestNiceTicksProperties checks the contract of NiceTicks on random ranges
// of many magnitudes.
func TestNiceTicksProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		mid := (rng.Float64()*2 - 1) * math.Pow(10, float64(rng.IntN(20)-10))
		span := math.Pow(10, rng.Float64()*12-8)
		lo := mid - span*rng.Float64()
		hi := lo + span
		ticks := NiceTicks(lo, hi)
		if n := len(ticks); n < 4 || n > 10 {
			t.Fatalf("NiceTicks(%v, %v) gave %d ticks: %v", lo, hi, n, ticks)
		}
		step := ticks[1] - ticks[0]
		// Tick values are rounded to float64, so their differences are off
		// by a few ulps of the largest tick.
		tol := 1e-9*step + 1e-15*max(math.Abs(ticks[0]), math.Abs(ticks[len(ticks)-1]))
		if ticks[0] > lo+1e-4*step+tol || ticks[len(ticks)-1] < hi-1e-4*step-tol {
			t.Fatalf("NiceTicks(%v, %v) = %v does not cover the range", lo, hi, ticks)
		}
		mant := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9))
		if !slices.ContainsFunc([]float64{1, 2, 5, 10}, func(m float64) bool { return math.Abs(mant-m) < 1e-3 }) {
			t.Fatalf("NiceTicks(%v, %v) = %v: step %v is not 1, 2 or 5 times a power of ten", lo, hi, ticks, step)
		}
		for i := 1; i < len(ticks); i++ {
			if d := ticks[i] - ticks[i-1]; math.Abs(d-step) > 2*tol {
				t.Fatalf("NiceTicks(%v, %v) = %v is not evenly spaced", lo, hi, ticks)
			}
		}
	}
}

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0.5, "0.5"}, {1, "1"}, {2.5, "2.5"}, {1e-5, "1e-05"}, {0.1 + 0.2, "0.3"},
		{math.Copysign(0, -1), "0"}, {250, "250"}, {-0.25, "-0.25"}, {1e6, "1e+06"},
		{0.0001, "0.0001"}, {123456, "123456"},
	}
	for _, tt := range tests {
		if got := formatNumber(tt.v); got != tt.want {
			t.Errorf("formatNumber(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestFormatTicks(t *testing.T) {
	tests := []struct {
		ticks []float64
		want  []string
	}{
		{NiceTicks(0, 1), []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{[]float64{0, 5e-5, 1e-4, 1.5e-4}, []string{"0", "5e-05", "1e-04", "1.5e-04"}},
		{[]float64{0, 5e5, 1e6, 1.5e6}, []string{"0", "5e+05", "1e+06", "1.5e+06"}},
		{[]float64{-0.0002, 0, 0.0002}, []string{"-0.0002", "0", "0.0002"}},
		{[]float64{0, 2e5, 4e5}, []string{"0", "200000", "400000"}},
	}
	for _, tt := range tests {
		if got := formatTicks(tt.ticks); !slices.Equal(got, tt.want) {
			t.Errorf("formatTicks(%v) = %q, want %q", tt.ticks, got, tt.want)
		}
	}
}

func TestNum(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{3.14159, "3.14"}, {2, "2"}, {-0.001, "0"}, {0.005, "0.01"}, {-12.345, "-12.35"}, {100.1 + 0.2, "100.3"},
	}
	for _, tt := range tests {
		if got := num(tt.v); got != tt.want {
			t.Errorf("num(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestDocument(t *testing.T) {
	for _, c := range []chart{sampleLine(), sampleBar(), sampleDots(), &LineChart{Series: sampleLine().Series, Width: 800, Height: 500}} {
		out := render(t, c)
		root := parseSVG(t, out)
		if root.name != "svg" || root.attr["xmlns"] != "http://www.w3.org/2000/svg" || root.attr["version"] != "1.1" {
			t.Errorf("root element %q with attributes %v, want an SVG 1.1 root", root.name, root.attr)
		}
		w, h := root.attr["width"], root.attr["height"]
		if w == "" || h == "" || root.attr["viewBox"] != "0 0 "+w+" "+h {
			t.Errorf("width %q, height %q, viewBox %q do not agree", w, h, root.attr["viewBox"])
		}
		if !strings.Contains(root.attr["font-family"], "sans-serif") {
			t.Errorf("font-family = %q, want a sans-serif system font", root.attr["font-family"])
		}
	}
	root := parseSVG(t, render(t, sampleLine()))
	if root.kids[0].name != "title" || root.kids[0].text != sampleLine().Title {
		t.Errorf("first element <%s>%s</%[1]s>, want the chart title", root.kids[0].name, root.kids[0].text)
	}
	if titles := find(root, "title"); len(titles) != 1 || titles[0].text != sampleLine().Title {
		t.Errorf("drawn titles = %v, want one %q", titles, sampleLine().Title)
	}
	if root := parseSVG(t, render(t, sampleBar())); root.attr["width"] != "640" || root.attr["height"] != "400" {
		t.Errorf("default size = %sx%s, want 640x400", root.attr["width"], root.attr["height"])
	}
}

// TestNoExternalReferences checks that nothing in the output could make a
// viewer fetch anything: the only URI is the SVG namespace name.
func TestNoExternalReferences(t *testing.T) {
	for _, c := range []chart{sampleLine(), sampleBar(), sampleDots()} {
		out := string(render(t, c))
		rest := strings.Replace(out, `xmlns="http://www.w3.org/2000/svg"`, "", 1)
		for _, bad := range []string{"http", "href", "<script", "url(", "@import", "<image", "<style", "<foreignObject"} {
			if strings.Contains(strings.ToLower(rest), strings.ToLower(bad)) {
				t.Errorf("output contains %q", bad)
			}
		}
	}
}

func TestLegendNames(t *testing.T) {
	for _, tc := range []struct {
		c      chart
		series []Series
	}{{sampleLine(), sampleLine().Series}, {sampleBar(), sampleBar().Series}, {sampleDots(), sampleDots().Series}} {
		out := render(t, tc.c)
		legend := find(parseSVG(t, out), "legend")
		if len(legend) != 1 {
			t.Fatalf("found %d legends, want 1", len(legend))
		}
		got := textsOf(legend[0])
		if want := names(tc.series); !slices.Equal(got, want) {
			t.Errorf("legend names = %q, want %q", got, want)
		}
		for _, s := range tc.series {
			if !bytes.Contains(out, []byte(esc(s.Name))) {
				t.Errorf("escaped name %q not in output", esc(s.Name))
			}
		}
	}
	if got, want := esc(`a<b & "c" 'd'`), "a&lt;b &amp; &#34;c&#34; &#39;d&#39;"; got != want {
		t.Errorf("esc = %q, want %q", got, want)
	}
}

func TestLineElements(t *testing.T) {
	c := sampleLine()
	series := find(parseSVG(t, render(t, c)), "series")
	if len(series) != len(c.Series) {
		t.Fatalf("found %d series groups, want %d", len(series), len(c.Series))
	}
	for k, g := range series {
		s := c.Series[k]
		lines := find(g, "line")
		if len(lines) != 1 || lines[0].name != "polyline" {
			t.Fatalf("series %d: want one polyline, got %d line elements", k, len(lines))
		}
		if pts := strings.Fields(lines[0].attr["points"]); len(pts) != len(s.Y) {
			t.Errorf("series %d: polyline has %d points, want %d", k, len(pts), len(s.Y))
		}
		if got := len(find(g, "marker")); got != len(s.Y) {
			t.Errorf("series %d: %d markers, want %d", k, got, len(s.Y))
		}
		wantBars := 0
		if s.Err != nil {
			wantBars = len(s.Y)
		}
		if got := len(find(g, "errorbar")); got != wantBars {
			t.Errorf("series %d: %d error bars, want %d", k, got, wantBars)
		}
	}
}

func TestBarElements(t *testing.T) {
	c := sampleBar()
	series := find(parseSVG(t, render(t, c)), "series")
	if len(series) != len(c.Series) {
		t.Fatalf("found %d series groups, want %d", len(series), len(c.Series))
	}
	for k, g := range series {
		if got := len(find(g, "bar")); got != len(c.Categories) {
			t.Errorf("series %d: %d bars, want %d", k, got, len(c.Categories))
		}
		wantBars := 0
		if c.Series[k].Err != nil {
			wantBars = len(c.Categories)
		}
		if got := len(find(g, "errorbar")); got != wantBars {
			t.Errorf("series %d: %d error bars, want %d", k, got, wantBars)
		}
	}
}

// TestTickLabels checks the labels drawn for a known data range.
func TestTickLabels(t *testing.T) {
	c := &LineChart{Series: []Series{{Name: "s", X: []float64{0, 0.5, 1}, Y: []float64{0.85, 0.97, 0.9}, Err: []float64{0, 0, 0.07}}}}
	root := parseSVG(t, render(t, c))
	if got, want := textsOf(find(root, "y-ticks")[0]), []string{"0.82", "0.84", "0.86", "0.88", "0.9", "0.92", "0.94", "0.96", "0.98"}; !slices.Equal(got, want) {
		t.Errorf("y tick labels = %q, want %q", got, want)
	}
	if got, want := textsOf(find(root, "x-ticks")[0]), []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}; !slices.Equal(got, want) {
		t.Errorf("x tick labels = %q, want %q", got, want)
	}
}

// TestXLabelsDoNotOverlap checks that a narrow chart with long x tick
// labels leaves some of them out rather than drawing them over each other.
func TestXLabelsDoNotOverlap(t *testing.T) {
	c := &LineChart{Width: 260, Series: []Series{{Name: "s", X: []float64{0, 4.5e-5}, Y: []float64{1, 2}}}}
	root := parseSVG(t, render(t, c))
	labels := find(root, "x-ticks")[0].kids
	if len(labels) < 2 || len(labels) == len(NiceTicks(0, 4.5e-5)) {
		t.Fatalf("drew %d x labels of %d ticks, want some but not all", len(labels), len(NiceTicks(0, 4.5e-5)))
	}
	for i := 1; i < len(labels); i++ {
		a, b := labels[i-1], labels[i]
		room := (textWidth(a.text, tickSize) + textWidth(b.text, tickSize)) / 2
		if gap := attrNum(t, b, "x") - attrNum(t, a, "x"); gap < room {
			t.Errorf("labels %q and %q are %v apart, want at least %v", a.text, b.text, gap, room)
		}
	}
}

// TestBarsStartAtZero checks that the y axis of a bar chart includes 0
// even when every value is far from it, and that bars rise from 0.
func TestBarsStartAtZero(t *testing.T) {
	c := &BarChart{Categories: []string{"a", "b"}, Series: []Series{{Name: "s", Y: []float64{0.83, 0.97}}}}
	root := parseSVG(t, render(t, c))
	if got, want := textsOf(find(root, "y-ticks")[0]), []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}; !slices.Equal(got, want) {
		t.Errorf("y tick labels = %q, want %q", got, want)
	}
	axis := find(root, "x-axis")[0].kids[0] // the axis line, at y = 0
	for _, bar := range find(root, "bar") {
		if bottom := attrNum(t, bar, "y") + attrNum(t, bar, "height"); math.Abs(bottom-attrNum(t, axis, "y1")) > 0.011 {
			t.Errorf("bar ends at y=%v, want the axis at y=%v", bottom, attrNum(t, axis, "y1"))
		}
	}

	// A negative value hangs below a zero line.
	c.Series[0].Y[1] = -0.5
	root = parseSVG(t, render(t, c))
	zero := find(root, "zero")
	if len(zero) != 1 {
		t.Fatalf("found %d zero lines, want 1", len(zero))
	}
	bars := find(root, "bar")
	if y0 := attrNum(t, zero[0], "y1"); math.Abs(attrNum(t, bars[1], "y")-y0) > 0.011 || math.Abs(attrNum(t, bars[0], "y")+attrNum(t, bars[0], "height")-y0) > 0.011 {
		t.Errorf("bars %v and %v do not meet the zero line at y=%v", bars[0].attr, bars[1].attr, y0)
	}
}

func attrNum(t *testing.T, n *node, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(n.attr[name], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", n.name, name, n.attr[name], err)
	}
	return v
}

// coordAttrs lists the attributes that hold numbers or lists of numbers.
var coordAttrs = []string{"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height", "points", "d", "transform", "viewBox"}

var longDecimal = regexp.MustCompile(`\d\.\d{3}`)

// checkNumbers fails if a coordinate is not finite or has more than two
// decimals, anywhere in the document.
func checkNumbers(t *testing.T, n *node) {
	t.Helper()
	for _, a := range coordAttrs {
		v, ok := n.attr[a]
		if !ok {
			continue
		}
		if strings.Contains(v, "NaN") || strings.Contains(v, "Inf") || longDecimal.MatchString(v) {
			t.Errorf("<%s %s=%q>: not a finite number with at most 2 decimals", n.name, a, v)
		}
	}
	for _, k := range n.kids {
		checkNumbers(t, k)
	}
}

func TestDegenerateRanges(t *testing.T) {
	charts := map[string]chart{
		"single point":  &LineChart{Series: []Series{{Name: "p", X: []float64{3}, Y: []float64{0.5}}}},
		"zero point":    &LineChart{Series: []Series{{Name: "p", X: []float64{0}, Y: []float64{0}, Err: []float64{0}}}},
		"flat line":     &LineChart{Series: []Series{{Name: "p", X: []float64{1, 2, 3}, Y: []float64{7, 7, 7}}}},
		"same x":        &LineChart{Series: []Series{{Name: "p", X: []float64{2, 2}, Y: []float64{1, 3}}}},
		"tiny spread":   &LineChart{Series: []Series{{Name: "p", X: []float64{1, 1 + 1e-15}, Y: []float64{1e9, 1e9 + 1e-7}}}},
		"huge values":   &LineChart{Series: []Series{{Name: "p", X: []float64{-1e300, 1e300}, Y: []float64{1e-300, 2e-300}}}},
		"all zero bars": &BarChart{Categories: []string{"a"}, Series: []Series{{Name: "z", Y: []float64{0}}}},
		"negative bars": &BarChart{Categories: []string{"a", "b"}, Series: []Series{{Name: "z", Y: []float64{-3, -3}, Err: []float64{0, 1}}}},
		"equal dots":    &BarChart{Dots: true, Categories: []string{"a", "b"}, Series: []Series{{Name: "d", Y: []float64{94, 94}}, {Name: "e", Y: []float64{94, 94}, Err: []float64{0, 0}}}},
		"zero dots":     &BarChart{Dots: true, Categories: []string{"a"}, Series: []Series{{Name: "z", Y: []float64{0}, Err: []float64{0}}}},
		"tiny dots":     &BarChart{Dots: true, Categories: []string{"a", "b"}, Series: []Series{{Name: "t", Y: []float64{1e9, 1e9 + 1e-7}}}},
	}
	for name, c := range charts {
		t.Run(name, func(t *testing.T) {
			out := render(t, c)
			if bytes.Contains(out, []byte("NaN")) || bytes.Contains(out, []byte("Inf")) {
				t.Errorf("output contains NaN or Inf:\n%s", out)
			}
			root := parseSVG(t, out)
			checkNumbers(t, root)
			if ticks := textsOf(find(root, "y-ticks")[0]); len(ticks) < 2 || len(slices.Compact(slices.Clone(ticks))) != len(ticks) {
				t.Errorf("y tick labels %q: want at least two distinct labels", ticks)
			}
		})
	}
}

func TestCoordinates(t *testing.T) {
	checkNumbers(t, parseSVG(t, render(t, sampleLine())))
	checkNumbers(t, parseSVG(t, render(t, sampleBar())))
	checkNumbers(t, parseSVG(t, render(t, sampleDots())))
}

func TestValidation(t *testing.T) {
	good := sampleLine().Series[0]
	with := func(f func(s *Series)) []Series {
		s := good
		s.X, s.Y, s.Err = slices.Clone(s.X), slices.Clone(s.Y), slices.Clone(s.Err)
		f(&s)
		return []Series{sampleLine().Series[1], s}
	}
	one := func(y, e []float64) []Series { return []Series{{Name: "s", Y: y, Err: e}} }
	a := []string{"a"}
	tests := []struct {
		name string
		c    chart
		want string // in the message
	}{
		{"line: no series", &LineChart{}, "no series"},
		{"line: empty series", &LineChart{Series: []Series{{Name: "e"}}}, `series 0 ("e") has no points`},
		{"line: short X", &LineChart{Series: with(func(s *Series) { s.X = s.X[:2] })}, `series 1 ("GCN"): len(X) = 2 but len(Y) = 4`},
		{"line: short Y", &LineChart{Series: with(func(s *Series) { s.Y = s.Y[:2] })}, "len(X) = 4 but len(Y) = 2"},
		{"line: short Err", &LineChart{Series: with(func(s *Series) { s.Err = s.Err[:1] })}, "len(Err) = 1, want len(Y) = 4"},
		{"line: empty Err", &LineChart{Series: with(func(s *Series) { s.Err = []float64{} })}, "len(Err) = 0"},
		{"line: NaN Y", &LineChart{Series: with(func(s *Series) { s.Y[1] = math.NaN() })}, "Y[1] is NaN"},
		{"line: Inf X", &LineChart{Series: with(func(s *Series) { s.X[0] = math.Inf(1) })}, "X[0] is +Inf"},
		{"line: -Inf Y", &LineChart{Series: with(func(s *Series) { s.Y[2] = math.Inf(-1) })}, "Y[2] is -Inf"},
		{"line: NaN Err", &LineChart{Series: with(func(s *Series) { s.Err[0] = math.NaN() })}, "Err[0] is NaN"},
		{"line: negative Err", &LineChart{Series: with(func(s *Series) { s.Err[3] = -0.1 })}, "Err[3] = -0.1 is negative"},
		{"line: negative width", &LineChart{Series: with(func(*Series) {}), Width: -1}, "negative chart size -1x0"},
		{"line: negative height", &LineChart{Series: with(func(*Series) {}), Height: -400}, "negative chart size 0x-400"},
		{"line: too small", &LineChart{Series: with(func(*Series) {}), Width: 60, Height: 60}, "no room"},
		{"line: range too wide", &LineChart{Series: []Series{{Name: "w", X: []float64{0, 1}, Y: []float64{-1.7e308, 1.7e308}}}}, "too wide"},
		{"bar: no series", &BarChart{Categories: a}, "no series"},
		{"bar: no categories", &BarChart{Series: one(nil, nil)}, "no categories"},
		{"bar: Y too short", &BarChart{Categories: []string{"a", "b"}, Series: one([]float64{1}, nil)}, "len(Y) = 1, want 2"},
		{"bar: Y too long", &BarChart{Categories: a, Series: one([]float64{1, 2}, nil)}, "len(Y) = 2, want 1"},
		{"bar: Err wrong len", &BarChart{Categories: a, Series: one([]float64{1}, []float64{1, 2})}, "len(Err) = 2"},
		{"bar: Inf Y", &BarChart{Categories: a, Series: one([]float64{math.Inf(1)}, nil)}, "Y[0] is +Inf"},
		{"bar: NaN Err", &BarChart{Categories: a, Series: one([]float64{1}, []float64{math.NaN()})}, "Err[0] is NaN"},
		{"bar: negative Err", &BarChart{Categories: a, Series: one([]float64{1}, []float64{-1})}, "is negative"},
		{"bar: negative width", &BarChart{Categories: a, Series: one([]float64{1}, nil), Width: -5}, "negative chart size"},
		{"bar: negative height", &BarChart{Categories: a, Series: one([]float64{1}, nil), Height: -5}, "negative chart size"},
		{"bar: too small", &BarChart{Categories: a, Series: one([]float64{1}, nil), Width: 30, Height: 30}, "no room"},
		{"dots: no series", &BarChart{Categories: a, Dots: true}, "no series"},
		{"dots: Y too short", &BarChart{Categories: []string{"a", "b"}, Series: one([]float64{1}, nil), Dots: true}, "len(Y) = 1, want 2"},
		{"dots: NaN Y", &BarChart{Categories: a, Series: one([]float64{math.NaN()}, nil), Dots: true}, "Y[0] is NaN"},
		{"dots: negative Err", &BarChart{Categories: a, Series: one([]float64{1}, []float64{-1}), Dots: true}, "is negative"},
		{"dots: too small", &BarChart{Categories: a, Series: one([]float64{1}, nil), Width: 30, Height: 30, Dots: true}, "no room"},
		{"dots: range too wide", &BarChart{Categories: []string{"a", "b"}, Series: one([]float64{-1.7e308, 1.7e308}, nil), Dots: true}, "too wide"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		err := tt.c.WriteSVG(&buf)
		switch {
		case err == nil:
			t.Errorf("%s: no error", tt.name)
		case !strings.HasPrefix(err.Error(), "plot: ") || !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: error %q, want one starting with \"plot: \" and containing %q", tt.name, err, tt.want)
		case buf.Len() != 0:
			t.Errorf("%s: wrote %d bytes despite the error", tt.name, buf.Len())
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, mk := range []func() chart{
		func() chart { return sampleLine() },
		func() chart { return sampleBar() },
		func() chart { return sampleDots() },
	} {
		c := mk()
		a, b, other := render(t, c), render(t, c), render(t, mk())
		if !bytes.Equal(a, b) || !bytes.Equal(a, other) {
			t.Errorf("output differs between calls")
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterError(t *testing.T) {
	if err := sampleLine().WriteSVG(failWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("LineChart.WriteSVG to a failing writer = %v, want its error", err)
	}
	if err := sampleBar().WriteSVG(failWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("BarChart.WriteSVG to a failing writer = %v, want its error", err)
	}
	if err := sampleDots().WriteSVG(failWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("BarChart.WriteSVG with Dots to a failing writer = %v, want its error", err)
	}
}

// TestManySeries checks colour and marker cycling past the palette, and
// that a long legend wraps onto rows that fit the width.
func TestManySeries(t *testing.T) {
	c := &LineChart{}
	for k := range 12 {
		c.Series = append(c.Series, Series{Name: fmt.Sprintf("variant number %d", k), X: []float64{0, 1}, Y: []float64{float64(k), float64(k + 1)}})
	}
	root := parseSVG(t, render(t, c))
	lines := find(root, "line")
	if lines[0].attr["stroke"] != palette[0] || lines[8].attr["stroke"] != palette[0] || lines[7].attr["stroke"] == palette[0] {
		t.Errorf("colours do not cycle after %d series", len(palette))
	}
	if m0, m8 := find(root, "marker")[0], find(root, "marker")[16]; m0.name == m8.name {
		t.Errorf("series 0 and 8 share colour and marker shape %q", m0.name)
	}
	rows := layLegend(names(c.Series), 620)
	if len(rows) < 2 {
		t.Errorf("legend of 12 long names fits on %d row", len(rows))
	}
	for _, r := range rows {
		if r.width > 620 {
			t.Errorf("legend row is %v wide, more than 620", r.width)
		}
		for i := 1; i < len(r.entries); i++ {
			prev := r.entries[i-1]
			if end := prev.x + swatchWidth + 6 + textWidth(c.Series[prev.k].Name, legendSize); r.entries[i].x <= end {
				t.Errorf("legend entries %d and %d overlap", prev.k, r.entries[i].k)
			}
		}
	}
}

// TestSlantedCategories checks that category labels too wide for their
// group are slanted and still inside the figure.
func TestSlantedCategories(t *testing.T) {
	c := &BarChart{Categories: []string{"a rather long dataset name", "another long name here", "third", "fourth one"},
		Series: []Series{{Name: "s", Y: []float64{1, 2, 3, 4}}, {Name: "t", Y: []float64{2, 3, 1, 2}}}}
	root := parseSVG(t, render(t, c))
	labels := find(root, "x-ticks")[0]
	if labels.attr["text-anchor"] != "end" {
		t.Fatalf("long category labels are not slanted")
	}
	first := labels.kids[0]
	if reach := attrNum(t, first, "x") - 0.82*textWidth(first.text, tickSize); reach < 0 {
		t.Errorf("first slanted label reaches x=%v, outside the figure", reach)
	}
	if !strings.HasPrefix(first.attr["transform"], "rotate(-35 ") {
		t.Errorf("transform = %q, want a rotation", first.attr["transform"])
	}
	c.Categories = []string{"a", "b", "c", "d"}
	if find(parseSVG(t, render(t, c)), "x-ticks")[0].attr["text-anchor"] != "middle" {
		t.Errorf("short category labels are slanted")
	}
}

func sampleDots() *BarChart {
	return &BarChart{
		Title:      "AUC by dataset",
		YLabel:     "AUC (%)",
		Categories: []string{"Cora", "CiteSeer", "PubMed", "Photo", "Computers"},
		Series: []Series{
			{Name: "ILP-GNN", Y: []float64{94.3, 93.8, 94.1, 94.0, 93.9}, Err: []float64{0.2, 0.3, 0.25, 0.3, 0.2}},
			{Name: "GCN <base>", Y: []float64{93.9, 93.7, 94.4, 93.6, 94.2}},
		},
		Dots: true,
	}
}

// elements returns the elements named name under n, in document order.
func elements(n *node, name string) []*node {
	var out []*node
	for _, k := range n.kids {
		if k.name == name {
			out = append(out, k)
		}
		out = append(out, elements(k, name)...)
	}
	return out
}

// yTicks returns the y tick values and the pixel row of each, read back
// from the tick labels, which sit 0.35 em below their tick.
func yTicks(t *testing.T, root *node) (vals, rows []float64) {
	t.Helper()
	for _, l := range find(root, "y-ticks")[0].kids {
		v, err := strconv.ParseFloat(l.text, 64)
		if err != nil {
			t.Fatalf("y tick label %q: %v", l.text, err)
		}
		vals = append(vals, v)
		rows = append(rows, attrNum(t, l, "y")-0.35*tickSize)
	}
	return vals, rows
}

// markerCentre returns the centre of a marker drawn by svgDoc.marker.
func markerCentre(t *testing.T, m *node) (x, y float64) {
	t.Helper()
	switch m.name {
	case "circle":
		return attrNum(t, m, "cx"), attrNum(t, m, "cy")
	case "rect":
		return attrNum(t, m, "x") + 3.5, attrNum(t, m, "y") + 3.5
	}
	t.Fatalf("marker <%s> is not a circle or a square", m.name)
	return 0, 0
}

var errorBarPath = regexp.MustCompile(`^M(-?[\d.]+) (-?[\d.]+)V(-?[\d.]+)M`)

// TestDots checks dot mode: markers instead of bars, each centred in its
// slot at its value, error bars in the series colour only where Err is set,
// a y axis fitted to the data, and markers as legend swatches.
func TestDots(t *testing.T) {
	c := sampleDots()
	nCat := len(c.Categories)
	root := parseSVG(t, render(t, c))

	// Bars are rects of class "bar"; the same chart without Dots has them.
	bars := &BarChart{Categories: c.Categories, Series: c.Series}
	if got := len(find(parseSVG(t, render(t, bars)), "bar")); got != nCat*len(c.Series) {
		t.Fatalf("without Dots: %d bars, want %d", got, nCat*len(c.Series))
	}
	if got := find(root, "bar"); len(got) != 0 {
		t.Errorf("dot mode drew %d bars", len(got))
	}
	// The only rects left are the background and the square markers of
	// series 1, one per category and one in the legend.
	rects := elements(root, "rect")
	if len(rects) != 1+nCat+1 {
		t.Errorf("dot mode has %d rects, want the background and %d square markers", len(rects), nCat+1)
	}
	for i, r := range rects {
		if i == 0 {
			if r != root.kids[1] || r.attr["fill"] != "#ffffff" || r.attr["width"] != root.attr["width"] {
				t.Errorf("first rect %v is not the background", r.attr)
			}
			continue
		}
		if r.attr["width"] != "7" || r.attr["height"] != "7" || r.attr["fill"] != colour(1) {
			t.Errorf("rect %v is not a marker of series 1", r.attr)
		}
	}

	// The y axis fits the data and error bars, [93.5, 94.6], not 0.
	vals, rows := yTicks(t, root)
	if len(vals) < 4 || vals[0] > 93.5 || vals[len(vals)-1] < 94.6 || vals[0] < 93 || vals[len(vals)-1] > 95 {
		t.Errorf("y ticks %v: want them to cover [93.5, 94.6] within [93, 95]", vals)
	}
	if slices.Contains(textsOf(find(root, "y-ticks")[0]), "0") {
		t.Errorf("y ticks %v include 0", vals)
	}
	if z := find(root, "zero"); len(z) != 0 {
		t.Errorf("drew %d zero lines for data far from 0", len(z))
	}
	if g := find(root, "grid"); len(g) != 1 || len(g[0].kids) != len(vals) {
		t.Errorf("want one grid group with a line per y tick")
	}
	pos := func(v float64) float64 { // pixel row of value v
		n := len(vals) - 1
		return rows[0] + (v-vals[0])/(vals[n]-vals[0])*(rows[n]-rows[0])
	}

	// Category label i is centred on its group; series 0's dot is left of
	// it and series 1's right of it, each in the middle of its bar slot.
	labels := find(root, "x-ticks")[0].kids
	if len(labels) != nCat {
		t.Fatalf("%d category labels, want %d", len(labels), nCat)
	}
	groupW := attrNum(t, labels[1], "x") - attrNum(t, labels[0], "x")
	series := find(root, "series")
	if len(series) != len(c.Series) {
		t.Fatalf("found %d series groups, want %d", len(series), len(c.Series))
	}
	for k, g := range series {
		s := c.Series[k]
		markers := find(g, "marker")
		if len(markers) != nCat {
			t.Fatalf("series %d: %d markers, want %d", k, len(markers), nCat)
		}
		wantShape := []string{"circle", "rect"}[k]
		for i, m := range markers {
			if m.name != wantShape || m.attr["fill"] != colour(k) {
				t.Errorf("series %d: marker <%s fill=%q>, want <%s fill=%q>", k, m.name, m.attr["fill"], wantShape, colour(k))
			}
			x, y := markerCentre(t, m)
			// Slots are 0.4 of the group wide, from 0.1 to 0.5 and 0.5 to 0.9.
			wantX := attrNum(t, labels[i], "x") + []float64{-0.2, 0.2}[k]*groupW
			if math.Abs(x-wantX) > 0.05 || math.Abs(y-pos(s.Y[i])) > 0.05 {
				t.Errorf("series %d, category %d: marker at (%v, %v), want (%v, %v)", k, i, x, y, wantX, pos(s.Y[i]))
			}
		}
		errBars := find(g, "errorbar")
		if s.Err == nil {
			if len(errBars) != 0 {
				t.Errorf("series %d has no Err but %d error bars", k, len(errBars))
			}
			continue
		}
		if len(errBars) != nCat {
			t.Fatalf("series %d: %d error bars, want %d", k, len(errBars), nCat)
		}
		for i, e := range errBars {
			if e.attr["stroke"] != colour(k) {
				t.Errorf("series %d: error bar stroke %q, want the series colour %q", k, e.attr["stroke"], colour(k))
			}
			m := errorBarPath.FindStringSubmatch(e.attr["d"])
			if m == nil {
				t.Fatalf("error bar path %q", e.attr["d"])
			}
			x, _ := markerCentre(t, markers[i])
			ex, _ := strconv.ParseFloat(m[1], 64)
			y1, _ := strconv.ParseFloat(m[2], 64)
			y2, _ := strconv.ParseFloat(m[3], 64)
			lo, hi := pos(s.Y[i]-s.Err[i]), pos(s.Y[i]+s.Err[i])
			if math.Abs(ex-x) > 0.011 || math.Abs(y1-lo) > 0.05 || math.Abs(y2-hi) > 0.05 {
				t.Errorf("series %d, category %d: error bar %q, want x=%v from y=%v to %v", k, i, e.attr["d"], x, lo, hi)
			}
		}
	}

	// The legend swatches are the markers, without a line.
	legend := find(root, "legend")[0]
	var swatches []string
	for _, k := range legend.kids {
		if k.name != "text" {
			swatches = append(swatches, k.name+" "+k.attr["fill"])
		}
	}
	if want := []string{"circle " + colour(0), "rect " + colour(1)}; !slices.Equal(swatches, want) {
		t.Errorf("legend swatches %q, want %q", swatches, want)
	}
}

// TestDotsZeroLine checks that dot mode draws a line at 0 only when 0 lies
// inside the y axis, not at its end, while bars keep theirs.
func TestDotsZeroLine(t *testing.T) {
	tests := []struct {
		y     []float64
		dots  bool
		lines int
	}{
		{[]float64{-1, 1.5}, true, 1},
		{[]float64{-3, -2}, true, 0},
		{[]float64{-1, 0}, true, 0}, // 0 is the top tick
		{[]float64{0, 2}, true, 0},  // 0 is the bottom tick
		{[]float64{-1, 0}, false, 1},
	}
	for _, tt := range tests {
		c := &BarChart{Categories: []string{"a", "b"}, Series: []Series{{Name: "s", Y: tt.y}}, Dots: tt.dots}
		root := parseSVG(t, render(t, c))
		if got := len(find(root, "zero")); got != tt.lines {
			t.Errorf("Y = %v, Dots = %v: %d zero lines, want %d", tt.y, tt.dots, got, tt.lines)
		}
		if tt.dots && len(find(root, "marker")) != 2 {
			t.Errorf("Y = %v: want 2 markers", tt.y)
		}
	}
}

// xTickLabels returns the x tick labels of c.
func xTickLabels(t *testing.T, c *LineChart) []string {
	t.Helper()
	return textsOf(find(parseSVG(t, render(t, c)), "x-ticks")[0])
}

// TestIntegerXTicks checks that a line chart whose X are all whole numbers
// gets whole-number x ticks only.
func TestIntegerXTicks(t *testing.T) {
	line := func(xs ...float64) *LineChart {
		ys := make([]float64, len(xs))
		for i := range ys {
			ys[i] = 0.8 + 0.01*float64(i%7)
		}
		return &LineChart{Series: []Series{{Name: "s", X: xs, Y: ys}}}
	}
	if got, want := xTickLabels(t, line(1, 2, 3, 4)), []string{"1", "2", "3", "4"}; !slices.Equal(got, want) {
		t.Errorf("X = 1..4: x tick labels = %q, want %q", got, want)
	}
	// Whole numbers in a second series too, in any order.
	c := line(2, 4)
	c.Series = append(c.Series, Series{Name: "t", X: []float64{3, 1}, Y: []float64{1, 2}})
	if got, want := xTickLabels(t, c), []string{"1", "2", "3", "4"}; !slices.Equal(got, want) {
		t.Errorf("two series over 1..4: x tick labels = %q, want %q", got, want)
	}
	// One fractional X anywhere allows fractional ticks.
	c.Series[1].X[0] = 2.5
	if got := xTickLabels(t, c); !slices.Contains(got, "1.5") {
		t.Errorf("with X = 2.5: x tick labels = %q, want NiceTicks' 0.5 steps", got)
	}
	if got, want := xTickLabels(t, line(0.5, 1.0, 1.5)), formatTicks(NiceTicks(0.5, 1.5)); !slices.Equal(got, want) {
		t.Errorf("X = 0.5, 1, 1.5: x tick labels = %q, want %q", got, want)
	}
	var tenths, thousand []float64
	for x := 0; x <= 100; x += 10 {
		tenths = append(tenths, float64(x))
	}
	for x := 1; x <= 1000; x++ {
		thousand = append(thousand, float64(x))
	}
	if got, want := xTickLabels(t, line(tenths...)), []string{"0", "20", "40", "60", "80", "100"}; !slices.Equal(got, want) {
		t.Errorf("X = 0..100 step 10: x tick labels = %q, want %q", got, want)
	}
	if got, want := xTickLabels(t, line(thousand...)), []string{"0", "200", "400", "600", "800", "1000"}; !slices.Equal(got, want) {
		t.Errorf("X = 1..1000: x tick labels = %q, want %q", got, want)
	}
	// A single whole X gets whole ticks around it.
	if got, want := xTickLabels(t, line(3)), []string{"2", "3", "4"}; !slices.Equal(got, want) {
		t.Errorf("X = 3: x tick labels = %q, want %q", got, want)
	}
}

func TestIntegerTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{1, 4, []float64{1, 2, 3, 4}},
		{4, 1, []float64{1, 2, 3, 4}},
		{1, 2, []float64{1, 2}},
		{-2, 1, []float64{-2, -1, 0, 1}},
		{3, 3, []float64{2, 3, 4}},
		{0, 0, []float64{-1, 0, 1}},
		{-1, -1, []float64{-2, -1, 0}},
		{0, 100, []float64{0, 20, 40, 60, 80, 100}},
		{1, 1000, []float64{0, 200, 400, 600, 800, 1000}},
		{1, 9, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{100, 100, NiceTicks(100, 100)}, // padded by 10 and stepped by 5
		{1e300, 1e300, NiceTicks(1e300, 1e300)},
	}
	for _, tt := range tests {
		got := integerTicks(tt.lo, tt.hi)
		if !slices.Equal(got, tt.want) {
			t.Errorf("integerTicks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
		for _, v := range got {
			if v == 0 && math.Signbit(v) {
				t.Errorf("integerTicks(%v, %v) has a tick at -0", tt.lo, tt.hi)
			}
		}
	}
	if got := integerTicks(math.NaN(), 1); got != nil {
		t.Errorf("integerTicks(NaN, 1) = %v, want nil", got)
	}
	// Random whole ranges of many magnitudes: whole, evenly spaced ticks
	// that cover the range, by a step of at least 1.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		lo := math.Round((rng.Float64()*2 - 1) * math.Pow(10, float64(rng.IntN(16))))
		hi := lo + math.Round(rng.Float64()*math.Pow(10, float64(rng.IntN(8))))
		ticks := integerTicks(lo, hi)
		if n := len(ticks); n < 2 || n > maxTicks {
			t.Fatalf("integerTicks(%v, %v) gave %d ticks: %v", lo, hi, n, ticks)
		}
		step := ticks[1] - ticks[0]
		// NiceTicks lets a bound pass the end tick by up to its tickSlack.
		if ticks[0] > lo+1e-4*step || ticks[len(ticks)-1] < hi-1e-4*step {
			t.Fatalf("integerTicks(%v, %v) = %v does not cover the range", lo, hi, ticks)
		}
		for i, v := range ticks {
			if math.Trunc(v) != v || step < 1 || (i > 0 && ticks[i]-ticks[i-1] != step) {
				t.Fatalf("integerTicks(%v, %v) = %v: want whole ticks evenly spaced by at least 1", lo, hi, ticks)
			}
		}
	}
}
