package argo

import "github.com/rolloutmath/rolloutmath/internal/enumtext"

// The package's enums read and write their names (String's text), so
// that they read well in JSON and in flags. An enum whose zero value has
// no name writes it as "" and reads "" back as zero. A value without a
// name is an error when written; an unknown name is an error when read,
// naming the type and the text (a *field.Error wrapping
// field.ErrUnsupported).

// marshalEnum is MarshalText for an enum named typ (package enumtext).
func marshalEnum[E enumtext.Enum](v E, typ string) ([]byte, error) {
	return enumtext.Marshal(v, "argo", typ)
}

// unmarshalEnum is UnmarshalText for an enum named typ (package enumtext).
func unmarshalEnum[E enumtext.Enum](v *E, typ string, text []byte) error {
	return enumtext.Unmarshal(v, "argo", typ, text)
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
