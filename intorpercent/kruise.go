package intorpercent

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// ErrNotFinite is wrapped by the [ScaleError] that [ScaledFractional]
// returns for a percentage that is NaN or infinite ("NaN%", "Inf%").
var ErrNotFinite = errors.New("percentage is not a finite number")

// upstreamError returns an error that upstream's parser returns for the
// same input, with upstream's text word for word, because kruise's
// webhook quotes that text in its messages ([ValidateKruisePartition]):
//
//	nil value for IntOrString
//	invalid type: string is not a percentage
//	strconv.ParseFloat: parsing "abc": invalid syntax
//	invalid value for IntOrString: invalid value "33.3%": strconv.Atoi: parsing "33.3": invalid syntax
//
// It is a *field.Error with only Detail (upstream's text, which names
// neither package nor field) and Err (kind: field.ErrRequired for nil,
// field.ErrSyntax or field.ErrRange) set.
func upstreamError(text string, kind error) error {
	return &field.Error{Detail: text, Err: kind}
}

// nilUpstream is the error both upstream readers return for nil.
func nilUpstream() error {
	return upstreamError("nil value for IntOrString", field.ErrRequired)
}

// ScaledLegacy resolves s against total, a replica count (total >= 0),
// the way apimachinery's deprecated GetValueFromIntOrPercent does. That
// is how kruise's CloneSet controller reads spec.updateStrategy.maxSurge,
// spec.updateStrategy.maxUnavailable and spec.scaleStrategy.maxUnavailable
// (see docs/cloneset.md#percent-readers):
//
//   - a count is returned as is, whatever total is, negative counts
//     included;
//   - a string is a percentage whatever it holds: every '%' in it is
//     deleted, wherever it stands, and the rest is read as a decimal
//     integer that may have a sign and leading zeros, so "25" is 25%,
//     "2%5" is 25%, "+25%" is 25%, "007%" is 7% and "-10%" is -10%;
//   - a percentage p gives p*total/100 computed in float64 as upstream
//     computes it (p and total converted, multiplied, then divided by
//     100) and rounded in direction r: Up is the ceiling, Down the floor,
//     also for negative p ("-10%" of 10 is -1 either way).
//
// So "25" of 10 is 3 rounded Up here, while [Parse] and the kruise
// webhook's [ScaledFractional] reject "25".
//
// Errors. A nil s, or a string that is not an integer once its '%'s are
// gone ("33.3%", "%", "1e2", " 5%", a number beyond int64), returns 0 and
// a [*field.Error] with upstream's text (wrapping [field.ErrRequired],
// [field.ErrSyntax] or [field.ErrRange]). Kruise's controller ignores
// that error and uses the 0, so
//
//	maxSurge, _ := intorpercent.ScaledLegacy(cs.MaxSurge, replicas, intorpercent.Up)
//
// reads a field as the controller does (applying the controller's own
// default for a nil field is the caller's job). The other errors are
// [*ScaleError]s: a Rounding other than Down or Up ([ErrRounding]) and a
// negative total ([ErrNegativeTotal]) return 0; a result beyond int32
// ([ErrOverflow]) returns the result saturated to math.MaxInt32 or
// math.MinInt32.
//
// Where this differs from upstream: upstream returns an int, 64 bits wide
// on the platforms kruise ships for, and so holds a result up to 2^63
// exactly, where we saturate at int32 and say so with ErrOverflow; beyond
// 2^63 Go's float-to-int conversion is implementation-defined (amd64
// gives math.MinInt64, arm64 saturates), where we saturate. Numbers are
// read as strconv.Atoi reads them on a 64-bit platform, on every
// platform. ScaledLegacy does not allocate for a count or a string with
// no '%' other than a final one, except for the error on a failing call.
//
// Upstream: k8s.io/apimachinery/pkg/util/intstr.GetValueFromIntOrPercent.
func ScaledLegacy(s *IntOrString, total int32, r Rounding) (int32, error) {
	if s == nil {
		return 0, nilUpstream()
	}
	if err := checkScaleArgs(s, total, r); err != nil {
		return 0, err
	}
	if !s.IsString {
		return s.Int, nil
	}
	p, err := legacyPercent(s.Str)
	if err != nil {
		return 0, err
	}
	return saturate(s, total, roundFloat(float64(p), total, r))
}

