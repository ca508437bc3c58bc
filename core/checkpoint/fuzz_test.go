package checkpoint

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// FuzzUnmarshal checks that no input makes Unmarshal, Read or ReadHeader
// panic, that every error wraps a read sentinel, that the three agree, and
// that whatever Unmarshal accepts re-marshals to exactly the same bytes (the
// encoding is canonical). Crashers found by the fuzzer are kept in
// testdata/fuzz/FuzzUnmarshal and replayed by go test.
func FuzzUnmarshal(f *testing.F) {
	for _, c := range roundTripCases() {
		b := mustMarshal(f, c)
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	if golden, err := os.ReadFile("testdata/v1.ckpt"); err == nil {
		f.Add(golden)
	}
	f.Add([]byte{})
	f.Add([]byte(Magic))
	f.Fuzz(checkDecode)
}

// FuzzHeader is FuzzUnmarshal behind valid checksums: the fuzzer writes the
// header and the data section, and craft wraps them in a preamble and
// checksums, so that the header decoder itself is explored rather than the
// CRC check that stops almost every random input.
func FuzzHeader(f *testing.F) {
	for _, c := range roundTripCases() {
		hdr, _, err := c.encodeHeader()
		if err != nil {
			f.Fatal(err)
		}
		b := mustMarshal(f, c)
		f.Add(hdr, b[preambleLen+len(hdr)+crcLen:len(b)-crcLen])
	}
	f.Fuzz(func(t *testing.T, hdr, data []byte) {
		checkDecode(t, craft(hdr, data))
	})
}

// checkDecode is the property both fuzz targets check on one input.
func checkDecode(t *testing.T, data []byte) {
	{
		c, err := Unmarshal(data)
		if err != nil {
			if !allowedRead(err) {
				t.Fatalf("Unmarshal error wraps no sentinel: %v", err)
			}
		} else {
			b, merr := c.MarshalBinary()
			if merr != nil {
				t.Fatalf("re-marshal of a decoded checkpoint failed: %v", merr)
			}
			if !bytes.Equal(b, data) {
				t.Fatalf("re-marshal differs:\n in %x\nout %x", data, b)
			}
		}

		// Read reads the same checkpoint; it only differs on trailing bytes,
		// which it leaves unread.
		rc, rerr := Read(bytes.NewReader(data))
		switch {
		case rerr != nil && !allowedRead(rerr):
			t.Fatalf("Read error wraps no sentinel: %v", rerr)
		case err == nil && rerr != nil:
			t.Fatalf("Unmarshal succeeded, Read failed: %v", rerr)
		case err != nil && rerr == nil && !errors.Is(err, ErrCorrupt):
			t.Fatalf("Read succeeded, Unmarshal failed: %v", err)
		case err == nil && rc.Seed != c.Seed:
			t.Fatal("Read and Unmarshal disagree")
		}

		// Whenever the whole checkpoint is valid, so is its header.
		h, herr := ReadHeader(bytes.NewReader(data))
		switch {
		case herr != nil && !allowedRead(herr):
			t.Fatalf("ReadHeader error wraps no sentinel: %v", herr)
		case err == nil && herr != nil:
			t.Fatalf("Unmarshal succeeded, ReadHeader failed: %v", herr)
		case err == nil && (h.Model != c.Model || len(h.Tensors) != len(c.Tensors)):
			t.Fatal("ReadHeader and Unmarshal disagree")
		}
	}
}
