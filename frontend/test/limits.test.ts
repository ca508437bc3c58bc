import assert from "node:assert/strict";
import { test } from "node:test";
import { TAB_FILE_LIMIT, binarySize, filesTooLarge } from "../src/app/limits";

test("sizes in binary units, as the command line writes them", () => {
  assert.equal(binarySize(512), "512 bytes");
  assert.equal(binarySize(1536), "1.5 KiB");
  assert.equal(binarySize(2 ** 30), "1 GiB");
  assert.equal(binarySize(20 * 2 ** 30), "20 GiB");
});

test("files over the tab's limit are refused from their sizes, with the total and the limit", () => {
  assert.equal(filesTooLarge([{ name: "edges.csv", size: TAB_FILE_LIMIT }]), null);
  assert.equal(filesTooLarge([]), null);
  assert.equal(
    filesTooLarge([{ name: "huge.npz", size: 20 * 2 ** 30 }]),
    "huge.npz is 20 GiB, over the 1 GiB this tab reads: its memory ends at 4 GiB. Nothing was read; the command line (ilpgnn) takes larger graphs.",
  );
  assert.equal(
    filesTooLarge([{ name: "edges.csv", size: 2 ** 29 }, { name: "features.csv", size: 2 ** 29 + 1 }]),
    "edges.csv, features.csv are 1 GiB, over the 1 GiB this tab reads: its memory ends at 4 GiB. Nothing was read; the command line (ilpgnn) takes larger graphs.",
  );
});
