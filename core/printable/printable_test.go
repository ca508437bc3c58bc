package printable

import (
	"strconv"
	"testing"
	"unicode/utf8"
)

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"alice":                     "alice",
		"Zoë, 東京 & co":              "Zoë, 東京 & co",
		`back\slash`:                `back\slash`, // nothing else to escape: as it is
		"\x1b]0;PWNED\a\x1b[31mRED": `\x1b]0;PWNED\a\x1b[31mRED`,
		"two\nlines":                `two\nlines`,
		"cr\rtab\t":                 `cr\rtab\t`,
		"del\x7f c1\u0085":          `del\x7f c1\u0085`,
		"evil\u202eexe.txt":         `evil\u202eexe.txt`,
		"zero\u200bwidth":           `zero\u200bwidth`,
		"bad\xffbyte":               `bad\xffbyte`,
		"\x1b and a \\ backslash":   `\x1b and a \\ backslash`,
		"":                          "",
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNameEscapesEverything: over every rune of the Basic Multilingual
// Plane and every byte, what Name writes holds no control or format
// character and no invalid UTF-8 (no U+FFFD where the input had a bad
// byte), and reads back (strconv.Unquote of it
// in double quotes) to the input whenever the input needed escaping.
func TestNameEscapesEverything(t *testing.T) {
	check := func(in string) {
		out := Name(in)
		for _, r := range out {
			if unsafe(r) || r == utf8.RuneError && !utf8.ValidString(in) {
				t.Fatalf("Name(%q) = %q keeps %U", in, out, r)
			}
		}
		if out != in {
			back, err := strconv.Unquote(`"` + out + `"`)
			if err != nil || back != in {
				t.Fatalf("Name(%q) = %q reads back as %q (%v)", in, out, back, err)
			}
		}
	}
	for r := rune(0); r < 0x10000; r++ {
		if r >= 0xD800 && r < 0xE000 {
			continue // surrogates are not runes of UTF-8
		}
		check("a" + string(r) + `\`)
	}
	for b := 0; b < 256; b++ {
		check("a" + string([]byte{byte(b)}) + `\`)
	}
}

func TestListed(t *testing.T) {
	for in, want := range map[string]string{
		"Brujon":        "Brujon",
		"Valjean, Jean": "“Valjean, Jean”",
		"hub,1":         "“hub,1”",
		"a,b\n":         `“a,b\n”`, // escaped as Name escapes it, then quoted
		"":              "",
	} {
		if got := Listed(in); got != want {
			t.Errorf("Listed(%q) = %q, want %q", in, got, want)
		}
	}
}
