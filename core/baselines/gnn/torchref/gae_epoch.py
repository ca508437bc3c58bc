#!/usr/bin/env python3
"""One GAE training epoch on Cora in PyTorch, the reference for Go's
BenchmarkGAEEpoch (core/baselines/gnn/bench_test.go). Benchmark only: make test never
runs it. Needs Debian's python3-torch (1.13) and python3-numpy.

The same model and epoch as gnn.DefaultConfig(gnn.GAE) trained by
gnn.RunSplit: raw binary features X (2708 x 1433, sparse), two GCN layers
without bias, Z = Ã · (dropout_0.5(ReLU(Ã · (X · W1))) · W2), widths 128
and 128, Glorot-uniform weights; Ã = D^-1/2 (A+I) D^-1/2 over the training
edges; a random 85/5/10 edge split; per epoch every training edge once as a
positive plus as many uniformly drawn node pairs as negatives (Go draws
non-edges; at Cora's density the difference is a handful of pairs), mean
BCE of the inner-product logits, an evaluation pass without dropout and the
validation AUC, backward, and Adam (lr 0.005, L2 weight decay 5e-4). Sparse
products are torch.sparse.mm on coalesced COO tensors; one thread.

It reads cora.content and cora.cites (the LINQS files: id, 1433 0/1 words,
label; "cited citing" per line) with plain Python, so it needs nothing
beyond torch and numpy. It prints one line:

    torch-gae-epoch-ms <wall ms> cpu-ms <CPU ms> pairs <n> val-auc <auc>

with the means per epoch over the timed epochs (CPU time is steadier than
wall time on a shared machine).
"""

import argparse
import os
import time

import torch


def read_cora(folder):
    ids, rows = {}, []
    with open(os.path.join(folder, "cora.content")) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            ids[parts[0]] = len(ids)
            rows.append([float(v) for v in parts[1:-1]])
    x = torch.tensor(rows, dtype=torch.float32)
    edges = set()
    with open(os.path.join(folder, "cora.cites")) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 2 or parts[0] not in ids or parts[1] not in ids:
                continue
            u, v = ids[parts[0]], ids[parts[1]]
            if u != v:
                edges.add((min(u, v), max(u, v)))
    return x, torch.tensor(sorted(edges), dtype=torch.long)


def gcn_norm(n, edges):
    """Ã = D^-1/2 (A+I) D^-1/2 as a coalesced sparse COO tensor."""
    loops = torch.arange(n)
    src = torch.cat([edges[:, 0], edges[:, 1], loops])
    dst = torch.cat([edges[:, 1], edges[:, 0], loops])
    deg = torch.bincount(src, minlength=n).float()
    inv = deg.pow(-0.5)
    val = inv[src] * inv[dst]
    return torch.sparse_coo_tensor(torch.stack([src, dst]), val, (n, n)).coalesce()


def glorot(rows, cols, gen):
    lim = (6.0 / (rows + cols)) ** 0.5
    return ((torch.rand(rows, cols, generator=gen) * 2 - 1) * lim).requires_grad_()


def auc(pos, neg):
    """Probability that a positive outscores a negative (ties count half)."""
    scores = torch.cat([pos, neg])
    order = scores.argsort()
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    # Average the ranks of ties.
    uniq, inverse = torch.unique(scores, return_inverse=True)
    sums = torch.zeros(len(uniq)).index_add_(0, inverse, ranks)
    counts = torch.zeros(len(uniq)).index_add_(0, inverse, torch.ones_like(ranks))
    ranks = (sums / counts)[inverse]
    p = len(pos)
    return float((ranks[:p].sum() - p * (p + 1) / 2) / (p * len(neg)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "../../../../../shared/datasets/cora"))
    ap.add_argument("--epochs", type=int, default=30, help="timed epochs")
    ap.add_argument("--warmup", type=int, default=3, help="untimed epochs first")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    gen = torch.Generator().manual_seed(args.seed)

    x, edges = read_cora(args.data)
    n, f = x.shape
    perm = torch.randperm(len(edges), generator=gen)
    n_val, n_test = int(0.05 * len(edges)), int(0.1 * len(edges))
    val_pos = edges[perm[:n_val]]
    train_pos = edges[perm[n_val + n_test:]]
    val_neg = torch.randint(0, n, (n_val, 2), generator=gen)
    a = gcn_norm(n, train_pos)
    xs = x.to_sparse().coalesce()

    w1, w2 = glorot(f, 128, gen), glorot(128, 128, gen)
    opt = torch.optim.Adam([w1, w2], lr=0.005, weight_decay=5e-4)
    p = len(train_pos)
    labels = torch.cat([torch.ones(p), torch.zeros(p)])

    def encode(drop):
        h = torch.relu(torch.sparse.mm(a, torch.sparse.mm(xs, w1)))
        h = torch.nn.functional.dropout(h, 0.5, training=drop)
        return torch.sparse.mm(a, h @ w2)

    def epoch():
        opt.zero_grad()
        neg = torch.randint(0, n, (p, 2), generator=gen)
        pairs = torch.cat([train_pos, neg])
        z = encode(True)
        logits = (z[pairs[:, 0]] * z[pairs[:, 1]]).sum(1)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, labels)
        with torch.no_grad():
            ze = encode(False)
            score = lambda e: (ze[e[:, 0]] * ze[e[:, 1]]).sum(1)
            val = auc(score(val_pos), score(val_neg))
        loss.backward()
        opt.step()
        return val

    for _ in range(args.warmup):
        epoch()
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.epochs):
        val = epoch()
    ms = 1000 * (time.perf_counter() - start) / args.epochs
    cpu_ms = 1000 * (time.process_time() - cpu) / args.epochs
    if not val > 0.5:
        raise SystemExit(f"validation AUC {val:.3f}: the model does not learn")
    print(f"torch-gae-epoch-ms {ms:.2f} cpu-ms {cpu_ms:.2f} pairs {2 * p} val-auc {val:.3f}")


if __name__ == "__main__":
    main()
