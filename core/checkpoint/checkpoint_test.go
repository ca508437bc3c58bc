package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// sample returns a small checkpoint exercising every field, including
// floats whose bits must survive: a NaN with a payload, a signalling NaN,
// ±Inf and -0.
func sample() *Checkpoint {
	return &Checkpoint{
		Model:       "ilpgnn",
		Dataset:     "cora",
		Fingerprint: sha256.Sum256([]byte("graph")),
		Seed:        42,
		Created:     1_700_000_000,
		Config:      []byte(`{"hidden":16,"alpha":0.5}`),
		Tensors: []Tensor{
			{Name: "w1", Rows: 2, Cols: 3, Data: []float32{1, -2, 3.5, float32(math.Inf(-1)), math.Float32frombits(0x7fc0_0001), math.Float32frombits(0x7f80_0001)}},
			{Name: "b1", Rows: 1, Cols: 2, Data: []float32{float32(math.Copysign(0, -1)), 0.25}},
		},
		Metrics: []Metric{
			{"test_auc", 0.9125},
			{"val_auc", math.Float64frombits(0x7ff8_0000_0000_beef)},
			{"epochs", 200},
			{"loss_max", math.Inf(1)},
		},
	}
}

// normalize returns c with empty slices made nil, which is how they read
// back.
func normalize(c *Checkpoint) *Checkpoint {
	d := *c
	if len(d.Config) == 0 {
		d.Config = nil
	}
	if len(d.Metrics) == 0 {
		d.Metrics = nil
	}
	if len(d.Tensors) == 0 {
		d.Tensors = nil
	} else {
		d.Tensors = append([]Tensor(nil), d.Tensors...)
		for i := range d.Tensors {
			if len(d.Tensors[i].Data) == 0 {
				d.Tensors[i].Data = nil
			}
		}
	}
	return &d
}

// sameCheckpoint compares checkpoints field by field, floats by their bits
// and nil-ness of slices included.
func sameCheckpoint(t *testing.T, got, want *Checkpoint) {
	t.Helper()
	if got.Model != want.Model || got.Dataset != want.Dataset || got.Fingerprint != want.Fingerprint ||
		got.Seed != want.Seed || got.Created != want.Created {
		t.Errorf("scalars: got %q %q %x %d %d, want %q %q %x %d %d",
			got.Model, got.Dataset, got.Fingerprint, got.Seed, got.Created,
			want.Model, want.Dataset, want.Fingerprint, want.Seed, want.Created)
	}
	if !bytes.Equal(got.Config, want.Config) || (got.Config == nil) != (want.Config == nil) {
		t.Errorf("Config = %q, want %q", got.Config, want.Config)
	}
	if (got.Metrics == nil) != (want.Metrics == nil) || len(got.Metrics) != len(want.Metrics) {
		t.Fatalf("Metrics = %v, want %v", got.Metrics, want.Metrics)
	}
	for i, m := range want.Metrics {
		if g := got.Metrics[i]; g.Name != m.Name || math.Float64bits(g.Value) != math.Float64bits(m.Value) {
			t.Errorf("metric %d = %s %#x, want %s %#x", i, g.Name, math.Float64bits(g.Value), m.Name, math.Float64bits(m.Value))
		}
	}
	if (got.Tensors == nil) != (want.Tensors == nil) || len(got.Tensors) != len(want.Tensors) {
		t.Fatalf("%d tensors, want %d", len(got.Tensors), len(want.Tensors))
	}
	for i, w := range want.Tensors {
		g := got.Tensors[i]
		if g.Name != w.Name || g.Rows != w.Rows || g.Cols != w.Cols || (g.Data == nil) != (w.Data == nil) || len(g.Data) != len(w.Data) {
			t.Errorf("tensor %d = %q %dx%d (%d values), want %q %dx%d (%d values)",
				i, g.Name, g.Rows, g.Cols, len(g.Data), w.Name, w.Rows, w.Cols, len(w.Data))
			continue
		}
		for j := range w.Data {
			if math.Float32bits(g.Data[j]) != math.Float32bits(w.Data[j]) {
				t.Errorf("tensor %q[%d] = %#x, want %#x", w.Name, j, math.Float32bits(g.Data[j]), math.Float32bits(w.Data[j]))
			}
		}
	}
}

