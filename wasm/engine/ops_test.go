package engine

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"ilpgnn/wasm/store"
)

// engineSource parses the package's non-test files.
func engineSource(t *testing.T) []*ast.File {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func opNames() []string {
	var names []string
	for _, op := range Ops() {
		names = append(names, op.Name)
	}
	return names
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return slices.Compact(s)
}

// TestOpsMatchEngine holds the table of operations to the engine's
// dispatch: the cases of its switches on req.Op name exactly the table's
// operations.
func TestOpsMatchEngine(t *testing.T) {
	var served []string
	for name := range background { // dispatched before serve's table, by Handle
		served = append(served, name)
	}
	for name := range operations {
		served = append(served, name)
	}
	if got, want := sorted(served), sorted(opNames()); !slices.Equal(got, want) {
		t.Errorf("the engine serves %v; Ops lists %v", got, want)
	}
}

// jsonFields returns the JSON names of t's fields and whether each is
// required (no omitempty).
func jsonFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = !strings.Contains(opts, "omitempty")
	}
	return out
}

// TestOpArgsMatchEngine holds the table's args types to the fields the
// engine decodes: every field of an op's args is accepted by the engine
// (which refuses unknown fields), and every args field the engine declares
// is in some op's args type.
func TestOpArgsMatchEngine(t *testing.T) {
	p := newPage(t, nil)
	described := map[string]bool{}
	for _, op := range Ops() {
		if op.Args == nil {
			continue
		}
		args := map[string]any{}
		for name := range jsonFields(op.Args) {
			described[name] = true
			// A value of the right JSON type, wrong for the operation
			// where that is possible: no request below should succeed
			// and start work, only get past the decoding.
			args[name] = sampleJSON(op.Args, name)
		}
		if e := p.callErrOrNil(op.Name, args); e != nil && strings.Contains(e.Message, "unknown field") {
			t.Errorf("%s: the engine refuses the args Ops describes: %s", op.Name, e.Message)
		}
		args["notAnArg"] = 1
		if e := p.callErrOrNil(op.Name, args); e == nil || !strings.Contains(e.Message, `unknown field "notAnArg"`) {
			t.Errorf("%s: the engine accepted an unknown args field (error %+v): the check above proves nothing", op.Name, e)
		}
	}

	var declared []string
	for _, f := range engineSource(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "a" {
				return true
			}
			st, ok := vs.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if field.Tag == nil {
					continue
				}
				tag, _ := strconv.Unquote(field.Tag.Value)
				name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
				declared = append(declared, name)
			}
			return true
		})
	}
	if len(declared) == 0 {
		t.Log("the engine declares no anonymous args structs: nothing to compare")
	}
	for _, name := range sorted(declared) {
		if !described[name] {
			t.Errorf("the engine reads args field %q, which no args type of Ops describes", name)
		}
	}
}

// sampleJSON returns a JSON value of the type of t's field with JSON name
// name: empty or zero, except numbers, which are out of range for any
// node or maxM so that no request runs.
func sampleJSON(t reflect.Type, name string) any {
	for i := range t.NumField() {
		f := t.Field(i)
		n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if n != name {
			continue
		}
		switch f.Type.Kind() {
		case reflect.String:
			return "no such thing"
		case reflect.Bool:
			return false
		case reflect.Map:
			return map[string]any{}
		default:
			return -1
		}
	}
	return nil
}

func (p *page) callErrOrNil(op string, args any) *Error {
	r := p.wait(p.send(op, args, nil))
	if r.Type == "error" {
		return r.Error
	}
	return nil
}

// TestOpResultsMatchEngine holds the result types of the operations whose
// results the engine builds as maps to what it sends: the same keys, every
// required one present.
func TestOpResultsMatchEngine(t *testing.T) {
	st := &store.Memory{}
	p := newPage(t, st)
	_, files := smallSynth(t)
	if r := p.wait(p.send("load", nil, files)); r.Type != "result" {
		t.Fatalf("load: %+v", r.Error)
	}
	tr := trained(t, p, trainArgs(1))
	ex := p.call("checkpoints.export", map[string]any{"key": tr.Key}, nil)
	results := map[string]any{
		"defaults":           p.call("defaults", nil, nil).Result,
		"cancel":             p.call("cancel", map[string]any{"target": 12345}, nil).Result,
		"checkpoints.export": ex.Result,
		"checkpoints.import": p.wait(p.send("checkpoints.import", nil, map[string][]byte{"m.ckpt": ex.Bytes})).Result,
		"checkpoints.delete": p.call("checkpoints.delete", map[string]any{"key": tr.Key}, nil).Result,
	}
	for _, op := range Ops() {
		res, ok := results[op.Name]
		if !ok {
			continue
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: result %s is not an object", op.Name, b)
		}
		fields := jsonFields(op.Result)
		for k := range got {
			if _, ok := fields[k]; !ok {
				t.Errorf("%s: the engine sends %q, which %v lacks", op.Name, k, op.Result)
			}
		}
		for k, required := range fields {
			if _, ok := got[k]; required && !ok {
				t.Errorf("%s: %v requires %q, which the engine does not send (%s)", op.Name, op.Result, k, b)
			}
		}
	}
}

// TestProtocolDoc holds wasm/PROTOCOL.md to the table: its operations table
// and its error codes table name exactly the operations and codes of Go.
func TestProtocolDoc(t *testing.T) {
	b, err := os.ReadFile("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	table := func(heading string) []string {
		_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
		if !ok {
			t.Fatalf("PROTOCOL.md has no heading %q", heading)
		}
		var names []string
		row := regexp.MustCompile("^\\| `([^`]+)` \\|")
		for line := range strings.SplitSeq(after, "\n") {
			if strings.HasPrefix(line, "#") {
				break
			}
			if m := row.FindStringSubmatch(line); m != nil {
				names = append(names, m[1])
			}
		}
		return names
	}
	if got, want := table("## Operations"), opNames(); !slices.Equal(got, want) {
		t.Errorf("PROTOCOL.md's operations are %v; Ops lists %v", got, want)
	}
	if got, want := table("### Error codes"), ErrorCodes(); !slices.Equal(got, want) {
		t.Errorf("PROTOCOL.md's error codes are %v; ErrorCodes lists %v", got, want)
	}
}

// TestErrorCodesComplete checks that ErrorCodes lists every Code constant.
func TestErrorCodesComplete(t *testing.T) {
	var consts []string
	for _, f := range engineSource(t) {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if strings.HasPrefix(n.Name, "Code") && i < len(vs.Values) {
						lit := vs.Values[i].(*ast.BasicLit)
						s, _ := strconv.Unquote(lit.Value)
						consts = append(consts, s)
					}
				}
			}
		}
	}
	if got, want := sorted(ErrorCodes()), sorted(consts); !slices.Equal(got, want) || len(got) != len(ErrorCodes()) {
		t.Errorf("ErrorCodes() = %v; the Code constants are %v", ErrorCodes(), consts)
	}
}

// TestModelsMatchEngine checks that defaults knows every model of Models
// and refuses another name.
func TestModelsMatchEngine(t *testing.T) {
	p := newPage(t, nil)
	for _, m := range Models() {
		p.call("defaults", map[string]any{"model": m}, nil)
	}
	if e := p.callErrOrNil("defaults", map[string]any{"model": "nonesuch"}); e == nil {
		t.Error("defaults accepted an unknown model")
	}
}
