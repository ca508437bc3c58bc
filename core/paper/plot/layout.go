package plot

import "fmt"

// Font sizes and spacing, in pixels.
const (
	titleSize  = 16
	labelSize  = 13 // axis labels
	tickSize   = 11 // tick and category labels
	legendSize = 12
	margin     = 10 // blank border around the figure
	tickLen    = 5
	tickGap    = 4  // between a tick mark and its label
	minPlot    = 40 // smallest plot area, in pixels, worth drawing

	swatchWidth  = 22 // legend sample of a line or bar
	legendRowH   = 18
	legendSpacer = 18 // between legend entries on a row
)

// Colours of the chart furniture.
const (
	inkColour  = "#333333"
	gridColour = "#e5e5e5"
)

// rect is an area of the figure in pixels, with y growing downwards.
type rect struct{ left, top, right, bottom float64 }

func (r rect) width() float64  { return r.right - r.left }
func (r rect) height() float64 { return r.bottom - r.top }

// axis maps data values linearly onto pixels, from the first tick at p0 to
// the last tick at p1.
type axis struct {
	ticks  []float64
	labels []string
	p0, p1 float64
}

// newAxis chooses the ticks of an axis that covers [lo, hi]; integer
// restricts them to whole numbers, for data that holds only whole numbers.
func newAxis(lo, hi float64, name string, integer bool) (axis, error) {
	ticks := NiceTicks(lo, hi)
	if integer {
		ticks = integerTicks(lo, hi)
	}
	if ticks == nil {
		return axis{}, fmt.Errorf("plot: %s range [%g, %g] is too wide to draw", name, lo, hi)
	}
	return axis{ticks: ticks, labels: formatTicks(ticks)}, nil
}

// pos returns the pixel position of the value v.
func (a *axis) pos(v float64) float64 {
	t0, t1 := a.ticks[0], a.ticks[len(a.ticks)-1]
	return a.p0 + (v-t0)/(t1-t0)*(a.p1-a.p0)
}

// texts are the labels of a chart.
type texts struct{ title, xLabel, yLabel string }

// frame is the layout of a chart: its size, the plot area, the room below
// the plot area for x ticks and their labels, and the legend rows.
type frame struct {
	w, h    float64
	plot    rect
	xAxisH  float64
	legend  []legendRow
	legendY float64 // top of the legend
}

// room is the space that the text around the plot area needs.
type room struct {
	yTickW   float64 // widest y tick label
	xAxisH   float64 // x ticks and their labels, below the plot area
	leftW    float64 // how far x labels reach left of the plot area
	overhang float64 // how far x labels reach right of the plot area
}

// layOut sizes the margins from the text around the plot area, and lays
// out the legend at the bottom.
func layOut(w, h float64, t texts, r room, names []string) (*frame, error) {
	f := &frame{w: w, h: h, xAxisH: r.xAxisH}
	f.legend = layLegend(names, w-2*margin)
	legendH := float64(len(f.legend)) * legendRowH

	yAxisW := r.yTickW + tickGap + tickLen
	if t.yLabel != "" {
		yAxisW += labelSize + 8
	}
	f.plot.left = margin + max(yAxisW, r.leftW)
	f.plot.top = margin + tickSize/2 // the top tick label sticks up by half
	if t.title != "" {
		f.plot.top += titleSize + 10
	}
	f.plot.right = w - margin - max(r.overhang, tickSize/2)
	bottom := r.xAxisH + 10 + legendH + margin
	if t.xLabel != "" {
		bottom += labelSize + 8
	}
	f.plot.bottom = h - bottom
	f.legendY = h - margin - legendH

	if f.plot.width() < minPlot || f.plot.height() < minPlot {
		return nil, fmt.Errorf("plot: chart size %gx%g leaves no room to plot after its labels and legend", w, h)
	}
	return f, nil
}

// drawTitle centres the title above the plot area.
func (d *svgDoc) drawTitle(f *frame, title string) {
	if title == "" {
		return
	}
	d.text(f.w/2, margin+titleSize, ` class="title" font-size="16" font-weight="bold" text-anchor="middle" fill="#000000"`, title)
}

