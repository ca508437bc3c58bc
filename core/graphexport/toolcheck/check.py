"""Runs the tools that read ilpgnn's graph exports on them, where they run
here, and checks what they produce: DGL's random partitioning and
GraphStorm's GSPartition random partitioning (their own code, pyarrow
stood in when missing), GraphStorm's gconstruct readers of the custom
split and of a separated feature column (their functions, taken from
GraphStorm's source), and the PyG arrays under PyTorch as PyG reads them
(torch_geometric itself when installed). Outside `make test`: it needs
Debian's python3-numpy, python3-pandas, python3-pydantic, python3-torch and checkouts of
dmlc/dgl and awslabs/graphstorm. Run by run.sh."""

import argparse
import ast
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import types

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def python_path(*dirs):
    """dirs, then the stand-ins (shim/) of the modules that are missing."""
    shims = []
    for module, shim in (("pyarrow", "arrow"), ("dgl", "dgl")):
        if importlib.util.find_spec(module) is None:
            shims.append(os.path.join(HERE, "shim", shim))
    return os.pathsep.join(list(dirs) + shims)


def edge_lines(folder, meta):
    spec = meta["edges"][meta["edge_type"][0]]
    return np.loadtxt(os.path.join(folder, spec["data"][0]), dtype=np.int64, delimiter=spec["format"]["delimiter"], ndmin=2)


def check_partitions(out, meta, how):
    ntype, n = meta["node_type"][0], meta["num_nodes_per_type"][0]
    parts = np.loadtxt(os.path.join(out, ntype + ".txt"), dtype=np.int64, ndmin=1)
    check(len(parts) == n and parts.min() >= 0 and parts.max() < 2, f"{how}: {ntype}.txt assigns each of the {n} nodes a partition in [0, 2) ({len(parts)} lines)")
    with open(os.path.join(out, "partition_meta.json")) as f:
        pm = json.load(f)
    check(pm["num_parts"] == 2 and pm["algo_name"] == "random", f"{how}: partition_meta.json {pm}")


def dgl(folder, tools):
    with open(os.path.join(folder, "metadata.json")) as f:
        meta = json.load(f)
    edges = edge_lines(folder, meta)
    # data_shuffle.py:1326-1327 and parmetis_preprocess.py:311-312.
    check(sum(meta.get("num_edges_per_type", [-1])) == len(edges), f"dgl {folder}: num_edges_per_type {meta.get('num_edges_per_type')} = the {len(edges)} edge lines")
    for mask in ("train_mask", "val_mask", "test_mask"):
        m = np.load(os.path.join(folder, meta["edge_data"][meta["edge_type"][0]][mask]["data"][0]))
        check(m.shape == (len(edges),), f"dgl {folder}: {mask} has one value per edge line")
    if not tools:
        print("skip dgl: no --dgl (a checkout of dmlc/dgl)")
        return
    out = tempfile.mkdtemp()
    env = dict(os.environ, PYTHONPATH=python_path(os.path.join(tools, "tools")))
    r = subprocess.run([sys.executable, os.path.join(tools, "tools/partition_algo/random_partition.py"),
                        "--in_dir", folder, "--out_dir", out, "--num_partitions", "2"], env=env, capture_output=True, text=True)
    check(r.returncode == 0, f"dgl tools/partition_algo/random_partition.py exit {r.returncode}" + (f": {r.stderr.strip()[-300:]}" if r.returncode else ""))
    if r.returncode == 0:
        check_partitions(out, meta, "dgl random_partition.py")


