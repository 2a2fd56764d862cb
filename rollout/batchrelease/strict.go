package batchrelease

import (
	"math"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// strictScaled is kruise-rollout's reading of an int-or-percent, the
// strict apimachinery reader GetScaledValueFromIntOrPercent
// (k8s.io/apimachinery/pkg/util/intstr, v0.26): a count is returned as
// is; a string must end in '%' and the rest must be what strconv.Atoi
// accepts ("+5%", "-5%" and "05%" are read, "5", "2.5%" and "" are not);
// a percent p gives ceil (roundUp) or floor of float64(p)*float64(total)/100.
// ok is false where upstream returns an error (every caller here then
// uses 0, as upstream's callers do).
//
// The result is upstream's Go int (64 bits), computed with upstream's
// float64 formula so that it is the same number: exact while
// p*total < 2^53. A product beyond the int64 range converts, as upstream's
// int(...) does on amd64 (Go leaves it to the platform), to math.MinInt64.
// strictScaled does not allocate.
func strictScaled(s *intorpercent.IntOrString, total int64, roundUp bool) (v int64, ok bool) {
	if s == nil {
		return 0, false
	}
	if !s.IsString {
		return int64(s.Int), true
	}
	digits, found := strings.CutSuffix(s.Str, "%")
	if !found {
		return 0, false
	}
	p, err := strconv.Atoi(digits)
	if err != nil {
		return 0, false
	}
	x := float64(p) * float64(total) / 100
	if roundUp {
		x = math.Ceil(x)
	} else {
		x = math.Floor(x)
	}
	return floatToInt(x), true
}

// floatToInt converts as Go's int(x) does on amd64: values outside the
// int64 range (and NaN) become math.MinInt64.
func floatToInt(x float64) int64 {
	if x != x || x >= 9223372036854775808.0 || x < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(x)
}

// isPercentType reports whether s is a string (upstream's
// intstr.String type), whatever its text.
func isPercentType(s *intorpercent.IntOrString) bool { return s == nil || s.IsString }

// clamp32 clamps v into [lo, hi].
func clamp64(v, lo, hi int64) int64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
