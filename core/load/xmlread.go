package load

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxXMLDepth is the deepest nesting of elements the XML readers accept:
// GraphML and GEXF need five levels, yFiles' graphics inside a <data>
// element a dozen more. It bounds the decoder's stack of open elements.
const maxXMLDepth = 256

// errLongToken is xmlInput's error for a token longer than maxLine.
var errLongToken = errors.New("long token")

// xmlInput feeds an xml.Decoder one byte at a time (the decoder uses
// ReadByte when it has it) and refuses to give it more than maxLine bytes
// for one token, so that a tag, a text or a run of blanks without end
// costs at most that much memory, as a line does in the text formats.
type xmlInput struct {
	r    *bufio.Reader
	n    int64 // bytes read
	mark int64 // n when the token being read began
}

// ReadByte returns the next byte, or errLongToken once the token being
// read is longer than maxLine.
func (in *xmlInput) ReadByte() (byte, error) {
	if in.n-in.mark > maxLine {
		return 0, errLongToken
	}
	c, err := in.r.ReadByte()
	if err == nil {
		in.n++
	}
	return c, err
}

// Read reads one byte (xml.Decoder reads with ReadByte; Read makes
// xmlInput an io.Reader).
func (in *xmlInput) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c, err := in.ReadByte()
	if err != nil {
		return 0, err
	}
	p[0] = c
	return 1, nil
}

// xmlReader reads the elements of an XML file for GraphMLReader and
// GEXFReader: comments, processing instructions and directives are
// skipped, and every error is a *Error naming the file and line.
type xmlReader struct {
	file      string
	in        *xmlInput
	dec       *xml.Decoder
	depth     int // elements open
	tokenLine int // the line where the token being read begins
	lastLine  int // and where the one before it began

	charset string // the encoding the file declares, when it is not UTF-8
}

func newXMLReader(file string, r io.Reader) *xmlReader {
	in := &xmlInput{r: bufio.NewReaderSize(r, 64<<10)}
	x := &xmlReader{file: file, in: in, dec: xml.NewDecoder(in)}
	x.dec.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		x.charset = label
		return nil, errors.New("not UTF-8")
	}
	return x
}

// line returns the line the decoder is on: the one where the token last
// returned ends.
func (x *xmlReader) line() int {
	line, _ := x.dec.InputPos()
	return line
}

// errorf returns a *Error at the current line.
func (x *xmlReader) errorf(format string, args ...any) *Error {
	return errorf(x.file, x.line(), format, args...)
}

