// GraphInput driven by synthetic events against a fake view: clicks, drags,
// wheel and keys become the view operations and callbacks they should.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DRAG_THRESHOLD, GraphInput, KEY_PAN, KEY_ZOOM, type InputSurface, type InputView } from "../src/app/graph/input";
import { pan, zoomAbout, type Transform } from "../src/app/graph/transform";

/** The canvas stand-in: an EventTarget at page offset (10, 20). */
class FakeSurface extends EventTarget implements InputSurface {
  readonly style = { cursor: "" };
  captured: number[] = [];
  getBoundingClientRect() {
    return { left: 10, top: 20 };
  }
  setPointerCapture(id: number): void {
    this.captured.push(id);
  }
  releasePointerCapture(id: number): void {
    this.captured = this.captured.filter((c) => c !== id);
  }
}

/** A view with node 7 drawn at canvas point (100, 50) (within 5 px) and nothing else. */
class FakeView implements InputView {
  t: Transform = { k: 2, x: 30, y: -40 };
  held = 0;
  fits = 0;
  hovers: Array<[number, { clientX: number; clientY: number } | null]> = [];
  nodeAt(x: number, y: number): number {
    return Math.hypot(x - 100, y - 50) <= 5 ? 7 : -1;
  }
  transform(): Transform {
    return this.t;
  }
  setTransform(t: Transform): void {
    this.t = t;
  }
  fit(): void {
    this.fits++;
  }
  holdView(): void {
    this.held++;
  }
  size() {
    return { width: 400, height: 300 };
  }
  setHover(i: number, at: { clientX: number; clientY: number } | null): void {
    this.hovers.push([i, at]);
  }
}

function setup() {
  const surface = new FakeSurface();
  const view = new FakeView();
  const clicks: number[] = [];
  let background = 0;
  const input = new GraphInput(surface, view, { onNodeClick: (i) => clicks.push(i), onBackgroundClick: () => background++ });
  const fire = <T extends object>(type: string, fields: T): Event => {
    const ev = Object.assign(new Event(type, { cancelable: true }), fields);
    surface.dispatchEvent(ev);
    return ev;
  };
  // Client coordinates: canvas point + the surface's offset.
  const pointer = (type: string, x: number, y: number, extra: object = {}) => fire(type, { clientX: x + 10, clientY: y + 20, pointerId: 1, button: 0, ...extra });
  return { surface, view, input, clicks, background: () => background, fire, pointer };
}

test("a press and release on a node is a click on it; on empty canvas, a background click", () => {
  const s = setup();
  s.pointer("pointerdown", 101, 49);
  assert.deepEqual(s.surface.captured, [1]);
  s.pointer("pointerup", 101, 49);
  assert.deepEqual(s.clicks, [7]);
  assert.deepEqual(s.surface.captured, [], "the capture is released");
  s.pointer("pointerdown", 300, 200);
  s.pointer("pointerup", 300, 200);
  assert.deepEqual(s.clicks, [7]);
  assert.equal(s.background(), 1);
  // A right button press does nothing.
  s.pointer("pointerdown", 100, 50, { button: 2 });
  s.pointer("pointerup", 100, 50, { button: 2 });
  assert.deepEqual(s.clicks, [7]);
  assert.equal(s.view.held, 0, "clicks leave the view's fitting alone");
});

test("a drag past the threshold pans by the pointer's travel and is not a click", () => {
  const s = setup();
  const t0 = s.view.t;
  s.pointer("pointerdown", 100, 50);
  // Within the threshold: still a press, nothing moves.
  s.pointer("pointermove", 100 + DRAG_THRESHOLD, 50);
  assert.equal(s.view.t, t0);
  assert.equal(s.view.held, 0);
  s.pointer("pointermove", 130, 70);
  assert.equal(s.surface.style.cursor, "grabbing");
  assert.equal(s.view.held, 1);
  s.pointer("pointermove", 160, 40);
  // Total travel from the press: (+60, -10).
  assert.deepEqual(s.view.t, pan(t0, 60, -10));
  s.pointer("pointerup", 160, 40);
  assert.deepEqual(s.clicks, []);
  assert.equal(s.background(), 0);
  assert.equal(s.surface.style.cursor, "");
});

test("hovering a node hovers it in the view with the pointer's client point, and shows a pointer cursor", () => {
  const s = setup();
  s.pointer("pointermove", 99, 51);
  const [node, at] = s.view.hovers.at(-1)!;
  assert.equal(node, 7);
  assert.deepEqual([at?.clientX, at?.clientY], [109, 71]);
  assert.equal(s.surface.style.cursor, "pointer");
  s.pointer("pointermove", 200, 200);
  assert.deepEqual(s.view.hovers.at(-1), [-1, null]);
  assert.equal(s.surface.style.cursor, "");
  s.pointer("pointermove", 100, 50);
  s.fire("pointerleave", {});
  assert.deepEqual(s.view.hovers.at(-1), [-1, null]);
  assert.equal(s.surface.style.cursor, "");
});

