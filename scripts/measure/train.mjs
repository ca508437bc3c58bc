// Trains a link predictor over several seeds with `ilpgnn train --json` and
// prints, per seed, test and validation AUC, the best epoch, the time per
// epoch and per run, then a SUMMARY line with the means (± the sample
// standard deviation of the AUCs): the table the baselines' defaults were
// chosen from (docs/gnn-tuning.md for gae, vgae and gat; docs/pair-models.md
// for seal, wp and conpi).
//
//   node scripts/measure/train.mjs --data ../shared/datasets/cora --model gae --seeds 0,1,2,3,4 -- --lr 0.01 --out 128
//
// Everything after `--` goes to `ilpgnn train` as the model's flags
// (`ilpgnn train --model M -h` lists them). --data and --model take
// comma-separated lists, each pair measured in turn. The split is train's:
// split.New(g, seed, 0.05, 0.1) unless the flags say otherwise. --verbose
// passes train's progress lines through (stderr, on a terminal). --bin runs
// a built binary (./build/ilpgnn) instead of `go run ./core/cmd/ilpgnn`.
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

function usage(msg) {
  if (msg) console.error(`train.mjs: ${msg}`);
  console.error("usage: node scripts/measure/train.mjs --data PATH[,PATH] [--model NAME[,NAME]] [--seeds 0,1] [--bin ./build/ilpgnn] [--verbose] [-- train flags]");
  process.exit(2);
}

const opt = { data: "", model: "ilpgnn", seeds: "0", bin: "", verbose: false };
const argv = process.argv.slice(2);
let extra = [];
for (let k = 0; k < argv.length; k++) {
  const a = argv[k];
  if (a === "--") {
    extra = argv.slice(k + 1);
    break;
  }
  const m = /^--?([a-z]+)(?:=(.*))?$/.exec(a);
  if (!m) usage(`unexpected argument ${a}`);
  const [, name, inline] = m;
  if (name === "verbose") {
    opt.verbose = true;
  } else if (name in opt) {
    const v = inline ?? argv[++k];
    if (v === undefined) usage(`--${name} needs a value`);
    opt[name] = v;
  } else if (name === "h" || name === "help") {
    usage();
  } else {
    usage(`unknown flag --${name} (a model's flags go after --)`);
  }
}
if (!opt.data) usage("--data is required");

const [cmd, pre] = opt.bin ? [resolve(opt.bin), []] : ["go", ["run", "./core/cmd/ilpgnn"]];

// meanStd returns the mean and the sample standard deviation (0 for one
// value), as eval.MeanStd.
function meanStd(xs) {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  if (xs.length < 2) return [mean, 0];
  const ss = xs.reduce((s, x) => s + (x - mean) ** 2, 0);
  return [mean, Math.sqrt(ss / (xs.length - 1))];
}

const f = (x, d) => x.toFixed(d);
let failed = false;
for (const data of opt.data.split(",")) {
  for (const model of opt.model.split(",")) {
    const args = [...pre, "train", "--data", data, "--model", model, "--seeds", opt.seeds, "--json", ...(opt.verbose ? [] : ["--quiet"]), ...extra];
    const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 28 });
    if (r.status !== 0) {
      console.error(`train.mjs: ${cmd} ${args.join(" ")}: ${r.error ?? `exit ${r.status}`}`);
      failed = true;
      continue;
    }
    const out = JSON.parse(r.stdout);
    const cols = { test: [], val: [], ms: [], secs: [], best: [] };
    for (const run of out.runs) {
      console.log(`${out.dataset} ${out.model} seed ${run.seed}: test AUC ${f(run.test_auc, 4)} val AUC ${f(run.val_auc, 4)} ` +
        `best epoch ${run.best_epoch} of ${run.epochs}, ${f(run.epoch_ms, 1)} ms/epoch, ${f(run.train_seconds, 1)} s`);
      cols.test.push(100 * run.test_auc);
      cols.val.push(100 * run.val_auc);
      cols.ms.push(run.epoch_ms);
      cols.secs.push(run.train_seconds);
      cols.best.push(run.best_epoch);
    }
    const [tm, ts] = meanStd(cols.test);
    const [vm, vs] = meanStd(cols.val);
    const [em] = meanStd(cols.best);
    const [mm] = meanStd(cols.ms);
    const [sm] = meanStd(cols.secs);
    console.log(`SUMMARY ${out.dataset} ${out.model} flags ${JSON.stringify(extra.join(" "))} seeds [${out.runs.map((r) => r.seed).join(" ")}]: ` +
      `test AUC ${f(tm, 2)} ± ${f(ts, 2)}, val AUC ${f(vm, 2)} ± ${f(vs, 2)}, best epoch ${f(em, 0)}, ${f(mm, 1)} ms/epoch, ${f(sm, 1)} s/run`);
  }
}
process.exit(failed ? 1 : 0);
