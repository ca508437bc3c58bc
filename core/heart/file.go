package heart

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"

	"slices"

	"ilpgnn/core/atomicfile"
	"ilpgnn/core/fingerprint"
	"ilpgnn/core/graph"
	"ilpgnn/core/split"
	"ilpgnn/core/userfile"
)

// The negatives file: magic, one line of JSON (Header), the links as
// int32 pairs and the nodes as int32s, little-endian, then the CRC-32
// (IEEE) of every byte before it. docs/heart.md describes it.
const (
	magic     = "ILPGNN-HEART\n"
	format    = 1
	maxHeader = 4096
)

// Header says what a negatives file was drawn for: the graph (its
// fingerprint), the seed, the links and the options.
type Header struct {
	Format   int     `json:"format"`
	Graph    string  `json:"graph"` // fingerprint.Of, in hex
	Seed     uint64  `json:"seed"`
	Links    int     `json:"links"`
	PerLink  int     `json:"per_link"`
	Overlap  string  `json:"overlap"`
	Alpha    float64 `json:"alpha"`
	Epsilon  float64 `json:"epsilon"`
	Features bool    `json:"features"`
}

// header is what n drawn from the graph printed fp with seed and o says.
func header(n *Negatives, fp [32]byte, seed uint64, o Options) Header {
	return Header{Format: format, Graph: hex.EncodeToString(fp[:]), Seed: seed, Links: len(n.Links), PerLink: n.PerLink,
		Overlap: o.Overlap.String(), Alpha: o.Alpha, Epsilon: o.Epsilon, Features: o.Features}
}

// Write writes n as a negatives file with header h.
func Write(w io.Writer, n *Negatives, h Header) error {
	line, err := json.Marshal(h)
	if err != nil {
		return err
	}
	sum := crc32.NewIEEE()
	bw := bufio.NewWriter(io.MultiWriter(w, sum))
	bw.WriteString(magic)
	bw.Write(line)
	bw.WriteByte('\n')
	var b [4]byte
	put := func(v int32) {
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		bw.Write(b[:])
	}
	for _, l := range n.Links {
		put(l.U)
		put(l.V)
	}
	for _, v := range n.Nodes {
		put(v)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(b[:], sum.Sum32())
	_, err = w.Write(b[:])
	return err
}

// Read reads a negatives file of size bytes whose nodes are below nodes,
// checking its length, checksum and every node before returning it.
func Read(r io.Reader, size int64, nodes int) (*Negatives, Header, error) {
	var h Header
	br := bufio.NewReader(io.LimitReader(r, size))
	sum := crc32.NewIEEE()
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != magic {
		return nil, h, errors.New("not a negatives file (it does not start with " + fmt.Sprintf("%q", magic) + ")")
	}
	sum.Write(head)
	line, err := br.ReadSlice('\n')
	if err != nil || len(line) > maxHeader {
		return nil, h, errors.New("the header line is missing or longer than 4 KiB")
	}
	sum.Write(line)
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, h, fmt.Errorf("the header: %w", err)
	}
	switch {
	case h.Format != format:
		return nil, h, fmt.Errorf("format %d: this program reads format %d", h.Format, format)
	case h.PerLink < 2 || h.PerLink%2 != 0:
		return nil, h, fmt.Errorf("the header says %d negatives a link: want an even number, 2 or more", h.PerLink)
	case h.Links < 0:
		return nil, h, fmt.Errorf("the header says %d links", h.Links)
	}
	body := size - int64(len(magic)) - int64(len(line)) - 4
	if big := int64(h.Links) > body/8 || int64(h.PerLink) > body/4; (big && h.Links > 0) || body != 4*int64(h.Links)*(2+int64(h.PerLink)) {
		return nil, h, fmt.Errorf("%d bytes after the header, but %d links of %d negatives need %d and the checksum 4", body+4, h.Links, h.PerLink, 4*int64(h.Links)*(2+int64(h.PerLink)))
	}
	raw := make([]byte, body)
	if _, err := io.ReadFull(br, raw); err != nil {
		return nil, h, fmt.Errorf("reading the negatives: %w", err)
	}
	sum.Write(raw)
	var tail [4]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil {
		return nil, h, fmt.Errorf("reading the checksum: %w", err)
	}
	if binary.LittleEndian.Uint32(tail[:]) != sum.Sum32() {
		return nil, h, errors.New("the checksum does not match: the file is damaged")
	}
	n := &Negatives{Links: make([]graph.Edge, h.Links), PerLink: h.PerLink, Nodes: make([]int32, h.Links*h.PerLink)}
	at := func(k int) (int32, error) {
		v := int32(binary.LittleEndian.Uint32(raw[4*k:]))
		if v < 0 || int(v) >= nodes {
			return 0, fmt.Errorf("node %d is not one of the graph's %d", v, nodes)
		}
		return v, nil
	}
	for k := range n.Links {
		u, err := at(2 * k)
		if err != nil {
			return nil, h, fmt.Errorf("link %d: %w", k, err)
		}
		v, err := at(2*k + 1)
		if err != nil {
			return nil, h, fmt.Errorf("link %d: %w", k, err)
		}
		n.Links[k] = graph.Edge{U: u, V: v}
	}
	for k := range n.Nodes {
		v, err := at(2*h.Links + k)
		if err != nil {
			return nil, h, fmt.Errorf("negative %d of link %d: %w", k%h.PerLink, k/h.PerLink, err)
		}
		n.Nodes[k] = v
	}
	return n, h, nil
}

