package load

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// checkError asserts that a loader's error is a *Error.
func checkError(t *testing.T, err error) {
	t.Helper()
	var le *Error
	if err != nil && !errors.As(err, &le) {
		t.Fatalf("error %q is a %T, not a *load.Error", err, err)
	}
}

func FuzzLINQS(f *testing.F) {
	f.Add([]byte("p1\t1\t0\tA\np2\t0\t1\tB\n"), []byte("p1\tp2\np2\tghost\n"))
	f.Add([]byte("a 1 0 X\nb 0 1 Y\n"), []byte("a b\nb c\nc c\n"))
	f.Add([]byte("a X\n"), []byte("a a\n"))
	f.Add([]byte("a 0.5 -1e3 X\r\n\nb 0 0 Y\n"), []byte("a\tb\n"))
	f.Add([]byte("a 1 NaN X\n"), []byte("a b\n"))
	f.Add([]byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, content, cites []byte) {
		g, err := LINQSReaders("f", bytes.NewReader(content), "f.content", bytes.NewReader(cites), "f.cites")
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}

func FuzzEdgeList(f *testing.F) {
	f.Add([]byte("source,target,weight\nalice,bob,1\nbob,carol,2\n"), []byte("id,a,b\nalice,1,0\nerin,0,2.5\n"), true)
	f.Add([]byte("1 2\n2 3\n3 1\n4 4\n"), []byte(""), false)
	f.Add([]byte("# c\nfoo\tbar\nbaz\tqux\n"), []byte("foo\t1\n"), true)
	f.Add([]byte("x,y\n1,2\n"), []byte("1,0,1\n2,1\n"), true)
	f.Add([]byte("a b\n,\n"), []byte("% c\n\n"), true)
	f.Fuzz(func(t *testing.T, edges, feats []byte, withFeatures bool) {
		var featsReader io.Reader
		if withFeatures {
			featsReader = bytes.NewReader(feats)
		}
		g, err := EdgeListReaders("f", bytes.NewReader(edges), "edges.csv", featsReader, "features.csv")
		checkError(t, err)
		if err == nil {
			checkValid(t, g)
		}
	})
}