func mustMarshal(t testing.TB, c *Checkpoint) []byte {
	t.Helper()
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTripCases are numbered checkpoints covering the empty corners.
func roundTripCases() []*Checkpoint {
	return []*Checkpoint{
		0: {},
		1: sample(),
		2: {Model: "m", Config: []byte{}, Tensors: []Tensor{}, Metrics: []Metric{}}, // empty, non-nil
		3: {Tensors: []Tensor{{Name: "empty", Rows: 0, Cols: 7}, {Name: "also", Rows: 3, Cols: 0, Data: []float32{}}}},
		4: {Metrics: []Metric{{"nan", math.NaN()}, {"-inf", math.Inf(-1)}, {"neg0", math.Copysign(0, -1)}}, Created: -1, Seed: math.MaxUint64},
		5: {Model: "ünïcode ✓", Dataset: "a\x00b", Config: []byte{0, 1, 2, 255}},
	}
}

func TestRoundTrip(t *testing.T) {
	for i, c := range roundTripCases() {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			b := mustMarshal(t, c)
			got, err := Unmarshal(b)
			if err != nil {
				t.Fatal(err)
			}
			sameCheckpoint(t, got, normalize(c))

			// Byte-identical re-marshal and a second marshal.
			if b2 := mustMarshal(t, got); !bytes.Equal(b, b2) {
				t.Error("re-marshalling a decoded checkpoint changed its bytes")
			}
			if b3 := mustMarshal(t, c); !bytes.Equal(b, b3) {
				t.Error("marshalling twice gave different bytes")
			}

			// WriteTo writes the same bytes and counts them.
			var buf bytes.Buffer
			n, err := c.WriteTo(&buf)
			if err != nil || n != int64(len(b)) || !bytes.Equal(buf.Bytes(), b) {
				t.Errorf("WriteTo = %d, %v; bytes equal %v; want %d, nil, true", n, err, bytes.Equal(buf.Bytes(), b), len(b))
			}

			// Read agrees with Unmarshal.
			got2, err := Read(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			sameCheckpoint(t, got2, normalize(c))

			// ReadHeader gives the header.
			h, err := ReadHeader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			sameHeader(t, h, normalize(c).Header())
		})
	}
}