test("the wheel zooms about the pointer: pixels, lines and pages", () => {
  const s = setup();
  const t0 = s.view.t;
  const ev = s.fire("wheel", { clientX: 110, clientY: 70, deltaY: -240, deltaMode: 0 });
  assert.equal(ev.defaultPrevented, true, "the page does not scroll");
  assert.deepEqual(s.view.t, zoomAbout(t0, 100, 50, Math.exp(240 * 0.002)));
  assert.equal(s.view.held, 1);
  const t1 = s.view.t;
  s.fire("wheel", { clientX: 10, clientY: 20, deltaY: 3, deltaMode: 1 });
  assert.deepEqual(s.view.t, zoomAbout(t1, 0, 0, Math.exp(-3 * 0.05)));
  const t2 = s.view.t;
  s.fire("wheel", { clientX: 10, clientY: 20, deltaY: 1, deltaMode: 2 });
  assert.deepEqual(s.view.t, zoomAbout(t2, 0, 0, Math.exp(-1)));
});

test("keys pan (Shift four times as far), zoom about the centre and fit; modified keys are left to the browser", () => {
  const s = setup();
  const key = (k: string, mods: object = {}) => s.fire("keydown", { key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
  let t = s.view.t;
  assert.equal(key("ArrowLeft").defaultPrevented, true);
  assert.deepEqual(s.view.t, (t = pan(t, KEY_PAN, 0)));
  key("ArrowDown", { shiftKey: true });
  assert.deepEqual(s.view.t, (t = pan(t, 0, -4 * KEY_PAN)));
  key("ArrowRight");
  key("ArrowUp");
  assert.deepEqual(s.view.t, (t = pan(pan(t, -KEY_PAN, 0), 0, KEY_PAN)));
  key("+");
  assert.deepEqual(s.view.t, (t = zoomAbout(t, 200, 150, KEY_ZOOM)));
  key("_");
  assert.deepEqual(s.view.t, (t = zoomAbout(t, 200, 150, 1 / KEY_ZOOM)));
  assert.equal(s.view.held, 6);
  assert.equal(key("0").defaultPrevented, true);
  assert.equal(s.view.fits, 1);
  // Ctrl+= is the browser's zoom; "x" is no key of ours.
  assert.equal(key("=", { ctrlKey: true }).defaultPrevented, false);
  assert.equal(key("x").defaultPrevented, false);
  assert.deepEqual(s.view.t, t);
  assert.equal(s.view.held, 6);
});

test("after destroy, events do nothing", () => {
  const s = setup();
  s.input.destroy();
  const t0 = s.view.t;
  s.pointer("pointerdown", 100, 50);
  s.pointer("pointerup", 100, 50);
  s.fire("wheel", { clientX: 110, clientY: 70, deltaY: -240, deltaMode: 0 });
  s.fire("keydown", { key: "ArrowLeft", altKey: false, ctrlKey: false, metaKey: false, shiftKey: false });
  assert.deepEqual(s.clicks, []);
  assert.equal(s.view.t, t0);
  assert.deepEqual(s.view.hovers, []);
});

test("] and [ step through neighbours and Enter activates, without moving the view; without handlers they are left alone", () => {
  const surface = new FakeSurface();
  const view = new FakeView();
  const calls: string[] = [];
  new GraphInput(surface, view, { onStep: (d) => calls.push(`step ${d}`), onActivate: () => calls.push("enter") });
  const key = (k: string, mods: object = {}) => {
    const ev = Object.assign(new Event("keydown", { cancelable: true }), { key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
    surface.dispatchEvent(ev);
    return ev;
  };
  const t0 = view.t;
  assert.equal(key("]").defaultPrevented, true);
  key("]");
  key("[");
  assert.equal(key("Enter").defaultPrevented, true);
  assert.equal(key("]", { ctrlKey: true }).defaultPrevented, false);
  assert.deepEqual(calls, ["step 1", "step 1", "step -1", "enter"]);
  assert.equal(view.t, t0);
  assert.equal(view.held, 0);
  const bare = setup();
  assert.equal(bare.fire("keydown", { key: "]", altKey: false, ctrlKey: false, metaKey: false, shiftKey: false }).defaultPrevented, false);
  assert.equal(bare.fire("keydown", { key: "Enter", altKey: false, ctrlKey: false, metaKey: false, shiftKey: false }).defaultPrevented, false);
});
