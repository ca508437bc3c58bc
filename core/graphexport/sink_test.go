package graphexport

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ilpgnn/core/synth"
)

// smallSynth is a synthetic graph's export, with its generator's split.
func smallSynth(t *testing.T) (Export, *synth.Dataset) {
	t.Helper()
	cfg := synth.DefaultConfig()
	cfg.Nodes, cfg.Edges, cfg.FeatureDim, cfg.Groups = 120, 400, 10, 4
	const seed = 5
	d, err := synth.Generate(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := d.Split(seed)
	if err != nil {
		t.Fatal(err)
	}
	return Export{Graph: d.Graph, Split: sp, Links: d.Links, Seed: seed}, d
}

// unzip returns a zip's entries by name, in the archive's order, reading
// each whole (which checks its CRC-32).
func unzip(t *testing.T, b []byte) ([]string, map[string][]byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		names = append(names, f.Name)
	}
	return names, files
}

// dirFiles returns the files under dir by slash-separated relative name.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestZipMatchesDir: ZipBytes's entries are Write's files, byte for byte,
// under the folder, metadata.json last; unzipped, they pass the round
// trip's checks; and the same export gives the same zip.
func TestZipMatchesDir(t *testing.T) {
	e, d := smallSynth(t)
	dir := t.TempDir()
	if _, err := Write(dir, e); err != nil {
		t.Fatal(err)
	}
	want := dirFiles(t, dir)
	b, m, err := ZipBytes(e, "graph-dgl", 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	names, files := unzip(t, b)
	if len(names) != len(want) || names[len(names)-1] != "graph-dgl/"+MetadataFile {
		t.Errorf("zip entries %v: want the %d files of the folder, %s last", names, len(want), MetadataFile)
	}
	out := t.TempDir()
	for name, data := range files {
		rel, ok := strings.CutPrefix(name, "graph-dgl/")
		if !ok {
			t.Fatalf("entry %s is outside the folder", name)
		}
		if !bytes.Equal(data, want[rel]) {
			t.Errorf("%s differs from Write's %s", name, rel)
		}
		p := filepath.Join(out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := d.Graph
	checkMetadata(t, out, g, true, true)
	checkEdges(t, out, g, true)
	checkFeatures(t, out, g)
	checkSplit(t, out, g, e.Split)
	if want := DefaultProducer + " --format dgl"; m.WrittenBy != want {
		t.Errorf("written by %q, want the default %q", m.WrittenBy, want)
	}
	again, _, err := ZipBytes(e, "graph-dgl", 1<<30)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("a second zip of the same export differs (%v)", err)
	}
}

// TestZipBytesLimit: a limit of the zip's own length passes; one byte less
// is refused with ErrZipTooLarge, naming the limit.
func TestZipBytesLimit(t *testing.T) {
	e, _ := smallSynth(t)
	e.Producer = "the app's Download for a distributed engine"
	b, m, err := ZipBytes(e, "", 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	_, files := unzip(t, b)
	if !strings.Contains(string(files[ReadmeFile]), "Written by "+e.Producer+":") || m.WrittenBy != e.Producer {
		t.Errorf("README.md and the manifest do not name the producer %q (manifest: %q)", e.Producer, m.WrittenBy)
	}
	exact, _, err := ZipBytes(e, "", int64(len(b)))
	if err != nil || !bytes.Equal(exact, b) {
		t.Errorf("a limit of the zip's own %d bytes: %v", len(b), err)
	}
	_, _, err = ZipBytes(e, "", int64(len(b)-1))
	if !errors.Is(err, ErrZipTooLarge) || !strings.Contains(err.Error(), byteSize(int64(len(b)-1))) {
		t.Errorf("a limit one byte short: %v, want ErrZipTooLarge naming the limit", err)
	}
}

// TestByteSize checks the units of byteSize at their edges.
func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1<<20 - 1: "1048575 bytes", 1 << 20: "1 MiB", 256 << 20: "256 MiB", 1 << 30: "1.0 GiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