func sameHeader(t *testing.T, got, want *Header) {
	t.Helper()
	gc := &Checkpoint{Model: got.Model, Dataset: got.Dataset, Fingerprint: got.Fingerprint, Seed: got.Seed, Created: got.Created, Config: got.Config, Metrics: got.Metrics}
	wc := &Checkpoint{Model: want.Model, Dataset: want.Dataset, Fingerprint: want.Fingerprint, Seed: want.Seed, Created: want.Created, Config: want.Config, Metrics: want.Metrics}
	sameCheckpoint(t, gc, wc)
	if got.Version != want.Version {
		t.Errorf("Version = %d, want %d", got.Version, want.Version)
	}
	if fmt.Sprint(got.Tensors) != fmt.Sprint(want.Tensors) || (got.Tensors == nil) != (want.Tensors == nil) {
		t.Errorf("Tensors = %v, want %v", got.Tensors, want.Tensors)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/v1.ckpt (only when defining a new format version)")

// TestGolden pins format version 1: the bytes of a known checkpoint must not
// change without a version bump. testdata/v1.ckpt was written by this
// package (go test -run TestGolden -update) when the format was defined.
func TestGolden(t *testing.T) {
	c := sample()
	c.Created = 0
	if *update {
		if err := os.WriteFile("testdata/v1.ckpt", mustMarshal(t, c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/v1.ckpt")
	if err != nil {
		t.Fatal(err)
	}
	if got := mustMarshal(t, c); !bytes.Equal(got, want) {
		t.Fatalf("encoding changed: got\n%x\nwant\n%x", got, want)
	}
	got, err := ReadFile("testdata/v1.ckpt")
	if err != nil {
		t.Fatal(err)
	}
	sameCheckpoint(t, got, c)
}

// TestLayout checks the documented offsets on the sample.
func TestLayout(t *testing.T) {
	c := sample()
	b := mustMarshal(t, c)
	le := binary.LittleEndian
	h, d := int(le.Uint32(b[12:])), int(le.Uint64(b[16:]))
	if string(b[:8]) != "ILPGNNCK" || le.Uint32(b[8:]) != 1 {
		t.Fatalf("preamble %q", b[:12])
	}
	if d != 4*(6+2) {
		t.Errorf("D = %d, want %d", d, 4*8)
	}
	if len(b) != 36+h+d {
		t.Errorf("len = %d, want 36+H+D = %d", len(b), 36+h+d)
	}
	for _, end := range []int{24, 28 + h, 32 + h + d} {
		if crc32.Checksum(b[:end], crc32.MakeTable(crc32.Castagnoli)) != le.Uint32(b[end:]) {
			t.Errorf("no CRC-32C of bytes [0, %d) at offset %d", end, end)
		}
	}
	// The first float of w1 starts the data section.
	if le.Uint32(b[32+h:]) != math.Float32bits(1) {
		t.Errorf("data section does not start with w1[0]")
	}
	// The model name starts the header.
	if le.Uint32(b[28:]) != 6 || string(b[32:38]) != "ilpgnn" {
		t.Errorf("header does not start with the model name")
	}
}

// allowedRead reports whether err wraps one of the sentinels a read may
// return.
func allowedRead(err error) bool {
	for _, e := range []error{ErrNotCheckpoint, ErrVersion, ErrCorrupt, ErrTruncated} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// TestByteFlips changes every byte of a small checkpoint to each of its 255
// other values: every change must be detected, by the magic or a checksum —
// never a panic and never a silent success. A changed version byte is
// damage, not a newer format: the preamble checksum no longer holds.
func TestByteFlips(t *testing.T) {
	b := mustMarshal(t, sample())
	mut := make([]byte, len(b))
	for off := range b {
		for x := 1; x < 256; x++ {
			copy(mut, b)
			mut[off] ^= byte(x)
			_, err := Unmarshal(mut)
			switch {
			case err == nil:
				t.Fatalf("byte %d ^= %#x: Unmarshal succeeded", off, x)
			case off < 8 && !errors.Is(err, ErrNotCheckpoint),
				off >= 8 && !errors.Is(err, ErrCorrupt):
				t.Fatalf("byte %d ^= %#x: %v", off, x, err)
			}
			if _, err2 := Read(bytes.NewReader(mut)); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("byte %d ^= %#x: Read: %v, Unmarshal: %v", off, x, err2, err)
			}
		}
	}
}

// TestTruncation cuts the sample at every length: Unmarshal and Read say
// ErrTruncated, ReadHeader succeeds exactly when the header is complete.
func TestTruncation(t *testing.T) {
	b := mustMarshal(t, sample())
	hdrEnd := 32 + int(binary.LittleEndian.Uint32(b[12:]))
	for n := range len(b) {
		if _, err := Unmarshal(b[:n]); !errors.Is(err, ErrTruncated) {
			t.Fatalf("Unmarshal of the first %d bytes: %v", n, err)
		}
		if _, err := Read(bytes.NewReader(b[:n])); !errors.Is(err, ErrTruncated) {
			t.Fatalf("Read of the first %d bytes: %v", n, err)
		}
		_, err := ReadHeader(bytes.NewReader(b[:n]))
		if n >= hdrEnd && err != nil || n < hdrEnd && !errors.Is(err, ErrTruncated) {
			t.Fatalf("ReadHeader of the first %d bytes (header ends at %d): %v", n, hdrEnd, err)
		}
	}
}

// TestReadHeaderWithoutWeights lists a file whose tensor data is cut off or
// damaged.
func TestReadHeaderWithoutWeights(t *testing.T) {
	c := sample()
	b := mustMarshal(t, c)
	hdrEnd := 32 + int(binary.LittleEndian.Uint32(b[12:]))
	path := filepath.Join(t.TempDir(), "cut.ckpt")
	if err := os.WriteFile(path, b[:hdrEnd+5], 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := ReadHeader(f)
	if err != nil {
		t.Fatal(err)
	}
	sameHeader(t, h, c.Header())
	if v, ok := h.Metric("test_auc"); !ok || v != 0.9125 {
		t.Errorf("Metric(test_auc) = %v, %v", v, ok)
	}
	if h.Params() != 8 {
		t.Errorf("Params = %d, want 8", h.Params())
	}
	if _, err := ReadFile(path); !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), path) {
		t.Errorf("ReadFile of a cut file: %v", err)
	}

	// Damaged weights: the header still reads, the checkpoint does not.
	d := bytes.Clone(b)
	d[hdrEnd+2] ^= 0x10
	if _, err := ReadHeader(bytes.NewReader(d)); err != nil {
		t.Errorf("ReadHeader with damaged weights: %v", err)
	}
	if _, err := Unmarshal(d); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Unmarshal with damaged weights: %v", err)
	}
}

func TestTrailingBytes(t *testing.T) {
	b := mustMarshal(t, sample())
	in := append(bytes.Clone(b), "next"...)
	if _, err := Unmarshal(in); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "trailing") {
		t.Errorf("Unmarshal with trailing bytes: %v", err)
	}
	// Read stops at the end of the checkpoint.
	r := bytes.NewReader(in)
	if _, err := Read(r); err != nil {
		t.Fatal(err)
	}
	if rest, _ := io.ReadAll(r); string(rest) != "next" {
		t.Errorf("Read left %q, want %q", rest, "next")
	}
}

// refresh recomputes the three checksums of a checkpoint whose preamble
// lengths match its size, so that tests can build well-checksummed files
// with bad content.
func refresh(b []byte) []byte {
	le := binary.LittleEndian
	tab := crc32.MakeTable(crc32.Castagnoli)
	h, d := int(le.Uint32(b[12:])), int(le.Uint64(b[16:]))
	for _, end := range []int{24, 28 + h, 32 + h + d} {
		if end+4 <= len(b) {
			le.PutUint32(b[end:], crc32.Checksum(b[:end], tab))
		}
	}
	return b
}

func TestVersion(t *testing.T) {
	b := mustMarshal(t, sample())
	binary.LittleEndian.PutUint32(b[8:], 2)
	refresh(b)
	for _, read := range []func([]byte) error{
		func(b []byte) error { _, err := Unmarshal(b); return err },
		func(b []byte) error { _, err := Read(bytes.NewReader(b)); return err },
		func(b []byte) error { _, err := ReadHeader(bytes.NewReader(b)); return err },
		func(b []byte) error { _, err := Unmarshal(b[:preambleLen]); return err }, // the rest may be anything
	} {
		err := read(b)
		if !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), "version 2") || !strings.Contains(err.Error(), "up to 1") {
			t.Errorf("version 2: %v", err)
		}
	}
	// Before its checksum, the version is not believed.
	if _, err := Unmarshal(b[:12]); !errors.Is(err, ErrTruncated) {
		t.Errorf("version 2, cut after the version: %v", err)
	}
	binary.LittleEndian.PutUint32(b[8:], 0)
	if _, err := Unmarshal(refresh(b)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("version 0: %v", err)
	}
}

