// Package load reads graphs from the formats link-prediction data comes in
// and returns them as *graph.Graph, normalised (docs/model.md §1): undirected, no
// self-loops, no duplicate edges, nodes 0..N-1, with the user's own node ids
// kept in IDs and, where the file has them, labels and class names.
//
// These formats are understood:
//
//   - LINQS text (Cora, Citeseer): a *.content file, one node per line
//     "<id> <feature values...> <label>", and a *.cites file, one citation
//     per line "<cited id> <citing id>". See LINQSReaders.
//   - gnn-benchmark .npz (Shchur et al. 2018; Amazon Photo, Cora, Citeseer):
//     a zip of .npy arrays holding a scipy CSR adjacency, CSR or dense
//     attributes, labels and names. See NPZBytes.
//   - A plain edge list (comma, tab, semicolon or whitespace separated)
//     with an optional features file keyed by node id. See
//     EdgeListReaders.
//   - GraphML (*.graphml) and GEXF (*.gexf, Gephi's), and networkx's
//     node-link or graphology's JSON (*.json): the formats graph tools
//     save, with node attributes that are numbers read as features. See
//     GraphMLReader, GEXFReader and JSONBytes.
//
// Path and Bytes pick the format from file names; the reader-based entry
// points serve WebAssembly, where there are no files.
//
// Every problem with the data is returned as a *Error naming the file and,
// for text formats (XML and JSON included), the line; no input makes a
// loader panic (the fuzz tests hold them to that).
package load

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"ilpgnn/core/graph"
	"ilpgnn/core/userfile"
)

// MaxNotes is the most notes a reader leaves in a graph's ReadNotes; past
// it the last says how many more were left out. It is graph.MaxNotes less
// the two sentences graph.InputNotes adds after them (removed edges,
// nodes without a feature row), so that those are never cut.
const MaxNotes = graph.MaxNotes - 2

// Error is a problem with input data: the file it is in, the 1-based line
// (0 when the problem has no line, as in binary files or a missing file)
// and what is wrong.
type Error struct {
	File string
	Line int
	Err  error
}

// Error formats e as "file:line: problem", or "file: problem" when Line is 0.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns a *Error for file and line with a formatted message.
func errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Err: fmt.Errorf(format, args...)}
}

var (
	// ErrEmpty is wrapped by the *Error for a file that holds no data
	// (nothing but blank lines, comments or a header).
	ErrEmpty = errors.New("empty file")

	// ErrUnknownFormat is wrapped by the error of Path or Bytes when the
	// files given match none of the formats.
	ErrUnknownFormat = errors.New("unknown graph format")
)

// format is a detected input layout: which loader reads which files.
type format struct {
	kind     formatKind
	main     string // .content, .npz or edge list file
	second   string // .cites or features file ("" when none)
	nameHint string // graph name
}

type formatKind int

const (
	formatLINQS formatKind = iota + 1
	formatNPZ
	formatEdgeList
	formatGraphML
	formatGEXF
	formatJSON
)

// markupKinds are the formats chosen by a file's extension alone.
var markupKinds = map[string]formatKind{".graphml": formatGraphML, ".gexf": formatGEXF, ".json": formatJSON}

// edgeListExts are the extensions of edges.* and features.* files in a
// directory.
var edgeListExts = []string{".csv", ".tsv", ".txt"}

