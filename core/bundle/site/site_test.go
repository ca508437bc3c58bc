package site

import (
	"strings"
	"testing"
)

func TestFolder(t *testing.T) {
	for in, want := range map[string]string{
		"cora":                       "cora",
		"Amazon Photo":               "amazon-photo",
		"../shared/datasets/cora":    "cora",
		`C:\data\citeseer`:           "citeseer",
		"synth:medium:seed=0":        "synth-medium-seed-0",
		"é":                          "graph",
		"":                           "graph",
		"a_b-c9":                     "a_b-c9",
		"/":                          "graph",
		"<script>alert(1)</script>/": "script", // the last path element
	} {
		if got := Folder(in); got != want {
			t.Errorf("Folder(%q) = %q, want %q", in, got, want)
		}
	}
}

// The page escapes what it quotes: ids are the user's and may hold markup.
func TestPageEscapes(t *testing.T) {
	page := Page(`a"b<c>`, "x", [][2]string{{`1"><script>`, "2"}})
	for _, bad := range []string{`1"><script>`, `a"b<c>`} {
		if strings.Contains(page, bad) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
	if !strings.Contains(page, `data-pair="1&#34;&gt;&lt;script&gt;,2"`) {
		t.Errorf("card line missing:\n%s", page)
	}
}
