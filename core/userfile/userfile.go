// Package userfile opens and reads the files a user names (a graph, a
// checkpoint, a settings file, a bundle) so that no such name can hang the
// program or exhaust its memory: only regular files are opened, a named
// pipe never blocks the opener, and each kind of file has a size cap that
// is checked against the file before anything is allocated for it.
//
// The caps are generous bounds for the files this project writes or reads,
// not tuning knobs: they stop a sparse 20 GiB file or a mistyped path such
// as /dev/zero, and their refusals say how large the file is and what the
// cap is.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Kind is a kind of file a user names, with the largest size it may have.
type Kind struct {
	// What names the kind in messages ("a graph file").
	What string
	// Max is the largest size in bytes accepted.
	Max int64
}

// The kinds of file the program reads. A graph file's cap is the tab's
// whole memory (4 GiB): a larger file could not be trained on in the
// browser, and on the command line a graph that large is beyond what one
// machine trains (docs/scale.md); a checkpoint holds weights, whose
// largest tensor is the features' input layer; a settings file is a few
// hundred bytes of JSON.
var (
	Graph      = Kind{What: "a graph file", Max: 4 << 30}
	Checkpoint = Kind{What: "a checkpoint", Max: 2 << 30}
	Settings   = Kind{What: "a settings file", Max: 1 << 20}
	Bundle     = Kind{What: "a bundle", Max: 2 << 30}
	// Negatives are hard negatives (package heart): 4 bytes a node, 500
	// nodes a held-out link.
	Negatives = Kind{What: "a negatives file", Max: 2 << 30}
)

// ErrTooLarge is wrapped by the error for a file over its kind's cap.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file: a folder, a named pipe, a device, a socket.
var ErrNotRegular = errors.New("not a regular file")

// Error is a refusal or a failure to read a file: the path as given and
// what went wrong. Its message is "path: problem".
type Error struct {
	Path string
	Err  error
}

// Error formats e as "path: problem".
func (e *Error) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the problem.
func (e *Error) Unwrap() error { return e.Err }

// Open opens the regular file at path for reading and returns it with its
// size. A path that is not a regular file after symbolic links is refused
// without being opened for longer than it takes to look (a named pipe is
// opened without blocking, see openFlags), and so is a file larger than
// k.Max. Errors are *Error.
func Open(path string, k Kind) (*os.File, int64, error) {
	if info, err := os.Stat(path); err != nil {
		return nil, 0, &Error{Path: path, Err: PathProblem(err)}
	} else if err := checkInfo(info, k); err != nil {
		return nil, 0, &Error{Path: path, Err: err}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, &Error{Path: path, Err: PathProblem(err)}
	}
	// Look again at what was opened: the path may have been replaced
	// since the first look.
	info, err := f.Stat()
	if err == nil {
		err = checkInfo(info, k)
	}
	if err != nil {
		f.Close()
		return nil, 0, &Error{Path: path, Err: err}
	}
	return f, info.Size(), nil
}

// ReadFile reads the whole regular file at path, refusing what Open
// refuses. Its buffer is sized from the file's size once that has passed
// the cap, and a file that grows past the cap while it is read is refused
// too. Errors are *Error.
func ReadFile(path string, k Kind) ([]byte, error) {
	f, size, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readAll(f, size, k)
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	return b, nil
}

// readAll reads r, which held size bytes when it was opened, refusing
// more than k.Max.
func readAll(r io.Reader, size int64, k Kind) ([]byte, error) {
	b := make([]byte, 0, size+512)
	r = io.LimitReader(r, k.Max+1) // a byte over the cap tells that it grew past it
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow by append's policy
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) > k.Max {
		return nil, fmt.Errorf("%w: the file grew past the %s that %s may have while it was read", ErrTooLarge, Size(k.Max), k.What)
	}
	return b, nil
}

// checkInfo refuses what is not a regular file, and a file over k's cap.
func checkInfo(info os.FileInfo, k Kind) error {
	m := info.Mode()
	if !m.IsRegular() {
		what := "not a regular file"
		switch {
		case m.IsDir():
			what = "a folder"
		case m&os.ModeNamedPipe != 0:
			what = "a named pipe (FIFO)"
		case m&os.ModeSocket != 0:
			what = "a socket"
		case m&os.ModeDevice != 0:
			what = "a device"
		}
		return fmt.Errorf("%w: it is %s, and only files are read", ErrNotRegular, what)
	}
	if info.Size() > k.Max {
		return tooLarge(info.Size(), k)
	}
	return nil
}

func tooLarge(size int64, k Kind) error {
	return fmt.Errorf("%w: %s is over the %s that %s may have", ErrTooLarge, Size(size), Size(k.Max), k.What)
}

// PathProblem returns err without the operation and path an
// *os.PathError adds ("stat x: "), for an error that names the path
// itself, as Error does.
func PathProblem(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Size formats a byte count for people in binary units with at most one
// decimal: "512 bytes", "3.4 MiB", "20 GiB".
func Size(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") + " " + units[u]
}
