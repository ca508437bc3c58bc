// Runs the README's commands in order from the repository root, as a
// newcomer would after cloning: every command of a ```sh block and every
// "$ " line of a ```console block, except the two that do not end (make
// run, which serves) or that are the test run itself (make test). The
// output a console block shows must appear in the command's output, line
// for line in order ("..." and lines after "... and N more" are elisions;
// trailing spaces do not count). Usage: node scripts/readme-commands.mjs
// [README.md]. Exits 1 on the first command that fails or prints
// something else.

import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const readme = resolve(root, process.argv[2] ?? "README.md");
const skip = [/^make (run|serve|test)\b/];

/** The README's commands in order: { line, command, expect: string[] }. */
export function commands(text) {
  const out = [];
  const lines = text.split("\n");
  let block = null; // "sh" or "console" inside a fence, else null
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    const fence = /^```(\w*)/.exec(line);
    if (fence) {
      block = block === null ? fence[1] : null;
      continue;
    }
    if (block === "sh") {
      const command = line.replace(/\s+#.*$/, "").trim();
      if (command !== "" && !command.startsWith("#")) out.push({ line: k + 1, command, expect: [] });
    } else if (block === "console" && line.startsWith("$ ")) {
      out.push({ line: k + 1, command: line.slice(2), expect: [] });
    } else if (block === "console" && out.length > 0) {
      out[out.length - 1].expect.push(line);
    }
  }
  return out.filter((c) => !skip.some((re) => re.test(c.command)));
}

/** Whether want's lines appear in got's, in order; "..." lines are elisions. */
export function shows(got, want) {
  const have = got.split("\n").map((l) => l.trimEnd());
  let at = 0;
  for (const w of want.map((l) => l.trimEnd())) {
    if (w === "" || w === "..." || /^\s*\.\.\.( and \d+ more.*)?$/.test(w)) continue;
    const found = have.indexOf(w, at);
    if (found < 0) return w;
    at = found + 1;
  }
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const list = commands(readFileSync(readme, "utf8"));
  for (const c of list) {
    console.log(`README.md:${c.line}: ${c.command}`);
    const r = spawnSync("sh", ["-c", c.command], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
    if (r.status !== 0) {
      console.error(`README.md:${c.line}: exit ${r.status}\n${r.stdout}${r.stderr}`);
      process.exit(1);
    }
    const missing = shows(r.stdout, c.expect);
    if (missing !== null) {
      console.error(`README.md:${c.line}: the README shows a line the command did not print:\n  ${missing}\nit printed:\n${r.stdout}`);
      process.exit(1);
    }
  }
  console.log(`${list.length} README commands ran as written`);
}
