package intorpercent

import (
	"errors"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// cpuRule is our message for a kruise percentage whose scaled value Go
// converts to an int in a CPU-dependent way (NaN, ±Inf, beyond int64).
const cpuRule = "must scale to a finite number within int64 (rolloutmath rejects it: kruise's result for it depends on the CPU)"

// errCPU marks a webhook reading whose int value kruise leaves to the CPU.
var errCPU = errors.New(cpuRule)

// webhookScaled reads s as kruise's webhook does, ScaledFractional
// rounded Up against replicas (which may be negative: the webhook checks
// the strategy whatever the replicas), and returns the int64 kruise
// computes on every 64-bit platform. err is kruise's own error (the
// webhook then uses 0), or errCPU where kruise's int conversion is
// implementation-defined.
func webhookScaled(s *IntOrString, replicas int32) (int64, error) {
	if s == nil {
		return 0, nilUpstream()
	}
	if !s.IsString {
		return int64(s.Int), nil
	}
	v, err := fractionalPercent(s.Str)
	if err != nil {
		return 0, err
	}
	// NaN fails both comparisons; 2^63 is exact in float64.
	if x := roundFloat(v, replicas, Up); x >= -(1<<63) && x < 1<<63 {
		return int64(x), nil
	}
	return 0, errCPU
}

// quoted renders s as kruise's webhook renders s.String() in an error:
// the count's digits or the string, in Go quotes; "<nil>" for nil.
func quoted(s *IntOrString) string {
	if s == nil {
		return `"<nil>"`
	}
	return strconv.Quote(s.text())
}

// goSyntax renders s as the webhook's field.Error prints a
// *intstr.IntOrString (apimachinery v0.32): nil as "null", otherwise the
// struct in Go syntax, since only its pointer has a String method.
func goSyntax(s *IntOrString) string {
	if s == nil {
		return `"null"`
	}
	typ := "0"
	if s.IsString {
		typ = "1"
	}
	return "intstr.IntOrString{Type:" + typ + ", IntVal:" + strconv.FormatInt(int64(s.Int), 10) +
		", StrVal:" + strconv.Quote(s.Str) + "}"
}

// readError is the webhook's error for a value it could not read, on
// path.name.
func readError(path, name string, s *IntOrString, err error) *field.Error {
	detail, kind := cpuRule, field.ErrRange
	if err != errCPU {
		detail, kind = "failed GetScaledValueFromIntOrPercent for "+name+": "+err.Error(), err
	}
	return &field.Error{Type: field.TypeInvalid, Field: path + "." + name, Value: quoted(s), Detail: detail, Err: kind}
}

// ValidateKruisePartition applies kruise's CloneSet webhook rules for
// spec.updateStrategy.partition against replicas, with path the path of
// the update strategy (normally "spec.updateStrategy"); the errors name
// path.partition. In the webhook's order:
//
//  1. the partition must read with [ScaledFractional] (rounded Up):
//     otherwise "failed GetScaledValueFromIntOrPercent for partition: "
//     and the reader's error, the value quoted as written, a count too;
//  2. the scaled partition must be at least 0: otherwise "must be
//     greater than or equal to 0", the scaled number bare.
//
// For example:
//
//	spec.updateStrategy.partition: Invalid value: "abc": failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage
//	spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0
//
// A partition above replicas or above 100% is valid, as in kruise.
// Negative replicas are used as given, as the webhook does; it reports
// them separately. Kruise's defaulting sets a missing partition to the
// count 0 before this check runs, so a caller validating a manifest
// applies that default first; a nil partition is reported as kruise's
// check would report it:
//
//	spec.updateStrategy.partition: Invalid value: "<nil>": failed GetScaledValueFromIntOrPercent for partition: nil value for IntOrString
//
// One difference from kruise: a percentage that kruise converts to an
// int in a CPU-dependent way (NaN or infinite, or scaling beyond int64)
// is reported on rule 1 as "must scale to a finite number within int64
// (rolloutmath rejects it: kruise's result for it depends on the CPU)".
// Kruise on amd64 turns every such value into math.MinInt64 and so
// reports rule 2 with -9223372036854775808; on arm64 it accepts NaN (0)
// and +Inf.
//
// Validating a valid partition does not allocate.
// Upstream: validateUpdateStrategy in kruise's
// pkg/webhook/cloneset/validating.
func ValidateKruisePartition(partition *IntOrString, replicas int32, path string) field.ErrorList {
	p, err := webhookScaled(partition, replicas)
	if err != nil {
		return field.ErrorList{readError(path, "partition", partition, err)}
	}
	if p < 0 {
		return field.ErrorList{{Type: field.TypeInvalid, Field: path + ".partition", Value: strconv.FormatInt(p, 10),
			Detail: "must be greater than or equal to 0", Err: field.ErrNegative}}
	}
	return nil
}

// ValidateKruiseRollingUpdate applies kruise's CloneSet webhook rules for
// spec.updateStrategy.maxUnavailable and maxSurge against replicas, for
// the update strategy type updateType ("ReCreate", "InPlaceIfPossible",
// "InPlaceOnly"; only "InPlaceOnly" changes the rules), with path the
// path of the update strategy (normally "spec.updateStrategy"). Both
// values are read with [ScaledFractional] rounded Up, although kruise's
// controller later reads them with [ScaledLegacy]. In the webhook's
// order:
//
//  1. maxUnavailable, if not nil, must read: otherwise "failed
//     GetScaledValueFromIntOrPercent for maxUnavailable: " and the
//     reader's error, the value quoted as written;
//  2. maxSurge likewise, "... for maxSurge: ...";
//  3. with updateType "InPlaceOnly", a maxSurge that scales above 0 is
//     reported as "can not use maxSurge with strategy type InPlaceOnly",
//     the value quoted as written ("1" for the count 1);
//  4. when replicas > 0, the scaled maxUnavailable and maxSurge must not
//     both be below 1 (nil and unreadable values count as 0), reported
//     on maxUnavailable as "maxUnavailable and maxSurge should not both
//     be less than 1", with the value printed as the webhook prints it:
//     the Go struct intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, or
//     "null" for nil.
//
// For example:
//
//	spec.updateStrategy.maxSurge: Invalid value: "5": failed GetScaledValueFromIntOrPercent for maxSurge: invalid type: string is not a percentage
//	spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: maxUnavailable and maxSurge should not both be less than 1
//
// As in kruise, nothing bounds the values from above ("120%" is valid)
// and negative percentages pass rules 1 to 3 (docs/cloneset.md#s15-negative-percents).
// The webhook's default for a nil maxUnavailable is "20%"; a caller
// validating a manifest applies it first, as kruise does before it
// validates. The one difference from kruise is ValidateKruisePartition's:
// a value whose scaled int kruise leaves to the CPU is reported on rule
// 1 or 2 with our words, and then counts as 0.
//
// The result is empty when both values are valid; it does not allocate
// then. Upstream: validateUpdateStrategy in kruise's
// pkg/webhook/cloneset/validating.
func ValidateKruiseRollingUpdate(updateType string, maxUnavailable, maxSurge *IntOrString, replicas int32, path string) field.ErrorList {
	var errs field.ErrorList
	var unavailable, surge int64
	if maxUnavailable != nil {
		var err error
		if unavailable, err = webhookScaled(maxUnavailable, replicas); err != nil {
			errs = append(errs, readError(path, "maxUnavailable", maxUnavailable, err))
		}
	}
	if maxSurge != nil {
		var err error
		if surge, err = webhookScaled(maxSurge, replicas); err != nil {
			errs = append(errs, readError(path, "maxSurge", maxSurge, err))
		}
		if updateType == "InPlaceOnly" && surge > 0 {
			errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: path + ".maxSurge", Value: quoted(maxSurge),
				Detail: "can not use maxSurge with strategy type InPlaceOnly"})
		}
	}
	if replicas > 0 && unavailable < 1 && surge < 1 {
		errs = append(errs, &field.Error{Type: field.TypeInvalid, Field: path + ".maxUnavailable", Value: goSyntax(maxUnavailable),
			Detail: "maxUnavailable and maxSurge should not both be less than 1"})
	}
	return errs
}
