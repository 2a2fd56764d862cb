package daemonset

import (
	"encoding/json"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

const geZero = "must be greater than or equal to 0"

// percentRule is the API server's text for a malformed percent string
// (its double space included).
const percentRule = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

func nonNegative(path string, n int64) *field.Error {
	return &field.Error{Type: field.TypeInvalid, Field: path, Value: strconv.FormatInt(n, 10), Detail: geZero, Err: field.ErrNegative}
}

// Validate checks ds as the API server checks a DaemonSet's spec after
// defaulting, in its order and words, and returns nil or a
// [field.ErrorList]:
//
//	spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero
//
// Rules, in order:
//
//   - the selector, in ValidateLabelSelector's words and order
//     ([ownership.Selector.ValidateFields]: every malformed entry, e.g.
//     "spec.selector.matchExpressions[0].values: Required value: must be
//     specified when `operator` is 'In' or 'NotIn'"), and not empty
//     ("spec.selector: Invalid value: {}: empty selector is invalid for
//     daemonset"); a nil selector is reported as Required;
//   - minReadySeconds >= 0, templateGeneration (when set) >= 0;
//   - the update strategy ([ValidateUpdateStrategy]);
//   - revisionHistoryLimit, when set, >= 0.
//
// Not checked, because this package does not see them: that the selector
// matches the template's labels, the pod template's own rules (restart
// policy Always, no activeDeadlineSeconds), the metadata, and the rules
// of an update (an immutable selector, a template generation that goes
// up with each template change). A nil ds is a Required error.
// Upstream: ValidateDaemonSetSpec, pkg/apis/apps/validation/validation.go.
func Validate[T any](ds *DaemonSet[T]) field.ErrorList {
	if ds == nil {
		return field.ErrorList{{Type: field.TypeRequired, Field: "daemonset", Err: field.ErrRequired}}
	}
	var errs field.ErrorList
	switch sel := ds.Selector; {
	case sel == nil:
		errs = append(errs, &field.Error{Type: field.TypeRequired, Field: "spec.selector", Err: field.ErrRequired})
	default:
		errs = append(errs, sel.ValidateFields("spec.selector")...)
		if sel.Empty() {
			b, _ := json.Marshal(sel)
			errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: "spec.selector", Value: string(b),
				Detail: "empty selector is invalid for daemonset", Err: ownership.ErrInvalidSelector})
		}
	}
	if ds.MinReadySeconds < 0 {
		errs = append(errs, nonNegative("spec.minReadySeconds", int64(ds.MinReadySeconds)))
	}
	if g := ds.TemplateGeneration; g != nil && *g < 0 {
		errs = append(errs, nonNegative("spec.templateGeneration", *g))
	}
	errs = append(errs, ValidateUpdateStrategy(&ds.UpdateStrategy)...)
	if l := ds.RevisionHistoryLimit; l != nil && *l < 0 {
		errs = append(errs, nonNegative("spec.revisionHistoryLimit", int64(*l)))
	}
	return errs
}

// ValidateUpdateStrategy checks spec.updateStrategy as the API server
// does, after defaulting (a "" type is RollingUpdate, a nil rollingUpdate
// and a nil maxUnavailable are their defaults, so the API server's
// "rollingUpdate: Required value" cannot occur): OnDelete is accepted
// whatever rollingUpdate holds; RollingUpdate is checked by
// [ValidateRollingUpdate]; any other type is
//
//	spec.updateStrategy: Unsupported value: {"Type":"Foo","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"
//
// with the strategy written as the API server writes its internal type.
// Upstream: ValidateDaemonSetUpdateStrategy, pkg/apis/apps/validation/validation.go.
func ValidateUpdateStrategy(s *UpdateStrategy) field.ErrorList {
	switch s.Type {
	case OnDelete:
		return nil
	case "", RollingUpdate:
		mu, ms := intorpercent.FromInt(DefaultMaxUnavailable), intorpercent.FromInt(0)
		if ru := s.RollingUpdate; ru != nil {
			if ru.MaxUnavailable != nil {
				mu = *ru.MaxUnavailable
			}
			if ru.MaxSurge != nil {
				ms = *ru.MaxSurge
			}
		}
		return ValidateRollingUpdate(mu, ms)
	}
	ru := "null"
	if r := s.RollingUpdate; r != nil {
		var mu, ms intorpercent.IntOrString
		if r.MaxUnavailable != nil {
			mu = *r.MaxUnavailable
		}
		if r.MaxSurge != nil {
			ms = *r.MaxSurge
		}
		ru = `{"MaxUnavailable":` + jsonValue(mu) + `,"MaxSurge":` + jsonValue(ms) + `}`
	}
	typ, _ := json.Marshal(string(s.Type))
	return field.ErrorList{{Type: field.TypeNotSupported, Field: "spec.updateStrategy",
		Value:  `{"Type":` + string(typ) + `,"RollingUpdate":` + ru + `}`,
		Detail: `supported values: "RollingUpdate", "OnDelete"`, Err: field.ErrUnsupported}}
}