// next returns the next start element, end element or text. At the end
// of the file, outside every element, it returns io.EOF itself.
func (x *xmlReader) next() (xml.Token, error) {
	for {
		x.lastLine, x.tokenLine = x.tokenLine, x.line()
		x.in.mark = x.in.n
		tok, err := x.dec.Token()
		if err != nil {
			return nil, x.wrap(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if x.depth++; x.depth > maxXMLDepth {
				return nil, x.errorf("elements nested more than %d deep", maxXMLDepth)
			}
			return t, nil
		case xml.EndElement:
			x.depth--
			return t, nil
		case xml.CharData:
			return t, nil
		}
	}
}

// wrap turns the decoder's error into a *Error; io.EOF is kept.
func (x *xmlReader) wrap(err error) error {
	var se *xml.SyntaxError
	switch {
	case err == io.EOF:
		return err
	case x.charset != "":
		return x.errorf("the file declares the encoding %q, and only UTF-8 is read: save it as UTF-8", x.charset)
	case errors.As(err, &se):
		return errorf(x.file, se.Line, "XML syntax: %s", se.Msg)
	case errors.Is(err, errLongToken):
		line := x.tokenLine
		if x.in.n == x.in.mark {
			// The decoder returned the text it had read and keeps the
			// error for the next token: the long one is the one before.
			line = x.lastLine
		}
		return errorf(x.file, line, "a tag or a text longer than %d MiB", maxLine>>20)
	}
	return &Error{File: x.file, Line: x.line(), Err: err}
}

// root returns the root element. A file without one is empty; text before
// it means the file is not XML.
func (x *xmlReader) root() (xml.StartElement, error) {
	for {
		tok, err := x.next()
		if err == io.EOF {
			return xml.StartElement{}, &Error{File: x.file, Err: ErrEmpty}
		}
		if err != nil {
			return xml.StartElement{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return xml.StartElement{}, x.errorf("text %q before the first element: not an XML file", clipField(bytes.TrimSpace(t)))
			}
		}
	}
}

// end reads what follows the root element: nothing but blanks.
func (x *xmlReader) end() error {
	for {
		tok, err := x.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if t, ok := tok.(xml.CharData); !ok || len(bytes.TrimSpace(t)) > 0 {
			return x.errorf("content after the root element ends")
		}
	}
}

// child returns the next child element of the element being read, or
// false at its end tag. Text between children is skipped.
func (x *xmlReader) child() (xml.StartElement, bool, error) {
	for {
		tok, err := x.next()
		if err == io.EOF { // the decoder reports an element left open
			return xml.StartElement{}, false, x.errorf("the file ends inside an element")
		}
		if err != nil {
			return xml.StartElement{}, false, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, true, nil
		case xml.EndElement:
			return xml.StartElement{}, false, nil
		}
	}
}

// skip reads to the end of the element whose start was read last.
func (x *xmlReader) skip() error {
	for depth := 1; depth > 0; {
		tok, err := x.next()
		if err == io.EOF {
			return x.errorf("the file ends inside an element")
		}
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

// text returns the text of the element whose start was read last, up to
// its end tag, trimmed of blanks; an element inside it is an error naming
// what (as "<data key=\"d0\">").
func (x *xmlReader) text(what string) (string, error) {
	var b []byte
	for {
		tok, err := x.next()
		if err == io.EOF {
			return "", x.errorf("the file ends inside %s", what)
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(b)+len(t) > maxLine {
				return "", x.errorf("the text of %s is longer than %d MiB", what, maxLine>>20)
			}
			b = append(b, t...)
		case xml.StartElement:
			return "", x.errorf("%s holds an element <%s> where a value belongs", what, t.Name.Local)
		case xml.EndElement:
			return strings.TrimSpace(string(b)), nil
		}
	}
}

// attr returns the value of the attribute of e with local name name.
func attr(e xml.StartElement, name string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

// elementName returns e's name for notes, with a short prefix for the
// visualisation namespaces of GEXF ("viz:position").
func elementName(e xml.StartElement) string {
	if strings.Contains(e.Name.Space, "viz") {
		return "<viz:" + e.Name.Local + ">"
	}
	return "<" + e.Name.Local + ">"
}

// valueType is what an XML format declares an attribute's values to be.
type valueType uint8

const (
	typeOther  valueType = iota // text, a list, a date...: ignored
	typeNumber                  // an integer or a real number
	typeBool                    // true or false, read as 1 or 0
	typeString                  // text, read as a category
)

// typed records s, the text of node attribute k's value, of type t, for
// the node declared last; what names the value in errors.
func (b *attrGraph) typed(k int32, t valueType, s string, line int, what string) error {
	switch t {
	case typeOther:
		return b.value(k, 0, line) // counted, not stored
	case typeString:
		return b.category(k, s, line)
	}
	v, err := parseTyped(s, t)
	if err != nil {
		return b.errorf(line, "%s: %v", what, err)
	}
	b.keys[k].bools = b.keys[k].bools || t == typeBool
	return b.value(k, v, line)
}

// parseTyped parses s, a value of type t (typeNumber or typeBool).
func parseTyped(s string, t valueType) (float32, error) {
	if t == typeBool {
		switch strings.ToLower(s) {
		case "true", "1":
			return 1, nil
		case "false", "0":
			return 0, nil
		}
		return 0, fmt.Errorf("%q is not a boolean (true or false)", clipField([]byte(s)))
	}
	return parseValue([]byte(s))
}
