package graphexport

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"time"
)

// Sink receives the files of an export (WriteTo): a folder of the file
// system (Dir), a zip archive (Zip), or anything else that stores named
// bytes.
type Sink interface {
	// WriteFile stores the file name, a slash-separated path relative to
	// the export's root, with the bytes write writes to the writer it is
	// given. write streams (a feature file can take gigabytes), so a Sink
	// should not need the whole content at once. When write fails,
	// WriteFile returns its error; the file may then be missing or partial.
	WriteFile(name string, write func(w io.Writer) error) error
}

// Dir is a Sink into a folder of the file system, created as needed. Each
// file is written to a temporary file beside it and renamed into place
// once complete, so that a reader never sees half a file.
type Dir string

// WriteFile writes name under d (see Sink).
func (d Dir) WriteFile(name string, write func(w io.Writer) error) error {
	return writeFileAtomic(filepath.Join(string(d), filepath.FromSlash(name)), write)
}

// zipEpoch is the time of every entry a Zip writes: the oldest a zip entry
// holds, so that the same export gives the same bytes.
var zipEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Zip is a Sink into a zip archive: each file an entry, compressed
// (Deflate), under a folder of the archive so that unzipping makes one
// folder. Close ends the archive.
type Zip struct {
	zw     *zip.Writer
	folder string
}

// NewZip returns a Zip writing to w, its entries under folder ("" for the
// archive's root).
func NewZip(w io.Writer, folder string) *Zip {
	return &Zip{zw: zip.NewWriter(w), folder: folder}
}

// WriteFile adds the entry folder/name (see Sink).
func (z *Zip) WriteFile(name string, write func(w io.Writer) error) error {
	full := path.Join(z.folder, name)
	w, err := z.zw.CreateHeader(&zip.FileHeader{Name: full, Method: zip.Deflate, Modified: zipEpoch})
	if err != nil {
		return fmt.Errorf("zip entry %s: %w", full, err)
	}
	if err := write(w); err != nil {
		return fmt.Errorf("zip entry %s: %w", full, err)
	}
	return nil
}

// Close writes the archive's central directory; the archive is complete
// when it returns nil. It does not close the underlying writer.
func (z *Zip) Close() error {
	if err := z.zw.Close(); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	return nil
}

// ZipBytes returns e's export (WriteTo's files) as a zip archive held in
// memory, its entries under folder, and the manifest. A zip longer than
// maxBytes is refused, wrapping ErrZipTooLarge, as soon as it grows past
// the limit, so that memory stays bounded whatever the graph; the dense
// features' bound (MaxFeatureBytes) still applies first.
func ZipBytes(e Export, folder string, maxBytes int64) ([]byte, *Manifest, error) {
	buf := &cappedBuffer{max: maxBytes}
	z := NewZip(buf, folder)
	m, err := WriteTo(z, e)
	if err != nil {
		return nil, nil, err
	}
	if err := z.Close(); err != nil {
		return nil, nil, fmt.Errorf("graphexport: %w", err)
	}
	return buf.b.Bytes(), m, nil
}

// cappedBuffer is a bytes.Buffer whose writes fail once it would pass max
// bytes.
type cappedBuffer struct {
	b   bytes.Buffer
	max int64
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if int64(c.b.Len())+int64(len(p)) > c.max {
		return 0, fmt.Errorf("%w: the compressed export passed the %s limit", ErrZipTooLarge, byteSize(c.max))
	}
	return c.b.Write(p)
}
