//go:build !amd64 || purego

package detmath

func sigmoids(dst, x []float32) { sigmoidsGo(dst, x) }
