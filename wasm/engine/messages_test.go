package engine

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ilpgnn/core/checkpoint"
	"ilpgnn/core/load"
)

// TestBadInputNamesTheFileOnce: a bad_input reply names its file (and
// line) in File and Line, which the page puts before the message, so the
// message does not name them again: the page once read "flipped.ckpt:
// flipped.ckpt: ..." and "edges.csv line 2: edges.csv:2: ...".
func TestBadInputNamesTheFileOnce(t *testing.T) {
	p := newPage(t, nil)
	good, err := (&checkpoint.Checkpoint{
		Model: "ilpgnn", Dataset: "d", Config: []byte("{}"),
		Tensors: []checkpoint.Tensor{{Name: "W1", Rows: 1, Cols: 2, Data: []float32{1, 2}}},
	}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(good)
	flipped[len(flipped)-10] ^= 4 // a bit of W1's data, under the data checksum

	for _, tc := range []struct {
		file string
		data []byte
		want string
	}{
		{"flipped.ckpt", flipped, "not a usable checkpoint: corrupt checkpoint: file (tensor data) checksum mismatch (stored 8f88ce66, computed 3d7df911)"},
		{"lying.ckpt", good, "not a usable checkpoint: checkpoint: config: hidden must be at least 1 (got 0)"},
	} {
		e := p.callErr("checkpoints.import", nil, map[string][]byte{tc.file: tc.data})
		want := &Error{Code: CodeBadInput, Message: tc.want, File: tc.file}
		if !reflect.DeepEqual(e, want) {
			t.Errorf("import %s:\n got %#v\nwant %#v", tc.file, *e, *want)
		}
	}

	// A loader's error: its file and line in File and Line, its message
	// (whatever core/load words it) without them.
	files := map[string][]byte{"edges.csv": []byte("a,b\nb\n")}
	_, loadErr := load.Bytes(files)
	var le *load.Error
	if !errors.As(loadErr, &le) || le.File != "edges.csv" || le.Line != 2 {
		t.Fatalf("load.Bytes: %v, want a *load.Error for edges.csv line 2", loadErr)
	}
	e := p.callErr("load", nil, files)
	want := &Error{Code: CodeBadInput, Message: le.Err.Error(), File: "edges.csv", Line: 2}
	if !reflect.DeepEqual(e, want) || strings.Contains(e.Message, "edges.csv") {
		t.Errorf("load edges.csv:\n got %#v\nwant %#v", *e, *want)
	}
}
