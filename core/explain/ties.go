package explain

import "fmt"

// TiedAtTop returns how many of the leading probabilities cannot be told
// apart from the first: the length of the longest prefix of probs (sorted
// best first, as suggestions are) whose values all lie less than ece below
// probs[0]. It is 0 for no probabilities and when ece is not positive (the
// calibration error is unknown), and at least 1 otherwise.
//
// Why the calibration error: a calibrated model's p is off by ece on
// average (calibrate.ECE, the mean gap between stated and observed link
// rates), so two probabilities closer than that may rank either way in
// truth; the model gives no grounds to prefer one. The binomial standard
// error of a reliability bin would be a stricter bound, but it shrinks
// with the number of test pairs while the model's error does not.
func TiedAtTop(probs []float64, ece float64) int {
	if len(probs) == 0 || !(ece > 0) {
		return 0
	}
	n := 1
	for n < len(probs) && probs[0]-probs[n] < ece {
		n++
	}
	return n
}

// TieNote says, in percentage points, that the leading probabilities of a
// list of suggestions cannot be told apart (TiedAtTop), or returns "" when
// fewer than two are tied. For example: "the 10 suggestions' probabilities
// lie within 0.9 points, less than the model's calibration error (2.1
// points): treat them as tied".
func TieNote(probs []float64, ece float64) string {
	n := TiedAtTop(probs, ece)
	if n < 2 {
		return ""
	}
	which := fmt.Sprintf("the first %d suggestions'", n)
	if n == len(probs) {
		which = fmt.Sprintf("the %d suggestions'", n)
		if n == 2 {
			which = "both suggestions'"
		}
	}
	return fmt.Sprintf("%s probabilities lie within %.1f points, less than the model's calibration error (%.1f points): treat them as tied",
		which, 100*(probs[0]-probs[n-1]), 100*ece)
}
