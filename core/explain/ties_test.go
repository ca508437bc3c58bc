package explain

import "testing"

func TestTiedAtTop(t *testing.T) {
	for _, tc := range []struct {
		probs []float64
		ece   float64
		want  int
	}{
		{nil, 0.02, 0},
		{[]float64{0.9, 0.89}, 0, 0}, // calibration error unknown
		{[]float64{0.9}, 0.02, 1},
		{[]float64{0.9, 0.885, 0.881, 0.85}, 0.02, 3}, // 0.9-0.881 = 0.019 < 0.02; 0.05 is not
		{[]float64{0.9, 0.88}, 0.02, 1},               // 0.9-0.88 is not below 0.02
		{[]float64{0.5, 0.5, 0.5}, 0.001, 3},
	} {
		if got := TiedAtTop(tc.probs, tc.ece); got != tc.want {
			t.Errorf("TiedAtTop(%v, %v) = %d, want %d", tc.probs, tc.ece, got, tc.want)
		}
	}
}

func TestTieNote(t *testing.T) {
	probs := []float64{0.71, 0.705, 0.701, 0.6}
	if got, want := TieNote(probs, 0.021), "the first 3 suggestions' probabilities lie within 0.9 points, less than the model's calibration error (2.1 points): treat them as tied"; got != want {
		t.Errorf("TieNote = %q, want %q", got, want)
	}
	if got, want := TieNote(probs[:3], 0.021), "the 3 suggestions' probabilities lie within 0.9 points, less than the model's calibration error (2.1 points): treat them as tied"; got != want {
		t.Errorf("all tied: %q, want %q", got, want)
	}
	if got, want := TieNote(probs[:2], 0.021), "both suggestions' probabilities lie within 0.5 points, less than the model's calibration error (2.1 points): treat them as tied"; got != want {
		t.Errorf("two: %q, want %q", got, want)
	}
	if got := TieNote(probs, 0.001); got != "" {
		t.Errorf("distinguishable: %q", got)
	}
}
