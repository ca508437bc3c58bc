package engine

import (
	"bytes"
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ilpgnn/core/eval"
	"ilpgnn/core/explain"
	"ilpgnn/wasm/store"
)

var update = flag.Bool("update", false, "rewrite frontend/src/protocol.gen.ts from the Go types")

// protocolTS is the generated file, from this package's directory.
const protocolTS = "../../frontend/src/protocol.gen.ts"

// TestProtocolTS fails when frontend/src/protocol.gen.ts is not what the Go
// types of the protocol generate. Regenerate it with
//
//	go test ./wasm/engine -run TestProtocolTS -update
func TestProtocolTS(t *testing.T) {
	got, err := generateTS()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(protocolTS, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(protocolTS)
	if err != nil {
		t.Fatalf("%v (generate it: go test ./wasm/engine -run TestProtocolTS -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: the Go types of the protocol changed; regenerate it with\n\tgo test ./wasm/engine -run TestProtocolTS -update\nfirst difference: %s", protocolTS, firstDiff(want, got))
	}
}

// TestGenerateTS checks the generator's mapping of Go to TypeScript on
// types written for the purpose, against hand-written expectations.
func TestGenerateTS(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type base struct {
		B string `json:"b"`
	}
	type sample struct {
		base
		Num     float64            `json:"num"`
		Opt     int                `json:"opt,omitempty"`
		Ptr     *inner             `json:"ptr"`
		OptPtr  *inner             `json:"optPtr,omitempty"`
		Struct  inner              `json:"struct,omitempty"` // omitempty keeps a struct
		List    []inner            `json:"list"`
		Dict    map[string]float32 `json:"dict"`
		Raw     json.RawMessage    `json:"raw"`
		Any     any                `json:"any"`
		Bytes   []byte             `json:"bytes"`
		Skipped int                `json:"-"`
		NoTag   bool
		hidden  int
	}
	g := newTSGen(nil, nil, nil)
	ref, err := g.typeOf(reflect.TypeFor[sample](), "")
	if err != nil {
		t.Fatal(err)
	}
	if ref != "sample" {
		t.Errorf("reference = %q, want sample", ref)
	}
	var out strings.Builder
	for _, d := range g.decls {
		out.WriteString(d)
	}
	want := `export interface inner {
  a: number;
}

export interface base {
  b: string;
}

export interface sample extends base {
  num: number;
  opt?: number;
  ptr: inner | null;
  optPtr?: inner;
  struct: inner;
  list: inner[];
  dict: Record<string, number>;
  raw: unknown;
  any: unknown;
  bytes: string;
  NoTag: boolean;
}

`
	// Declarations come out in the order the walk finishes them.
	if got := out.String(); !sameDecls(got, want) {
		t.Errorf("generated\n%s\nwant\n%s", got, want)
	}
	_ = sample{}.hidden

	type marshals struct {
		T textish `json:"t"`
	}
	if _, err := newTSGen(nil, nil, nil).typeOf(reflect.TypeFor[marshals](), ""); err == nil {
		t.Error("a field whose type marshals itself was generated without an override")
	}
	type stringOpt struct {
		N int `json:"n,string"`
	}
	if _, err := newTSGen(nil, nil, nil).typeOf(reflect.TypeFor[stringOpt](), ""); err == nil {
		t.Error("a ,string field was generated as a number")
	}
}

// textish marshals itself as text, so its JSON is not its fields'.
type textish struct{ x int }

func (textish) MarshalText() ([]byte, error) { return []byte("x"), nil }

var _ encoding.TextMarshaler = textish{}

// sameDecls compares generated declarations as sets of blocks.
func sameDecls(a, b string) bool {
	split := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, d := range strings.Split(strings.TrimSpace(s), "\n\n") {
			m[d] = true
		}
		return m
	}
	return reflect.DeepEqual(split(a), split(b))
}

// firstDiff quotes the first line where got departs from want.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d: file has %q, Go generates %q", i+1, wl, gl)
		}
	}
	return "none"
}

