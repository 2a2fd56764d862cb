package cloneset

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// Every error of this package that reports bad input is a *field.Error
// (or, from Validate, a field.ErrorList of them) wrapping
// field.ErrInvalid: a nil CloneSet, negative counts, pods without a name
// or with the same name, a field kruise cannot read. Kruise's API server
// or webhook would have rejected such input, or it cannot come from a
// cluster. Outside Validate, whose words are the webhook's, the text
// names the package and the field; Plan, PlanWith, Planner.Plan and
// Simulate's check of its input name the CloneSet too when the field is
// one of its own (metadata, spec, status), as every engine's Plan does:
//
//	cloneset: pods[3].name: duplicate name "web-0"
//	cloneset: invalid CloneSet "web": spec.updateStrategy.partition: "99": invalid type: string is not a percentage

// inputError returns a *field.Error for the input at path with a
// formatted detail.
func inputError(path, format string, args ...any) error {
	return &field.Error{Prefix: "cloneset", Field: path, Detail: fmt.Sprintf(format, args...)}
}

// valueError reports an int-or-percent field at path that kruise cannot
// read, with the value as written and the reader's complaint err in
// kruise's words as the detail; it wraps err and field.ErrRange when err
// is a range error, field.ErrSyntax otherwise:
//
//	cloneset: spec.updateStrategy.partition: "99": invalid type: string is not a percentage
func valueError(path string, v intorpercent.IntOrString, err error) error {
	kind := field.ErrSyntax
	if errors.Is(err, strconv.ErrRange) {
		kind = field.ErrRange
	}
	return &field.Error{Prefix: "cloneset", Field: path, Value: written(v), Detail: err.Error(), Err: errors.Join(kind, err)}
}

// written renders an int-or-percent as a user wrote it: a count bare, a
// string quoted.
func written(v intorpercent.IntOrString) string {
	if v.IsString {
		return strconv.Quote(v.Str)
	}
	return strconv.FormatInt(int64(v.Int), 10)
}

// negativeError reports a count at path that must not be negative:
// "cloneset: spec.replicas: -1: must not be negative". Kruise's webhook
// rejects negative counts, so kruise's helpers never see one; we report
// it rather than compute with it.
func negativeError(path string, n int32) error {
	return &field.Error{Prefix: "cloneset", Field: path, Value: strconv.FormatInt(int64(n), 10),
		Detail: "must not be negative", Err: field.ErrNegative}
}

// checkPods reports the first pod without a name, with a name used
// before, or with a negative restart count. It allocates an index of the
// names only when there is more than one pod.
func checkPods(pods []Pod) error {
	var seen *nameIndex
	if len(pods) > 1 {
		seen = new(nameIndex)
	}
	return indexPods(pods, seen)
}

// indexPods is checkPods filling seen, when not nil, with every pod's
// index by name; seen is reset to pods.
func indexPods(pods []Pod, seen *nameIndex) error {
	if seen != nil {
		seen.reset(pods)
	}
	for i := range pods {
		p := &pods[i]
		path := func() string { return "pods[" + strconv.Itoa(i) + "]" }
		switch {
		case p.Name == "":
			return &field.Error{Prefix: "cloneset", Field: path() + ".name", Detail: "must not be empty", Err: field.ErrRequired}
		case p.Restarts < 0:
			return negativeError(path()+".restarts", p.Restarts)
		case p.SidecarRestarts < 0:
			return negativeError(path()+".sidecarRestarts", p.SidecarRestarts)
		}
		if seen != nil {
			if _, dup := seen.add(i); dup {
				return &field.Error{Prefix: "cloneset", Field: path() + ".name", Detail: "duplicate name " + strconv.Quote(p.Name), Err: field.ErrDuplicate}
			}
		}
	}
	return nil
}

// ofCloneSet names cs in err when err is about one of its fields
// (metadata, spec or status), as every engine's errors about the object
// given do: "cloneset: invalid CloneSet "web": spec.replicas: -1: must
// not be negative". Other errors (nil, a CloneSet without a name, the
// pods' or the revisions' fields) are returned as they are.
func ofCloneSet[T any](cs *CloneSet[T], err error) error {
	fe, ok := err.(*field.Error)
	if !ok || cs == nil || cs.Name == "" || fe.Prefix != "cloneset" ||
		!(strings.HasPrefix(fe.Field, "spec.") || strings.HasPrefix(fe.Field, "status.") || strings.HasPrefix(fe.Field, "metadata.")) {
		return err
	}
	c := *fe
	c.Prefix = "cloneset: invalid CloneSet " + strconv.Quote(cs.Name)
	return &c
}

// checkCloneSet reports a nil CloneSet or a negative count in it.
func checkCloneSet[T any](cs *CloneSet[T]) error {
	switch {
	case cs == nil:
		return &field.Error{Type: field.TypeRequired, Field: "cloneset", Err: field.ErrRequired}
	case cs.Replicas < 0:
		return negativeError("spec.replicas", cs.Replicas)
	case cs.MinReadySeconds < 0:
		return negativeError("spec.minReadySeconds", cs.MinReadySeconds)
	}
	return nil
}
