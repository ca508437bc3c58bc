//go:build !unix

package userfile

// openFlags is empty where there are no named pipes to block on, or no
// O_NONBLOCK (WebAssembly, Windows).
const openFlags = 0