// detect chooses the format of a set of files (a directory listing, or the
// keys of Bytes) by name alone:
//
//  1. exactly one *.content and one *.cites: LINQS;
//  2. otherwise exactly one *.npz: npz;
//  3. otherwise exactly one edges.{csv,tsv,txt}: an edge list, with at most
//     one features.{csv,tsv,txt};
//  4. otherwise exactly one *.graphml, *.gexf or *.json: GraphML, GEXF or
//     JSON (networkx node-link or graphology, told apart by JSONBytes);
//  5. otherwise, when single is set (Bytes, not a directory), a single file
//     that is not half of a LINQS pair: an edge list.
//
// Other files beside the ones chosen (a README, say) are ignored.
func detect(where string, names []string, single bool) (format, error) {
	var content, cites, npzs, edges, feats, markups []string
	for _, n := range names {
		base := path.Base(filepath.ToSlash(n))
		switch ext := strings.ToLower(path.Ext(base)); {
		case ext == ".content":
			content = append(content, n)
		case ext == ".cites":
			cites = append(cites, n)
		case ext == ".npz":
			npzs = append(npzs, n)
		case markupKinds[ext] != 0:
			markups = append(markups, n)
		case slices.Contains(edgeListExts, ext) && strings.EqualFold(strings.TrimSuffix(base, path.Ext(base)), "edges"):
			edges = append(edges, n)
		case slices.Contains(edgeListExts, ext) && strings.EqualFold(strings.TrimSuffix(base, path.Ext(base)), "features"):
			feats = append(feats, n)
		}
	}
	switch {
	case len(content) == 1 && len(cites) == 1:
		return format{kind: formatLINQS, main: content[0], second: cites[0], nameHint: stem(content[0])}, nil
	case len(npzs) == 1:
		return format{kind: formatNPZ, main: npzs[0], nameHint: stem(npzs[0])}, nil
	case len(edges) == 1 && len(feats) <= 1:
		f := format{kind: formatEdgeList, main: edges[0], nameHint: stem(edges[0])}
		if len(feats) == 1 {
			f.second = feats[0]
		}
		return f, nil
	case len(markups) == 1:
		return format{kind: markupKinds[strings.ToLower(path.Ext(markups[0]))], main: markups[0], nameHint: stem(markups[0])}, nil
	case single && len(names) == 1 && len(content)+len(cites) == 0:
		return format{kind: formatEdgeList, main: names[0], nameHint: stem(names[0])}, nil
	}
	return format{}, fmt.Errorf("%s: %w: want one *.content and one *.cites (LINQS), one *.npz, "+
		"edges.{csv,tsv,txt} with optional features.{csv,tsv,txt}, or one *.graphml, *.gexf or *.json; "+
		"found %d content, %d cites, %d npz, %d edges, %d features and %d graphml, gexf or json files among %d",
		where, ErrUnknownFormat, len(content), len(cites), len(npzs), len(edges), len(feats), len(markups), len(names))
}

// stem returns a file name without directory and extension: the graph's
// default name.
func stem(name string) string {
	base := path.Base(filepath.ToSlash(name))
	return strings.TrimSuffix(base, path.Ext(base))
}

// Path loads the graph at p, choosing the format from names:
//
//   - a directory is listed (not recursively) and its files are chosen as
//     Bytes describes: a *.content/*.cites pair, else a single *.npz, else
//     edges.{csv,tsv,txt} with an optional features.{csv,tsv,txt}, else a
//     single *.graphml, *.gexf or *.json. The graph is named after the
//     chosen file's stem, or after the directory for an edge list;
//   - a *.npz file is read as gnn-benchmark npz;
//   - a *.graphml, *.gexf or *.json file is read as GraphML, GEXF or JSON
//     (see JSONBytes);
//   - a *.content or *.cites file is read as LINQS together with its sibling
//     of the same stem;
//   - any other file is read as an edge list without features.
//
// Files are named in errors by their path as given (joined to p).
func Path(p string) (*graph.Graph, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, &Error{File: p, Err: userfile.PathProblem(err)}
	}
	var f format
	if info.IsDir() {
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, &Error{File: p, Err: userfile.PathProblem(err)}
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() {
				names = append(names, filepath.Join(p, e.Name()))
			}
		}
		if f, err = detect(p, names, false); err != nil {
			return nil, err
		}
		if f.kind == formatEdgeList {
			f.nameHint = filepath.Base(filepath.Clean(p)) // "edges" says nothing
		}
	} else {
		f = format{kind: formatEdgeList, main: p, nameHint: stem(p)}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".npz":
			f.kind = formatNPZ
		case ".content":
			f.kind, f.second = formatLINQS, strings.TrimSuffix(p, filepath.Ext(p))+".cites"
		case ".cites":
			f.kind, f.main, f.second = formatLINQS, strings.TrimSuffix(p, filepath.Ext(p))+".content", p
		default:
			if k := markupKinds[strings.ToLower(filepath.Ext(p))]; k != 0 {
				f.kind = k
			}
		}
	}
	switch f.kind {
	case formatLINQS:
		return linqsFiles(f.nameHint, f.main, f.second)
	case formatGraphML, formatGEXF, formatJSON:
		return markupFile(f)
	case formatNPZ:
		data, err := ReadFile(f.main)
		if err != nil {
			return nil, err
		}
		g, err := npzBytes(f.main, data)
		if err != nil {
			return nil, err
		}
		g.Name = f.nameHint
		return g, nil
	default:
		g, err := EdgeListFiles(f.main, f.second)
		if err != nil {
			return nil, err
		}
		g.Name = f.nameHint
		return g, nil
	}
}

