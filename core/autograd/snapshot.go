package autograd

// Snapshot copies the values of params into dst, allocating dst when it is
// nil, and returns it: training loops keep the best epoch's weights this
// way and put them back with Restore.
func Snapshot(params []*Var, dst [][]float32) [][]float32 {
	if dst == nil {
		dst = make([][]float32, len(params))
		for k, p := range params {
			dst[k] = make([]float32, len(p.Value))
		}
	}
	for k, p := range params {
		copy(dst[k], p.Value)
	}
	return dst
}

// Restore copies a Snapshot of params back into their values.
func Restore(params []*Var, src [][]float32) {
	for k, p := range params {
		copy(p.Value, src[k])
	}
}
