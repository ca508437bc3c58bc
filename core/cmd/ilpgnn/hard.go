package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"ilpgnn/core/dataset"
	"ilpgnn/core/eval"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/heart"
	"ilpgnn/core/split"
)

// evalFlags choose how held-out links are judged: always against the
// split's random non-links (AUC, Hits), and with --eval heart also each
// link against hard negatives of its own (package heart).
type evalFlags struct {
	eval      string
	negatives string
	rank      bool // train --select rank: the validation links need theirs too
}

func (e *evalFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&e.eval, "eval", "auc", "how test links are judged: auc (against the split's random non-links: AUC and Hits@K), or heart, which adds MRR and Hits@1–100 of each test link among 500 hard negatives of its own, drawn as HeaRT draws them (docs/heart.md)")
	fs.StringVar(&e.negatives, "negatives", "", "with --eval heart: a folder for the hard negatives, one file per graph and seed: read when there, written when not, so that every model is ranked against the same pairs")
}

// registerTune adds the flags to tune, where they choose what candidates
// are compared on.
func (e *evalFlags) registerTune(fs *flag.FlagSet) {
	fs.StringVar(&e.eval, "eval", "auc", "what candidates are compared on: auc (what train keeps weights by), or heart: the MRR of each validation link among 500 hard negatives of its own (docs/heart.md), a winner's validation AUC at most 0.3 points below the current settings'")
	fs.StringVar(&e.negatives, "negatives", "", "with --eval heart: a folder for the validation links' hard negatives, one file per graph and seed: read when there, written when not")
}

func (e *evalFlags) validate(given map[string]bool) error {
	switch e.eval {
	case "auc", "heart":
	default:
		return fmt.Errorf("--eval %q: want auc or heart", e.eval)
	}
	if e.rank && e.eval != "heart" {
		return fmt.Errorf("--select rank: the validation links' hard negatives are drawn with --eval heart")
	}
	if given["negatives"] {
		if e.eval != "heart" {
			return fmt.Errorf("--negatives: hard negatives are drawn with --eval heart only")
		}
		if info, err := os.Stat(e.negatives); err != nil || !info.IsDir() {
			return fmt.Errorf("--negatives %s: not a folder (create it first)", e.negatives)
		}
	}
	return nil
}

// heartJSON says where a run's hard negatives came from.
type heartJSON struct {
	// File is the negatives file read or written ("" without --negatives),
	// Written whether this run drew and wrote it.
	File    string `json:"file,omitempty"`
	Written bool   `json:"written,omitempty"`
	// Digest is the SHA-256 of the negatives (their nodes, int32
	// little-endian), so that two runs can be seen to rank against the
	// same pairs; its first 16 hex digits.
	Digest  string  `json:"digest"`
	Links   int     `json:"links"`
	PerLink int     `json:"per_link"`
	Seconds float64 `json:"seconds"`
}

// attach sets the hard negatives of sp, a split of d drawn with seed, when
// --eval heart asks for them; nil otherwise.
func (e *evalFlags) attach(d *dataset.Dataset, sp *split.Split, seed uint64) (*heartJSON, error) {
	if e.eval != "heart" {
		return nil, nil
	}
	start := time.Now()
	o := heart.OptionsFor(d.Graph)
	sp.Known = d.Graph
	if e.rank {
		if err := e.attachValidation(d, sp, seed); err != nil {
			return nil, err
		}
	}
	path := e.path(d, seed, "")
	n, written, err := heart.ForSplit(d.Graph, sp, seed, o, path)
	if err != nil {
		return nil, fmt.Errorf("seed %d: hard negatives: %w", seed, err)
	}
	return &heartJSON{File: path, Written: written, Digest: digest(n.Nodes), Links: len(n.Links), PerLink: n.PerLink, Seconds: time.Since(start).Seconds()}, nil
}

// attachValidation sets the hard negatives of sp's validation links.
func (e *evalFlags) attachValidation(d *dataset.Dataset, sp *split.Split, seed uint64) error {
	o := heart.OptionsFor(d.Graph)
	if _, _, err := heart.ForValidation(d.Graph, sp, seed, o, e.path(d, seed, "-val")); err != nil {
		return fmt.Errorf("seed %d: hard negatives of the validation links: %w", seed, err)
	}
	return nil
}

// path is the negatives file of d's seed under --negatives ("" without),
// its name ending in suffix before the extension.
func (e *evalFlags) path(d *dataset.Dataset, seed uint64, suffix string) string {
	if e.negatives == "" {
		return ""
	}
	fp := fingerprint.Of(d.Graph)
	return filepath.Join(e.negatives, fmt.Sprintf("heart-%s-seed-%d%s.bin", hex.EncodeToString(fp[:6]), seed, suffix))
}

func digest(nodes []int32) string {
	h := sha256.New()
	var b [4]byte
	for _, v := range nodes {
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// printRanking writes a run's HeaRT line under its row.
func printRanking(w io.Writer, r *eval.Ranking, suggest *float64, h *heartJSON) {
	from := fmt.Sprintf("drawn in %.1f s", h.Seconds)
	switch {
	case h.File != "" && h.Written:
		from += ", written to " + h.File
	case h.File != "":
		from = "read from " + h.File
	}
	fmt.Fprintf(w, "        HeaRT: MRR %.4f, Hits@1 %.4f, @3 %.4f, @10 %.4f, @20 %.4f, @50 %.4f, @100 %.4f (each test link among %d hard negatives of its own, %s)\n",
		r.MRR, r.Hits1, r.Hits3, r.Hits10, r.Hits20, r.Hits50, r.Hits100, h.PerLink, from)
	if suggest != nil {
		fmt.Fprintf(w, "        suggestions: %.4f of the test links have their other end among the first 10 suggestions of their first end (every node not yet its neighbour ranked)\n", *suggest)
	}
}