// drawGrid draws light lines across the plot area at the y ticks and, if
// xa is not nil, at the x ticks. It comes before the axes, which must not
// be painted over.
func (d *svgDoc) drawGrid(f *frame, xa, ya *axis) {
	p := f.plot
	d.printf(`<g class="grid" stroke="%s" stroke-width="1" shape-rendering="crispEdges">`+"\n", gridColour)
	for _, t := range ya.ticks {
		d.line(p.left, ya.pos(t), p.right, ya.pos(t), "")
	}
	if xa != nil {
		for _, t := range xa.ticks {
			d.line(xa.pos(t), p.top, xa.pos(t), p.bottom, "")
		}
	}
	d.printf("</g>\n")
}

// drawYAxis draws the y axis with its ticks and labels, and the rotated
// axis label.
func (d *svgDoc) drawYAxis(f *frame, ya *axis, label string) {
	p := f.plot
	d.printf(`<g class="y-axis" stroke="%s" stroke-width="1" shape-rendering="crispEdges">`+"\n", inkColour)
	d.line(p.left, p.top, p.left, p.bottom, "")
	for _, t := range ya.ticks {
		d.line(p.left-tickLen, ya.pos(t), p.left, ya.pos(t), "")
	}
	d.printf("</g>\n")
	d.printf(`<g class="y-ticks" font-size="%d" fill="%s" text-anchor="end">`+"\n", tickSize, inkColour)
	for i, t := range ya.ticks {
		// 0.35 em below the tick centres the digits on it vertically.
		d.text(p.left-tickLen-tickGap, ya.pos(t)+0.35*tickSize, "", ya.labels[i])
	}
	d.printf("</g>\n")
	if label != "" {
		x, y := float64(margin+labelSize), (p.top+p.bottom)/2
		d.text(x, y, fmt.Sprintf(` class="y-label" font-size="%d" fill="#000000" text-anchor="middle" transform="rotate(-90 %s %s)"`,
			labelSize, num(x), num(y)), label)
	}
}

// drawXLabel centres the x axis label below the x tick labels.
func (d *svgDoc) drawXLabel(f *frame, label string) {
	if label == "" {
		return
	}
	y := f.plot.bottom + f.xAxisH + 8 + labelSize
	d.text((f.plot.left+f.plot.right)/2, y, fmt.Sprintf(` class="x-label" font-size="%d" fill="#000000" text-anchor="middle"`, labelSize), label)
}

// legendEntry is series k, at x from the start of its legend row.
type legendEntry struct {
	k int
	x float64
}

// legendRow is one centred row of the legend.
type legendRow struct {
	entries []legendEntry
	width   float64
}

// layLegend places the entries left to right, starting a new row when the
// next entry would pass maxW, so that long or many names never overlap.
func layLegend(names []string, maxW float64) []legendRow {
	var rows []legendRow
	var row legendRow
	for k, name := range names {
		w := swatchWidth + 6 + textWidth(name, legendSize)
		x := row.width
		if len(row.entries) > 0 {
			x += legendSpacer
		}
		if len(row.entries) > 0 && x+w > maxW {
			rows = append(rows, row)
			row, x = legendRow{}, 0
		}
		row.entries = append(row.entries, legendEntry{k: k, x: x})
		row.width = x + w
	}
	return append(rows, row)
}

// drawLegend draws the legend rows, calling swatch to draw the sample of
// series k centred vertically on y, in the swatchWidth pixels from x.
func (d *svgDoc) drawLegend(f *frame, names []string, swatch func(x, y float64, k int)) {
	d.printf(`<g class="legend" font-size="%d" fill="#000000">`+"\n", legendSize)
	for r, row := range f.legend {
		x0 := (f.w - row.width) / 2
		y := f.legendY + float64(r)*legendRowH + legendRowH/2
		for _, e := range row.entries {
			swatch(x0+e.x, y, e.k)
			d.text(x0+e.x+swatchWidth+6, y+0.35*legendSize, ` class="legend-name"`, names[e.k])
		}
	}
	d.printf("</g>\n")
}
