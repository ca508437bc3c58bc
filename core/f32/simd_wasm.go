//go:build wasm && goexperiment.simd

package f32

import "simd/archsimd"

// The hot loops in WebAssembly's 128-bit SIMD (four float32 lanes), built
// with GOEXPERIMENT=simd (Go 1.27). Each does, element by element, the
// float32 operations of its Go loop in vec.go or spmm.go in the same
// order — a multiply, then an add, never a fused multiply-add — so the
// results are the Go loops' bits (simd_wasm_test.go). Measurements:
// docs/simd.md.

type vec4 = archsimd.Float32x4

// load4 and store4 move the four floats at s[j:].
func load4(s []float32, j int) vec4 { return archsimd.LoadFloat32x4Array((*[4]float32)(s[j:])) }

func store4(v vec4, s []float32, j int) { v.StoreArray((*[4]float32)(s[j:])) }

func broadcast(x float32) vec4 { return archsimd.BroadcastFloat32x4(x) }

func madd2(d0, d1, x0, x1, b []float32) { madd2SIMD(d0, d1, x0, x1, b) }

func spmmRow(d, val []float32, idx []int32, b []float32) { spmmRowSIMD(d, val, idx, b) }

func axpy(alpha float32, x, y []float32) { axpySIMD(alpha, x, y) }

func dot(a, b []float32) float32 { return dotSIMD(a, b) }

func dotRows(dst, a, m []float32, rows []int32) {
	n := len(a)
	for k, r := range rows {
		dst[k] = dotSIMD(a, m[int(r)*n:][:n])
	}
}

func scale(dst []float32, alpha float32, x []float32) { scaleGo(dst, alpha, x) }

// checkIndices is a no-op: the loops check every slice bound.
func checkIndices(string, *CSR) {}

// dotSIMD is dotGo with its four running sums in the lanes of one vector:
// lane l adds a[i+l]·b[i+l] + a[i+4+l]·b[i+4+l] per eight elements.
func dotSIMD(a, b []float32) float32 {
	b = b[:len(a)]
	var acc vec4
	i := 0
	for ; i < len(a)-7; i += 8 {
		p := load4(a, i).Mul(load4(b, i))
		q := load4(a, i+4).Mul(load4(b, i+4))
		acc = acc.Add(p.Add(q))
	}
	var s [4]float32
	acc.StoreArray(&s)
	s0 := s[0]
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s[1]) + (s[2] + s[3])
}

// axpySIMD is axpyGo four elements at a time.
func axpySIMD(alpha float32, x, y []float32) {
	y = y[:len(x)]
	va := broadcast(alpha)
	i := 0
	for ; i < len(x)-7; i += 8 {
		store4(load4(y, i).Add(va.Mul(load4(x, i))), y, i)
		store4(load4(y, i+4).Add(va.Mul(load4(x, i+4))), y, i+4)
	}
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}

// spmmRowSIMD is spmmRowGo four columns at a time: d += Σ val[q]·b[idx[q]],
// four rows of b per pass, added left to right.
func spmmRowSIMD(d, val []float32, idx []int32, b []float32) {
	n := len(d)
	val = val[:len(idx)]
	q := 0
	for ; q+4 <= len(idx); q += 4 {
		r0, r1, r2, r3 := int(idx[q])*n, int(idx[q+1])*n, int(idx[q+2])*n, int(idx[q+3])*n
		b0 := b[r0 : r0+n]
		b1 := b[r1 : r1+n][:len(b0)]
		b2 := b[r2 : r2+n][:len(b0)]
		b3 := b[r3 : r3+n][:len(b0)]
		w0, w1, w2, w3 := val[q], val[q+1], val[q+2], val[q+3]
		v0, v1, v2, v3 := broadcast(w0), broadcast(w1), broadcast(w2), broadcast(w3)
		d := d[:len(b0)]
		j := 0
		for ; j < len(b0)-3; j += 4 {
			s := load4(d, j).Add(v0.Mul(load4(b0, j))).Add(v1.Mul(load4(b1, j)))
			s = s.Add(v2.Mul(load4(b2, j))).Add(v3.Mul(load4(b3, j)))
			store4(s, d, j)
		}
		for ; j < len(b0); j++ {
			d[j] = d[j] + w0*b0[j] + w1*b1[j] + w2*b2[j] + w3*b3[j]
		}
	}
	for ; q < len(idx); q++ {
		r := int(idx[q]) * n
		axpySIMD(val[q], b[r:r+n], d)
	}
}

// madd2SIMD is madd2Go four columns at a time: d0 += x0·b and d1 += x1·b
// for the rows of b, four per pass, added left to right.
func madd2SIMD(d0, d1, x0, x1, b []float32) {
	n := len(d0)
	d1 = d1[:n]
	x1 = x1[:len(x0)]
	p := 0
	for ; p+4 <= len(x0); p += 4 {
		b0 := b[p*n : p*n+n]
		b1 := b[(p+1)*n : (p+1)*n+n][:len(b0)]
		b2 := b[(p+2)*n : (p+2)*n+n][:len(b0)]
		b3 := b[(p+3)*n : (p+3)*n+n][:len(b0)]
		a0, a1, a2, a3 := x0[p], x0[p+1], x0[p+2], x0[p+3]
		c0, c1, c2, c3 := x1[p], x1[p+1], x1[p+2], x1[p+3]
		va0, va1, va2, va3 := broadcast(a0), broadcast(a1), broadcast(a2), broadcast(a3)
		vc0, vc1, vc2, vc3 := broadcast(c0), broadcast(c1), broadcast(c2), broadcast(c3)
		d0, d1 := d0[:len(b0)], d1[:len(b0)]
		j := 0
		for ; j < len(b0)-3; j += 4 {
			v0, v1, v2, v3 := load4(b0, j), load4(b1, j), load4(b2, j), load4(b3, j)
			store4(load4(d0, j).Add(va0.Mul(v0)).Add(va1.Mul(v1)).Add(va2.Mul(v2)).Add(va3.Mul(v3)), d0, j)
			store4(load4(d1, j).Add(vc0.Mul(v0)).Add(vc1.Mul(v1)).Add(vc2.Mul(v2)).Add(vc3.Mul(v3)), d1, j)
		}
		for ; j < len(b0); j++ {
			v0, v1, v2, v3 := b0[j], b1[j], b2[j], b3[j]
			d0[j] = d0[j] + a0*v0 + a1*v1 + a2*v2 + a3*v3
			d1[j] = d1[j] + c0*v0 + c1*v1 + c2*v2 + c3*v3
		}
	}
	for ; p < len(x0); p++ {
		axpySIMD(x0[p], b[p*n:p*n+n], d0)
		axpySIMD(x1[p], b[p*n:p*n+n], d1)
	}
}
