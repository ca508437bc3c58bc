package load

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// records reads a delimited text file (an edge list or a features file)
// one record at a time.
//
// The file may start with a block of comment lines, as SNAP and KONECT
// write them: before the first data line, a line whose first non-blank
// byte is '#' or '%' followed by a blank, the end of the line or another
// '#' or '%' ("# Nodes: 4039", "%%MatrixMarket"). Anywhere else such a
// line is an error, not something to skip: after the data has begun it is
// more likely a mistake than a remark, and a line such as "#python,#golang"
// is data wherever it is. Blank lines are skipped.
//
// The separator is taken from the first data line, outside quotes (see
// detectSep): a comma, a tab or a semicolon, else runs of blanks. Fields
// are quoted as RFC 4180 says: a field that starts with '"' runs to the
// next lone '"', a doubled '"' inside it stands for one, and with a
// separator character it may hold the separator and line breaks; with
// blanks a quoted field may hold blanks and ends on its line. Blanks
// around a field, quoted or not, are not part of it. A '"' inside a field
// that does not start with one is an error with a separator character (it
// would otherwise become part of an id), and an ordinary character with
// blanks.
//
// TestQuotingMatchesEncodingCSV holds the comma and tab cases to
// encoding/csv's reading of what encoding/csv writes; the reader is our
// own because encoding/csv read these files 2.4 to 4x slower when it
// was written.
type records struct {
	file string
	sc   *bufio.Scanner
	n    int // physical lines read
	line int // the line the record last returned starts on

	sep      sep
	begun    bool   // a data line has been read: no more comments
	first    []byte // the start of the first data line
	comments int    // comment lines skipped before the data

	buf    []byte   // a record that spans lines
	fields [][]byte // the record last returned
	err    error
}

func newRecords(file string, r io.Reader) *records {
	return &records{file: file, sc: newScanner(r)}
}

// next returns the next record's fields, or false at the end of the file
// or on an error (see err). The fields are valid until the following call.
func (rs *records) next() ([][]byte, bool) {
	if rs.err != nil {
		return nil, false
	}
	for rs.sc.Scan() {
		rs.n++
		b := rs.sc.Bytes()
		if rs.n == 1 {
			b = TrimBOM(b)
		}
		t := bytes.TrimSpace(b)
		if len(t) == 0 {
			continue
		}
		if isCommentLine(t) {
			if rs.begun {
				rs.err = errorf(rs.file, rs.n, "a comment line after the data has begun (%q); comments are read only before the first data line, so remove it, or quote the id if it is data", clipField(t))
				return nil, false
			}
			rs.comments++
			continue
		}
		rs.line = rs.n
		rec := t
		if bytes.Count(t, quote)%2 == 1 && (!rs.begun || rs.sep != sepBlanks) {
			// An open quote: with a separator character (the first record
			// decides which) a quoted field may hold line breaks.
			if rec = rs.continued(b[len(b)-len(bytes.TrimLeft(b, " \t\r\v\f")):]); rec == nil {
				return nil, false
			}
		}
		if !rs.begun {
			rs.begun = true
			rs.sep = detectSep(rec, rs.file)
			rs.first = bytes.Clone(rec[:min(len(rec), 16)])
		}
		fields, err := rs.sep.splitQuoted(rs.fields[:0], rec)
		if err != nil {
			if errors.Is(err, errOpenQuote) {
				err = errors.New("a quoted field that starts on this line does not close on it (with blanks as separators, quoted fields end on their line)")
			}
			rs.err = errorf(rs.file, rs.line, "%v", err)
			return nil, false
		}
		rs.fields = fields
		return fields, true
	}
	rs.err = rs.scanErr()
	return nil, false
}

// quote is RFC 4180's quote character.
var quote = []byte{'"'}

// continued returns the record that starts with the line b, whose quotes
// are unbalanced, joined with the lines that follow until they balance,
// or nil with rs.err set when the file or the length allowed ends first.
// The error then names what is wrong with b itself where that is
// something other than a field still open (a stray quote). b keeps its
// trailing blanks: they are inside the open field.
func (rs *records) continued(b []byte) []byte {
	rs.buf = append(rs.buf[:0], b...) // the scanner reuses b's bytes
	open := true
	for open && len(rs.buf) <= maxLine && rs.sc.Scan() {
		rs.n++
		next := rs.sc.Bytes()
		rs.buf = append(append(rs.buf, '\n'), next...)
		open = bytes.Count(next, quote)%2 == 0
	}
	if !open {
		return bytes.TrimSpace(rs.buf)
	}
	if rs.err = rs.scanErr(); rs.err != nil {
		return nil
	}
	first := bytes.TrimSpace(rs.buf[:len(b)])
	sep := rs.sep
	if !rs.begun {
		sep = detectSep(first, rs.file)
	}
	if _, err := sep.splitQuoted(nil, first); err != nil && !errors.Is(err, errOpenQuote) {
		rs.err = errorf(rs.file, rs.line, "%v", err)
		return nil
	}
	if len(rs.buf) > maxLine {
		rs.err = errorf(rs.file, rs.line, "a record longer than %d MiB: the quoted field that starts on this line seems never to close", maxLine>>20)
	} else {
		rs.err = errorf(rs.file, rs.line, "the quoted field that starts on this line never closes")
	}
	return nil
}

