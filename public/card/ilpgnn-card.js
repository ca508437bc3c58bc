// ILP-GNN explanation cards: <div class="ilpgnn-card" data-src="cora/"
// data-pair="35,1033"></div> (or data-a="35" data-b="1033", which hold ids
// with commas) and this script. It loads the card's
// WebAssembly once, from the folder this script was served from, however
// many cards and script tags the page has; the engine then finds and
// renders every card. Nothing is requested beyond this script's folder
// and the cards' data-src folders.
(() => {
  "use strict";
  if (window.ilpgnnCardLoading) {
    // A second script tag: render the cards added since.
    window.ilpgnnCardLoading.then(() => window.ilpgnnCard.scan());
    return;
  }
  const here = new URL(".", document.currentScript.src);

  function fail(err) {
    for (const el of document.querySelectorAll("div.ilpgnn-card")) {
      if (el.hasAttribute("data-ilpgnn-started")) continue;
      const p = document.createElement("p");
      p.className = "ilpgnn-card-error";
      p.setAttribute("role", "alert");
      p.textContent = "The explanation card could not start: " + err;
      el.replaceChildren(p);
    }
  }

  function load(tag, attrs) {
    return new Promise((resolve, reject) => {
      const el = document.createElement(tag);
      Object.assign(el, attrs);
      el.onload = resolve;
      el.onerror = () => reject(new Error("cannot load " + (attrs.src || attrs.href)));
      document.head.append(el);
    });
  }

  function start() {
    // Every card's bundle starts downloading now, while the engine is
    // fetched and compiled; the engine takes the responses from here
    // (wasm/card/fetch.go) instead of asking again.
    const prefetch = (window.ilpgnnCardPrefetch ??= {});
    for (const el of document.querySelectorAll("div.ilpgnn-card")) {
      if (el.hasAttribute("data-ilpgnn-started")) continue;
      if (!el.firstChild) el.textContent = "Loading the explanation…";
      const src = (el.getAttribute("data-src") ?? "").trim();
      if (!src) continue;
      const url = new URL(src.replace(/\/$/, "") + "/card.bundle", document.baseURI).href;
      prefetch[url] ??= fetch(url, { credentials: "same-origin" });
    }
    // The stylesheet is a file, not an inline <style>, so that a strict
    // style-src 'self' admits it.
    load("link", { rel: "stylesheet", href: new URL("ilpgnn-card.css", here).href }).catch(() => {});
    const url = new URL("ilpgnn-card.wasm", here);
    const wasm = fetch(url); // at once, beside wasm_exec.js
    return load("script", { src: new URL("wasm_exec.js", here).href })
      .then(() => {
        const go = new Go();
        const ready = new Promise((resolve) => { window.ilpgnnCardReady = resolve; });
        // Hosts that do not send application/wasm refuse streaming.
        return WebAssembly.instantiateStreaming(wasm, go.importObject)
          .catch(() => fetch(url).then((r) => {
            if (!r.ok) throw new Error("no " + url.pathname + " (HTTP " + r.status + ")");
            return r.arrayBuffer();
          }).then((buf) => WebAssembly.instantiate(buf, go.importObject)))
          .then(({ instance }) => {
            go.run(instance).then(() => fail("the engine stopped"));
            return ready;
          });
      })
      .catch((err) => fail(err && err.message ? err.message : String(err)));
  }

  window.ilpgnnCardLoading = document.readyState === "loading"
    ? new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true })).then(start)
    : start();
})();