// ScaledFractional resolves s against total, a replica count (total >=
// 0), the way kruise's own GetScaledValueFromIntOrPercent (package
// pkg/util) does. That is how kruise's controller reads
// spec.updateStrategy.partition, and how its webhook checks partition,
// maxUnavailable and maxSurge, always rounding Up (see docs/cloneset.md#percent-readers):
//
//   - a count is returned as is, whatever total is, negative counts
//     included;
//   - a string must end in '%' ("25" is an error); that one '%' is
//     removed and the rest is read by strconv.ParseFloat, so it may be a
//     fraction ("99.99%", ".5%"), signed ("+5%", "-10%"), in exponent or
//     hexadecimal notation ("1e1%", "0x1p3%"), or NaN or infinite;
//   - a percentage v gives v*total/100 computed in float64 as kruise
//     computes it (multiply, then divide) and rounded in direction r:
//     "33.3%" of 10 is 4 Up, "99.99%" of 999 is 999 Up and 998 Down.
//
// Errors. These return 0 and a [*field.Error] whose text is kruise's: a
// nil s ("nil value for IntOrString", [field.ErrRequired]); a string that
// does not end in '%' ("invalid type: string is not a percentage",
// [field.ErrSyntax]); text before the '%' that strconv.ParseFloat
// rejects, with its error text ("5%%" gives `strconv.ParseFloat: parsing
// "5%": invalid syntax`, field.ErrSyntax; "1e400%" is out of range,
// [field.ErrRange]). The others are
// [*ScaleError]s: a Rounding other than Down or Up ([ErrRounding]) and a
// negative total ([ErrNegativeTotal]) return 0; a NaN or infinite
// percentage ([ErrNotFinite]) returns 0; a result beyond int32
// ([ErrOverflow]), a product too large for a float64 included, returns
// the result saturated to math.MaxInt32 or math.MinInt32.
//
// Where this differs from kruise, and why: kruise converts the rounded
// float64 to an int with Go's conversion, which is exact below 2^63 in
// magnitude and implementation-defined elsewhere. On amd64, NaN, ±Inf and
// anything beyond ±2^63 become math.MinInt64 (so "Inf%" of 10 is a large
// negative number); on arm64 they saturate and NaN becomes 0. We return
// an error for a non-finite percentage rather than pick one CPU's answer.
// For a result within int64 but beyond int32, which kruise holds exactly,
// we return the saturated value with ErrOverflow: every comparison kruise
// makes with such a value (>= 0, > 0, < 1, against a replica count) comes
// out the same with the saturated one. ScaledFractional does not
// allocate, except for the error on a failing call.
//
// Upstream: github.com/openkruise/kruise/pkg/util.GetScaledValueFromIntOrPercent.
func ScaledFractional(s *IntOrString, total int32, r Rounding) (int32, error) {
	if s == nil {
		return 0, nilUpstream()
	}
	if err := checkScaleArgs(s, total, r); err != nil {
		return 0, err
	}
	if !s.IsString {
		return s.Int, nil
	}
	v, err := fractionalPercent(s.Str)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, scaleErrorFor(s, total, ErrNotFinite)
	}
	return saturate(s, total, roundFloat(v, total, r))
}

// checkScaleArgs returns the ScaleError for an unknown rounding or a
// negative total, in the order Value.Scaled checks them, or nil.
func checkScaleArgs(s *IntOrString, total int32, r Rounding) error {
	switch {
	case r != Down && r != Up:
		return scaleErrorFor(s, total, ErrRounding)
	case total < 0:
		return scaleErrorFor(s, total, ErrNegativeTotal)
	}
	return nil
}

// scaleErrorFor returns a ScaleError naming s as written.
func scaleErrorFor(s *IntOrString, total int32, err error) error {
	written := *s
	return &ScaleError{Total: total, Err: err, Written: &written}
}

// legacyPercent reads str as apimachinery's legacy reader does: every
// '%' deleted, then strconv.Atoi. Atoi on a 64-bit platform is
// ParseInt(s, 10, 64) reporting itself as Atoi; calling ParseInt makes
// the range the same on every platform.
func legacyPercent(str string) (int64, error) {
	digits := str
	switch i := strings.IndexByte(str, '%'); {
	case i < 0:
	case i == len(str)-1:
		digits = str[:i] // the usual "25%": no copy needed
	default:
		digits = strings.ReplaceAll(str, "%", "")
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err == nil {
		return n, nil
	}
	kind, cause := field.ErrSyntax, err
	var ne *strconv.NumError
	if errors.As(err, &ne) {
		atoi := *ne
		atoi.Func = "Atoi"
		cause = &atoi
		if errors.Is(ne.Err, strconv.ErrRange) {
			kind = field.ErrRange
		}
	}
	return 0, upstreamError("invalid value for IntOrString: invalid value "+strconv.Quote(str)+": "+cause.Error(), kind)
}

// fractionalPercent reads str as kruise's float reader does: it must end
// in '%', which is removed once, and the rest goes to strconv.ParseFloat.
func fractionalPercent(str string) (float64, error) {
	num, ok := strings.CutSuffix(str, "%")
	if !ok {
		return 0, upstreamError("invalid type: string is not a percentage", field.ErrSyntax)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		kind := field.ErrSyntax
		if errors.Is(err, strconv.ErrRange) {
			kind = field.ErrRange
		}
		return 0, upstreamError(err.Error(), kind)
	}
	return v, nil
}

// roundFloat returns v*total/100 rounded in direction r, with upstream's
// float64 operations in upstream's order. The explicit conversion rounds
// the product to float64 on its own, so no compiler may fuse it with the
// division.
func roundFloat(v float64, total int32, r Rounding) float64 {
	x := float64(v*float64(total)) / 100
	if r == Up {
		return math.Ceil(x)
	}
	return math.Floor(x)
}

// saturate converts x, an integral float64 (or ±Inf, never NaN), to
// int32, or returns the bound toward its sign with an ErrOverflow
// ScaleError for s.
func saturate(s *IntOrString, total int32, x float64) (int32, error) {
	switch {
	case x > math.MaxInt32:
		return math.MaxInt32, scaleErrorFor(s, total, ErrOverflow)
	case x < math.MinInt32:
		return math.MinInt32, scaleErrorFor(s, total, ErrOverflow)
	}
	return int32(x), nil
}