def load_module(name, path, package=None):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    if package:
        mod.__package__ = package
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def gspartition(folder, gs):
    if not gs:
        print("skip GSPartition: no --graphstorm (a checkout of awslabs/graphstorm)")
        return
    sys.path[:0] = python_path().split(os.pathsep) if python_path() else []
    base = os.path.join(gs, "python/graphstorm/gpartition")
    # The package's own modules, without graphstorm/__init__ (which needs DGL).
    sys.modules["gpartition"] = types.ModuleType("gpartition")
    sys.modules["gpartition"].__path__ = [base]
    load_module("gpartition.partition_algo_base", os.path.join(base, "partition_algo_base.py"), "gpartition")
    rp = load_module("gpartition.random_partition", os.path.join(base, "random_partition.py"), "gpartition")
    with open(os.path.join(folder, "metadata.json")) as f:
        meta = json.load(f)
    out = tempfile.mkdtemp()
    rp.RandomPartitionAlgorithm(meta).create_partitions(2, out)
    check_partitions(out, meta, "GraphStorm gpartition RandomPartitionAlgorithm")


def functions(path, names, env):
    """Executes the named top-level functions, or class methods given as
    Class.method, of a source file in env and returns them."""
    tree = ast.parse(open(path).read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            found[node.name] = node
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                key = f"{node.name}.{getattr(item, 'name', '')}"
                if isinstance(item, ast.FunctionDef) and key in names:
                    found[key] = item
    for key, node in found.items():
        ns = {}
        exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), env, ns)
        env[key] = ns[node.name]
    missing = set(names) - set(found)
    if missing:
        raise SystemExit(f"{path}: no {sorted(missing)}")
    return env


def gconstruct(folder, gs, pyg_folder):
    with open(os.path.join(folder, "gconstruct.json")) as f:
        conf = json.load(f)
    node, edge = conf["nodes"][0], conf["edges"][0]
    os.chdir(folder)  # the configuration's paths are relative to it
    # file_io.py:189, read_data_csv: pandas with the format's separator.
    nodes = pd.read_csv(node["files"][0], delimiter=node["format"]["separator"])
    edges = pd.read_csv(edge["files"][0], delimiter=edge["format"]["separator"])
    feat = node["features"][0]
    label = edge["labels"][0]
    if not gs:
        print("skip gconstruct readers: no --graphstorm")
        return
    gsrc = os.path.join(gs, "python/graphstorm/gconstruct")
    import typing
    env = {"np": np, "json": json, "os": os, "pd": pd, "glob": __import__("glob"),
           "List": typing.List, "Dict": typing.Dict, "Union": typing.Union, "Optional": typing.Optional, "Any": typing.Any,
           "validate_features": lambda: True, "validate_numerical_feats": lambda a: bool(np.isfinite(a).all()),
           "ExtMemArrayWrapper": type("ExtMemArrayWrapper", (), {})}
    functions(os.path.join(gsrc, "file_io.py"), ["read_index", "read_index_json", "read_index_parquet", "expand_wildcard"], env)
    functions(os.path.join(gsrc, "transform.py"), ["_get_output_dtype", "Noop.call", "CustomLabelProcessor.data_split"], env)
    # transform.py: Noop splits the feature column on its separator.
    noop = types.SimpleNamespace(separator=feat["separator"], out_dtype=env["_get_output_dtype"](feat["out_dtype"]),
                                 feat_name=feat["feature_name"], truncate_dim=None)
    x = env["Noop.call"](noop, nodes[feat["feature_col"]].to_numpy())[feat["feature_name"]]
    check(x.dtype == np.float32 and x.shape[0] == len(nodes), f"gconstruct Noop: features {x.dtype} {x.shape}")
    if pyg_folder:
        want = np.load(os.path.join(pyg_folder, "x.npy"))
        check(np.array_equal(x, want), "gconstruct features equal the PyG export's x.npy, value for value")
    check(np.array_equal(nodes[node["node_id_col"]].to_numpy(), np.arange(len(nodes))), "gconstruct node ids are 0..N-1 in order")
    # file_io.py read_index and transform.py CustomLabelProcessor.data_split:
    # the masks construct_graph sets on the edge table.
    train, val, test = env["read_index"](dict(label["custom_split_filenames"]))
    proc = types.SimpleNamespace(_train_idx=set(train), _val_idx=set(val), _test_idx=set(test),
                                 train_mask_name="train_mask", val_mask_name="val_mask", test_mask_name="test_mask")
    ids = list(zip(edges[edge["source_id_col"]].to_numpy(), edges[edge["dest_id_col"]].to_numpy()))
    masks = env["CustomLabelProcessor.data_split"](proc, ids)
    total = masks["train_mask"] + masks["val_mask"] + masks["test_mask"]
    check((total == 1).all(), f"gconstruct data_split: every one of the {len(ids)} edges in exactly one set")
    check([int(masks[m].sum()) for m in ("train_mask", "val_mask", "test_mask")] == [len(train), len(val), len(test)],
          f"gconstruct data_split: {int(masks['train_mask'].sum())}/{int(masks['val_mask'].sum())}/{int(masks['test_mask'].sum())} edges marked, the split files hold {len(train)}/{len(val)}/{len(test)}")


