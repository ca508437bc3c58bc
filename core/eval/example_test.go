package eval_test

import (
	"fmt"

	"ilpgnn/core/eval"
)

func ExampleAUC() {
	// Scores of the test positives and the sampled negatives. The positive
	// 0.4 ties with the negative 0.4 and counts half.
	pos := []float32{0.9, 0.8, 0.4}
	neg := []float32{0.7, 0.4, 0.1}
	fmt.Printf("AUC = %.4f\n", eval.AUC(pos, neg)) // (3 + 3 + 1.5) / 9

	// Mean ± sample std over seeds.
	mean, std := eval.MeanStd([]float64{0.91, 0.93, 0.92, 0.90, 0.94})
	fmt.Printf("%.4f ± %.4f\n", mean, std)
	// Output:
	// AUC = 0.8333
	// 0.9200 ± 0.0158
}
