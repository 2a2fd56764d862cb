package intorpercent

import (
	"strconv"
	"strings"
)

// ErrorType names the kind of a [FieldError], in the API server's words.
type ErrorType string

// The error types the API server reports, as it spells them.
const (
	Invalid      ErrorType = "Invalid value"
	Required     ErrorType = "Required value"
	NotSupported ErrorType = "Unsupported value"
	Forbidden    ErrorType = "Forbidden"
)

// FieldError reports one field that breaks a validation rule, worded as
// the API server words it:
//
//	spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%
//
// Upstream: k8s.io/apimachinery/pkg/util/validation/field.Error.
type FieldError struct {
	Type   ErrorType
	Field  string // the field path, e.g. "spec.replicas"
	Value  string // the offending value as rendered in the message: "\"120%\"", "-1"; "" for none
	Detail string // the rule broken
}

// Error returns "<field>: <type>: <value>: <detail>", leaving out the
// value when there is none (Required, Forbidden) and the detail when it
// is empty.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.Field)
	b.WriteString(": ")
	b.WriteString(string(e.Type))
	if e.Value != "" && (e.Type == Invalid || e.Type == NotSupported) {
		b.WriteString(": ")
		b.WriteString(e.Value)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// ErrorList is every validation error found, in the order the API server
// checks. Use [ErrorList.ToError] to return it as an error.
type ErrorList []*FieldError

// Error returns the single error's text, or several texts as
// "[a, b]", as the API server's aggregate error does.
func (l ErrorList) Error() string {
	if len(l) == 1 {
		return l[0].Error()
	}
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Unwrap returns the errors, so errors.As finds a *FieldError in the list.
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

// render returns v as a FieldError renders an int-or-percent value: a
// percentage quoted ("25%" in quotes), a count bare (3).
func render(v Value) string {
	if v.percent {
		return strconv.Quote(v.String())
	}
	return v.String()
}

// percentRule is the API server's message for a percentage that does not
// match its pattern (here: a negative one); the double space is theirs.
const percentRule = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

// ValidateNonNegative returns nil when v is a non-negative count or
// percentage, and otherwise an Invalid [FieldError] for field: a negative
// count "must be greater than or equal to 0"; a negative percentage fails
// the API server's percent pattern, and the message says so.
// Upstream: ValidatePositiveIntOrPercent.
func ValidateNonNegative(v Value, field string) *FieldError {
	if v.num >= 0 {
		return nil
	}
	detail := "must be greater than or equal to 0"
	if v.percent {
		detail = percentRule
	}
	return &FieldError{Type: Invalid, Field: field, Value: render(v), Detail: detail}
}

// ValidateNotMoreThan100Percent returns an Invalid [FieldError] for field
// when v is a percentage above 100, and nil otherwise (counts are not
// limited here). Upstream: IsNotMoreThan100Percent.
func ValidateNotMoreThan100Percent(v Value, field string) *FieldError {
	if !v.percent || v.num <= 100 {
		return nil
	}
	return &FieldError{Type: Invalid, Field: field, Value: render(v), Detail: "must not be greater than 100%"}
}

// ValidateRollingUpdate applies the API server's rules for a rolling
// update's maxUnavailable and maxSurge, with field the path of the
// rollingUpdate object (normally "spec.strategy.rollingUpdate"). It
// checks, in the API server's order:
//
//  1. maxUnavailable, then maxSurge, is not negative;
//  2. maxUnavailable and maxSurge are not both zero (0, "0%" and a
//     negative percentage all count as zero, as upstream reads them):
//     reported on maxUnavailable as "may not be 0 when `maxSurge` is 0";
//  3. a percentage maxUnavailable is at most 100%.
//
// maxSurge has no upper bound, and a count maxUnavailable is not capped
// (the rollout math clamps it to the replica count). The result is empty
// when both values are valid. Upstream: ValidateRollingUpdateDeployment.
func ValidateRollingUpdate(maxUnavailable, maxSurge Value, field string) ErrorList {
	var errs ErrorList
	unavailField := field + ".maxUnavailable"
	if e := ValidateNonNegative(maxUnavailable, unavailField); e != nil {
		errs = append(errs, e)
	}
	if e := ValidateNonNegative(maxSurge, field+".maxSurge"); e != nil {
		errs = append(errs, e)
	}
	if validationNumber(maxUnavailable) == 0 && validationNumber(maxSurge) == 0 {
		errs = append(errs, &FieldError{Type: Invalid, Field: unavailField, Value: render(maxUnavailable),
			Detail: "may not be 0 when `maxSurge` is 0"})
	}
	if e := ValidateNotMoreThan100Percent(maxUnavailable, unavailField); e != nil {
		errs = append(errs, e)
	}
	return errs
}

// validationNumber is the number the API server compares with zero: a
// percentage that fails its pattern (a negative one) reads as 0.
func validationNumber(v Value) int32 {
	if v.percent && v.num < 0 {
		return 0
	}
	return v.num
}