// TestGarbageAfterMagic gives the magic followed by bytes that are no
// checkpoint: the version field then reads as some large number, which must
// be reported as damage, not as a newer format.
func TestGarbageAfterMagic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		b := []byte(Magic)
		for range 8 + rng.IntN(100) {
			b = append(b, byte(rng.Uint32()))
		}
		if binary.LittleEndian.Uint32(b[8:]) == Version {
			continue
		}
		for _, read := range []func([]byte) error{
			func(b []byte) error { _, err := Unmarshal(b); return err },
			func(b []byte) error { _, err := Read(bytes.NewReader(b)); return err },
			func(b []byte) error { _, err := ReadHeader(bytes.NewReader(b)); return err },
		} {
			err := read(b)
			switch {
			case len(b) < preambleLen && !errors.Is(err, ErrTruncated):
				t.Fatalf("case %d, %d bytes: %v, want truncated", i, len(b), err)
			case len(b) >= preambleLen && (!errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not a checkpoint, or damaged")):
				t.Fatalf("case %d, %d bytes: %v, want corrupt", i, len(b), err)
			}
		}
	}
	// The example of the issue: a version field of 699757827.
	b := []byte(Magic)
	b = binary.LittleEndian.AppendUint32(b, 699757827)
	b = append(b, make([]byte, 40)...)
	_, err := Unmarshal(b)
	want := "corrupt checkpoint: not a checkpoint, or damaged: the preamble checksum does not match"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "699757827") {
		t.Errorf("got %v, want %q…", err, want)
	}
}

