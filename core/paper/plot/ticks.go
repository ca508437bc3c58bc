package plot

import (
	"math"
	"strconv"
)

// maxTicks is the most ticks NiceTicks returns. Picking the smallest nice
// step that stays within it yields at least 4 ticks, because the next
// smaller step is at most 2.5 times smaller and gave more than maxTicks.
const maxTicks = 10

// tickSlack, in units of the tick step, absorbs rounding in lo/step so that
// a bound lying on a tick (0.83 on a 0.01 grid) does not add a tick.
const tickSlack = 1e-5

// NiceTicks returns between about 4 and 10 evenly spaced "nice" tick values
// (steps of 1, 2 or 5 times a power of ten) covering [lo, hi]: the first
// tick is at most lo and the last at least hi. The bounds may come in either
// order. A degenerate range (lo == hi, or one narrower than a billionth of
// its magnitude) is first widened by 10% of its magnitude each side, or by 1
// around 0. Tick values are the closest float64 to the decimal they stand
// for (0.3, not 0.30000000000000004), so they print cleanly.
//
// NiceTicks returns nil if lo or hi is NaN or infinite, or if the range is
// too wide to be represented.
func NiceTicks(lo, hi float64) []float64 {
	if !isFinite(lo) || !isFinite(hi) {
		return nil
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	lo, hi = padRange(lo, hi)
	span := hi - lo
	if !isFinite(lo) || !isFinite(hi) || !isFinite(span) {
		return nil
	}
	// 10^e0 is at most span/maxTicks, below which no step fits, and by
	// 10^(e0+2) a step exceeds the span. Starting a decade lower guards
	// against Log10 rounding up across a power of ten.
	e0 := int(math.Floor(math.Log10(span / maxTicks)))
	for e := e0 - 1; e <= e0+2; e++ {
		for _, m := range [...]float64{1, 2, 5} {
			first, last := tickRange(lo, hi, m, e)
			if last-first+1 <= maxTicks {
				return tickValues(first, last, m, e)
			}
		}
	}
	return nil // unreachable for finite input; kept so odd floats cannot loop
}

// maxExactInt is 2^52: below it in magnitude, float64 holds every integer
// and its successor exactly, so integerTicks can count through them.
const maxExactInt = 1 << 52

// integerTicks returns NiceTicks(lo, hi) with a step of at least 1, for an
// axis whose data are all whole numbers (epochs, layers, seeds) and which
// must not get ticks such as 1.5 between them. Where NiceTicks would step
// by less than 1, it returns every integer from the floor of the lower bound
// to the ceiling of the upper one, widened by 1 each side if that is a
// single number. Steps of 1 or more are left alone: they are multiples of 1,
// 2 or 5 times a power of ten, so their ticks are whole numbers already. It
// returns nil when NiceTicks does.
func integerTicks(lo, hi float64) []float64 {
	ticks := NiceTicks(lo, hi)
	if len(ticks) < 2 || ticks[1]-ticks[0] >= 1 {
		return ticks
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	first, last := math.Floor(lo), math.Ceil(hi)
	if first == last {
		first, last = first-1, last+1
	}
	if max(-first, last) >= maxExactInt {
		// Unreachable: at this magnitude a span under 5 is degenerate, and
		// NiceTicks pads it to one it steps through by far more than 1.
		return ticks
	}
	// NiceTicks stepped by less than 1, so by at most 0.5 over at most
	// maxTicks ticks: the span is under 5 and this gives at most 7 ticks.
	out := make([]float64, 0, int(last-first)+1)
	for v := first; v <= last; v++ {
		if v == 0 {
			v = 0 // turn -0 into 0
		}
		out = append(out, v)
	}
	return out
}

// padRange widens a degenerate range so that an axis can still be drawn
// around it.
func padRange(lo, hi float64) (float64, float64) {
	mag := max(math.Abs(lo), math.Abs(hi))
	if hi-lo > 1e-9*mag {
		return lo, hi
	}
	mid := lo + (hi-lo)/2
	pad := 0.1 * mag
	if pad == 0 {
		pad = 1
	}
	return mid - pad, mid + pad
}

// tickRange returns the indices of the first and last multiples of the step
// m·10^e needed to cover [lo, hi].
func tickRange(lo, hi, m float64, e int) (first, last float64) {
	return math.Floor(scale(lo, m, e) + tickSlack), math.Ceil(scale(hi, m, e) - tickSlack)
}

// scale returns v / (m·10^e), dividing by the exact power of ten when e < 0
// rather than multiplying by an inexact 10^e.
func scale(v, m float64, e int) float64 {
	if e < 0 {
		return v * math.Pow10(-e) / m
	}
	return v / math.Pow10(e) / m
}

// tickValues returns the ticks k·m·10^e for k from first to last. The
// integer k·m is exact, and dividing it by an exact power of ten rounds
// once, to the float64 nearest the decimal value.
func tickValues(first, last, m float64, e int) []float64 {
	ticks := make([]float64, 0, int(last-first)+1)
	for k := first; k <= last; k++ {
		var v float64
		if e < 0 {
			v = k * m / math.Pow10(-e)
		} else {
			v = k * m * math.Pow10(e)
		}
		if !isFinite(v) {
			return nil
		}
		if v == 0 {
			v = 0 // turn -0 into 0 so that it prints as "0"
		}
		ticks = append(ticks, v)
	}
	return ticks
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// formatTicks labels the ticks of one axis with formatNumber, except that
// if any tick needs exponent form all do, so that an axis never mixes
// "0.0001" with "5e-05" or "500000" with "1e+06".
func formatTicks(ticks []float64) []string {
	verb := byte('g')
	for _, t := range ticks {
		if a := math.Abs(roundSig(t)); a != 0 && (a < 1e-4 || a >= 1e6) {
			verb = 'e' // where 'g' switches to exponent form
		}
	}
	labels := make([]string, len(ticks))
	for i, t := range ticks {
		if r := roundSig(t); r == 0 {
			labels[i] = "0"
		} else {
			labels[i] = strconv.FormatFloat(r, verb, -1, 64)
		}
	}
	return labels
}

// formatNumber writes a number compactly: "0.5", "1", "2.5", and exponent
// form ("1e-05", "2e+06") only for very small or large values.
func formatNumber(v float64) string {
	return strconv.FormatFloat(roundSig(v), 'g', -1, 64)
}

// roundSig rounds v to 12 significant digits, which hides float noise such
// as 0.1+0.2 = 0.30000000000000004, and turns -0 into 0.
func roundSig(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		r = v
	}
	if r == 0 {
		r = 0
	}
	return r
}