// markupFile reads the GraphML, GEXF or JSON file f.main.
func markupFile(f format) (*graph.Graph, error) {
	if f.kind == formatJSON {
		data, err := ReadFile(f.main)
		if err != nil {
			return nil, err
		}
		g, err := JSONBytes(f.main, data)
		if err != nil {
			return nil, err
		}
		g.Name = f.nameHint
		return g, nil
	}
	r, err := openRegular(f.main)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if f.kind == formatGEXF {
		return GEXFReader(f.nameHint, r, f.main)
	}
	return GraphMLReader(f.nameHint, r, f.main)
}

// linqsFiles opens a LINQS pair and reads it.
func linqsFiles(name, contentPath, citesPath string) (*graph.Graph, error) {
	content, err := openRegular(contentPath)
	if err != nil {
		return nil, err
	}
	defer content.Close()
	cites, err := openRegular(citesPath)
	if err != nil {
		return nil, err
	}
	defer cites.Close()
	return LINQSReaders(name, content, contentPath, cites, citesPath)
}

// EdgeListFiles reads an edge list and, when featuresPath is not "", a
// features file; see EdgeListReaders for the formats. The graph is named
// after the edge file's stem.
func EdgeListFiles(edgesPath, featuresPath string) (*graph.Graph, error) {
	edges, err := openRegular(edgesPath)
	if err != nil {
		return nil, err
	}
	defer edges.Close()
	if featuresPath == "" {
		return EdgeListReaders(stem(edgesPath), edges, edgesPath, nil, "")
	}
	feats, err := openRegular(featuresPath)
	if err != nil {
		return nil, err
	}
	defer feats.Close()
	return EdgeListReaders(stem(edgesPath), edges, edgesPath, feats, featuresPath)
}

// openRegular opens the graph file at p for reading: a regular file no
// larger than userfile.Graph allows (see userfile.Open). Errors are *Error.
func openRegular(p string) (*os.File, error) {
	f, _, err := userfile.Open(p, userfile.Graph)
	if err != nil {
		return nil, fileError(p, err)
	}
	return f, nil
}

// ReadFile reads the whole graph file at p with userfile.ReadFile: named
// pipes, devices and other files that are not regular are refused, and so
// is a file over the cap of userfile.Graph, before anything is allocated
// for it. Errors are *Error naming p.
func ReadFile(p string) ([]byte, error) {
	b, err := userfile.ReadFile(p, userfile.Graph)
	if err != nil {
		return nil, fileError(p, err)
	}
	return b, nil
}

// fileError turns an error of package userfile, which names the path
// itself, into a *Error naming p once.
func fileError(p string, err error) *Error {
	var ue *userfile.Error
	if errors.As(err, &ue) {
		return &Error{File: ue.Path, Err: ue.Err}
	}
	return &Error{File: p, Err: err}
}

// Bytes loads a graph from in-memory files keyed by file name (for
// WebAssembly, where the browser hands over file contents). It applies the
// detection of Path to the names: one *.content and one *.cites → LINQS;
// else one *.npz → npz; else edges.{csv,tsv,txt} with an optional
// features.{csv,tsv,txt} → edge list; else one *.graphml, *.gexf or *.json
// → GraphML, GEXF or JSON; else a single file → edge list. Other files are
// ignored. The graph is named after the stem of the main file (the
// .content, .npz, edges, .graphml, .gexf or .json file), and errors name
// files by their keys.
func Bytes(files map[string][]byte) (*graph.Graph, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	f, err := detect("files", names, true)
	if err != nil {
		return nil, err
	}
	switch f.kind {
	case formatLINQS:
		return LINQSReaders(f.nameHint, bytes.NewReader(files[f.main]), f.main, bytes.NewReader(files[f.second]), f.second)
	case formatNPZ:
		return npzBytes(f.main, files[f.main])
	case formatGraphML:
		return GraphMLReader(f.nameHint, bytes.NewReader(files[f.main]), f.main)
	case formatGEXF:
		return GEXFReader(f.nameHint, bytes.NewReader(files[f.main]), f.main)
	case formatJSON:
		return JSONBytes(f.main, files[f.main])
	default:
		if f.second == "" {
			return EdgeListReaders(f.nameHint, bytes.NewReader(files[f.main]), f.main, nil, "")
		}
		return EdgeListReaders(f.nameHint, bytes.NewReader(files[f.main]), f.main, bytes.NewReader(files[f.second]), f.second)
	}
}
