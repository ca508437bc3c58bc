//go:build unix

package userfile

import "syscall"

// openFlags makes opening a named pipe return at once instead of waiting
// for a writer (Linux and the BSDs); regular files ignore it.
const openFlags = syscall.O_NONBLOCK
