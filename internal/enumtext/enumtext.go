// Package enumtext is the text form the engines give their enums: an
// enum reads and writes its name (its String text), so that it reads
// well in JSON and in flags. A zero value without a name (the constants
// start at 1) writes "" and reads "" back as zero, so that a zero field
// still encodes. A value without a name is an error when written, and
// an unknown name is an error when read, naming the type and the text
// (a *field.Error wrapping field.ErrUnsupported, with the engine's
// package name as its prefix).
package enumtext

import (
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// Enum is what the text helpers need of an enum: a uint8 with names,
// whose String writes "Type(n)" for a value without one. Its named
// values are contiguous from 0 or 1.
type Enum interface {
	~uint8
	String() string
}

// unnamed reports whether s is String's text for a value without a name,
// "ActionKind(99)".
func unnamed(s, typ string) bool {
	return strings.HasPrefix(s, typ+"(") && strings.HasSuffix(s, ")")
}

// Marshal is MarshalText for an enum named typ of package pkg.
func Marshal[E Enum](v E, pkg, typ string) ([]byte, error) {
	s := v.String()
	if !unnamed(s, typ) {
		return []byte(s), nil
	}
	if v == 0 {
		return []byte{}, nil
	}
	return nil, &field.Error{Prefix: pkg, Field: typ, Value: strconv.Itoa(int(v)), Detail: "has no name", Err: field.ErrUnsupported}
}

// Unmarshal is UnmarshalText for an enum named typ of package pkg.
func Unmarshal[E Enum](v *E, pkg, typ string, text []byte) error {
	for n := 0; n <= 255; n++ {
		s := E(n).String()
		if unnamed(s, typ) {
			if n == 0 {
				if len(text) == 0 {
					*v = 0
					return nil
				}
				continue
			}
			break
		}
		if s == string(text) {
			*v = E(n)
			return nil
		}
	}
	return &field.Error{Prefix: pkg, Field: typ, Value: strconv.Quote(string(text)), Detail: "unknown name", Err: field.ErrUnsupported}
}
