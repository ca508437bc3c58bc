package plot

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// LineChart plots each series as a polyline with markers (and error bars
// when Err is set) against numeric X. Points are joined in the order
// given, so X is normally increasing. Both axes are fitted to the data,
// error bars included, and need not include 0. When every X is a whole
// number (epochs, layers), the x axis gets whole-number ticks only.
type LineChart struct {
	// Title, XLabel and YLabel are drawn above the chart and along its
	// axes; empty ones are left out along with their space.
	Title, XLabel, YLabel string
	// Series are the lines, drawn in order, with colours and marker shapes
	// assigned by position.
	Series []Series
	// Width and Height are the size in pixels; 0 means 640x400.
	Width, Height int
}

// WriteSVG writes the chart to w as a standalone SVG document. It returns
// an error starting with "plot: ", and writes nothing, if the chart has no
// series, a series has no points, len(X) != len(Y), len(Err) != len(Y), an
// Err is negative, a value is NaN or infinite, the size is negative, or the
// size leaves no room for the plot; otherwise it returns w's error, if any.
func (c *LineChart) WriteSVG(w io.Writer) error {
	width, height, err := size(c.Width, c.Height)
	if err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	xa, ya, err := c.axes()
	if err != nil {
		return err
	}
	f, err := layOut(width, height, texts{c.Title, c.XLabel, c.YLabel}, room{
		yTickW:   maxTextWidth(ya.labels, tickSize),
		xAxisH:   tickLen + tickGap + tickSize,
		leftW:    textWidth(xa.labels[0], tickSize) / 2,
		overhang: textWidth(xa.labels[len(xa.labels)-1], tickSize) / 2,
	}, names(c.Series))
	if err != nil {
		return err
	}
	xa.p0, xa.p1 = f.plot.left, f.plot.right
	ya.p0, ya.p1 = f.plot.bottom, f.plot.top

	var d svgDoc
	d.begin(width, height, c.Title)
	d.drawTitle(f, c.Title)
	d.drawGrid(f, &xa, &ya)
	d.drawYAxis(f, &ya, c.YLabel)
	d.drawXAxis(f, &xa)
	d.drawXLabel(f, c.XLabel)
	for k := range c.Series {
		d.drawLine(&xa, &ya, k, &c.Series[k])
	}
	d.drawLegend(f, names(c.Series), func(x, y float64, k int) {
		d.line(x, y, x+swatchWidth, y, fmt.Sprintf(` stroke="%s" stroke-width="2"`, colour(k)))
		d.marker(x+swatchWidth/2, y, k, "")
	})
	return d.end(w)
}

// validate checks the series; see WriteSVG.
func (c *LineChart) validate() error {
	if len(c.Series) == 0 {
		return fmt.Errorf("plot: line chart has no series")
	}
	for k := range c.Series {
		s := &c.Series[k]
		if len(s.X) == 0 {
			return fmt.Errorf("plot: series %d (%q) has no points", k, s.Name)
		}
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("plot: series %d (%q): len(X) = %d but len(Y) = %d", k, s.Name, len(s.X), len(s.Y))
		}
		if err := checkSeries(k, s, len(s.X), "one per X"); err != nil {
			return err
		}
		if err := checkFinite(k, s, "X", s.X); err != nil {
			return err
		}
	}
	return nil
}

// axes fits both axes to the data. When every X is a whole number, the x
// ticks are too: X = 1, 2, 3, 4 gets no tick at 1.5.
func (c *LineChart) axes() (xa, ya axis, err error) {
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for _, x := range s.X {
			xlo, xhi = min(xlo, x), max(xhi, x)
		}
	}
	if xa, err = newAxis(xlo, xhi, "x", integerX(c.Series)); err != nil {
		return xa, ya, err
	}
	ylo, yhi := yExtent(c.Series)
	ya, err = newAxis(ylo, yhi, "y", false)
	return xa, ya, err
}

// integerX reports whether every X of every series is a whole number, in
// which case the x axis gets only whole-number ticks.
func integerX(series []Series) bool {
	for _, s := range series {
		for _, x := range s.X {
			if math.Trunc(x) != x {
				return false
			}
		}
	}
	return true
}

