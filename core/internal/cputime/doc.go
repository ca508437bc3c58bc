// Package cputime reads the CPU time the process has used, so benchmarks
// on a shared machine can report the work done apart from the time spent
// waiting for a core.
package cputime
