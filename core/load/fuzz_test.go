package load

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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
	// Issue 31's inputs: RFC 4180 quoting, ids that start with '#', a
	// header the reader does not know, JSON, a quote left open.
	f.Add([]byte("\"Smith, John\",\"Doe, Jane\"\n\"Doe, Jane\",\"O\"\"Neil\"\n"), []byte("\"Smith, John\",1\n"), true)
	f.Add([]byte("#python,#golang\n#golang,#rust\n"), []byte("#python,1,0\n"), true)
	f.Add([]byte("# Nodes: 3\n# FromNodeId\tToNodeId\n1\t2\n"), []byte(""), false)
	f.Add([]byte("person,friend\nalice,bob\nbob,carol\n"), []byte(""), false)
	f.Add([]byte("{\"nodes\": [{\"id\": 0}], \"links\": []}\n"), []byte(""), false)
	f.Add([]byte("\"a\nb\",c\n\"open,d\n"), []byte(""), false)
	// Semicolons, with a decimal comma in the features.
	f.Add([]byte("source;target;w\n\"a;1\";b;0,5\n"), []byte("id;x\n\"a;1\";0,5\nb;1,000,5\n"), true)
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

// FuzzQuoting: any records that encoding/csv's Writer writes, with commas
// or tabs, the edge list's records reader reads as encoding/csv's Reader
// does (TestQuotingMatchesEncodingCSV's property on any fields). Fields
// with blanks at their ends, and first fields our reader takes for a
// comment, are where the two differ on purpose, and are skipped.
func FuzzQuoting(f *testing.F) {
	f.Add("Smith, John", "O\"Neil", "a\nb", true)
	f.Add("#x", " lead", "tab\there", false)
	f.Add("", "\"", "\r\n", true)
	f.Add("0", ";", "0", false) // "0,;,0,sep": a lone ';' field in a comma-separated line
	f.Fuzz(func(t *testing.T, a, b, c string, tabs bool) {
		comma, name := ',', "f.csv"
		if tabs {
			comma, name = '\t', "f.tsv"
		}
		rec := []string{a, b, c, "sep"}
		for _, s := range rec {
			if strings.TrimSpace(s) != s || !utf8.ValidString(s) || strings.ContainsRune(s, '\r') {
				return
			}
		}
		if a == "" || isCommentLine([]byte(a)) {
			return
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Comma = comma
		if err := w.WriteAll([][]string{rec, rec}); err != nil {
			return // a field csv cannot write (a bad comma), not ours to read
		}
		r := csv.NewReader(bytes.NewReader(buf.Bytes()))
		r.Comma, r.FieldsPerRecord = comma, -1
		want, err := r.ReadAll()
		if err != nil {
			return
		}
		rs := newRecords(name, bytes.NewReader(buf.Bytes()))
		var got [][]string
		for {
			fields, ok := rs.next()
			if !ok {
				break
			}
			row := make([]string, len(fields))
			for k, b := range fields {
				row[k] = string(b)
			}
			got = append(got, row)
		}
		if rs.err != nil || !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%q:\n got %q (%v)\nwant %q", buf.String(), got, rs.err, want)
		}
	})
}
