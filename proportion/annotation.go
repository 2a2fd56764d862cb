package proportion

import (
	"errors"
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/internal/decimal"
)

// ParseReplicas reads the value of a desired-replicas or max-replicas
// annotation the strict way the controller does: one or more ASCII
// decimal digits (leading zeros allowed), no sign, no spaces, at most
// math.MaxInt32. Anything else, including "", is a [*field.Error]
// wrapping [field.ErrSyntax] or [field.ErrRange]; the number is then 0. It allocates
// only on the failing path.
// Upstream: the strconv.ParseUint(s, 10, 32) reader behind
// deploymentutil.GetDesiredReplicasAnnotation and the max-replicas
// reader, which also reject values above MaxInt32.
func ParseReplicas(s string) (int32, error) {
	u, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, rangeError(s)
		}
		return 0, parseError(s, "invalid syntax", field.ErrSyntax)
	}
	if u > math.MaxInt32 {
		return 0, rangeError(s)
	}
	return int32(u), nil
}

func rangeError(s string) error {
	return parseError(s, "value out of range (higher than 2147483647)", field.ErrRange)
}

// DesiredAnnotation returns the deployment's replicas recorded on rs by
// its last scaling (the desired-replicas annotation), read with
// [ParseReplicas]. ok is false when the annotation is absent ("") or
// invalid; n is then 0. It does not allocate.
// Upstream: deploymentutil.GetDesiredReplicasAnnotation.
func DesiredAnnotation(rs ReplicaSet) (n int32, ok bool) {
	return readAnnotation(rs.DesiredReplicas)
}

// MaxAnnotation returns R + maxSurge recorded on rs by its last scaling
// (the max-replicas annotation), read with [ParseReplicas]. ok is false
// when the annotation is absent ("") or invalid; n is then 0. A valid
// "0" gives (0, true). It does not allocate.
// Upstream: the max-replicas reader used by getReplicaSetFraction.
func MaxAnnotation(rs ReplicaSet) (n int32, ok bool) {
	return readAnnotation(rs.MaxReplicas)
}

// readAnnotation is ParseReplicas without building an error.
func readAnnotation(s string) (int32, bool) {
	if n, ok := decimal.Digits(s, 9); ok {
		// Up to 9 digits: below math.MaxInt32, as ParseUint reads them.
		return int32(n), true
	}
	u, err := strconv.ParseUint(s, 10, 32)
	if err != nil || u > math.MaxInt32 {
		return 0, false
	}
	return int32(u), true
}

// parseSaturatedDesired reads the desired-replicas annotation the lenient
// way upstream's IsSaturated does: strconv.Atoi as on a 64-bit platform
// (an optional '+' or '-' sign, decimal digits, within int64), so "+3"
// reads as 3. The value is returned whole: upstream then truncates it to
// int32 ("4294967306" would read as 10), which the library does not do.
// ok is false when Atoi would fail.
func parseSaturatedDesired(s string) (n int64, ok bool) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// FormatReplicas renders n as upstream writes the desired-replicas and
// max-replicas annotations: base-10 digits with a '-' for negatives
// (fmt's %d). Values from a [Result] are never negative. It allocates
// the string for n outside [0, 99].
// Upstream: the %d formatting in deploymentutil.SetReplicasAnnotations.
func FormatReplicas(n int32) string {
	return strconv.FormatInt(int64(n), 10)
}

// AnnotationsNeedUpdate reports whether rs's desired-replicas or
// max-replicas annotation differs, as text, from
// FormatReplicas(desired) or FormatReplicas(max): an absent annotation
// always differs, and so does "010" from 10. It does not allocate.
// Upstream: deploymentutil.ReplicasAnnotationsNeedUpdate.
func AnnotationsNeedUpdate(rs ReplicaSet, desired, max int32) bool {
	return !isFormatted(rs.DesiredReplicas, desired) || !isFormatted(rs.MaxReplicas, max)
}

// isFormatted reports whether s == FormatReplicas(n), without allocating.
func isFormatted(s string, n int32) bool {
	var buf [12]byte
	return string(strconv.AppendInt(buf[:0], int64(n), 10)) == s
}
