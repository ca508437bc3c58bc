// Package printable makes names that come from users' files safe to write
// to a terminal or a line-oriented report. A node id may hold anything a
// file can: escape sequences that retitle or recolour a terminal, line
// breaks that forge lines of output, bidirectional-text controls that
// reorder what is shown, bytes that are not UTF-8. Name writes each of
// those as a Go escape and leaves every other character as it is.
package printable

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Name returns s with every control character (C0, DEL, C1), Unicode
// format character (bidirectional overrides and isolates, zero-width
// joiners, the byte-order mark) and byte that is not UTF-8 written as a Go
// escape (\x1b, \n, \u202e, \xff); s itself when it has none. A backslash
// is doubled when s has something to escape, so that the escaped name
// cannot be mistaken for another name spelt with escapes.
func Name(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == '\\':
			b.WriteString(`\\`)
		case unsafe(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s is valid UTF-8 with nothing to escape.
func clean(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return false
			}
		}
		if unsafe(r) {
			return false
		}
	}
	return true
}

// unsafe reports whether r changes how a terminal shows what follows it,
// or is invisible: control and format characters.
func unsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// Listed is Name(s) as prose writes it among other ids: in quotes when s
// holds a comma, the separator of lists and of p(a, b), so that
// "Valjean, Jean" reads as one node (“Valjean, Jean”, Brujon) and not two.
func Listed(s string) string {
	n := Name(s)
	if strings.Contains(n, ",") {
		return "“" + n + "”"
	}
	return n
}
