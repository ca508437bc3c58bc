package checkpoint_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"log"

	"ilpgnn/core/checkpoint"
)

func Example() {
	graphFP := sha256.Sum256([]byte("the training graph")) // fingerprint.Of(graph) in practice
	ck := &checkpoint.Checkpoint{
		Model:       "ilpgnn",
		Dataset:     "cora",
		Fingerprint: graphFP,
		Seed:        1,
		Config:      []byte(`{"hidden":2}`),
		Tensors: []checkpoint.Tensor{
			{Name: "w1", Rows: 2, Cols: 2, Data: []float32{1, 0, 0, 1}},
		},
		Metrics: []checkpoint.Metric{{Name: "test_auc", Value: 0.913}},
	}
	var file bytes.Buffer
	if _, err := ck.WriteTo(&file); err != nil { // or ck.WriteFile(path)
		log.Fatal(err)
	}

	// A listing reads only the header.
	h, err := checkpoint.ReadHeader(bytes.NewReader(file.Bytes()))
	if err != nil {
		log.Fatal(err)
	}
	auc, _ := h.Metric("test_auc")
	fmt.Printf("%s on %s: %d params, test AUC %.3f\n", h.Model, h.Dataset, h.Params(), auc)

	// Loading checks the weights and that they belong to this graph.
	back, err := checkpoint.Read(&file)
	if err != nil {
		log.Fatal(err)
	}
	if err := back.CheckGraph(graphFP); err != nil {
		log.Fatal(err)
	}
	w1, err := back.Tensor("w1")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(w1.Rows, w1.Cols, w1.Data)

	err = back.CheckGraph(sha256.Sum256([]byte("another graph")))
	fmt.Println(err)
	// Output:
	// ilpgnn on cora: 4 params, test AUC 0.913
	// 2 2 [1 0 0 1]
	// checkpoint was trained on a different graph: checkpoint 8bdf8ceb3ac9, graph d72f78e81a8a
}
