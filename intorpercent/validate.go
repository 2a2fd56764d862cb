package intorpercent

import (
	"encoding/json"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// percentRule is the API server's message for a string that does not
// match its percentage pattern (or a negative percentage); the double
// space is theirs.
const percentRule = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

// beyondInt32Rule is our message for a maxSurge percentage whose number
// does not fit in an int32, which the API server accepts.
const beyondInt32Rule = "must not be greater than 2147483647% (rolloutmath keeps percentages in an int32)"

// ValidateNonNegative returns nil when v is a non-negative count or
// percentage, and otherwise an Invalid [*field.Error] at path: a negative
// count "must be greater than or equal to 0"; a negative percentage fails
// the API server's percent pattern, and the message says so.
// Upstream: ValidatePositiveIntOrPercent.
func ValidateNonNegative(v Value, path string) *field.Error {
	r := readValue(v)
	return r.formatError(path, "", false)
}

// ValidateNotMoreThan100Percent returns an Invalid [*field.Error] at path
// when v is a percentage above 100, and nil otherwise (counts are not
// limited here). Upstream: IsNotMoreThan100Percent.
func ValidateNotMoreThan100Percent(v Value, path string) *field.Error {
	r := readValue(v)
	return r.over100Error(path, "")
}

// ValidateRollingUpdate applies the API server's rules for a rolling
// update's maxUnavailable and maxSurge, with path the path of the
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
//
// For values as a manifest holds them, text that is not a valid
// int-or-percent included, see [ValidateRollingUpdateIntOrString]: for
// every Value v it gives the same errors on v's IntOrString form.
func ValidateRollingUpdate(maxUnavailable, maxSurge Value, path string) field.ErrorList {
	return validateRollingUpdate(readValue(maxUnavailable), readValue(maxSurge), path)
}

// ValidateRollingUpdateIntOrString is [ValidateRollingUpdate] for
// maxUnavailable and maxSurge as written in an API object, with the
// apps/v1 defaults ("25%" for a missing value) already applied by the
// caller. It applies the same rules in the same order as the API
// server's ValidateRollingUpdateDeployment, and renders each value as
// written: a string quoted as the API server quotes it ("00%" stays
// "00%"), a count bare (3). In order:
//
//  1. maxUnavailable, then maxSurge: a string must match the pattern
//     [0-9]+% ("a valid percent string must be a numeric string followed
//     by an ending '%' (e.g. '1%',  or '93%', regex used for validation
//     is '[0-9]+%')", the API server's words and double space), and a
//     count must be at least 0 ("must be greater than or equal to 0");
//  2. not both zero, reported on maxUnavailable as "may not be 0 when
//     `maxSurge` is 0", where a string matching the pattern counts as
//     its number and any other string as its strconv.Atoi value, or 0
//     when it has none (so "abc" with a maxSurge of 0 breaks rules 1 and
//     2);
//  3. a maxUnavailable matching the pattern is at most 100%.
//
// One difference from the API server, which accepts it: a maxSurge
// matching the pattern with a number beyond math.MaxInt32 (say
// "30000000000%") cannot be held by a Value, so rule 1 reports it as
// "must not be greater than 2147483647% (rolloutmath keeps percentages
// in an int32)". Such a maxUnavailable breaks rule 3, as upstream.
//
// The result is empty when [IntOrString.Value] accepts both values and
// [ValidateRollingUpdate] accepts the Values it returns. It does not
// allocate then. Upstream: ValidateRollingUpdateDeployment.
func ValidateRollingUpdateIntOrString(maxUnavailable, maxSurge IntOrString, path string) field.ErrorList {
	return validateRollingUpdate(readWritten(maxUnavailable), readWritten(maxSurge), path)
}

// reading is a maxUnavailable or maxSurge as the API server's rules read
// it, from a Value or as written. The rules live once, on readings.
type reading struct {
	str       bool   // a string (a Value's percentage)
	pattern   bool   // a string matching [0-9]+%
	big       bool   // a string matching the pattern, beyond int32
	num       int32  // the count, or the percentage unless big
	zero      bool   // counts as 0 for the both-zero rule
	text      string // the string as written; unset when from a Value
	fromValue bool
}

// readValue reads v: a negative percentage fails the pattern ("-5%") and
// so counts as 0, as upstream's strconv.Atoi("-5%") gives 0.
func readValue(v Value) reading {
	return reading{
		str:       v.percent,
		pattern:   v.percent && v.num >= 0,
		num:       v.num,
		zero:      v.num == 0 || (v.percent && v.num < 0),
		fromValue: true,
	}
}

// readWritten reads s as upstream's getIntOrPercentValue does.
func readWritten(s IntOrString) reading {
	if !s.IsString {
		return reading{num: s.Int, zero: s.Int == 0}
	}
	r := reading{str: true, text: s.Str}
	r.num, r.pattern, r.big = percentPattern(s.Str)
	if r.pattern {
		r.zero = !r.big && r.num == 0
	} else {
		// A syntax error gives 0, a range error a nonzero bound.
		n, _ := strconv.Atoi(s.Str)
		r.zero = n == 0
	}
	return r
}

// render returns r as the API server renders an int-or-percent in an
// error: a count bare (3), a string as JSON ("25%" in quotes).
func (r *reading) render() string {
	switch {
	case !r.str:
		return strconv.FormatInt(int64(r.num), 10)
	case r.fromValue:
		return strconv.Quote(Percent(r.num).String())
	}
	b, err := json.Marshal(r.text)
	if err != nil { // unreachable: every string marshals
		return strconv.Quote(r.text)
	}
	return string(b)
}

// formatError applies rule 1 (upstream's ValidatePositiveIntOrPercent),
// and for a maxSurge (surge) our rule for a percentage beyond int32, to
// the field path path.child (path when child is "").
func (r *reading) formatError(path, child string, surge bool) *field.Error {
	var detail string
	var kind error
	switch {
	case !r.str && r.num < 0:
		detail, kind = "must be greater than or equal to 0", field.ErrNegative
	case r.str && !r.pattern:
		detail, kind = percentRule, field.ErrSyntax
	case r.big && surge:
		detail, kind = beyondInt32Rule, field.ErrRange
	default:
		return nil
	}
	return r.invalid(path, child, detail, kind)
}

// over100Error applies rule 3 (upstream's IsNotMoreThan100Percent) to
// the field path path.child.
func (r *reading) over100Error(path, child string) *field.Error {
	if !r.pattern || (!r.big && r.num <= 100) {
		return nil
	}
	return r.invalid(path, child, "must not be greater than 100%", nil)
}

// invalid returns an Invalid *field.Error for r at path.child (path when
// child is ""), wrapping kind (nil for none). The path is built here, on the failing path only, so that
// validating valid values does not allocate.
func (r *reading) invalid(path, child, detail string, kind error) *field.Error {
	if child != "" {
		path += "." + child
	}
	return &field.Error{Type: field.TypeInvalid, Field: path, Value: r.render(), Detail: detail, Err: kind}
}

// validateRollingUpdate applies the three rules of ValidateRollingUpdate
// in the API server's order.
func validateRollingUpdate(maxUnavailable, maxSurge reading, path string) field.ErrorList {
	var errs field.ErrorList
	if e := maxUnavailable.formatError(path, "maxUnavailable", false); e != nil {
		errs = append(errs, e)
	}
	if e := maxSurge.formatError(path, "maxSurge", true); e != nil {
		errs = append(errs, e)
	}
	if maxUnavailable.zero && maxSurge.zero {
		errs = append(errs, maxUnavailable.invalid(path, "maxUnavailable", "may not be 0 when `maxSurge` is 0", nil))
	}
	if e := maxUnavailable.over100Error(path, "maxUnavailable"); e != nil {
		errs = append(errs, e)
	}
	return errs
}
