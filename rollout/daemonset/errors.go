package daemonset

import (
	"fmt"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// Every error of this package that reports bad input is a *field.Error
// (or, from Validate, a field.ErrorList of them) wrapping
// field.ErrInvalid: a nil DaemonSet, duplicate or empty names, a node that
// should run the pod but not keep it, an unknown pod phase. Outside
// Validate, whose words are the API server's, the text names the package
// and the field:
//
//	daemonset: pods[3].name: duplicate name "agent-x"
//	daemonset: invalid DaemonSet "agent": spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero

const prefix = "daemonset"

// inputError returns a *field.Error for the input at path.
func inputError(path string, kind error, format string, args ...any) error {
	return &field.Error{Prefix: prefix, Field: path, Detail: fmt.Sprintf(format, args...), Err: kind}
}

func indexed(list string, i int, f string) string {
	return list + "[" + strconv.Itoa(i) + "]." + f
}

// nilError reports a nil DaemonSet.
func nilError() error {
	return &field.Error{Prefix: prefix, Type: field.TypeRequired, Field: "daemonset", Err: field.ErrRequired}
}
