package load

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestCompareIDsOrder: hand-ordered lists come out of a sort of any
// shuffle of them unchanged.
func TestCompareIDsOrder(t *testing.T) {
	for _, want := range [][]string{
		{"-3", "-0", "0", "2", "10", "100"},                            // integers by value; "-0" ties "0", then bytes
		{"n2", "n10", "n10a", "n10b", "n11"},                           // numbers inside text
		{"1", "a", "a1", "a2", "ab", "b"},                              // number before text; a prefix first
		{"007", "07", "7", "8"},                                        // leading zeros tie, then bytes
		{"1.9", "1.10"},                                                // decimals are two numbers
		{"99999999999999999999", "100000000000000000000"},              // beyond int64
		{"-100000000000000000000", "-99999999999999999999", "-1", "1"}, // negative, beyond int64
		{"-", "-a", "a-1"},                                             // a '-' without a digit is text
		{"Zeta", "alpha", "Émile", "Ω"},                                // text by bytes (code points)
	} {
		rng := rand.New(rand.NewPCG(uint64(len(want)), 1))
		for range 20 {
			got := slices.Clone(want)
			rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			slices.SortFunc(got, CompareIDs)
			if !slices.Equal(got, want) {
				t.Fatalf("sorted %q, want %q", got, want)
			}
		}
	}
}

// TestCompareIDsIntegers: on integer ids CompareIDs is the order of their
// values, checked against math/big on random integers of up to 30 digits.
func TestCompareIDsIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	id := func() (string, *big.Int) {
		digits := make([]byte, 1+rng.IntN(30))
		for k := range digits {
			digits[k] = byte('0' + rng.IntN(10))
		}
		s := string(digits)
		if rng.IntN(3) == 0 {
			s = "-" + s
		}
		v, _ := new(big.Int).SetString(s, 10)
		return s, v
	}
	for range 5000 {
		a, va := id()
		b, vb := id()
		want := va.Cmp(vb)
		if want == 0 && a != b { // same value, other spelling: bytes decide
			want = compareBytes(a, b)
		}
		if got := CompareIDs(a, b); got != want {
			t.Fatalf("CompareIDs(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
	for i := -50; i < 50; i++ {
		if got := CompareIDs(strconv.Itoa(i), strconv.Itoa(i+1)); got != -1 {
			t.Fatalf("CompareIDs(%d, %d) = %d", i, i+1, got)
		}
	}
}

func compareBytes(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// checkTotalOrder fails unless CompareIDs is a strict total order on ids:
// 0 only for equal strings, antisymmetric, and transitive on every triple.
func checkTotalOrder(t *testing.T, ids []string) {
	t.Helper()
	for _, a := range ids {
		for _, b := range ids {
			ab := CompareIDs(a, b)
			if (ab == 0) != (a == b) || ab != -CompareIDs(b, a) || ab < -1 || ab > 1 {
				t.Fatalf("CompareIDs(%q, %q) = %d, reversed %d", a, b, ab, CompareIDs(b, a))
			}
			for _, c := range ids {
				if ab < 0 && CompareIDs(b, c) < 0 && CompareIDs(a, c) >= 0 {
					t.Fatalf("%q < %q < %q but CompareIDs(%q, %q) = %d", a, b, c, a, c, CompareIDs(a, c))
				}
			}
		}
	}
}

// TestCompareIDsTotal checks the order's laws on every triple of a set of
// ids chosen to tie in runs and differ in bytes.
func TestCompareIDsTotal(t *testing.T) {
	checkTotalOrder(t, []string{"", "0", "00", "-0", "-00", "1", "01", "-1", "-01", "a", "a0", "a00", "a-0",
		"-", "--1", "1-", "1a", "01a", "a1b", "a01b", "b", "10", "9", "-9", "-10", "x\x00", "x", "\xff", "é"})
}

// FuzzCompareIDs checks the order's laws on fuzzed triples.
func FuzzCompareIDs(f *testing.F) {
	f.Add("n2", "n10", "-3")
	f.Add("007", "7", "-0")
	f.Add("a", "a1", "ab")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		checkTotalOrder(t, []string{a, b, c})
	})
}
