package train

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestParseSplit(t *testing.T) {
	for _, tc := range []struct {
		in        string
		val, test float64
	}{
		{"60/10/30", 0.1, 0.3}, // ogbn-arxiv's split
		{"0.6/0.1/0.3", 0.1, 0.3},
		{"85/5/10", 0.05, 0.1},
		{" 70 / 10 / 20 ", 0.1, 0.2},
		{"33.33/33.33/33.33", 0.3333, 0.3333}, // sums to 99.99: within rounding
		{"0.333/0.333/0.333", 0.333, 0.333},   // 0.999
		{"1e1/2e1/7e1", 0.2, 0.7},             // any float syntax
		{"0.5/0.25/0.25000000000000006", 0.25, 0.25000000000000006},
	} {
		val, test, err := ParseSplit(tc.in)
		if err != nil || math.Abs(val-tc.val) > 1e-15 || math.Abs(test-tc.test) > 1e-15 {
			t.Errorf("ParseSplit(%q) = %v, %v, %v; want %v, %v", tc.in, val, test, err, tc.val, tc.test)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"60/40", `--split "60/40": want TRAIN/VAL/TEST, three shares separated by "/"`},
		{"", `--split "": want TRAIN/VAL/TEST`},
		{"60/10/30/0", "want TRAIN/VAL/TEST"},
		{"60/x/30", `--split "60/x/30": the validation share "x" is not a number`},
		{"60/10/", `the test share "" is not a number`},
		{"NaN/10/30", `the train share "NaN" is not a number`},
		{"60/inf/30", `the validation share "inf" is not a number`},
		{"70/0/30", "the validation share must be positive (got 0)"},
		{"110/-10/0", "the validation share must be positive (got -10)"},
		{"0/50/50", "the train share must be positive (got 0)"},
		{"60/10/20", "the shares sum to 90; want 100 (percentages) or 1 (fractions)"},
		{"0.6/0.1/0.2", "the shares sum to 0.9"},
		{"60/20/30", "the shares sum to 110"},
		{"0.0001/0.5/0.5005", "no training share remains after validation 0.5 and test 0.5005"},
	} {
		_, _, err := ParseSplit(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSplit(%q) error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

// FuzzParseSplit checks that whatever ParseSplit accepts is a split that
// training accepts, and that it reads back the same from its own
// fractions; whatever it refuses it refuses naming the flag and the value.
func FuzzParseSplit(f *testing.F) {
	for _, s := range []string{"60/10/30", "0.6/0.1/0.3", "33.33/33.33/33.33", "60/10/20", "1/1/1", "-1/1/1", "a/b/c", "1e308/1e308/1e308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		val, test, err := ParseSplit(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("--split %q: ", s)) {
				t.Fatalf("ParseSplit(%q): error %q does not name the flag and value", s, err)
			}
			return
		}
		cfg := DefaultConfig()
		cfg.ValFrac, cfg.TestFrac = val, test
		if err := cfg.Validate(); err != nil {
			t.Fatalf("ParseSplit(%q) = %v, %v, which training refuses: %v", s, val, test, err)
		}
		v2, t2, err := ParseSplit(fmt.Sprintf("%v/%v/%v", 1-val-test, val, test))
		if err != nil || math.Abs(v2-val) > 1e-12 || math.Abs(t2-test) > 1e-12 {
			t.Fatalf("ParseSplit(%q) = %v, %v, but its fractions read back as %v, %v, %v", s, val, test, v2, t2, err)
		}
	})
}