func TestNotCheckpoint(t *testing.T) {
	for i, tc := range []struct {
		in   string
		want error
	}{
		0: {"PK\x03\x04 a zip file, not a checkpoint", ErrNotCheckpoint},
		1: {"ILPGNNXX", ErrNotCheckpoint},
		2: {"{}", ErrNotCheckpoint},
		3: {"", ErrTruncated}, // an empty file is most likely a write that never happened
		4: {"ILPG", ErrTruncated},
	} {
		_, err := Unmarshal([]byte(tc.in))
		if !errors.Is(err, tc.want) {
			t.Errorf("case %d: %v, want %v", i, err, tc.want)
		}
		if _, err2 := ReadHeader(strings.NewReader(tc.in)); !errors.Is(err2, tc.want) {
			t.Errorf("case %d: ReadHeader: %v, want %v", i, err2, tc.want)
		}
	}
	_, err := Unmarshal([]byte("PK\x03\x04 a zip file"))
	if msg := err.Error(); !strings.Contains(msg, "not an ILP-GNN checkpoint") {
		t.Errorf("message %q", msg)
	}
}

// header builds a well-checksummed file from raw header bytes and data.
func craft(hdr []byte, data []byte) []byte {
	le := binary.LittleEndian
	b := []byte(Magic)
	b = le.AppendUint32(b, Version)
	b = le.AppendUint32(b, uint32(len(hdr)))
	b = le.AppendUint64(b, uint64(len(data)))
	b = append(b, 0, 0, 0, 0)
	b = append(b, hdr...)
	b = append(b, 0, 0, 0, 0)
	b = append(b, data...)
	b = append(b, 0, 0, 0, 0)
	return refresh(b)
}

// rawHeader encodes a header field by field: strings are prefixed with
// their length, uint32 and uint64 are written as such.
func rawHeader(fields ...any) []byte {
	le := binary.LittleEndian
	var b []byte
	for _, f := range fields {
		switch v := f.(type) {
		case string:
			b = le.AppendUint32(b, uint32(len(v)))
			b = append(b, v...)
		case uint32:
			b = le.AppendUint32(b, v)
		case uint64:
			b = le.AppendUint64(b, v)
		case []byte:
			b = append(b, v...)
		default:
			panic(fmt.Sprintf("rawHeader: %T", f))
		}
	}
	return b
}

// TestCorruptStructure feeds well-checksummed files with impossible
// content: each must be ErrCorrupt (what a buggy or hostile writer could
// produce), without allocating what the lengths claim.
func TestCorruptStructure(t *testing.T) {
	fp := make([]byte, 32)
	prefix := func(rest ...any) []byte {
		return rawHeader(append([]any{"m", "d", fp, uint64(1), uint64(0), ""}, rest...)...)
	}
	data8 := make([]byte, 8)
	for i, tc := range []struct {
		hdr, data []byte
		msg       string
	}{
		0:  {prefix(uint32(0), uint32(0), []byte{0}), nil, "unexpected bytes"},
		1:  {prefix(uint32(0), uint32(1), "w", uint32(1), uint32(2)), data8[:4], "more than the 4 bytes left"},
		2:  {prefix(uint32(0), uint32(1), "w", uint32(1), uint32(1)), data8, "need 4 bytes of data"},
		3:  {prefix(uint32(0), uint32(2), "w", uint32(1), uint32(1), "w", uint32(1), uint32(1)), data8, `two tensors are called "w"`},
		4:  {prefix(uint32(2), "a", uint64(1), "a", uint64(2), uint32(0)), nil, `two metrics are called "a"`},
		5:  {prefix(uint32(1), "", uint64(1), uint32(0)), nil, "empty name"},
		6:  {prefix(uint32(0), uint32(1), "", uint32(0), uint32(0), []byte{0}), nil, "empty name"},
		7:  {prefix(uint32(math.MaxUint32)), nil, "cannot fit"},
		8:  {prefix(uint32(0), uint32(0xfffffff)), nil, "cannot fit"},
		9:  {rawHeader(uint32(math.MaxUint32)), nil, "model name needs"},
		10: {rawHeader("m", "d", fp, uint64(1), uint64(0), uint32(1<<31)), nil, "config needs"},
		11: {prefix(uint32(0), uint32(1), "w", uint32(math.MaxUint32), uint32(math.MaxUint32)), data8, "more than the 8 bytes"},
		12: {prefix(uint32(0)), nil, "tensor count needs"},
		13: {nil, nil, "model name length needs"},
	} {
		b := craft(tc.hdr, tc.data)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Unmarshal(b)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("case %d: %v, want ErrCorrupt mentioning %q", i, err, tc.msg)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("case %d: allocated %d bytes for a %d-byte input", i, grew, len(b))
		}
		if _, err := ReadHeader(bytes.NewReader(b)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("case %d: ReadHeader: %v", i, err)
		}
	}
}

