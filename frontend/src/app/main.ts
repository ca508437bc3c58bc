// Entry point of the page (bundled as build/site/app.js): starts the engine
// worker and the app. `window.ilpgnnExplorer` exposes the app for the
// browser tests and for curious users in the console; nothing depends on it.

import { startEngine } from "../engine";
import { App } from "./app";

declare global {
  interface Window {
    ilpgnnExplorer?: App;
  }
}

function main(): void {
  let app: App | undefined;
  const engine = startEngine("worker.js", {
    onWarning: (message: string) => console.warn(`engine: ${message}`),
    // Said in the status line even when no request was waiting on the engine.
    onFatal: () => app?.engineStopped(),
    onStorage: (storage) => app?.storageChanged(storage),
  });
  app = new App(engine);
  window.ilpgnnExplorer = app;
  app.start().catch((e: unknown) => console.error(e));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main, { once: true });
else main();