// scanErr returns the scanner's error as a *Error at the line it stopped
// on, or nil at the end of the file.
func (rs *records) scanErr() error { return scanError(rs.file, rs.n, rs.sc.Err()) }

// commentNotes is the note for ReadNotes on the comment lines skipped,
// or nil when there were none; call it after the last record.
func (rs *records) commentNotes() []string {
	if rs.comments == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s before the data skipped", rs.file, nouns(rs.comments, "comment line", "comment lines"))}
}

// errorf returns a *Error at the record last returned.
func (rs *records) errorf(format string, args ...any) *Error {
	return errorf(rs.file, rs.line, format, args...)
}

// isCommentLine reports whether a trimmed, non-empty line is a comment by
// the rule of records: '#' or '%' followed by a blank, the end of the line
// or another '#' or '%'.
func isCommentLine(t []byte) bool {
	if t[0] != '#' && t[0] != '%' {
		return false
	}
	return len(t) == 1 || isBlank(t[1]) || t[1] == '#' || t[1] == '%'
}

// errOpenQuote is splitQuoted's error when the line ends inside a quoted
// field.
var errOpenQuote = errors.New("open quote")

// splitQuoted appends the fields of the trimmed line to dst[:0] by the
// rules of records and returns them. Fields alias line, except quoted
// fields with a doubled quote, which are copies.
func (s sep) splitQuoted(dst [][]byte, line []byte) ([][]byte, error) {
	dst = dst[:0]
	if bytes.IndexByte(line, '"') < 0 {
		return s.split(dst, line), nil // the common case, and the fast one
	}
	i, k := 0, 1 // position, number of the field being read
	for {
		for i < len(line) && isBlank(line[i]) && line[i] != byte(s) {
			i++
		}
		if s == sepBlanks && i == len(line) {
			return dst, nil
		}
		if i < len(line) && line[i] == '"' {
			field, end, err := unquote(line, i)
			if err != nil {
				return nil, err
			}
			dst = append(dst, field)
			i = end
			for i < len(line) && isBlank(line[i]) && line[i] != byte(s) {
				i++
			}
			switch {
			case i == len(line):
				return dst, nil
			case s == sepBlanks && isBlank(line[i-1]):
				// the next field begins here
			case s != sepBlanks && line[i] == byte(s):
				i++
			default:
				return nil, fmt.Errorf("field %d: %q follows its closing quote; a quoted field ends at its closing quote", k, clipField(line[i:min(len(line), i+16)]))
			}
			k++
			continue
		}
		// An unquoted field.
		var end int
		if s == sepBlanks {
			end = i
			for end < len(line) && !isBlank(line[end]) {
				end++
			}
		} else if j := bytes.IndexByte(line[i:], byte(s)); j >= 0 {
			end = i + j
		} else {
			end = len(line)
		}
		field := bytes.TrimSpace(line[i:end])
		if s != sepBlanks && bytes.IndexByte(field, '"') >= 0 {
			return nil, fmt.Errorf("field %d (%q) has a '\"' but does not start with one; quote the whole field and double the quotes inside it (RFC 4180)", k, clipField(field))
		}
		dst = append(dst, field)
		if end == len(line) {
			return dst, nil
		}
		i, k = end, k+1
		if s != sepBlanks {
			i++ // past the separator
		}
	}
}

// unquote reads the quoted field whose opening quote is line[at] and
// returns its contents and the index after its closing quote, or
// errOpenQuote when the line ends first.
func unquote(line []byte, at int) (field []byte, end int, err error) {
	var copied []byte // set once a doubled quote is seen
	start := at + 1
	for i := start; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		if i+1 < len(line) && line[i+1] == '"' {
			copied = append(copied, line[start:i+1]...)
			start = i + 2
			i++
			continue
		}
		if copied == nil {
			return line[start:i], i + 1, nil
		}
		return append(copied, line[start:i]...), i + 1, nil
	}
	return nil, 0, errOpenQuote
}
