// Every relative link of the repository's Markdown files must name a file
// or folder that exists, so that a clone's documentation holds together
// after files move. Run by `make test` (the docs target); prints each
// broken link as FILE: TARGET and exits 1 when there is any.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const files = execFileSync("git", ["ls-files", "*.md"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
const broken = [];
let links = 0;
for (const file of files) {
  const text = readFileSync(join(root, file), "utf8");
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1];
    if (/^[a-z]+:/.test(target) || target.startsWith("#")) continue;
    const path = target.split("#")[0];
    if (path === "") continue;
    links++;
    if (!existsSync(resolve(root, dirname(file), decodeURIComponent(path)))) broken.push(`${file}: ${target}`);
  }
}
if (broken.length > 0) {
  console.log(`${broken.length} broken link(s) of ${links}:\n${broken.join("\n")}`);
  process.exit(1);
}
console.log(`${links} relative links in ${files.length} Markdown files, none broken`);