// drawXAxis draws the numeric x axis with its ticks and labels.
func (d *svgDoc) drawXAxis(f *frame, xa *axis) {
	p := f.plot
	d.printf(`<g class="x-axis" stroke="%s" stroke-width="1" shape-rendering="crispEdges">`+"\n", inkColour)
	d.line(p.left, p.bottom, p.right, p.bottom, "")
	for _, t := range xa.ticks {
		d.line(xa.pos(t), p.bottom, xa.pos(t), p.bottom+tickLen, "")
	}
	d.printf("</g>\n")
	d.printf(`<g class="x-ticks" font-size="%d" fill="%s" text-anchor="middle">`+"\n", tickSize, inkColour)
	stride := labelStride(xa)
	for i, t := range xa.ticks {
		if i%stride == 0 {
			d.text(xa.pos(t), p.bottom+tickLen+tickGap+tickSize, "", xa.labels[i])
		}
	}
	d.printf("</g>\n")
}

// labelStride returns how many ticks apart x labels must be so that
// neighbouring labels do not overlap; the ticks in between stay unlabelled.
func labelStride(xa *axis) int {
	if len(xa.ticks) < 2 {
		return 1
	}
	spacing := math.Abs(xa.p1-xa.p0) / float64(len(xa.ticks)-1)
	need := maxTextWidth(xa.labels, tickSize) + 8
	stride := 1
	for float64(stride)*spacing < need && stride < len(xa.ticks) {
		stride++
	}
	return stride
}

// drawLine draws series k: error bars first, so the line and the markers
// stay visible on top of them.
func (d *svgDoc) drawLine(xa, ya *axis, k int, s *Series) {
	d.printf(`<g class="series" stroke-linejoin="round">` + "\n")
	if s.Err != nil {
		for i, y := range s.Y {
			x := xa.pos(s.X[i])
			d.errorBar(x, ya.pos(y-s.Err[i]), ya.pos(y+s.Err[i]), 4,
				fmt.Sprintf(` fill="none" stroke="%s" stroke-width="1.2"`, colour(k)))
		}
	}
	var pts strings.Builder
	for i, y := range s.Y {
		if i > 0 {
			pts.WriteByte(' ')
		}
		fmt.Fprintf(&pts, "%s,%s", num(xa.pos(s.X[i])), num(ya.pos(y)))
	}
	d.printf(`<polyline class="line" points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", pts.String(), colour(k))
	for i, y := range s.Y {
		d.marker(xa.pos(s.X[i]), ya.pos(y), k, ` class="marker"`)
	}
	d.printf("</g>\n")
}

// marker draws the marker of series k centred on (x, y). Shapes cycle
// through circle, square, triangle and diamond, shifted once per round of
// the palette, so series differ in greyscale and past eight series too.
// attrs are extra attributes, already escaped.
func (d *svgDoc) marker(x, y float64, k int, attrs string) {
	paint := fmt.Sprintf(` fill="%s" stroke="#ffffff" stroke-width="1"`, colour(k))
	switch (k + k/len(palette)) % 4 {
	case 0:
		d.printf(`<circle%s cx="%s" cy="%s" r="3.8"%s/>`+"\n", attrs, num(x), num(y), paint)
	case 1:
		d.printf(`<rect%s x="%s" y="%s" width="7" height="7"%s/>`+"\n", attrs, num(x-3.5), num(y-3.5), paint)
	case 2:
		d.polygon(attrs+paint, x, y-4.5, x+4.5, y+3.5, x-4.5, y+3.5)
	default:
		d.polygon(attrs+paint, x, y-5, x+5, y, x, y+5, x-5, y)
	}
}

// polygon writes a polygon through the points given as x, y pairs.
func (d *svgDoc) polygon(attrs string, xy ...float64) {
	var pts strings.Builder
	for i := 0; i < len(xy); i += 2 {
		if i > 0 {
			pts.WriteByte(' ')
		}
		fmt.Fprintf(&pts, "%s,%s", num(xy[i]), num(xy[i+1]))
	}
	d.printf(`<polygon%s points="%s"/>`+"\n", attrs, pts.String())
}
