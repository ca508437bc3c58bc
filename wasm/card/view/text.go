package view

import "strings"

// Sentence is msg as the card shows it, alone in its box: Go's errors start
// in lower case, so a message that opens with a word of prose (lower-case
// letters followed by a space, or by ": ") gets a capital. Anything else
// keeps its case: a URL ("http://…"), a path, a number or a quoted id.
func Sentence(msg string) string {
	k := 0
	for k < len(msg) && msg[k] >= 'a' && msg[k] <= 'z' {
		k++
	}
	rest := msg[k:]
	if k == 0 || !strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, ": ") {
		return msg
	}
	return string(msg[0]-'a'+'A') + msg[1:]
}

// Pair returns the pair of node ids a card element names. attr returns an
// attribute's value and whether the element has it. data-a and data-b,
// when either is there, are the ids exactly: they hold any id, commas and
// surrounding spaces included. Otherwise data-pair="A,B" is cut at its
// first comma and each side trimmed, as a person writes it.
func Pair(attr func(name string) (string, bool)) (a, b string) {
	a, hasA := attr("data-a")
	b, hasB := attr("data-b")
	if hasA || hasB {
		return a, b
	}
	pair, _ := attr("data-pair")
	a, b, _ = strings.Cut(pair, ",")
	return strings.TrimSpace(a), strings.TrimSpace(b)
}

// PairText is the data-pair value that Pair reads back as (a, b), and
// false when there is none: an id with a comma or surrounding space.
func PairText(a, b string) (string, bool) {
	for _, id := range []string{a, b} {
		if strings.Contains(id, ",") || strings.TrimSpace(id) != id {
			return "", false
		}
	}
	return a + "," + b, true
}

// Listed is an id as the card's prose writes it beside another: in
// quotes when it holds a comma, the separator of p(a, b), so that
// p(“Valjean, Jean”, Brujon) names two nodes and not three.
func Listed(id string) string {
	if strings.Contains(id, ",") {
		return "“" + id + "”"
	}
	return id
}
