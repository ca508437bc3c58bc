//go:build js

// Command card is the embeddable explanation card: a small WebAssembly
// build that runs on the page's main thread and never trains. It finds the
// page's <div class="ilpgnn-card" data-src="DIR/" data-pair="A,B">
// elements (data-a="A" data-b="B" for ids with commas: view.Pair), reads
// the bundle `ilpgnn export` wrote into DIR (package bundle), and renders
// each pair's explanation with package view. Every
// card on a page shares this one instance, and cards of the same folder
// share its bundle. ilpgnn-card.js (in this folder) loads it.
package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

func main() {
	doc := dom.GetWindow().Document()
	cards := newCards(doc)
	// The page may add cards after load: ilpgnnCard.scan() renders them.
	scan := js.FuncOf(func(js.Value, []js.Value) any {
		cards.scan()
		return nil
	})
	api := js.Global().Get("Object").New()
	api.Set("scan", scan)
	js.Global().Set("ilpgnnCard", api)
	cards.scan()
	if ready := js.Global().Get("ilpgnnCardReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}