// generateTS returns frontend/src/protocol.gen.ts.
func generateTS() ([]byte, error) {
	// TypeScript names where the Go name would be ambiguous or says less.
	names := map[reflect.Type]string{
		reflect.TypeFor[Info]():                "EngineInfo",
		reflect.TypeFor[Progress]():            "TrainProgress",
		reflect.TypeFor[StepProgress]():        "StepProgress",
		reflect.TypeFor[Description]():         "GraphDescription",
		reflect.TypeFor[FidelityPointAUC]():    "FidelityPoint",
		reflect.TypeFor[CheckpointEntry]():     "CheckpointMeta",
		reflect.TypeFor[store.Meta]():          "CheckpointRecord",
		reflect.TypeFor[Error]():               "ErrorInfo",
		reflect.TypeFor[eval.Hits]():           "Hits",
		reflect.TypeFor[explain.Explanation](): "ModelExplanation",
	}
	// What Go's types do not say: unions of names, and slices that may be
	// null. Keys are "package.Type.Field"; TestProtocolTS fails on a key
	// that names no field.
	overrides := map[string]string{
		"engine.Info.Protocol":              "ProtocolVersion",
		"engine.Error.Code":                 "ErrorCode",
		"engine.Description.Labels":         "number[] | null",
		"engine.Description.ClassNames":     "string[] | null",
		"engine.TrainResult.Model":          "ModelName",
		"engine.Groundtruth.Role":           `"train" | "validation" | "test"`,
		"engine.BaselineExplanation.Model":  `"gat" | "gae" | "vgae" | "conpi"`,
		"engine.BaselineExplanation.Method": `"attention" | "gnnexplainer" | "context"`,
		"engine.DefaultsArgs.Model":         "ModelName",
		"engine.TrainArgs.Model":            "ModelName",
		"engine.TrainArgs.Config":           "Record<string, string | number | boolean>",
		"engine.TrainArgs.Select":           "TrainSelect",
		"engine.TuneArgs.Model":             "ModelName",
		"engine.TuneArgs.Config":            "Record<string, string | number | boolean>",
		"engine.TuneResult.Model":           "ModelName",
		"engine.GenerateArgs.Preset":        "Preset",
		"engine.DeleteResult.Deleted":       "true",
		"explain.Suggestion.Explanation":    "ModelExplanation", // never nil
	}
	docs, err := goDocs("engine", "ilpgnn/core/explain", "ilpgnn/core/eval", "ilpgnn/wasm/store")
	if err != nil {
		return nil, err
	}
	g := newTSGen(names, overrides, docs)

	var b strings.Builder
	b.WriteString(`// Code generated from the Go types of wasm/engine by TestProtocolTS
// (wasm/engine/tsgen_test.go); DO NOT EDIT. Regenerate it with
//
//	go test ./wasm/engine -run TestProtocolTS -update
//
// protocol.ts re-exports these types and adds what Go does not describe.

`)
	fmt.Fprintf(&b, "/** The protocol version this client speaks; every message carries it as `v`. */\nexport const PROTOCOL_VERSION = %d;\n\n", Protocol)
	b.WriteString("/** Literal type of {@link PROTOCOL_VERSION}. */\nexport type ProtocolVersion = typeof PROTOCOL_VERSION;\n\n")
	union(&b, "Error codes the engine sends.", "ErrorCode", ErrorCodes())
	union(&b, "Link predictors `train` knows: ILP-GNN and the paper's table 1 baselines.", "ModelName", Models())
	union(&b, "Synthetic graph presets of `generate`.", "Preset", Presets())
	union(&b, "Model selection of `train`, as `ilpgnn train --select`.", "TrainSelect", Selections())
	b.WriteString("/** Args of operations that take none. */\nexport type NoArgs = Record<string, never>;\n\n")

	if _, err := g.typeOf(reflect.TypeFor[Error](), ""); err != nil {
		return nil, err
	}
	var ops strings.Builder
	ops.WriteString(`/**
 * Every operation: its ` + "`args`, its `result`" + `, and markers for the extras some
 * of them have — ` + "`files: true`" + ` (the request must carry files), ` + "`progress`" + `
 * (the type of its progress events) and ` + "`bytes: true`" + ` (the result reply
 * carries ` + "`bytes`" + `).
 */
export interface Ops {
`)
	for _, op := range Ops() {
		args := "NoArgs"
		if op.Args != nil {
			if args, err = g.typeOf(op.Args, ""); err != nil {
				return nil, fmt.Errorf("%s args: %w", op.Name, err)
			}
		}
		if op.Result == nil {
			return nil, fmt.Errorf("%s: Ops gives no result type", op.Name)
		}
		result, err := g.typeOf(op.Result, "")
		if err != nil {
			return nil, fmt.Errorf("%s result: %w", op.Name, err)
		}
		fmt.Fprintf(&ops, "  %s: { args: %s; result: %s", tsKey(op.Name), args, result)
		if op.Progress != nil {
			p, err := g.typeOf(op.Progress, "")
			if err != nil {
				return nil, fmt.Errorf("%s progress: %w", op.Name, err)
			}
			fmt.Fprintf(&ops, "; progress: %s", p)
		}
		if op.Files {
			ops.WriteString("; files: true")
		}
		if op.Bytes {
			ops.WriteString("; bytes: true")
		}
		ops.WriteString(" };\n")
	}
	ops.WriteString("}\n")
	for _, d := range g.decls {
		b.WriteString(d)
	}
	b.WriteString(ops.String())
	for key := range overrides {
		if !g.used[key] {
			return nil, fmt.Errorf("override %q names no field of a protocol type", key)
		}
	}
	return []byte(b.String()), nil
}

