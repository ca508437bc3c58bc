package load

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
)

// maxLine is the longest line the text loaders accept, and so about the
// most memory a line can cost: a Citeseer .content line is 7.4 KB, and a
// dense features line of 300k float32 values written in full fits too.
const maxLine = 4 << 20

// bom is the UTF-8 byte-order mark that Excel and Notepad put at the start
// of the files they save.
var bom = []byte("\ufeff")

// TrimBOM returns b without a leading UTF-8 byte-order mark. Every text
// reader applies it to the start of its file, so that the mark does not
// become part of the first id or header.
func TrimBOM(b []byte) []byte { return bytes.TrimPrefix(b, bom) }

// lines reads a text file line by line, counting lines for errors and
// skipping blank lines (the LINQS files; edge lists and features files
// are read by records).
type lines struct {
	file string
	sc   *bufio.Scanner
	n    int // number of the line last returned
}

func newLines(file string, r io.Reader) *lines {
	return &lines{file: file, sc: newScanner(r)}
}

// newScanner returns a line scanner of r that takes lines up to maxLine.
func newScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return sc
}

// next returns the next data line with surrounding blanks removed, or false
// at the end of the input or on a read error (see err). The slice is valid
// until the following call.
func (l *lines) next() ([]byte, bool) {
	for l.sc.Scan() {
		l.n++
		b := l.sc.Bytes()
		if l.n == 1 {
			b = TrimBOM(b)
		}
		if b = bytes.TrimSpace(b); len(b) > 0 {
			return b, true
		}
	}
	return nil, false
}

// err returns the read error that stopped next, as a *Error, or nil.
func (l *lines) err() error { return scanError(l.file, l.n, l.sc.Err()) }

// scanError returns a scanner's error err, met after line n of file, as a
// *Error at the line it stopped on, or nil for nil.
func scanError(file string, n int, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return errorf(file, n+1, "line is longer than %d MiB", maxLine>>20)
	}
	return &Error{File: file, Line: n + 1, Err: err}
}

// errorf returns a *Error at the line last returned.
func (l *lines) errorf(format string, args ...any) *Error {
	return errorf(l.file, l.n, format, args...)
}

// sep is a field separator: ',', '\t' or ';', or 0 for runs of blanks.
type sep byte

const sepBlanks sep = 0

// detectSep picks the separator of a delimited file from its first data
// line, outside quoted fields: the one of a comma, a tab and a semicolon
// that it has. When it has more than one, a tab wins unless the file
// name's extension is ".csv" (a tab-separated file is the one whose ids
// hold commas or semicolons). A semicolon wins over a comma when every
// comma is the decimal mark of a number between semicolons, as in the
// files Excel saves where the comma is the decimal mark ("a;b;0,5");
// any other comma makes the line comma-separated, with the semicolons
// inside its fields ("a,;,b"). A line with none of them is separated by
// blanks.
func detectSep(line []byte, file string) sep {
	comma, tab, semi, quoted := false, false, false, false
	decimal := true               // every comma so far is a decimal mark
	field, fieldComma := 0, false // the start of the ';'-field being read, and whether it has a comma
	endField := func(end int) {
		if fieldComma && !isDecimalComma(bytes.TrimSpace(line[field:end])) {
			decimal = false
		}
		field, fieldComma = end+1, false
	}
	for i, c := range line {
		switch {
		case c == '"':
			quoted = !quoted // a doubled quote toggles twice
		case quoted:
		case c == ',':
			comma, fieldComma = true, true
		case c == '\t':
			tab = true
		case c == ';':
			semi = true
			endField(i)
		}
	}
	endField(len(line))
	switch {
	case tab && (!comma && !semi || !strings.EqualFold(path.Ext(file), ".csv")):
		return '\t'
	case semi && (!comma || decimal):
		return ';'
	case comma:
		return ','
	}
	return sepBlanks
}

// isDecimalComma reports whether f is a number written with a decimal
// comma: digits, one comma, digits, with an optional sign and exponent
// ("-1,25", "3,5e2"); numeral reads such a field as a number.
func isDecimalComma(f []byte) bool {
	if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
		f = f[1:]
	}
	digits := func() int {
		n := 0
		for n < len(f) && f[n] >= '0' && f[n] <= '9' {
			n++
		}
		f = f[n:]
		return n
	}
	if digits() == 0 || len(f) == 0 || f[0] != ',' {
		return false
	}
	f = f[1:]
	if digits() == 0 {
		return false
	}
	if len(f) > 0 && (f[0] == 'e' || f[0] == 'E') {
		f = f[1:]
		if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
			f = f[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return len(f) == 0
}

// numeral returns a value field as parseValue and isNumber should read
// it: in a semicolon-separated file a decimal comma ("0,5", one comma and
// no point) stands for a decimal point, as Excel writes it where the comma
// is the decimal mark. Other fields, and fields of other files, are
// returned as they are.
func (s sep) numeral(f []byte) []byte {
	if s != ';' {
		return f
	}
	i := bytes.IndexByte(f, ',')
	if i < 0 || bytes.IndexByte(f[i+1:], ',') >= 0 || bytes.IndexByte(f, '.') >= 0 {
		return f
	}
	c := bytes.Clone(f)
	c[i] = '.'
	return c
}

// blanks marks the ASCII blanks: space, tab, CR, VT, FF.
var blanks = [256]bool{' ': true, '\t': true, '\r': true, '\v': true, '\f': true}

// isBlank reports whether c is an ASCII blank (space, tab, CR, VT, FF).
func isBlank(c byte) bool { return blanks[c] }

// split appends the fields of line to dst[:0] and returns it. With a
// separator character each field is trimmed of surrounding blanks and
// empty fields are kept; with sepBlanks fields are the runs of
// non-blanks. The fields alias line.
func (s sep) split(dst [][]byte, line []byte) [][]byte {
	dst = dst[:0]
	if s == sepBlanks {
		i := 0
		for {
			for i < len(line) && isBlank(line[i]) {
				i++
			}
			if i == len(line) {
				return dst
			}
			j := i
			for j < len(line) && !isBlank(line[j]) {
				j++
			}
			dst = append(dst, line[i:j])
			i = j
		}
	}
	for {
		k := bytes.IndexByte(line, byte(s))
		if k < 0 {
			return append(dst, bytes.TrimSpace(line))
		}
		dst = append(dst, bytes.TrimSpace(line[:k]))
		line = line[k+1:]
	}
}

// parseValue parses a feature value: "0" and "1" directly, anything else
// with strconv.ParseFloat. NaN and infinities are errors.
func parseValue(b []byte) (float32, error) {
	if len(b) == 1 {
		switch b[0] {
		case '0':
			return 0, nil
		case '1':
			return 1, nil
		}
	}
	v, err := strconv.ParseFloat(string(b), 32)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is out of float32 range (magnitude at most %.4g)", clipField(b), math.MaxFloat32)
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", clipField(b))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", b)
	}
	return float32(v), nil
}

// isNumber reports whether b is spelt as a number (used to tell headers
// from data). A number too large for a float64 still is one, so that
// parseValue reports it as out of range instead of the line being taken
// for a header.
func isNumber(b []byte) bool {
	_, err := strconv.ParseFloat(string(b), 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// clipField shortens a field for an error message: a line may be megabytes
// long.
func clipField(b []byte) []byte {
	const most = 64
	if len(b) <= most {
		return b
	}
	return append(b[:most:most], "..."...)
}
