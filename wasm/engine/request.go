package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER: the page's ids
// are numbers, exact up to it.
const maxSafeInteger = 1<<53 - 1

// DecodeRequest reads a request from the JSON text of its message without
// the files, which travel beside it as bytes (wasm/worker copies them into
// Files). It is the part of the worker's decoding that needs no JavaScript.
//
// The request it returns always has an ID: -1 when the message has no
// usable id. On a malformed message it also returns an *Error to reply
// with (bad_request, or unsupported_version for a v that is not a
// version number). A request that decodes is not yet checked for its
// version or operation: Handle does that.
func DecodeRequest(head []byte) (Request, error) {
	req := Request{ID: -1}
	// A map, not a struct: JSON field names would match a struct's
	// case-insensitively, and "ID" is not "id" in JavaScript.
	var m map[string]json.RawMessage
	if err := json.Unmarshal(head, &m); err != nil || m == nil {
		return req, errorf(CodeBadRequest, "request: want an object {v, id, op, args?}, got %s", requestExcerpt(head))
	}
	id, ok := jsonInteger(m["id"])
	if !ok || math.Abs(id) > maxSafeInteger {
		return req, errorf(CodeBadRequest, "request: id must be an integer of at most %d in magnitude, got %s", int64(maxSafeInteger), requestExcerpt(m["id"]))
	}
	req.ID = int64(id)
	v, ok := jsonInteger(m["v"])
	if !ok || math.Abs(v) > math.MaxInt32 {
		return req, errorf(CodeVersion, "request: v must be the protocol version (this engine speaks %d), got %s", Protocol, requestExcerpt(m["v"]))
	}
	req.V = int(v)
	if raw, ok := m["op"]; ok {
		if err := json.Unmarshal(raw, &req.Op); err != nil || isJSONNull(raw) {
			return req, errorf(CodeBadRequest, "request: op must be a string, got %s", requestExcerpt(raw))
		}
	}
	if raw := m["args"]; raw != nil && !isJSONNull(raw) {
		req.Args = raw
	}
	return req, nil
}

// jsonInteger returns the value of a JSON number that is a whole number.
func jsonInteger(raw json.RawMessage) (float64, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil {
		return 0, false
	}
	n, ok := x.(json.Number) // not a string, which a json.Number would take
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil && f == math.Trunc(f)
}

func isJSONNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// requestExcerpt quotes the start of a malformed value for an error message.
func requestExcerpt(b []byte) string {
	if b == nil {
		return "nothing"
	}
	const limit = 40
	if len(b) > limit {
		return strconv.Quote(string(b[:limit])) + "..."
	}
	return strconv.Quote(string(b))
}