// TestHugeDeclaredLength gives Read a valid preamble that declares about
// MaxInt/2 bytes of data (2⁶² on 64-bit platforms), followed by a few bytes:
// it must report truncation having allocated about what it read.
func TestHugeDeclaredLength(t *testing.T) {
	b := craft(nil, nil)
	binary.LittleEndian.PutUint64(b[16:], uint64(math.MaxInt/2)&^3)
	refresh(b[:28])
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(bytes.NewReader(b))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("Read: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("allocated %d bytes", grew)
	}
	if _, err := Unmarshal(b); !errors.Is(err, ErrTruncated) {
		t.Errorf("Unmarshal: %v", err)
	}
	// A length no file can have is corrupt, not truncated.
	binary.LittleEndian.PutUint64(b[16:], math.MaxUint64-3)
	if _, err := Unmarshal(refresh(b[:28])); !errors.Is(err, ErrCorrupt) {
		t.Errorf("D near 2⁶⁴: %v", err)
	}
	binary.LittleEndian.PutUint64(b[16:], 6)
	if _, err := Unmarshal(refresh(b[:28])); !errors.Is(err, ErrCorrupt) {
		t.Errorf("D not a multiple of 4: %v", err)
	}
}

func TestMarshalErrors(t *testing.T) {
	for i, tc := range []struct {
		c   Checkpoint
		msg string
	}{
		0: {Checkpoint{Tensors: []Tensor{{Name: "w", Rows: 2, Cols: 2, Data: make([]float32, 3)}}}, `tensor "w": shape 2 x 2 needs 4 values, Data has 3`},
		1: {Checkpoint{Tensors: []Tensor{{Name: "w", Rows: -1, Cols: -1, Data: make([]float32, 1)}}}, "out of range"},
		2: {Checkpoint{Tensors: []Tensor{{Name: "w"}, {Name: "w"}}}, `tensors 0 and 1 are both called "w"`},
		3: {Checkpoint{Tensors: []Tensor{{Name: ""}}}, "tensor 0 has an empty name"},
		4: {Checkpoint{Metrics: []Metric{{"auc", 1}, {"auc", 2}}}, `metrics 0 and 1 are both called "auc"`},
		5: {Checkpoint{Metrics: []Metric{{"", 1}}}, "metric 0 has an empty name"},
		6: {Checkpoint{Tensors: []Tensor{{Name: "w", Rows: math.MaxInt, Cols: 2}}}, `tensor "w": shape`}, // > 2³²-1 where int has 64 bits
	} {
		b, err := tc.c.MarshalBinary()
		if err == nil || b != nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("case %d: MarshalBinary = %d bytes, %v; want an error containing %q", i, len(b), err, tc.msg)
		}
		var buf bytes.Buffer
		if n, err := tc.c.WriteTo(&buf); err == nil || n != 0 || buf.Len() != 0 {
			t.Errorf("case %d: WriteTo = %d, %v and wrote %d bytes", i, n, err, buf.Len())
		}
	}
}

// failWriter accepts limit bytes and then fails.
type failWriter struct{ limit int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errors.New("disk full")
	}
	w.limit -= len(p)
	return len(p), nil
}

