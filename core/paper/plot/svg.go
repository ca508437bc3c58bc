package plot

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fontFamily names fonts every system has, ending in the generic family, so
// no font is ever fetched.
const fontFamily = "Helvetica, Arial, sans-serif"

// svgDoc builds a document in memory, so an invalid chart writes nothing
// and the caller's writer sees a single Write.
type svgDoc struct{ b strings.Builder }

func (d *svgDoc) printf(format string, a ...any) { fmt.Fprintf(&d.b, format, a...) }

// begin opens the document with a white background, so the figure reads
// the same on dark viewers and when converted to an image.
func (d *svgDoc) begin(w, h float64, title string) {
	d.printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	d.printf(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s">`+"\n",
		num(w), num(h), num(w), num(h), fontFamily)
	if title != "" {
		d.printf("<title>%s</title>\n", esc(title)) // the document's accessible name
	}
	d.printf(`<rect width="%s" height="%s" fill="#ffffff"/>`+"\n", num(w), num(h))
}

// end closes the document and writes it to out.
func (d *svgDoc) end(out io.Writer) error {
	d.printf("</svg>\n")
	_, err := io.WriteString(out, d.b.String())
	return err
}

// line writes a line element; attrs are extra attributes, already escaped.
func (d *svgDoc) line(x1, y1, x2, y2 float64, attrs string) {
	d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"%s/>`+"\n", num(x1), num(y1), num(x2), num(y2), attrs)
}

// text writes a text element whose baseline starts at (x, y); attrs are
// extra attributes, already escaped, and s is escaped here.
func (d *svgDoc) text(x, y float64, attrs, s string) {
	d.printf(`<text x="%s" y="%s"%s>%s</text>`+"\n", num(x), num(y), attrs, esc(s))
}

// errorBar writes a vertical bar from y1 to y2 at x with caps of half-width
// half, as one path so there is one element per error bar.
func (d *svgDoc) errorBar(x, y1, y2, half float64, attrs string) {
	d.printf(`<path class="errorbar" d="M%s %sV%sM%s %sH%sM%s %sH%s"%s/>`+"\n",
		num(x), num(y1), num(y2),
		num(x-half), num(y1), num(x+half),
		num(x-half), num(y2), num(x+half), attrs)
}

// num formats a coordinate with at most two decimals: enough for sub-pixel
// placement, and it keeps files small and free of float noise.
func num(v float64) string {
	r := math.Round(v*100) / 100
	if r == 0 {
		r = 0 // turn -0 into 0
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// esc escapes s for use as XML text or inside a quoted attribute. Besides
// <, >, &, and quotes, it replaces characters XML forbids, so any series
// name yields a well-formed document.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return b.String()
}

// textWidth estimates the rendered width of s at the given font size. Real
// widths need font metrics; 0.6 em per character is a little wider than the
// average glyph of common sans-serif fonts, so layouts err towards room.
func textWidth(s string, size float64) float64 {
	return 0.6 * size * float64(utf8.RuneCountInString(s))
}

// maxTextWidth is the largest textWidth of strs.
func maxTextWidth(strs []string, size float64) float64 {
	w := 0.0
	for _, s := range strs {
		w = max(w, textWidth(s, size))
	}
	return w
}
