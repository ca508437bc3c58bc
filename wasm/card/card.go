//go:build js

package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"ilpgnn/core/bundle"
	"ilpgnn/core/explain"
	"ilpgnn/wasm/card/view"
)

// suggestions is how many links a node's suggestions list.
const suggestions = 5

// cards holds the page's cards and the bundles they share.
type cards struct {
	doc dom.Document
	mu  sync.Mutex // guards bundles: every card starts in a goroutine of its own
	// bundles are the bundles read or being read, by absolute URL.
	bundles map[string]*loading
}

// loading is one bundle, read once however many cards show it.
type loading struct {
	done chan struct{}
	b    *bundle.Bundle
	err  error
}

func newCards(doc dom.Document) *cards {
	return &cards{doc: doc, bundles: map[string]*loading{}}
}

// scan starts every card of the page that has not started yet.
func (cs *cards) scan() {
	list := cs.doc.Underlying().Call("querySelectorAll", "div.ilpgnn-card")
	for k := range list.Length() {
		el := wrap(list.Index(k))
		if el.HasAttribute("data-ilpgnn-started") {
			continue
		}
		el.SetAttribute("data-ilpgnn-started", "")
		c := &card{cs: cs, root: el}
		go c.start()
	}
}

// bundle returns the bundle at url, reading it on first use.
func (cs *cards) bundle(url string) (*bundle.Bundle, error) {
	cs.mu.Lock()
	l, ok := cs.bundles[url]
	if !ok {
		l = &loading{done: make(chan struct{})}
		cs.bundles[url] = l
	}
	cs.mu.Unlock()
	if !ok {
		go func() {
			defer close(l.done)
			data, err := fetchBytes(url)
			if err != nil {
				l.err = err
				return
			}
			l.b, l.err = bundle.Unmarshal(data)
			switch {
			case errors.Is(l.err, bundle.ErrNotBundle):
				l.err = fmt.Errorf("%s is not an explanation bundle: export the folder again with `ilpgnn export`", url)
			case l.err != nil:
				l.err = fmt.Errorf("the bundle at %s cannot be read: %w", url, l.err)
			}
		}()
	}
	<-l.done
	return l.b, l.err
}

// card is one <div class="ilpgnn-card">.
type card struct {
	cs   *cards
	root *element
	b    *bundle.Bundle

	body, errBox, suggestBox *element
	inA, inB                 *dom.HTMLInputElement
	// walkOpen keeps the walk-through open for the next pair once the
	// reader has opened it.
	walkOpen bool
	// listeners stay registered for the page's life.
	listeners []js.Func
}

func (c *card) start() {
	c.root.SetAttribute("role", "region")
	c.root.SetAttribute("aria-label", "Link explanation")
	c.root.Class().Add("ilpgnn-card-loading")
	c.root.SetTextContent("Loading the explanation…")
	src := strings.TrimSpace(c.root.GetAttribute("data-src"))
	if src == "" {
		c.fail("this card has no data-src: set it to the folder `ilpgnn export` wrote, for example data-src=\"cora/\"")
		return
	}
	url := js.Global().Get("URL").New(strings.TrimSuffix(src, "/")+"/"+bundle.CardFile, c.cs.doc.Underlying().Get("baseURI").String()).Call("toString").String()
	b, err := c.cs.bundle(url)
	if err != nil {
		c.fail(err.Error())
		return
	}
	c.b = b
	c.build()
	a, bID := view.Pair(func(name string) (string, bool) {
		return c.root.GetAttribute(name), c.root.HasAttribute(name)
	})
	if a == "" || bID == "" {
		c.say("Pick two nodes of " + b.Dataset + " to explain the link between them.")
		return
	}
	c.inA.SetValue(a)
	c.inB.SetValue(bID)
	c.explain(a, bID)
}

// fail replaces the card's contents with a message: a card never stays
// blank or throws into the page.
func (c *card) fail(msg string) {
	msg = view.Sentence(msg)
	c.root.Class().Remove("ilpgnn-card-loading")
	c.root.SetTextContent("")
	p := c.el("p", "ilpgnn-card-error", msg)
	p.SetAttribute("role", "alert")
	c.root.AppendChild(p)
}

