package field

import (
	"errors"
	"strings"
)

// Sentinels. [ErrInvalid] is wrapped by every bad-input error of the
// module; the others name the kind of problem, and an error wraps at most
// one of them.
var (
	// ErrInvalid is wrapped by every *Error: the input is not one the
	// function can compute with (or the API server would have accepted).
	ErrInvalid = errors.New("invalid input")
	// ErrSyntax: a text is not in the expected form.
	ErrSyntax = errors.New("invalid syntax")
	// ErrRange: a number, well formed, is beyond the type that holds it.
	ErrRange = errors.New("value out of range")
	// ErrNegative: a count or duration that must be >= 0 is negative.
	ErrNegative = errors.New("negative count")
	// ErrDuplicate: a name or item occurs twice where it must be unique.
	ErrDuplicate = errors.New("duplicate name")
	// ErrIndex: an index is out of range of its slice, or two slices
	// that must have the same length do not.
	ErrIndex = errors.New("index out of range")
	// ErrRequired: a required value is nil or empty.
	ErrRequired = errors.New("required value")
	// ErrUnsupported: an enumerated value (a mode, a strategy type) is
	// none of those supported.
	ErrUnsupported = errors.New("unsupported value")
)

// ErrorType names the kind of an [Error] whose rule is the API server's,
// spelled as the API server prints it. Upstream:
// k8s.io/apimachinery/pkg/util/validation/field.ErrorType.
type ErrorType string

// The error types the API server reports, as it prints them.
const (
	// TypeInvalid: the value breaks a rule; the value is printed.
	TypeInvalid ErrorType = "Invalid value"
	// TypeRequired: a required value is missing; no value is printed.
	TypeRequired ErrorType = "Required value"
	// TypeNotSupported: the value is none of the supported ones; the
	// value is printed.
	TypeNotSupported ErrorType = "Unsupported value"
	// TypeForbidden: the field may not be set here; no value is printed.
	TypeForbidden ErrorType = "Forbidden"
)

// String returns the type as the API server prints it, "Invalid value".
func (t ErrorType) String() string { return string(t) }

// Error reports one piece of bad input. Its text joins, with ": ", the
// parts that are set:
//
//   - Prefix, the context the message opens with;
//   - when Type is set (the rule is the API server's), the API server's
//     text: Field, Type, Value (for TypeInvalid and TypeNotSupported
//     only) and Detail, as field.Error.Error prints them;
//   - otherwise (the rule is ours) Field, Value and Detail; with no Field
//     but a Value, the error is about a whole text and reads as
//     strconv's do: `parsing "2.5%"`.
//
// So, for example:
//
//	spec.replicas: Invalid value: -1: must be greater than or equal to 0
//	rollout: invalid Deployment "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0
//	cloneset: pods[3].restarts: -2: must not be negative
//	intorpercent: parsing "2.5%": fractional percentages are not allowed
//
// An *Error wraps [ErrInvalid] and Err. Upstream:
// k8s.io/apimachinery/pkg/util/validation/field.Error, plus Prefix and Err.
type Error struct {
	// Prefix is the context the message opens with: the package
	// ("cloneset", "proportion") and, for an error found in an object
	// given to Plan or Simulate, the object (`rollout: invalid Deployment
	// "web"`). It is "" in what Validate returns, whose text is the API
	// server's.
	Prefix string `json:"prefix,omitempty"`
	// Field is the path of the field or the name of the argument:
	// "spec.replicas", "rss[2].Replicas", "newRS". It is "" only for an
	// error about a whole text (a parse error) and for a few upstream
	// messages that name no field.
	Field string `json:"field,omitempty"`
	// Type is the API server's error type when the rule is the API
	// server's (or kruise's webhook's), and "" when the rule is ours.
	Type ErrorType `json:"type,omitempty"`
	// Value is the offending value as rendered in the message: `"120%"`
	// for a string, -1 for a number; "" when not printed.
	Value string `json:"value,omitempty"`
	// Detail is the rule broken, in words.
	Detail string `json:"detail,omitempty"`
	// Err is the kind of problem: one of this package's sentinels, a
	// package's own (such as ownership.ErrInvalidSelector), or an error
	// that wraps one (a reader's error kept in upstream's words); nil
	// when there is no kind beyond ErrInvalid.
	Err error `json:"-"`
}

// Error returns the text described on [Error].
func (e *Error) Error() string {
	var b strings.Builder
	if e.Prefix != "" {
		b.WriteString(e.Prefix)
		b.WriteString(": ")
	}
	e.writeBody(&b)
	return b.String()
}

// writeBody writes e's text without its Prefix.
func (e *Error) writeBody(b *strings.Builder) {
	sep := false
	part := func(s string) {
		if s == "" {
			return
		}
		if sep {
			b.WriteString(": ")
		}
		b.WriteString(s)
		sep = true
	}
	if e.Type != "" {
		part(e.Field)
		part(string(e.Type))
		if e.Type == TypeInvalid || e.Type == TypeNotSupported {
			part(e.Value)
		}
		part(e.Detail)
		return
	}
	switch {
	case e.Field != "":
		part(e.Field)
		part(e.Value)
	case e.Value != "":
		part("parsing " + e.Value)
	}
	part(e.Detail)
}

// Unwrap returns ErrInvalid and, when set, Err, so that errors.Is finds
// both.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInvalid}
	}
	return []error{ErrInvalid, e.Err}
}

// ErrorList is every error a Validate found, in the order it checks.
// Use [ErrorList.ToError] to return it as an error. Upstream:
// k8s.io/apimachinery/pkg/util/validation/field.ErrorList and its
// aggregate.
type ErrorList []*Error

// Error returns the single error's text, or several as "[a, b]", as the
// API server's aggregate error does. When every error has the same
// non-empty Prefix, it is printed once, before the list:
// `rollout: invalid Deployment "web": [a, b]`.
func (l ErrorList) Error() string {
	if len(l) == 0 {
		return ""
	}
	prefix := l[0].Prefix
	for _, e := range l[1:] {
		if e.Prefix != prefix {
			prefix = ""
			break
		}
	}
	var b strings.Builder
	if prefix != "" {
		b.WriteString(prefix)
		b.WriteString(": ")
	}
	if len(l) > 1 {
		b.WriteByte('[')
	}
	for i, e := range l {
		if i > 0 {
			b.WriteString(", ")
		}
		if prefix != "" {
			e.writeBody(&b)
		} else {
			b.WriteString(e.Error())
		}
	}
	if len(l) > 1 {
		b.WriteByte(']')
	}
	return b.String()
}

// Unwrap returns the errors, so errors.As finds an *Error in the list and
// errors.Is finds ErrInvalid.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// ToError returns nil for an empty list and the list otherwise, so that
// "return list.ToError()" never yields a non-nil error holding no errors.
func (l ErrorList) ToError() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// WithPrefix returns a copy of l whose errors have Prefix prefix, for a
// caller that reports the errors a Validate found in one object: the
// list then prints the prefix once. l and its errors are not modified.
func (l ErrorList) WithPrefix(prefix string) ErrorList {
	out := make(ErrorList, len(l))
	for i, e := range l {
		c := *e
		c.Prefix = prefix
		out[i] = &c
	}
	return out
}