// ForSplit returns the hard negatives of sp's test links on the graph g
// that sp splits (its every link is known, so none is a negative), drawn
// with seed and o, and sets them as sp's TestHard. With a path, it reads
// them from the file there when it exists (and refuses one drawn for
// another graph, seed, split or options) and writes them there when it
// does not, so that every model is ranked against the very same pairs.
// written says whether it wrote the file.
func ForSplit(g *graph.Graph, sp *split.Split, seed uint64, o Options, path string) (n *Negatives, written bool, err error) {
	if n, written, err = forLinks(g, sp.Train, sp.TestPos, seed, o, path); err != nil {
		return nil, false, err
	}
	sp.TestHard, sp.HardPerLink = n.Pairs(), n.PerLink
	return n, written, nil
}

// ForValidation is ForSplit for sp's validation links (its ValHard).
func ForValidation(g *graph.Graph, sp *split.Split, seed uint64, o Options, path string) (n *Negatives, written bool, err error) {
	if n, written, err = forLinks(g, sp.Train, sp.ValPos, seed, o, path); err != nil {
		return nil, false, err
	}
	sp.ValHard, sp.HardPerLink = n.Pairs(), n.PerLink
	return n, written, nil
}

// forLinks draws (or reads from path, or draws and writes there) the
// negatives of links on train within g.
func forLinks(g, train *graph.Graph, links []graph.Edge, seed uint64, o Options, path string) (n *Negatives, written bool, err error) {
	fp := fingerprint.Of(g)
	if path != "" {
		n, err = readFor(path, g.NumNodes(), links, header(&Negatives{Links: links, PerLink: o.PerLink}, fp, seed, o))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, false, err
		}
	}
	if n == nil {
		if n, err = Sample(train, g, links, seed, o); err != nil {
			return nil, false, err
		}
		if path != "" {
			h := header(n, fp, seed, o)
			if err := atomicfile.Write(path, func(w io.Writer) error { return Write(w, n, h) }); err != nil {
				return nil, false, fmt.Errorf("writing the negatives: %w", err)
			}
			written = true
		}
	}
	return n, written, nil
}

// readFor reads the negatives file at path and checks that it was drawn
// as want says, for links.
func readFor(path string, nodes int, links []graph.Edge, want Header) (*Negatives, error) {
	f, size, err := userfile.Open(path, userfile.Negatives)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, h, err := Read(f, size, nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if h != want {
		return nil, fmt.Errorf("%s was drawn for another graph, seed or options (it says %+v; this run is %+v): remove it, or name another folder", path, h, want)
	}
	if !slices.Equal(n.Links, links) {
		return nil, fmt.Errorf("%s was drawn for other test links than this split's: remove it, or name another folder", path)
	}
	return n, nil
}
