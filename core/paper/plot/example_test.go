package plot_test

import (
	"bytes"
	"fmt"
	"strings"

	"ilpgnn/core/paper/plot"
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

// With Dots, close values such as AUCs around 94% are compared on an axis
// fitted to them, rather than on bars that must start at 0.
func ExampleBarChart_dots() {
	c := &plot.BarChart{
		Title:      "Test AUC (%)",
		Categories: []string{"Cora", "CiteSeer", "PubMed"},
		Series: []plot.Series{
			{Name: "ILP-GNN", Y: []float64{94.3, 93.8, 94.1}, Err: []float64{0.3, 0.25, 0.35}},
			{Name: "GCN", Y: []float64{93.9, 93.7, 94.4}},
		},
		Dots: true,
	}
	var buf bytes.Buffer
	if err := c.WriteSVG(&buf); err != nil {
		fmt.Println(err)
		return
	}
	svg := buf.String()
	fmt.Println(strings.Count(svg, `class="marker"`), "markers,", strings.Count(svg, `class="errorbar"`), "error bars,", strings.Count(svg, `class="bar"`), "bars")
	// Output:
	// 6 markers, 3 error bars, 0 bars
}
