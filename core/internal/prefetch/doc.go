// Package prefetch asks the CPU to start loading memory that a loop will
// read a little later. Loops over graphs read rows and node states picked
// by edges, scattered over more memory than the caches hold; the hardware
// cannot guess those addresses, but the loop knows them a few steps ahead.
// A prefetch changes no value. Where there is no prefetch instruction to
// issue (WebAssembly) or assembly is off (the purego tag), it does nothing.
package prefetch
