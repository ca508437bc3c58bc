// Package plot writes small, self-contained SVG figures for experiment
// reports: line charts of a metric against a parameter, with error bars, and
// grouped bar (or dot) charts that compare model variants.
//
// The output is a standalone SVG 1.1 document that references nothing
// outside itself (no fonts, images, scripts or style sheets), so a figure
// opens offline and the package builds for js/wasm. It uses the standard
// library only. Output is deterministic: the same chart always yields the
// same bytes, so figures can be compared or committed.
//
// Colours come from the Okabe–Ito palette, which stays distinguishable for
// the common forms of colour blindness; line charts also vary the marker
// shape so series can be told apart in greyscale.
package plot

import (
	"fmt"
	"math"
)

// Series is one named line or bar group. Err, when non-nil, has len(Y) and
// gives a symmetric error bar (e.g. standard deviation) for each point.
type Series struct {
	// Name labels the series in the legend.
	Name string
	// X holds the horizontal coordinates; used by LineChart only.
	X []float64
	// Y holds the values.
	Y []float64
	// Err, when non-nil, holds a non-negative half-length of the error bar
	// drawn around each Y.
	Err []float64
}

// Default size in pixels of a chart whose Width or Height is 0.
const (
	defaultWidth  = 640
	defaultHeight = 400
)

// palette is the Okabe–Ito colour-blind-safe palette, reordered so the first
// series get the colours that contrast most on white; yellow, which is faint
// on white, and black, which looks like the axes, come last.
var palette = [...]string{
	"#0072B2", // blue
	"#D55E00", // vermillion
	"#009E73", // bluish green
	"#CC79A7", // reddish purple
	"#E69F00", // orange
	"#56B4E9", // sky blue
	"#F0E442", // yellow
	"#000000", // black
}

// colour returns the colour of series k, cycling through the palette.
func colour(k int) string { return palette[k%len(palette)] }

// size returns the chart size in pixels, with 0 meaning the default.
func size(width, height int) (w, h float64, err error) {
	if width < 0 || height < 0 {
		return 0, 0, fmt.Errorf("plot: negative chart size %dx%d", width, height)
	}
	if width == 0 {
		width = defaultWidth
	}
	if height == 0 {
		height = defaultHeight
	}
	return float64(width), float64(height), nil
}

// checkFinite reports the first NaN or infinite value of field in series k.
func checkFinite(k int, s *Series, field string, vs []float64) error {
	for i, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("plot: series %d (%q): %s[%d] is %v", k, s.Name, field, i, v)
		}
	}
	return nil
}

// checkSeries validates what every chart needs of series k: n values in Y,
// all finite, and error bars, if any, of the right length and non-negative.
func checkSeries(k int, s *Series, n int, what string) error {
	if len(s.Y) != n {
		return fmt.Errorf("plot: series %d (%q): len(Y) = %d, want %d (%s)", k, s.Name, len(s.Y), n, what)
	}
	if err := checkFinite(k, s, "Y", s.Y); err != nil {
		return err
	}
	if s.Err == nil {
		return nil
	}
	if len(s.Err) != len(s.Y) {
		return fmt.Errorf("plot: series %d (%q): len(Err) = %d, want len(Y) = %d", k, s.Name, len(s.Err), len(s.Y))
	}
	if err := checkFinite(k, s, "Err", s.Err); err != nil {
		return err
	}
	for i, e := range s.Err {
		if e < 0 {
			return fmt.Errorf("plot: series %d (%q): Err[%d] = %v is negative", k, s.Name, i, e)
		}
	}
	return nil
}

// yExtent returns the smallest and largest Y∓Err over all series, so that
// error bars stay inside the axis.
func yExtent(series []Series) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for i, y := range s.Y {
			e := 0.0
			if s.Err != nil {
				e = s.Err[i]
			}
			lo, hi = min(lo, y-e), max(hi, y+e)
		}
	}
	return lo, hi
}

// names returns the series names in order, for the legend.
func names(series []Series) []string {
	out := make([]string, len(series))
	for k, s := range series {
		out[k] = s.Name
	}
	return out
}
