package proportion

import (
	"errors"
	"strconv"
)

// ErrSyntax is wrapped by a [ParseError] for annotation text that is not
// a plain unsigned decimal number.
var ErrSyntax = errors.New("invalid syntax")

// ErrRange is wrapped by a [ParseError] for a number above
// math.MaxInt32.
var ErrRange = errors.New("value out of range")

// ParseError reports an annotation value that the strict reader rejects.
// Its message names the package, quotes the input and gives the reason:
//
//	proportion: parsing "-1": invalid syntax
//	proportion: parsing "2147483648": value out of range (higher than 2147483647)
//
// Err is [ErrSyntax] or [ErrRange], so callers can use errors.Is.
type ParseError struct {
	Input  string // the annotation value as given
	Reason string // why it was rejected, in words
	Err    error  // ErrSyntax or ErrRange
}

// Error returns `proportion: parsing "<input>": <reason>`.
func (e *ParseError) Error() string {
	return "proportion: parsing " + strconv.Quote(e.Input) + ": " + e.Reason
}

// Unwrap returns Err.
func (e *ParseError) Unwrap() error { return e.Err }

// Sentinels wrapped by an [InputError], one for each kind of bad input.
var (
	// ErrNegative: a count that must be >= 0 is negative.
	ErrNegative = errors.New("negative count")
	// ErrIndex: the new-ReplicaSet index is neither -1 nor an index of
	// the slice.
	ErrIndex = errors.New("index out of range")
	// ErrDuplicate: two ReplicaSets share a name.
	ErrDuplicate = errors.New("duplicate name")
	// ErrMode: the Mode is neither Upstream nor Conserving.
	ErrMode = errors.New("unknown mode")
)

// InputError reports an argument [Scale] or [ActiveOrLatest] cannot work
// with. Its message names the package, the field and the problem:
//
//	proportion: rss[2].Replicas: -1 must not be negative
//	proportion: newRS: 3 is out of range [-1, 3)
//	proportion: rss[4].Name: "web-1" duplicates rss[1].Name
//
// Err is one of [ErrNegative], [ErrIndex], [ErrDuplicate], [ErrMode].
type InputError struct {
	Field  string // the argument or field, e.g. "rss[2].Replicas", "d.MaxSurge", "newRS"
	Detail string // what is wrong with it
	Err    error  // the sentinel for the kind of problem
}

// Error returns "proportion: <field>: <detail>".
func (e *InputError) Error() string {
	return "proportion: " + e.Field + ": " + e.Detail
}

// Unwrap returns Err.
func (e *InputError) Unwrap() error { return e.Err }
