//go:build !amd64 || purego

package avx

func detect() bool { return false }
