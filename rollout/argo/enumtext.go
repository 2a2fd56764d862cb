package argo

import (
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// The package's enums read and write their names (String's text), so
// that they read well in JSON and in flags. An enum whose zero value has
// no name writes it as "" and reads "" back as zero. A value without a
// name is an error when written; an unknown name is an error when read,
// naming the type and the text (a *field.Error wrapping
// field.ErrUnsupported).

// enum is what the text helpers need of an enum.
type enum interface {
	~uint8
	String() string
}

// unnamed reports whether s is String's text for a value without a name.
func unnamed(s, typ string) bool {
	return strings.HasPrefix(s, typ+"(") && strings.HasSuffix(s, ")")
}

// marshalEnum is MarshalText for an enum named typ.
func marshalEnum[E enum](v E, typ string) ([]byte, error) {
	s := v.String()
	if !unnamed(s, typ) {
		return []byte(s), nil
	}
	if v == 0 {
		return []byte{}, nil
	}
	return nil, &field.Error{Prefix: "argo", Field: typ, Value: strconv.Itoa(int(v)), Detail: "has no name", Err: field.ErrUnsupported}
}

// unmarshalEnum is UnmarshalText for an enum named typ, whose values
// are contiguous from 1.
func unmarshalEnum[E enum](v *E, typ string, text []byte) error {
	if len(text) == 0 {
		*v = 0
		return nil
	}
	for n := 1; n <= 255; n++ {
		s := E(n).String()
		if unnamed(s, typ) {
			break
		}
		if s == string(text) {
			*v = E(n)
			return nil
		}
	}
	return &field.Error{Prefix: "argo", Field: typ, Value: strconv.Quote(string(text)), Detail: "unknown name", Err: field.ErrUnsupported}
}

// MarshalText returns the kind's name (String), "" for the zero value;
// a value without a name is an error.
func (k ActionKind) MarshalText() ([]byte, error) { return marshalEnum(k, "ActionKind") }

// UnmarshalText sets k to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (k *ActionKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "ActionKind", text) }

// MarshalText returns the kind's name (String), "" for the zero value;
// a value without a name is an error.
func (k EventKind) MarshalText() ([]byte, error) { return marshalEnum(k, "EventKind") }

// UnmarshalText sets k to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (k *EventKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "EventKind", text) }

// MarshalText returns the outcome's name (String), "" for the zero
// value; a value without a name is an error.
func (o Outcome) MarshalText() ([]byte, error) { return marshalEnum(o, "Outcome") }

// UnmarshalText sets o to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (o *Outcome) UnmarshalText(text []byte) error { return unmarshalEnum(o, "Outcome", text) }
