package daemonset

import (
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// The package's enums read and write their names (String's text) in JSON
// and flags. An enum whose constants start at 1 writes its zero value as
// "" and reads "" back as zero. A value without a name is an error when
// written; an unknown name is an error when read (a *field.Error wrapping
// field.ErrUnsupported).

type enum interface {
	~uint8
	String() string
}

func unnamed(s, typ string) bool {
	return strings.HasPrefix(s, typ+"(") && strings.HasSuffix(s, ")")
}

func marshalEnum[E enum](v E, typ string) ([]byte, error) {
	s := v.String()
	if !unnamed(s, typ) {
		return []byte(s), nil
	}
	if v == 0 {
		return []byte{}, nil
	}
	return nil, &field.Error{Prefix: prefix, Field: typ, Value: strconv.Itoa(int(v)), Detail: "has no name", Err: field.ErrUnsupported}
}

func unmarshalEnum[E enum](v *E, typ string, text []byte) error {
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
	return &field.Error{Prefix: prefix, Field: typ, Value: strconv.Quote(string(text)), Detail: "unknown name", Err: field.ErrUnsupported}
}

// MarshalText returns the kind's name (String); "" for the zero value.
func (k ActionKind) MarshalText() ([]byte, error) { return marshalEnum(k, "ActionKind") }

// UnmarshalText sets k to the kind named text; an unknown name is an error.
func (k *ActionKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "ActionKind", text) }

// MarshalText returns the kind's name (String); "" for the zero value.
func (k EventKind) MarshalText() ([]byte, error) { return marshalEnum(k, "EventKind") }

// UnmarshalText sets k to the kind named text; an unknown name is an error.
func (k *EventKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "EventKind", text) }

// MarshalText returns the outcome's name (String); "" for the zero value.
func (o Outcome) MarshalText() ([]byte, error) { return marshalEnum(o, "Outcome") }

// UnmarshalText sets o to the outcome named text; an unknown name is an error.
func (o *Outcome) UnmarshalText(text []byte) error { return unmarshalEnum(o, "Outcome", text) }

// MarshalText returns the step's name (String); "" for the zero value.
func (s HistoryStep) MarshalText() ([]byte, error) { return marshalEnum(s, "HistoryStep") }

// UnmarshalText sets s to the step named text; an unknown name is an error.
func (s *HistoryStep) UnmarshalText(text []byte) error { return unmarshalEnum(s, "HistoryStep", text) }

// MarshalText returns the policy's name (String).
func (p UnavailableOldPolicy) MarshalText() ([]byte, error) {
	return marshalEnum(p, "UnavailableOldPolicy")
}

// UnmarshalText sets p to the policy named text; an unknown name is an error.
func (p *UnavailableOldPolicy) UnmarshalText(text []byte) error {
	return unmarshalEnum(p, "UnavailableOldPolicy", text)
}