// say shows msg in the error line (empty clears it).
func (c *card) say(msg string) {
	c.errBox.SetTextContent(view.Sentence(msg))
	if msg == "" {
		c.errBox.SetAttribute("hidden", "")
	} else {
		c.errBox.RemoveAttribute("hidden")
	}
}

// element is the one concrete type the card handles elements as. Calling
// methods through dom's Element interface instead keeps each method for
// every one of dom's element types in the build, which tripled the
// package's share of the WebAssembly.
type element = dom.BasicHTMLElement

func wrap(v js.Value) *element {
	return &element{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

func (c *card) el(tag, class, text string) *element {
	e := wrap(c.cs.doc.Underlying().Call("createElement", tag))
	if class != "" {
		e.SetAttribute("class", class)
	}
	if text != "" {
		e.SetTextContent(text)
	}
	return e
}

func (c *card) on(e *element, typ string, fn func(dom.Event)) {
	c.listeners = append(c.listeners, e.AddEventListener(typ, false, fn))
}

// build lays out the card: a head, the explanation's body, the form to
// pick another pair, and the suggestions.
func (c *card) build() {
	c.root.Class().Remove("ilpgnn-card-loading")
	c.root.SetTextContent("")
	head := c.el("div", "ilpgnn-card-head", "")
	head.AppendChild(c.el("span", "ilpgnn-card-title", "Why this link?"))
	head.AppendChild(c.el("span", "ilpgnn-card-data", c.b.Dataset+" · ILP-GNN"))
	c.root.AppendChild(head)

	c.body = c.el("div", "ilpgnn-card-body", "")
	c.body.SetAttribute("aria-live", "polite")
	c.root.AppendChild(c.body)

	c.errBox = c.el("p", "ilpgnn-card-error", "")
	c.errBox.SetAttribute("role", "alert")
	c.errBox.SetAttribute("hidden", "")
	c.root.AppendChild(c.errBox)

	form := c.el("form", "ilpgnn-card-form", "")
	c.inA = c.input(form, "first node")
	c.inB = c.input(form, "second node")
	explainBtn := c.el("button", "", "Explain")
	explainBtn.SetAttribute("type", "submit")
	form.AppendChild(explainBtn)
	suggestBtn := c.el("button", "", "Suggest links")
	suggestBtn.SetAttribute("type", "button")
	suggestBtn.SetAttribute("title", "the most likely new links of the first node")
	form.AppendChild(suggestBtn)
	c.root.AppendChild(form)
	c.suggestBox = c.el("div", "ilpgnn-card-suggest", "")
	c.root.AppendChild(c.suggestBox)

	c.on(form, "submit", func(ev dom.Event) {
		ev.PreventDefault()
		c.explain(c.inA.Value(), c.inB.Value())
	})
	c.on(suggestBtn, "click", func(dom.Event) { c.suggest(c.inA.Value()) })
}

func (c *card) input(form *element, label string) *dom.HTMLInputElement {
	l := c.el("label", "", "")
	l.AppendChild(c.el("span", "ilpgnn-card-label", label))
	in := &dom.HTMLInputElement{BasicHTMLElement: c.el("input", "", "")}
	in.SetAttribute("autocomplete", "off")
	in.SetAttribute("spellcheck", "false")
	l.AppendChild(in)
	form.AppendChild(l)
	return in
}

// node returns the node of id as given, or else as trimmed (a typed id
// may carry stray spaces; an id that has its own keeps them), and the id
// found.
func (c *card) node(id string) (int, string, error) {
	i, err := c.b.Node(id)
	if err != nil {
		if t := strings.TrimSpace(id); t != id {
			if k, errT := c.b.Node(t); errT == nil {
				return k, t, nil
			}
		}
		return 0, id, err
	}
	return i, id, nil
}

// explain shows the explanation of the pair of ids a and b; a mistake in
// them is said in the card, and the explanation shown stays.
func (c *card) explain(a, b string) {
	if a == "" || b == "" {
		c.say("Give two node ids.")
		return
	}
	i, a, err := c.node(a)
	if err != nil {
		c.say(err.Error())
		return
	}
	j, b, err := c.node(b)
	if err != nil {
		c.say(err.Error())
		return
	}
	if i == j {
		c.say("A link joins two different nodes.")
		return
	}
	e, err := c.b.Explain(i, j)
	if err != nil {
		c.say(err.Error())
		return
	}
	c.say("")
	// The pair shown, for the page: data-a and data-b exactly, data-pair
	// where it can hold the pair.
	c.root.SetAttribute("data-a", a)
	c.root.SetAttribute("data-b", b)
	if text, ok := view.PairText(a, b); ok {
		c.root.SetAttribute("data-pair", text)
	} else {
		c.root.RemoveAttribute("data-pair")
	}
	c.root.SetAttribute("aria-label", "Link explanation: "+a+" and "+b)
	c.render(view.New(e))
}

// suggest lists the most likely new links of node a; choosing one
// explains it.
func (c *card) suggest(a string) {
	c.suggestBox.SetTextContent("")
	i, a, err := c.node(a)
	if err != nil {
		c.say(err.Error())
		return
	}
	list, err := c.b.Suggest(i, suggestions)
	if err != nil {
		c.say(err.Error())
		return
	}
	c.say("")
	c.suggestBox.AppendChild(c.el("span", "ilpgnn-card-label", "Likely new links of "+a+":"))
	for _, s := range list {
		btn := c.el("button", "", s.ID+" · p "+view.Percent(s.Prob))
		btn.SetAttribute("type", "button")
		id := s.ID
		c.on(btn, "click", func(dom.Event) {
			c.inB.SetValue(id)
			c.explain(a, id)
		})
		c.suggestBox.AppendChild(btn)
	}
	if len(list) > 0 && list[0].TieNote != "" {
		c.suggestBox.AppendChild(c.el("span", "ilpgnn-card-note", list[0].TieNote+"."))
	}
}

// number is an element showing n, with its exact value for checking.
func (c *card) number(tag, key string, n view.Number) *element {
	e := c.el(tag, "ilpgnn-card-num", n.Text)
	e.SetAttribute("data-key", key)
	e.SetAttribute("data-value", n.Exact)
	return e
}

// render replaces the body's contents with v. The body itself stays, so
// that screen readers announce the new explanation in its live region.
func (c *card) render(v *view.View) {
	body := c.body
	body.SetTextContent("")
	p := c.el("p", "ilpgnn-card-p", "")
	p.AppendChild(c.el("span", "", "p("+view.Listed(v.I)+", "+view.Listed(v.J)+") = "))
	p.AppendChild(c.number("strong", "prob", v.Prob))
	if v.Status != "" {
		p.AppendChild(c.el("span", "ilpgnn-card-status", " ("+v.Status+")"))
	}
	body.AppendChild(p)
	body.AppendChild(c.el("p", "ilpgnn-card-reading", v.Reading))
	body.AppendChild(c.drawing(v))
	legend := c.el("p", "ilpgnn-card-legend", "")
	for _, k := range [][2]string{{view.RoleEnd, "the pair"}, {view.RoleSelected, "selected neighbour"}, {view.RoleCommon, "common neighbour"}, {"weight", "thicker: more weight"}} {
		legend.AppendChild(c.el("span", "ilpgnn-card-key-"+k[0], k[1]))
	}
	body.AppendChild(legend)
	sides := c.el("div", "ilpgnn-card-sides", "")
	for k, s := range v.Sides {
		sides.AppendChild(c.sideTable([2]string{"i", "j"}[k], s))
	}
	body.AppendChild(sides)
	cf := c.el("table", "ilpgnn-card-cf", "")
	cf.AppendChild(c.el("caption", "", "What if"))
	for _, x := range v.Counterfactuals {
		tr := c.el("tr", "", "")
		tr.AppendChild(c.el("th", "", x.Label))
		tr.AppendChild(c.number("td", x.Key, x.Value))
		cf.AppendChild(tr)
	}
	body.AppendChild(cf)
	body.AppendChild(c.el("p", "ilpgnn-card-removal", v.Removal))
	body.AppendChild(c.walkthrough(v.Steps))
}

// walkthrough is "How the model decided", collapsed until the reader
// opens it: the steps in order, each with its title and words.
func (c *card) walkthrough(steps []explain.Step) *element {
	d := c.el("details", "ilpgnn-card-walk", "")
	if c.walkOpen {
		d.SetAttribute("open", "")
	}
	d.AppendChild(c.el("summary", "", "How the model decided"))
	ol := c.el("ol", "", "")
	for _, s := range steps {
		li := c.el("li", "", "")
		li.SetAttribute("data-step", s.Key)
		li.AppendChild(c.el("strong", "ilpgnn-card-step-title", s.Title))
		li.AppendChild(c.el("span", "ilpgnn-card-step-text", " "+s.Text))
		ol.AppendChild(li)
	}
	d.AppendChild(ol)
	c.on(d, "toggle", func(dom.Event) { c.walkOpen = d.Underlying().Get("open").Bool() })
	return d
}

func (c *card) sideTable(key string, s view.Side) *element {
	t := c.el("table", "ilpgnn-card-side", "")
	t.AppendChild(c.el("caption", "", fmt.Sprintf("%s: neighbours selected against %s (of %d)", s.Node, s.Other, s.Candidates)))
	head := c.el("tr", "", "")
	for _, h := range []string{"neighbour", "weight", "attribution", "p without"} {
		th := c.el("th", "", h)
		th.SetAttribute("scope", "col")
		head.AppendChild(th)
	}
	t.AppendChild(head)
	if len(s.Rows) == 0 {
		tr := c.el("tr", "", "")
		td := c.el("td", "", "no neighbours: "+s.Node+" speaks for itself")
		td.SetAttribute("colspan", "4")
		tr.AppendChild(td)
		t.AppendChild(tr)
	}
	for _, r := range s.Rows {
		tr := c.el("tr", "", "")
		id := c.el("th", "", r.ID)
		id.SetAttribute("scope", "row")
		if r.Common {
			id.AppendChild(c.el("span", "ilpgnn-card-common", " common"))
		}
		tr.AppendChild(id)
		k := key + "." + r.ID + "."
		tr.AppendChild(c.number("td", k+"weight", r.Weight))
		tr.AppendChild(c.number("td", k+"attribution", r.Attribution))
		tr.AppendChild(c.number("td", k+"prob_without", r.ProbWithout))
		t.AppendChild(tr)
	}
	return t
}

const svgNS = "http://www.w3.org/2000/svg"

func (c *card) svg(tag string, attrs ...string) *element {
	e := wrap(c.cs.doc.Underlying().Call("createElementNS", svgNS, tag))
	for k := 0; k+1 < len(attrs); k += 2 {
		e.SetAttribute(attrs[k], attrs[k+1])
	}
	return e
}

func f(v float64) string { return fmt.Sprintf("%.1f", v) }

func (c *card) drawing(v *view.View) *element {
	d := v.Drawing
	s := c.svg("svg", "viewBox", "0 0 "+f(d.Width)+" "+f(d.Height), "class", "ilpgnn-card-drawing", "role", "img")
	var sel []string
	for _, side := range v.Sides {
		for _, r := range side.Rows {
			sel = append(sel, r.ID)
		}
	}
	s.SetAttribute("aria-label", fmt.Sprintf("%s and %s with their selected neighbours %s", v.I, v.J, strings.Join(sel, ", ")))
	for _, e := range d.Edges {
		class := "ilpgnn-card-edge"
		if e.Pair {
			class = "ilpgnn-card-pair"
		}
		s.AppendChild(c.svg("line", "x1", f(e.X1), "y1", f(e.Y1), "x2", f(e.X2), "y2", f(e.Y2), "stroke-width", f(e.Width), "class", class))
	}
	for _, n := range d.Nodes {
		g := c.svg("g", "class", "ilpgnn-card-node ilpgnn-card-"+n.Role)
		g.AppendChild(c.svg("circle", "cx", f(n.X), "cy", f(n.Y), "r", f(view.Radius(n.Role))))
		label := c.svg("text", "x", f(n.X), "y", f(n.LabelY), "text-anchor", "middle")
		label.SetTextContent(n.ID)
		g.AppendChild(label)
		s.AppendChild(g)
	}
	return s
}
