package cloneset

import "github.com/rolloutmath/rolloutmath/internal/enumtext"

// The package's enums read and write their names (String's text), so
// that they read well in JSON and in flags. An enum whose zero value has
// no name (ActionKind, ScaleBranch, ...: their constants start at 1)
// writes it as "" and reads "" back as zero, so that a zero field (the
// scale branch of a CloneSet being deleted, say) still encodes. A value
// without a name is an error when written; an unknown name is an error
// when read, naming the type and the text (a *field.Error wrapping
// field.ErrUnsupported).

// marshalEnum is MarshalText for an enum named typ (package enumtext).
func marshalEnum[E enumtext.Enum](v E, typ string) ([]byte, error) {
	return enumtext.Marshal(v, "cloneset", typ)
}

// unmarshalEnum is UnmarshalText for an enum named typ (package enumtext).
func unmarshalEnum[E enumtext.Enum](v *E, typ string, text []byte) error {
	return enumtext.Unmarshal(v, "cloneset", typ, text)
}

// MarshalText returns the kind's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (k ActionKind) MarshalText() ([]byte, error) { return marshalEnum(k, "ActionKind") }

// UnmarshalText sets k to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (k *ActionKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "ActionKind", text) }

// MarshalText returns the policy's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (p BudgetPolicy) MarshalText() ([]byte, error) { return marshalEnum(p, "BudgetPolicy") }

// UnmarshalText sets p to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (p *BudgetPolicy) UnmarshalText(text []byte) error {
	return unmarshalEnum(p, "BudgetPolicy", text)
}

// MarshalText returns the caller's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (f DiffsFor) MarshalText() ([]byte, error) { return marshalEnum(f, "DiffsFor") }

// UnmarshalText sets f to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (f *DiffsFor) UnmarshalText(text []byte) error { return unmarshalEnum(f, "DiffsFor", text) }

// MarshalText returns the kind's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (k EventKind) MarshalText() ([]byte, error) { return marshalEnum(k, "EventKind") }

// UnmarshalText sets k to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (k *EventKind) UnmarshalText(text []byte) error { return unmarshalEnum(k, "EventKind", text) }

// MarshalText returns the order's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (o NoKeyOrder) MarshalText() ([]byte, error) { return marshalEnum(o, "NoKeyOrder") }

// UnmarshalText sets o to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (o *NoKeyOrder) UnmarshalText(text []byte) error { return unmarshalEnum(o, "NoKeyOrder", text) }

// MarshalText returns the outcome's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (o Outcome) MarshalText() ([]byte, error) { return marshalEnum(o, "Outcome") }

// UnmarshalText sets o to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (o *Outcome) UnmarshalText(text []byte) error { return unmarshalEnum(o, "Outcome", text) }

// MarshalText returns the class's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (c PodClass) MarshalText() ([]byte, error) { return marshalEnum(c, "PodClass") }

// UnmarshalText sets c to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (c *PodClass) UnmarshalText(text []byte) error { return unmarshalEnum(c, "PodClass", text) }

// MarshalText returns the policy's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (p ReadyLimitPolicy) MarshalText() ([]byte, error) { return marshalEnum(p, "ReadyLimitPolicy") }

// UnmarshalText sets p to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (p *ReadyLimitPolicy) UnmarshalText(text []byte) error {
	return unmarshalEnum(p, "ReadyLimitPolicy", text)
}

// MarshalText returns the branch's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (b ScaleBranch) MarshalText() ([]byte, error) { return marshalEnum(b, "ScaleBranch") }

// UnmarshalText sets b to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (b *ScaleBranch) UnmarshalText(text []byte) error { return unmarshalEnum(b, "ScaleBranch", text) }

// MarshalText returns the grouping's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (g ScatterGrouping) MarshalText() ([]byte, error) { return marshalEnum(g, "ScatterGrouping") }

// UnmarshalText sets g to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (g *ScatterGrouping) UnmarshalText(text []byte) error {
	return unmarshalEnum(g, "ScatterGrouping", text)
}

// MarshalText returns the branch's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (b UpdateBranch) MarshalText() ([]byte, error) { return marshalEnum(b, "UpdateBranch") }

// UnmarshalText sets b to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (b *UpdateBranch) UnmarshalText(text []byte) error {
	return unmarshalEnum(b, "UpdateBranch", text)
}

// MarshalText returns the action's name (String), "" for an unnamed zero
// value; a value without a name is an error.
func (a UpdateRevisionAction) MarshalText() ([]byte, error) {
	return marshalEnum(a, "UpdateRevisionAction")
}

// UnmarshalText sets a to the value named text (as String writes it);
// an unknown name is an error naming the type and the text.
func (a *UpdateRevisionAction) UnmarshalText(text []byte) error {
	return unmarshalEnum(a, "UpdateRevisionAction", text)
}