func jsonValue(v intorpercent.IntOrString) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// ValidateRollingUpdate checks maxUnavailable and maxSurge as written
// (defaults applied), in the API server's order and words, under
// spec.updateStrategy.rollingUpdate:
//
//  1. maxUnavailable, then maxSurge: a string must be digits followed by
//     '%' (the API server's percent-format text), a count >= 0;
//  2. maxUnavailable, then maxSurge: a well-formed percentage is at most
//     100% ("must not be greater than 100%");
//  3. exactly one is non-zero: both non-zero is reported on maxSurge
//     ("may not be set when maxUnavailable is non-zero"), both zero on
//     maxUnavailable ("Required value: cannot be 0 when maxSurge is 0").
//     A well-formed percentage counts as its number, any other string as
//     its strconv.Atoi value (0 when it has none: "abc" is zero).
//
// Upstream: ValidateRollingUpdateDaemonSet, pkg/apis/apps/validation/validation.go.
func ValidateRollingUpdate(maxUnavailable, maxSurge intorpercent.IntOrString) field.ErrorList {
	const path = rollingPath
	var errs field.ErrorList
	format := func(v intorpercent.IntOrString, child string) {
		if v.IsString {
			if _, ok := percentValue(v); !ok {
				errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: path + "." + child, Value: strconv.Quote(v.Str), Detail: percentRule, Err: field.ErrSyntax})
			}
			return
		}
		if v.Int < 0 {
			errs = append(errs, nonNegative(path+"."+child, int64(v.Int)))
		}
	}
	over := func(v intorpercent.IntOrString, child string) {
		if n, ok := percentValue(v); ok && n > 100 {
			errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: path + "." + child, Value: strconv.Quote(v.Str), Detail: "must not be greater than 100%", Err: field.ErrRange})
		}
	}
	format(maxUnavailable, "maxUnavailable")
	format(maxSurge, "maxSurge")
	over(maxUnavailable, "maxUnavailable")
	over(maxSurge, "maxSurge")
	hasU, hasS := intOrPercent(maxUnavailable) != 0, intOrPercent(maxSurge) != 0
	switch {
	case hasU && hasS:
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: path + ".maxSurge", Value: written(maxSurge), Detail: "may not be set when maxUnavailable is non-zero"})
	case !hasU && !hasS:
		errs = append(errs, &field.Error{Type: field.TypeRequired, Field: path + ".maxUnavailable", Detail: "cannot be 0 when maxSurge is 0", Err: field.ErrRequired})
	}
	return errs
}

// percentValue is the API server's reading of a well-formed percent
// string: its digits through strconv.Atoi (saturated on overflow).
func percentValue(v intorpercent.IntOrString) (int, bool) {
	s := v.Str
	if !v.IsString || len(s) < 2 || s[len(s)-1] != '%' {
		return 0, false
	}
	for i := 0; i < len(s)-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, _ := strconv.Atoi(s[:len(s)-1])
	return n, true
}

// intOrPercent is the API server's getIntOrPercentValue.
func intOrPercent(v intorpercent.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if !v.IsString {
		return int(v.Int)
	}
	n, _ := strconv.Atoi(v.Str)
	return n
}

// written renders an int-or-percent as the API server prints it.
func written(v intorpercent.IntOrString) string {
	if v.IsString {
		return strconv.Quote(v.Str)
	}
	return strconv.FormatInt(int64(v.Int), 10)
}
