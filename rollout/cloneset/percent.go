package cloneset

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// The two ways kruise v1.9.1's controller turns an int-or-percent into a
// count. intorpercent.ScaledFractional and intorpercent.ScaledLegacy are
// the same readers for callers; these differ from them on purpose in two
// places, because the controller's decisions depend on them: results
// beyond int32 stay exact in int64 (the diffs are computed in int64, as
// kruise's are), and a result with no int64 value (NaN%, Inf%, beyond
// ±2^63) is what kruise gets on amd64 (math.MinInt64) rather than an
// error. The conformance module compares both against kruise.

// errNotPercentage is kruise's fractional parser's complaint about a
// string without a trailing '%'.
var errNotPercentage = errors.New("invalid type: string is not a percentage")

// fractionalScaled resolves v against total the way kruise's
// util.GetScaledValueFromIntOrPercent does (the webhook's parser, and the
// controller's for the partition): an int is returned as is; a string
// must end in '%', which is removed once, and the rest is read by
// strconv.ParseFloat ("33.3", "1e1", "+5", ".5", "Inf", "NaN" all read);
// the result is ceil (up) or floor (down) of v*total/100 in float64,
// multiplying first. A result that does not fit in an int64 (NaN, ±Inf,
// beyond ±2^63) becomes math.MinInt64, which is what kruise's int
// conversion gives on amd64 (see floatToInt). Errors: errNotPercentage,
// or the *strconv.NumError from ParseFloat.
func fractionalScaled(v intorpercent.IntOrString, total int64, up bool) (int64, error) {
	if !v.IsString {
		return int64(v.Int), nil
	}
	s, ok := strings.CutSuffix(v.Str, "%")
	if !ok {
		return 0, errNotPercentage
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	x := f * float64(total) / 100
	if up {
		return floatToInt(math.Ceil(x)), nil
	}
	return floatToInt(math.Floor(x)), nil
}

// legacyScaled resolves v against total the way apimachinery's
// intstr.GetValueFromIntOrPercent does (the controller's parser for
// maxSurge, maxUnavailable and scaleStrategy.maxUnavailable): an int is
// returned as is; in a string every '%' is deleted and the rest read by
// strconv.Atoi (sign and leading zeros allowed, 64-bit range) as a
// percentage, whether or not it had a '%': ceil or floor of
// float64(n)*total/100. A result beyond int64 becomes math.MinInt64 as on
// amd64. The error is the *strconv.NumError from Atoi; kruise's
// controller ignores it and uses 0.
func legacyScaled(v intorpercent.IntOrString, total int64, up bool) (int64, error) {
	if !v.IsString {
		return int64(v.Int), nil
	}
	str := v.Str
	if strings.Count(str, "%") == 1 && strings.HasSuffix(str, "%") {
		str = str[:len(str)-1] // as ReplaceAll would give, without a copy
	} else {
		str = strings.ReplaceAll(str, "%", "")
	}
	n, err := strconv.Atoi(str)
	if err != nil {
		return 0, err
	}
	x := float64(int64(n)) * float64(total) / 100
	if up {
		return floatToInt(math.Ceil(x)), nil
	}
	return floatToInt(math.Floor(x)), nil
}

// floatToInt converts an integral float64 to int64 as Go on amd64 does
// (CVTTSD2SQ): NaN and values outside the int64 range give
// math.MinInt64. The Go specification leaves that case to the
// implementation; kruise's release images run on amd64 and arm64, and
// arm64 saturates instead (NaN gives 0). We reproduce amd64 on every
// platform so that results do not depend on where this package runs.
func floatToInt(x float64) int64 {
	if x != x || x >= 1<<63 || x < -(1<<63) {
		return math.MinInt64
	}
	return int64(x)
}
