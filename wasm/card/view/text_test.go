package view

import "testing"

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{
		"no node \"x\" in cora":                               "No node \"x\" in cora",
		"could not read http://h/c/card.bundle: TypeError":    "Could not read http://h/c/card.bundle: TypeError",
		"bundle: node 3 is not among the nodes":               "Bundle: node 3 is not among the nodes",
		"http://h/c/card.bundle is not an explanation bundle": "http://h/c/card.bundle is not an explanation bundle",
		"https:x":                   "https:x",
		"cora/card.bundle is short": "cora/card.bundle is short",
		`"alice" is not a node`:     `"alice" is not a node`,
		"35 is not explainable":     "35 is not explainable",
		"é is a node":               "é is a node",
		"word":                      "word", // no space: not known to be prose
		"Already a sentence.":       "Already a sentence.",
		"":                          "",
	} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// Pair reads what PairText writes, and data-a/data-b hold what data-pair
// cannot.
func TestPair(t *testing.T) {
	attrs := func(kv ...string) func(string) (string, bool) {
		return func(name string) (string, bool) {
			for k := 0; k+1 < len(kv); k += 2 {
				if kv[k] == name {
					return kv[k+1], true
				}
			}
			return "", false
		}
	}
	for _, c := range []struct {
		attr func(string) (string, bool)
		a, b string
	}{
		{attrs("data-pair", "35,1033"), "35", "1033"},
		{attrs("data-pair", " 35 , 1033 "), "35", "1033"},
		{attrs("data-pair", "hub,1,0"), "hub", "1,0"}, // what data-a/data-b are for
		{attrs("data-pair", "35"), "35", ""},
		{attrs(), "", ""},
		{attrs("data-a", "hub,1", "data-b", " 0 ", "data-pair", "x,y"), "hub,1", " 0 "},
		{attrs("data-a", "a"), "a", ""},
	} {
		if a, b := Pair(c.attr); a != c.a || b != c.b {
			t.Errorf("%q: got (%q, %q), want (%q, %q)", []string{c.a, c.b}, a, b, c.a, c.b)
		}
	}
	for _, pr := range [][2]string{{"35", "1033"}, {`a"b`, "<c>"}, {"hub,1", "0"}, {"0", " x"}, {"x\u00a0", "0"}} {
		text, ok := PairText(pr[0], pr[1])
		if !ok {
			continue
		}
		if a, b := Pair(attrs("data-pair", text)); a != pr[0] || b != pr[1] {
			t.Errorf("PairText(%q) = %q reads back as (%q, %q)", pr, text, a, b)
		}
	}
	for _, pr := range [][2]string{{"hub,1", "0"}, {"0", " x"}, {"x\u00a0", "0"}} {
		if text, ok := PairText(pr[0], pr[1]); ok {
			t.Errorf("PairText(%q) = %q, which data-pair cannot hold", pr, text)
		}
	}
}

func TestListed(t *testing.T) {
	for in, want := range map[string]string{
		"Brujon":        "Brujon",
		"Valjean, Jean": "“Valjean, Jean”",
		`a,b "c"`:       `“a,b "c"”`,
	} {
		if got := Listed(in); got != want {
			t.Errorf("Listed(%q) = %q, want %q", in, got, want)
		}
	}
}
