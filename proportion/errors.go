package proportion

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// parseError returns the error for an annotation value the strict reader
// rejects: a *field.Error that names the package, quotes the input and
// gives the reason, wrapping kind (field.ErrSyntax or field.ErrRange):
//
//	proportion: parsing "-1": invalid syntax
//	proportion: parsing "2147483648": value out of range (higher than 2147483647)
func parseError(input, reason string, kind error) error {
	return &field.Error{Prefix: "proportion", Value: strconv.Quote(input), Detail: reason, Err: kind}
}

// inputError returns the error for an argument [Scale] or
// [ActiveOrLatest] cannot work with: a *field.Error that names the
// package, the argument or field (path) and the problem (detail), wrapping
// kind (field.ErrNegative, field.ErrIndex, field.ErrDuplicate or
// field.ErrUnsupported):
//
//	proportion: rss[2].Replicas: -1 must not be negative
//	proportion: newRS: 3 is out of range [-1, 3)
//	proportion: rss[4].Name: "web-1" duplicates rss[1].Name
func inputError(path, detail string, kind error) error {
	return &field.Error{Prefix: "proportion", Field: path, Detail: detail, Err: kind}
}