// errReader returns its data and then err.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadIOError(t *testing.T) {
	b := mustMarshal(t, sample())
	gone := errors.New("device gone")
	hdrEnd := 32 + int(binary.LittleEndian.Uint32(b[12:]))
	for _, n := range []int{0, 10, 40, hdrEnd, len(b) - 1} {
		if _, err := Read(&errReader{b[:n], gone}); !errors.Is(err, gone) || allowedRead(err) {
			t.Errorf("Read after %d bytes: %v", n, err)
		}
		_, err := ReadHeader(&errReader{b[:n], gone})
		if n < hdrEnd && (!errors.Is(err, gone) || allowedRead(err)) || n >= hdrEnd && err != nil {
			t.Errorf("ReadHeader after %d bytes: %v", n, err)
		}
	}
}

func TestWriteToError(t *testing.T) {
	c := sample()
	n, err := c.WriteTo(&failWriter{limit: 50})
	if err == nil || n != 50 {
		t.Errorf("WriteTo = %d, %v; want 50, disk full", n, err)
	}
}

func TestCheckGraph(t *testing.T) {
	c := sample()
	if err := c.CheckGraph(c.Fingerprint); err != nil {
		t.Errorf("same graph: %v", err)
	}
	other := sha256.Sum256([]byte("another graph"))
	err := c.CheckGraph(other)
	if !errors.Is(err, ErrForeignGraph) {
		t.Fatalf("other graph: %v", err)
	}
	for _, fp := range [][32]byte{c.Fingerprint, other} {
		if short := fmt.Sprintf("%x", fp[:6]); !strings.Contains(err.Error(), short) {
			t.Errorf("%q does not name %s", err, short)
		}
	}
	if err := c.Header().CheckGraph(other); !errors.Is(err, ErrForeignGraph) {
		t.Errorf("Header.CheckGraph: %v", err)
	}
}

func TestTensorAndMetric(t *testing.T) {
	c := sample()
	w, err := c.Tensor("b1")
	if err != nil || w != &c.Tensors[1] {
		t.Errorf("Tensor(b1) = %p, %v; want %p", w, err, &c.Tensors[1])
	}
	_, err = c.Tensor("w9")
	if err == nil || !strings.Contains(err.Error(), `"w9"`) || !strings.Contains(err.Error(), `"w1", "b1"`) {
		t.Errorf("Tensor(w9): %v", err)
	}
	if _, err := (&Checkpoint{}).Tensor("w"); err == nil || !strings.Contains(err.Error(), "has none") {
		t.Errorf("Tensor on an empty checkpoint: %v", err)
	}
	if v, ok := c.Metric("epochs"); !ok || v != 200 {
		t.Errorf("Metric(epochs) = %v, %v", v, ok)
	}
	if _, ok := c.Metric("nope"); ok {
		t.Error("Metric(nope) found")
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	c := sample()
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sameCheckpoint(t, got, c)
	if runtime.GOOS != "windows" && runtime.GOOS != "js" {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, %v; want 0644", fi.Mode(), err)
		}
	}
	before, _ := os.ReadFile(path)

	// A checkpoint that cannot be encoded leaves the old file alone.
	bad := sample()
	bad.Tensors[0].Data = bad.Tensors[0].Data[:5]
	if err := bad.WriteFile(path); err == nil {
		t.Fatal("WriteFile of an invalid checkpoint succeeded")
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("failed WriteFile changed the existing file")
	}

	// Overwriting replaces the file; no temporary files are left behind.
	c.Seed = 7
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(path); err != nil || got.Seed != 7 {
		t.Errorf("after overwrite: seed %v, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only model.ckpt", names)
	}

	// A missing directory is an error naming it.
	if err := c.WriteFile(filepath.Join(dir, "no", "such", "x.ckpt")); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.ckpt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
}

var sink []byte

func BenchmarkMarshal(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 20} {
		c := &Checkpoint{Model: "ilpgnn", Tensors: []Tensor{{Name: "w", Rows: n / 64, Cols: 64, Data: make([]float32, n)}}}
		b.Run(fmt.Sprintf("params=%d", n), func(b *testing.B) {
			b.SetBytes(int64(4 * n))
			for b.Loop() {
				sink, _ = c.MarshalBinary()
			}
		})
		data := mustMarshal(b, c)
		b.Run(fmt.Sprintf("unmarshal/params=%d", n), func(b *testing.B) {
			b.SetBytes(int64(4 * n))
			for b.Loop() {
				if _, err := Unmarshal(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
