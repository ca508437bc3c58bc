package plot_test

import (
	"bytes"
	"fmt"
	"strings"

	"ilpgnn/core/plot"
)

func ExampleLineChart() {
	c := &plot.LineChart{
		Title:  "Validation AUC vs. dropout",
		XLabel: "dropout",
		YLabel: "AUC",
		Series: []plot.Series{{
			Name: "ILP-GNN",
			X:    []float64{0, 0.25, 0.5},
			Y:    []float64{0.91, 0.93, 0.92},
			Err:  []float64{0.01, 0.008, 0.012}, // std over seeds
		}},
	}
	var buf bytes.Buffer // an *os.File in a real command
	if err := c.WriteSVG(&buf); err != nil {
		fmt.Println(err)
		return
	}
	svg := buf.String()
	fmt.Println(strings.SplitN(svg, "\n", 2)[0])
	fmt.Println(strings.Count(svg, `class="marker"`), "markers,", strings.Count(svg, `class="errorbar"`), "error bars")
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// 3 markers, 3 error bars
}
