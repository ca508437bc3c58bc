package f32

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"ilpgnn/core/internal/cputime"
)

// Benchmarks over a size grid, named for benchstat, each reporting GFLOP/s
// (2 flops per multiply-add). m=2708 is Cora's node count; k, n are
// feature and hidden widths.
var denseGrid = [][3]int{
	{64, 64, 64}, {256, 64, 64}, {2708, 16, 16}, {2708, 64, 16}, {2708, 128, 64},
	{2708, 128, 128}, {2708, 1433, 64},
}

var sink float32

// reportGFLOPs reports GFLOP/s of wall time and, where the process CPU time
// is known (cpuNow), of CPU time since c0: on a shared machine the CPU
// figure is the steadier one.
func reportGFLOPs(b *testing.B, c0 time.Duration, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if c1 := cpuNow(); c1 > c0 {
		b.ReportMetric(flops*float64(b.N)/(c1-c0).Seconds()/1e9, "cpu-GFLOP/s")
	}
}

func BenchmarkMatMul(b *testing.B) {
	for _, s := range denseGrid {
		m, k, n := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("m=%d,k=%d,n=%d", m, k, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			x, y, dst := randVec(r, m*k), randVec(r, k*n), make([]float32, m*n)
			b.ReportAllocs()
			c0 := cpuNow()
			for b.Loop() {
				MatMul(dst, x, y, m, k, n)
			}
			sink += dst[0]
			reportGFLOPs(b, c0, 2*float64(m*k*n))
		})
	}
}

func BenchmarkMatMulAddNT(b *testing.B) {
	for _, s := range denseGrid {
		m, k, n := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("m=%d,k=%d,n=%d", m, k, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			x, y, dst := randVec(r, m*n), randVec(r, k*n), make([]float32, m*k)
			b.ReportAllocs()
			c0 := cpuNow()
			for b.Loop() {
				MatMulAddNT(dst, x, y, m, k, n)
			}
			sink += dst[0]
			reportGFLOPs(b, c0, 2*float64(m*k*n))
		})
	}
}

func BenchmarkMatMulAddTN(b *testing.B) {
	for _, s := range denseGrid {
		m, k, n := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("m=%d,k=%d,n=%d", m, k, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 3))
			x, y, dst := randVec(r, m*k), randVec(r, m*n), make([]float32, k*n)
			b.ReportAllocs()
			c0 := cpuNow()
			for b.Loop() {
				MatMulAddTN(dst, x, y, m, k, n)
			}
			sink += dst[0]
			reportGFLOPs(b, c0, 2*float64(m*k*n))
		})
	}
}

// BenchmarkGonumSgemm is gonum's blas32.Gemm (pure Go, float32) on the same
// grid as BenchmarkMatMul, for comparison.
func BenchmarkGonumSgemm(b *testing.B) {
	for _, s := range denseGrid {
		m, k, n := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("m=%d,k=%d,n=%d", m, k, n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			x := blas32.General{Rows: m, Cols: k, Stride: k, Data: randVec(r, m*k)}
			y := blas32.General{Rows: k, Cols: n, Stride: n, Data: randVec(r, k*n)}
			dst := blas32.General{Rows: m, Cols: n, Stride: n, Data: make([]float32, m*n)}
			b.ReportAllocs()
			c0 := cpuNow()
			for b.Loop() {
				blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, x, y, 0, dst)
			}
			sink += dst.Data[0]
			reportGFLOPs(b, c0, 2*float64(m*k*n))
		})
	}
}

func BenchmarkSpMM(b *testing.B) {
	for _, s := range [][3]int{ // rows, entries per row, n
		{2708, 5, 16}, {2708, 5, 64}, {2708, 5, 128}, {19717, 5, 64},
		{169343, 15, 128}, // arxiv-sized: x (86 MB) outgrows the caches
	} {
		rows, per, n := s[0], s[1], s[2]
		r := rand.New(rand.NewPCG(1, 4))
		a := randCSR(r, rows, rows, per)
		x, dst := randVec(r, rows*n), make([]float32, rows*n)
		b.Run(fmt.Sprintf("nnz=%d,n=%d", a.NNZ(), n), func(b *testing.B) {
			b.ReportAllocs()
			c0 := cpuNow()
			for b.Loop() {
				SpMM(dst, a, x, n)
			}
			sink += dst[0]
			reportGFLOPs(b, c0, 2*float64(a.NNZ()*n))
		})
	}
}

// BenchmarkTransposeSpMM times Aᵀ·G for A the features, G a gradient, two
// ways: SpMMAdd over the transposed CSR and SpMMTAdd over A's rows. The
// dense case is arxiv-sized (169,343 nodes, 128 dense features), where the
// first reads G once per feature.
func BenchmarkTransposeSpMM(b *testing.B) {
	for _, s := range [][4]int{ // rows, cols, entries per row, n
		{2708, 1433, 9, 128},    // Cora-like: sparse features
		{7650, 745, 30, 128},    // Photo-like
		{169343, 128, 128, 128}, // arxiv-like: dense features
	} {
		rows, cols, per, n := s[0], s[1], s[2], s[3]
		r := rand.New(rand.NewPCG(1, 9))
		a := randCSR(r, rows, cols, per)
		at := a.Transpose()
		g, dst := randVec(r, rows*n), make([]float32, cols*n)
		name := fmt.Sprintf("%dx%d,nnz=%d,n=%d", rows, cols, a.NNZ(), n)
		for _, walk := range []struct {
			name string
			run  func()
		}{
			{"transposed", func() { SpMMAdd(dst, at, g, n) }},
			{"rows", func() { SpMMTAdd(dst, a, g, n) }},
		} {
			b.Run("walk="+walk.name+"/"+name, func(b *testing.B) {
				c0 := cpuNow()
				for b.Loop() {
					walk.run()
				}
				sink += dst[0]
				reportGFLOPs(b, c0, 2*float64(a.NNZ()*n))
			})
		}
	}
}

func BenchmarkDot(b *testing.B) {
	for _, n := range []int{16, 128, 4096} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 5))
			x, y := randVec(r, n), randVec(r, n)
			c0 := cpuNow()
			for b.Loop() {
				sink += Dot(x, y)
			}
			reportGFLOPs(b, c0, 2*float64(n))
		})
	}
}

func BenchmarkAxpy(b *testing.B) {
	for _, n := range []int{16, 128, 4096} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 6))
			x, y := randVec(r, n), randVec(r, n)
			c0 := cpuNow()
			for b.Loop() {
				Axpy(1e-3, x, y)
			}
			sink += y[0]
			reportGFLOPs(b, c0, 2*float64(n))
		})
	}
}

// cpuNow is the process's CPU time so far, 0 where it is not known.
func cpuNow() time.Duration {
	d, _ := cputime.Used()
	return d
}
