package statefulset

import "github.com/rolloutmath/rolloutmath/internal/enumtext"

// The package's enums read and write their names (String's text), so
// that they read well in JSON and in flags. An enum whose zero value has
// no name (ActionKind, Stage, ...: their constants start at 1)
// writes it as "" and reads "" back as zero, so that a zero field (the
// StoppedAt of a sync that never stopped, say) still encodes. A value
// without a name is an error when written; an unknown name is an error
// when read, naming the type and the text (a *field.Error wrapping
// field.ErrUnsupported).

// marshalEnum is MarshalText for an enum named typ (package enumtext).
func marshalEnum[E enumtext.Enum](v E, typ string) ([]byte, error) {
	return enumtext.Marshal(v, "statefulset", typ)
}

// unmarshalEnum is UnmarshalText for an enum named typ (package enumtext).
func unmarshalEnum[E enumtext.Enum](v *E, typ string, text []byte) error {
	return enumtext.Unmarshal(v, "statefulset", typ, text)
}

// MarshalText returns the kind's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (k ActionKind) MarshalText() ([]byte, error) { return marshalEnum(k, "ActionKind") }

// UnmarshalText sets k to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (k *ActionKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "ActionKind", text) }

// MarshalText returns the stage's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (s Stage) MarshalText() ([]byte, error) { return marshalEnum(s, "Stage") }

// UnmarshalText sets s to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (s *Stage) UnmarshalText(text []byte) error { return unmarshalEnum(s, "Stage", text) }

// MarshalText returns the policy's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (p BudgetPolicy) MarshalText() ([]byte, error) { return marshalEnum(p, "BudgetPolicy") }

// UnmarshalText sets p to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (p *BudgetPolicy) UnmarshalText(text []byte) error {
	return unmarshalEnum(p, "BudgetPolicy", text)
}

// MarshalText returns the policy's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (p CurrentReplicasPolicy) MarshalText() ([]byte, error) {
	return marshalEnum(p, "CurrentReplicasPolicy")
}

// UnmarshalText sets p to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (p *CurrentReplicasPolicy) UnmarshalText(text []byte) error {
	return unmarshalEnum(p, "CurrentReplicasPolicy", text)
}

// MarshalText returns the policy's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (p ZeroReplicasPolicy) MarshalText() ([]byte, error) {
	return marshalEnum(p, "ZeroReplicasPolicy")
}

// UnmarshalText sets p to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (p *ZeroReplicasPolicy) UnmarshalText(text []byte) error {
	return unmarshalEnum(p, "ZeroReplicasPolicy", text)
}

// MarshalText returns the kind's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (k EventKind) MarshalText() ([]byte, error) { return marshalEnum(k, "EventKind") }

// UnmarshalText sets k to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (k *EventKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "EventKind", text) }

// MarshalText returns the outcome's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (o Outcome) MarshalText() ([]byte, error) { return marshalEnum(o, "Outcome") }

// UnmarshalText sets o to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (o *Outcome) UnmarshalText(text []byte) error { return unmarshalEnum(o, "Outcome", text) }

// MarshalText returns the blocker's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (b Blocker) MarshalText() ([]byte, error) { return marshalEnum(b, "Blocker") }

// UnmarshalText sets b to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (b *Blocker) UnmarshalText(text []byte) error { return unmarshalEnum(b, "Blocker", text) }

// MarshalText returns the choice's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (c RevisionChoice) MarshalText() ([]byte, error) { return marshalEnum(c, "RevisionChoice") }

// UnmarshalText sets c to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (c *RevisionChoice) UnmarshalText(text []byte) error {
	return unmarshalEnum(c, "RevisionChoice", text)
}
