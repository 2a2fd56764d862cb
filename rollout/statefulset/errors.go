package statefulset

import (
	"fmt"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// Every error of this package that reports bad input is a *field.Error
// (or, from Validate, a field.ErrorList of them) wrapping
// field.ErrInvalid and a sentinel for the kind. Outside Validate, whose
// words are the API server's, the text names the package and the field:
//
//	statefulset: pods[3].name: duplicate name "web-0"
//
// An error in the StatefulSet given to Plan names the set first:
//
//	statefulset: invalid StatefulSet "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0

// inputError returns a *field.Error for the input at path with a
// formatted detail.
func inputError(path, format string, args ...any) error {
	return &field.Error{Prefix: "statefulset", Field: path, Detail: fmt.Sprintf(format, args...)}
}

// requiredError reports an empty field that must be set.
func requiredError(path string) error {
	return &field.Error{Prefix: "statefulset", Field: path, Detail: "must not be empty", Err: field.ErrRequired}
}

// duplicateError reports a name or ordinal used twice.
func duplicateError(path, name string) error {
	return &field.Error{Prefix: "statefulset", Field: path, Detail: "duplicate name " + strconv.Quote(name), Err: field.ErrDuplicate}
}