def pyg(folder):
    import torch
    t = lambda f: torch.from_numpy(np.load(os.path.join(folder, f)))
    x, ei = t("x.npy"), t("edge_index.npy")
    n = x.size(0)
    check(x.dtype == torch.float32 and ei.dtype == torch.int64 and ei.dim() == 2 and ei.size(0) == 2,
          f"pyg: x {tuple(x.shape)} {x.dtype}, edge_index {tuple(ei.shape)} {ei.dtype}")
    check(int(ei.min()) >= 0 and int(ei.max()) < n and bool((ei[0] != ei[1]).all()), "pyg: edge_index within 0..N-1, no self-loops")
    # torch_geometric.utils.is_undirected: the edge set equals its reverse.
    key = lambda a, b: torch.sort(a * n + b).values
    check(torch.equal(key(ei[0], ei[1]), key(ei[1], ei[0])), "pyg: edge_index is undirected (every edge with its reverse)")
    split = {s: t(f"split/{s}.npy") for s in ("train_pos", "val_pos", "val_neg", "test_pos", "test_neg")}
    pos = torch.cat([split["train_pos"], split["val_pos"], split["test_pos"]], 1)
    und = lambda p: torch.minimum(p[0], p[1]) * n + torch.maximum(p[0], p[1])
    edges = torch.unique(und(ei))
    check(torch.equal(torch.sort(und(pos)).values, edges), f"pyg: the positives partition the {edges.numel()} edges")
    for s in ("val_neg", "test_neg"):
        check(not bool(torch.isin(und(split[s]), edges).any()), f"pyg: {s} holds no edge")
    try:
        from torch_geometric.data import Data
        from torch_geometric.utils import to_undirected
    except ImportError:
        print("skip torch_geometric: not installed")
        return
    data = Data(x=x, edge_index=ei)
    check(data.validate(raise_on_error=False) and data.is_undirected(), "pyg: torch_geometric Data validates, undirected")
    train = Data(x=x, edge_index=to_undirected(split["train_pos"]), num_nodes=n)
    check(train.validate(raise_on_error=False), "pyg: the training graph validates")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dgl-export", nargs="+", default=[])
    p.add_argument("--gconstruct-export")
    p.add_argument("--pyg-export")
    p.add_argument("--dgl", help="a checkout of dmlc/dgl")
    p.add_argument("--graphstorm", help="a checkout of awslabs/graphstorm")
    a = p.parse_args()
    for folder in a.dgl_export:
        dgl(os.path.abspath(folder), a.dgl and os.path.abspath(a.dgl))
    if a.dgl_export:
        gspartition(os.path.abspath(a.dgl_export[0]), a.graphstorm and os.path.abspath(a.graphstorm))
    if a.pyg_export:
        pyg(os.path.abspath(a.pyg_export))
    if a.gconstruct_export:
        gconstruct(os.path.abspath(a.gconstruct_export), a.graphstorm and os.path.abspath(a.graphstorm),
                   a.pyg_export and os.path.abspath(a.pyg_export))
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
