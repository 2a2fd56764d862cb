package daemonset

import "github.com/rolloutmath/rolloutmath/internal/enumtext"

// The package's enums read and write their names (String's text) in JSON
// and flags. An enum whose constants start at 1 writes its zero value as
// "" and reads "" back as zero. A value without a name is an error when
// written; an unknown name is an error when read (a *field.Error wrapping
// field.ErrUnsupported).

// marshalEnum is MarshalText for an enum named typ (package enumtext).
func marshalEnum[E enumtext.Enum](v E, typ string) ([]byte, error) {
	return enumtext.Marshal(v, prefix, typ)
}

// unmarshalEnum is UnmarshalText for an enum named typ (package enumtext).
func unmarshalEnum[E enumtext.Enum](v *E, typ string, text []byte) error {
	return enumtext.Unmarshal(v, prefix, typ, text)
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