func union(b *strings.Builder, doc, name string, values []string) {
	fmt.Fprintf(b, "/** %s */\nexport type %s =\n", doc, name)
	for i, v := range values {
		fmt.Fprintf(b, "  | %q", v)
		if i == len(values)-1 {
			b.WriteString(";")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// tsGen turns Go types into TypeScript declarations the way encoding/json
// writes them.
type tsGen struct {
	names     map[reflect.Type]string
	overrides map[string]string
	docs      map[string]string // "package.Type" and "package.Type.Field" -> doc
	used      map[string]bool   // overrides applied
	byName    map[string]reflect.Type
	done      map[reflect.Type]bool
	decls     []string
}

func newTSGen(names map[reflect.Type]string, overrides, docs map[string]string) *tsGen {
	return &tsGen{names: names, overrides: overrides, docs: docs, used: map[string]bool{},
		byName: map[string]reflect.Type{}, done: map[reflect.Type]bool{}}
}

// typeOf returns the TypeScript for t, declaring the named structs it
// reaches. where names the field, for errors.
func (g *tsGen) typeOf(t reflect.Type, where string) (string, error) {
	if t == reflect.TypeFor[json.RawMessage]() {
		return "unknown", nil
	}
	marshals := func(i reflect.Type) bool { return t.Implements(i) || reflect.PointerTo(t).Implements(i) }
	if marshals(reflect.TypeFor[json.Marshaler]()) || marshals(reflect.TypeFor[encoding.TextMarshaler]()) {
		return "", fmt.Errorf("%s: %v marshals itself: give the field an override", where, t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number", nil
	case reflect.String:
		return "string", nil
	case reflect.Interface:
		return "unknown", nil
	case reflect.Pointer:
		elem, err := g.typeOf(t.Elem(), where)
		if err != nil {
			return "", err
		}
		return elem + " | null", nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string", nil // base64
		}
		elem, err := g.typeOf(t.Elem(), where)
		if err != nil {
			return "", err
		}
		if strings.Contains(elem, " ") {
			elem = "(" + elem + ")"
		}
		return elem + "[]", nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return "", fmt.Errorf("%s: map key %v: want string", where, t.Key())
		}
		elem, err := g.typeOf(t.Elem(), where)
		if err != nil {
			return "", err
		}
		return "Record<string, " + elem + ">", nil
	case reflect.Struct:
		return g.declare(t)
	}
	return "", fmt.Errorf("%s: %v has no JSON form", where, t)
}

// declare declares the interface of struct t, once, and returns its name.
func (g *tsGen) declare(t reflect.Type) (string, error) {
	name := g.names[t]
	if name == "" {
		name = t.Name()
	}
	if name == "" {
		return "", fmt.Errorf("anonymous struct %v: give it a name", t)
	}
	if other, ok := g.byName[name]; ok && other != t {
		return "", fmt.Errorf("%v and %v are both %s in TypeScript: name one in generateTS", other, t, name)
	}
	g.byName[name] = t
	if g.done[t] {
		return name, nil
	}
	g.done[t] = true
	key := t.String() // "package.Type"

	var extends []string
	var body strings.Builder
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		jsonName, opts, _ := strings.Cut(tag, ",")
		fkey := key + "." + f.Name
		if f.Anonymous && jsonName == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				parent, err := g.declare(et)
				if err != nil {
					return "", err
				}
				extends = append(extends, parent)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if jsonName == "" {
			jsonName = f.Name
		}
		omit := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		if strings.Contains(","+opts+",", ",string,") {
			return "", fmt.Errorf("%s: the ,string option is not supported", fkey)
		}
		typ, ok := g.overrides[fkey]
		if ok {
			g.used[fkey] = true
		} else {
			ft := f.Type
			// omitempty leaves out a nil pointer, so a pointer that is
			// there is never null.
			if omit && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			var err error
			if typ, err = g.typeOf(ft, fkey); err != nil {
				return "", err
			}
		}
		// encoding/json never omits a struct, omitempty or not.
		optional := omit && f.Type.Kind() != reflect.Struct
		if doc := g.docs[fkey]; doc != "" {
			body.WriteString(jsDoc(doc, "  "))
		}
		q := ""
		if optional {
			q = "?"
		}
		fmt.Fprintf(&body, "  %s%s: %s;\n", tsKey(jsonName), q, typ)
	}
	var d strings.Builder
	if doc := g.docs[key]; doc != "" {
		// The doc starts with the Go name; say the TypeScript one.
		if rest, ok := strings.CutPrefix(doc, t.Name()+" "); ok {
			doc = name + " " + rest
		}
		d.WriteString(jsDoc(doc, ""))
	}
	d.WriteString("export interface " + name)
	if len(extends) > 0 {
		d.WriteString(" extends " + strings.Join(extends, ", "))
	}
	d.WriteString(" {\n" + body.String() + "}\n\n")
	g.decls = append(g.decls, d.String())
	return name, nil
}

// tsKey quotes a property name that is not an identifier.
func tsKey(s string) string {
	for i, r := range s {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}

// jsDoc renders a Go comment as a JSDoc comment.
func jsDoc(text, indent string) string {
	text = strings.ReplaceAll(strings.TrimSpace(text), "*/", "* /")
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		return indent + "/** " + text + " */\n"
	}
	var b strings.Builder
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		b.WriteString(strings.TrimRight(indent+" * "+l, " ") + "\n")
	}
	b.WriteString(indent + " */\n")
	return b.String()
}

// goDocs reads the doc comments of the types and fields of the packages
// (import paths below the module ilpgnn; "engine" is this one), keyed as
// reflect names them: "package.Type" and "package.Type.Field". A field's
// doc is its comment above, or else its comment on the line.
func goDocs(pkgs ...string) (map[string]string, error) {
	docs := map[string]string{}
	for _, pkg := range pkgs {
		dir := "."
		if pkg != "engine" {
			dir = filepath.Join("../..", strings.TrimPrefix(pkg, "ilpgnn/"))
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return nil, err
		}
		prefix := filepath.Base(pkg) + "."
		fset := token.NewFileSet()
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, spec := range gd.Specs {
					ts := spec.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					key := prefix + ts.Name.Name
					docs[key] = doc.Text()
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, field := range st.Fields.List {
						text := field.Doc.Text()
						if text == "" {
							text = field.Comment.Text()
						}
						for _, n := range field.Names {
							docs[key+"."+n.Name] = text
						}
					}
				}
			}
		}
	}
	return docs, nil
}
