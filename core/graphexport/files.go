package graphexport

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"ilpgnn/core/atomicfile"
	"ilpgnn/core/graph"
	"ilpgnn/core/synth"
)

// writeFunc writes a file's content. Write errors stick in the
// bufio.Writer and surface at its Flush, so a writeFunc returns only its
// own.
type writeFunc func(w *bufio.Writer) error

// file is one file of an export, relative to its folder.
type file struct {
	name  string
	write writeFunc
}

// NPYHeader returns the header of a NumPy .npy file, format version 1.0,
// for a C-order array of the given dtype (descr, e.g. "<f4") and shape:
// the magic "\x93NUMPY", the version bytes 1 and 0, the header length as a
// little-endian uint16, then the header dict in Python literal syntax,
// padded with spaces and ended by '\n' so that the data starts at a
// multiple of 64 bytes (numpy.lib.format).
func NPYHeader(descr string, shape ...int) []byte {
	dims := make([]string, len(shape))
	for k, d := range shape {
		dims[k] = strconv.Itoa(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, tuple)
	const prefix = 6 + 2 + 2 // magic, version, length
	pad := (64 - (prefix+len(dict)+1)%64) % 64
	header := dict + strings.Repeat(" ", pad) + "\n"
	out := make([]byte, 0, prefix+len(header))
	out = append(out, "\x93NUMPY\x01\x00"...)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(header)))
	return append(out, header...)
}

// featuresWriter writes g's features as a dense float32 (N, D) array, a
// row at a time.
func featuresWriter(g *graph.Graph) writeFunc {
	return func(w *bufio.Writer) error {
		n, d := g.NumNodes(), g.FeatureDim()
		w.Write(NPYHeader("<f4", n, d))
		row := make([]byte, 4*d)
		for i := range n {
			clear(row)
			cols, vals := g.Features.Row(i)
			for k, c := range cols {
				binary.LittleEndian.PutUint32(row[4*c:], math.Float32bits(vals[k]))
			}
			w.Write(row)
		}
		return nil
	}
}

// labelsWriter writes labels as an int64 (N,) array.
func labelsWriter(labels []int32) writeFunc {
	return func(w *bufio.Writer) error {
		w.Write(NPYHeader("<i8", len(labels)))
		var b [8]byte
		for _, l := range labels {
			binary.LittleEndian.PutUint64(b[:], uint64(int64(l)))
			w.Write(b[:])
		}
		return nil
	}
}

// maskWriter writes an int8 (M,) array, 1 where roles holds r.
func maskWriter(roles []role, r role) writeFunc {
	return func(w *bufio.Writer) error {
		w.Write(NPYHeader("|i1", len(roles)))
		for _, x := range roles {
			if x == r {
				w.WriteByte(1)
			} else {
				w.WriteByte(0)
			}
		}
		return nil
	}
}

// pairsWriter writes one line "u v" per pair.
func pairsWriter(pairs []graph.Edge) writeFunc {
	return func(w *bufio.Writer) error {
		var b []byte
		for _, e := range pairs {
			b = strconv.AppendInt(b[:0], int64(e.U), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(e.V), 10)
			b = append(b, '\n')
			w.Write(b)
		}
		return nil
	}
}

// idsWriter writes one id a line (check has refused line breaks).
func idsWriter(ids []string) writeFunc {
	return func(w *bufio.Writer) error {
		for _, id := range ids {
			w.WriteString(id)
			w.WriteByte('\n')
		}
		return nil
	}
}

// GroundtruthLine is a line of groundtruth.jsonl: an explained link U–V
// (U < V, node numbers) of role "train", "val" or "test", and its
// groundtruth explanation, GT(U|V) and GT(V|U), the K_gt neighbours of
// each end most similar to the other end, most similar first (docs/model.md §8).
type GroundtruthLine struct {
	U    int32   `json:"u"`
	V    int32   `json:"v"`
	Role string  `json:"role"`
	WhyU []int32 `json:"why_u"`
	WhyV []int32 `json:"why_v"`
}

// groundtruthWriter writes one GroundtruthLine per link, in links' order.
func groundtruthWriter(links []synth.Link) writeFunc {
	return func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		for _, l := range links {
			line := GroundtruthLine{U: l.Edge.U, V: l.Edge.V, Role: l.Role.String(), WhyU: l.WhyU, WhyV: l.WhyV}
			if err := enc.Encode(line); err != nil {
				return err
			}
		}
		return nil
	}
}

// jsonWriter writes v as indented JSON.
func jsonWriter(v any) writeFunc {
	return func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
}

// writeFileAtomic writes path, creating its folder, atomically
// (atomicfile.Write).
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, write)
}
