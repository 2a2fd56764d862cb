package cloneset

import (
	"errors"
	"strconv"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// ErrNegativeReplicas is wrapped by the error a function returns when it
// is given a negative replica count. Kruise's webhook rejects negative
// replicas, so kruise's helpers never see one; we report it rather than
// compute with it.
var ErrNegativeReplicas = errors.New("replicas must not be negative")

// ValueError reports an int-or-percent field that kruise cannot read.
// Err is the parser's complaint in kruise's words, for example
// "invalid type: string is not a percentage" or the *strconv.NumError
// from reading the number.
type ValueError struct {
	// Field is the field's path, "spec.updateStrategy.partition".
	Field string
	// Value is the field as written.
	Value intorpercent.IntOrString
	Err   error
}

// Error returns, for example,
// `cloneset: spec.updateStrategy.partition: "99": invalid type: string is not a percentage`.
func (e *ValueError) Error() string {
	return "cloneset: " + e.Field + ": " + written(e.Value) + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *ValueError) Unwrap() error { return e.Err }

// written renders an int-or-percent as a user wrote it: a count bare, a
// string quoted.
func written(v intorpercent.IntOrString) string {
	if v.IsString {
		return strconv.Quote(v.Str)
	}
	return strconv.FormatInt(int64(v.Int), 10)
}

// replicasError reports a negative replica count.
type replicasError struct{ n int32 }

func (e *replicasError) Error() string {
	return "cloneset: replicas " + strconv.FormatInt(int64(e.n), 10) + ": " + ErrNegativeReplicas.Error()
}

func (e *replicasError) Unwrap() error { return ErrNegativeReplicas }
