package calibrate

import (
	"math"
	"testing"
)

// TestPortable: the fitted temperature and bias and the ECE have the same
// bits natively and under js/wasm (the recorded ones), so the browser
// shows the command line's probabilities.
func TestPortable(t *testing.T) {
	logits, labels := drawShifted(12, 5000, 4, 0.6, -1.2)
	T, b, err := FitPlatt(logits, labels)
	if err != nil {
		t.Fatal(err)
	}
	T0, err := Fit(logits, labels)
	if err != nil {
		t.Fatal(err)
	}
	ordered, nPos := linksFirst(logits, labels)
	r := Measure(ordered, nPos, T, b)
	got := [...]uint64{math.Float64bits(T), math.Float64bits(b), math.Float64bits(T0), math.Float64bits(r.ECE), math.Float64bits(r.ECEUncalibrated)}
	want := [...]uint64{0x3fe30f6e27f45fd6, 0xbff314d69d9b3be0, 0x3fe728b5b6796688, 0x3f85fd2b5f1438bb, 0x3fb3ab6d16f298b8}
	if got != want {
		t.Errorf("bits %#x, recorded %#x (T %v, b %v, T alone %v, ECE %v, uncalibrated %v)", got, want, T, b, T0, r.ECE, r.ECEUncalibrated)
	}
}
