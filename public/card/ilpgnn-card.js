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

  // Which bytes to ask for. A host that compresses (precompressed twins or
  // on the fly) sent this script compressed, as its resource timing shows:
  // fewer bytes on the wire than in the script. It negotiates the large
  // files too, brotli included, so they are asked for by their own names.
  // Any other host (python3 -m http.server, a bucket without encoding
  // metadata), or one whose timing the page cannot see, may send them raw:
  // the card then asks for the NAME.gz twin `ilpgnn export` writes beside
  // each file and decompresses it here. A browser without
  // DecompressionStream reads the files themselves.
  const timing = performance.getEntriesByName(document.currentScript.src)[0];
  const hostCompresses = timing !== undefined && timing.encodedBodySize > 0 && timing.encodedBodySize < timing.decodedBodySize;
  const useTwins = !hostCompresses && typeof DecompressionStream === "function";

  // The response to url with the file's bytes and the given Content-Type:
  // from its .gz twin when useTwins, else (or when the twin is missing or
  // cannot be fetched) from the file itself.
  function fetchFile(url, init, type) {
    const plain = () => fetch(url, init);
    if (!useTwins) return plain();
    const twin = new URL(url);
    twin.pathname += ".gz";
    return fetch(twin, init)
      .then((r) => (r.ok && r.body ? fromTwin(r, type, plain) : plain()))
      .catch(plain);
  }

  // The file's bytes from its twin's response r. The twin is decompressed
  // here when it starts with gzip's magic bytes, as it does when the host
  // sent it as it is; a host that sent it with a Content-Encoding had the
  // browser decode it already. Anything else (a host's page for a missing
  // file, sent as 200) is not the twin: the file itself is read instead.
  async function fromTwin(r, type, plain) {
    const reader = r.body.getReader();
    let head = new Uint8Array(0);
    let done = false;
    while (head.length < 2 && !done) {
      const chunk = await reader.read();
      done = chunk.done;
      if (chunk.value) {
        const joined = new Uint8Array(head.length + chunk.value.length);
        joined.set(head);
        joined.set(chunk.value, head.length);
        head = joined;
      }
    }
    const gzip = head[0] === 0x1f && head[1] === 0x8b;
    if (!gzip && !r.headers.has("content-encoding")) {
      reader.cancel().catch(() => {});
      return plain();
    }
    let bytes = new ReadableStream({
      start(out) {
        if (head.length) out.enqueue(head);
        if (done) out.close();
      },
      async pull(out) {
        const chunk = await reader.read();
        if (chunk.done) out.close();
        else out.enqueue(chunk.value);
      },
      cancel(why) {
        return reader.cancel(why);
      },
    });
    if (gzip) bytes = bytes.pipeThrough(new DecompressionStream("gzip"));
    return new Response(bytes, { headers: { "content-type": type } });
  }

  // The engine (wasm/card/fetch.go) reads the bundles of cards added later
  // through this too.
  window.ilpgnnCardFetch = (url) => fetchFile(url, { credentials: "same-origin" }, "application/octet-stream");

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
      prefetch[url] ??= window.ilpgnnCardFetch(url);
    }
    // The stylesheet is a file, not an inline <style>, so that a strict
    // style-src 'self' admits it.
    load("link", { rel: "stylesheet", href: new URL("ilpgnn-card.css", here).href }).catch(() => {});
    const url = new URL("ilpgnn-card.wasm", here);
    const wasm = fetchFile(url.href, undefined, "application/wasm"); // at once, beside wasm_exec.js
    return load("script", { src: new URL("wasm_exec.js", here).href })
      .then(() => {
        const go = new Go();
        const ready = new Promise((resolve) => { window.ilpgnnCardReady = resolve; });
        // Hosts that do not send application/wasm refuse streaming, and a
        // damaged twin fails it: the file itself, compiled from its bytes.
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
