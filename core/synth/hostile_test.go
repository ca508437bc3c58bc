package synth

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadFilesBOM checks that the three files of a dataset folder read the
// same when each starts with a UTF-8 byte-order mark, also when
// features.csv has no header (its first id is then behind the mark).
func TestReadFilesBOM(t *testing.T) {
	want, err := ReadFiles("hand", bytesOf(handFiles))
	if err != nil {
		t.Fatal(err)
	}
	noHeader := strings.TrimPrefix(handFiles[FeaturesFile], "node,f0,f1\n")
	for _, feats := range []string{handFiles[FeaturesFile], noHeader} {
		files := map[string]string{}
		for k, v := range handFiles {
			files[k] = "\ufeff" + v
		}
		files[FeaturesFile] = "\ufeff" + feats
		got, err := ReadFiles("hand", bytesOf(files))
		if err != nil {
			t.Fatal(err)
		}
		rtSameGraph(t, got.Graph, want.Graph)
		if !slices.EqualFunc(got.Links, want.Links, rtSameLink) {
			t.Errorf("links %v, want %v", got.Links, want.Links)
		}
	}
}

// TestReadDirMissingFeatures checks that a node missing from features.csv
// is reported in the graph's MissingFeatures after ReadDir's renumbering.
func TestReadDirMissingFeatures(t *testing.T) {
	files := bytesOf(handFiles)
	files[FeaturesFile] = []byte("node,f0,f1\na,0.1,0\nc,-1e-07,3\nd,1,2.5\niso,7,0.33333334\n")
	d, err := ReadFiles("hand", files)
	if err != nil {
		t.Fatal(err)
	}
	// b and e have no line; they follow the file's nodes, in loader order.
	if !slices.Equal(d.Graph.IDs, []string{"a", "c", "d", "iso", "b", "e"}) ||
		!slices.Equal(d.Graph.MissingFeatures, []string{"b", "e"}) {
		t.Errorf("ids %q, missing %q", d.Graph.IDs, d.Graph.MissingFeatures)
	}
}

// TestReadDirDevice checks that a file of the folder that is not a regular
// file (here a symbolic link to a device that never ends) is refused by
// name instead of read.
func TestReadDirDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	for k, v := range handFiles {
		if err := os.WriteFile(filepath.Join(dir, k), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gt := filepath.Join(dir, GroundtruthFile)
	os.Remove(gt)
	if err := os.Symlink("/dev/zero", gt); err != nil {
		t.Skip("symlink:", err)
	}
	_, err := ReadDir(dir)
	if want := "synth: reading dataset: " + gt + ": not a regular file: it is a device, and only files are read"; err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
}

func bytesOf(files map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range files {
		out[k] = []byte(v)
	}
	return out
}
