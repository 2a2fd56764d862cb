package cloneset

import (
	"errors"
	"strconv"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// ErrInvalid is wrapped by every error that reports an input this
// package cannot compute with (a nil CloneSet, negative counts, pods
// without a name or with the same name). Kruise's API server or webhook
// would have rejected such input, or it cannot come from a cluster.
var ErrInvalid = errors.New("invalid input")

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

func (e *replicasError) Unwrap() []error { return []error{ErrInvalid, ErrNegativeReplicas} }

// InputError reports an input this package cannot compute with. It wraps
// ErrInvalid.
type InputError struct {
	// Field names the input: "cloneset", "pods[3].name".
	Field string
	// Detail says what is wrong: "duplicate name \"web-0\"".
	Detail string
}

// Error returns, for example, `cloneset: pods[3].name: duplicate name "web-0"`.
func (e *InputError) Error() string { return "cloneset: " + e.Field + ": " + e.Detail }

// Unwrap returns ErrInvalid.
func (e *InputError) Unwrap() error { return ErrInvalid }

// checkPods reports the first pod without a name, with a name used
// before, or with a negative restart count. It allocates a set of names
// only when there is more than one pod.
func checkPods(pods []Pod) error {
	var seen map[string]struct{}
	if len(pods) > 1 {
		seen = make(map[string]struct{}, len(pods))
	}
	for i := range pods {
		p := &pods[i]
		field := func() string { return "pods[" + strconv.Itoa(i) + "]" }
		switch {
		case p.Name == "":
			return &InputError{Field: field() + ".name", Detail: "must not be empty"}
		case p.Restarts < 0:
			return &InputError{Field: field() + ".restarts", Detail: strconv.FormatInt(int64(p.Restarts), 10) + ": must not be negative"}
		case p.SidecarRestarts < 0:
			return &InputError{Field: field() + ".sidecarRestarts", Detail: strconv.FormatInt(int64(p.SidecarRestarts), 10) + ": must not be negative"}
		}
		if seen != nil {
			if _, dup := seen[p.Name]; dup {
				return &InputError{Field: field() + ".name", Detail: "duplicate name " + strconv.Quote(p.Name)}
			}
			seen[p.Name] = struct{}{}
		}
	}
	return nil
}

// checkCloneSet reports a nil CloneSet or a negative count in it.
func checkCloneSet[T any](cs *CloneSet[T]) error {
	switch {
	case cs == nil:
		return &InputError{Field: "cloneset", Detail: "must not be nil"}
	case cs.Replicas < 0:
		return &replicasError{cs.Replicas}
	case cs.MinReadySeconds < 0:
		return &InputError{Field: "spec.minReadySeconds", Detail: strconv.FormatInt(int64(cs.MinReadySeconds), 10) + ": must not be negative"}
	}
	return nil
}
