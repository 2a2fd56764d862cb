package intorpercent

import (
	"math"
	"strconv"
)

// IntOrString is an int-or-percent field as an API object holds it,
// before any reader has looked at it, like apimachinery's
// intstr.IntOrString without the dependency: the count Int when IsString
// is false, and otherwise the text Str, which may be anything a user
// wrote ("25%", "2.5%", "3", ""). [FromInt] and [FromString] build one;
// only the field IsString selects is meaningful. The zero IntOrString is
// the count 0.
//
// Its JSON is exactly what a manifest holds, as apimachinery writes and
// reads it: a count is a bare number (3), a text is a JSON string holding
// the text as is ("40%", "33.3%", and "40", which stays the string "40"),
// so a CloneSet or Deployment strategy decodes into it and encodes back
// to the same JSON. Its text form (MarshalText, UnmarshalText) suits
// command-line flags.
//
// Use it to validate a value as written, in the API server's words
// ([ValidateRollingUpdateIntOrString]), before turning it into a [Value]
// with [IntOrString.Value]. It also carries the fields kruise reads with
// its own readers ([ScaledLegacy], [ScaledFractional]) and validates in
// its webhook's words ([ValidateKruisePartition]), partition included:
// those take a *IntOrString, with nil for an absent field, as kruise's
// API types hold them.
type IntOrString struct {
	IsString bool   // Str holds the value; otherwise Int does
	Int      int32  // the count, when !IsString
	Str      string // the text as written, when IsString
}

// FromInt returns the count n as written: IntOrString{Int: n}, a bare
// number in JSON. Negative counts can be represented; validation rejects
// them where they are not allowed. Upstream: intstr.FromInt32.
func FromInt(n int32) IntOrString { return IntOrString{Int: n} }

// FromString returns the text s as written: IntOrString{IsString: true,
// Str: s}, a JSON string. s is kept as is, whatever it holds: "40%",
// "33.3%", "2%5", "40" (a string, not the count 40), "". Which of those a
// reader accepts is the reader's business ([IntOrString.Value],
// [ScaledLegacy], [ScaledFractional]). Upstream: intstr.FromString.
func FromString(s string) IntOrString { return IntOrString{IsString: true, Str: s} }

// IntOrString returns v as the API server writes it: [FromInt] of a
// count, and [FromString] of v.String() for a percentage ("25%"). For
// every count v, and every percentage v with v.Number() >= 0,
// v.IntOrString().Value() returns (v, true); a negative percentage
// ("-5%") is written but is not a percentage to the API server.
// IntOrString allocates only for a percentage (its text).
func (v Value) IntOrString() IntOrString {
	if v.percent {
		return FromString(v.String())
	}
	return FromInt(v.num)
}

// String returns s as written: the count in decimal, or the text. Kruise
// and apimachinery print an IntOrString the same way (its String method).
func (s IntOrString) String() string {
	if s.IsString {
		return s.Str
	}
	return strconv.FormatInt(int64(s.Int), 10)
}

// Value returns s as a Value and true when the API server would accept
// it as a percentage or a count: Int(s.Int) for a count (negative counts
// included, which validation then rejects), and Percent(n) for a string
// of one or more ASCII digits followed by a single '%' (the API server's
// pattern [0-9]+%) whose number n is at most math.MaxInt32 (leading zeros
// allowed: "05%" is Percent(5)). Any other string gives the zero Value
// and false: "2.5%", "3" (a quoted count is not a percentage), "+5%",
// " 5%", "", "25%%", and "3000000000%", which matches the pattern but
// cannot be held by a Value. Value does not allocate.
func (s IntOrString) Value() (Value, bool) {
	if !s.IsString {
		return Int(s.Int), true
	}
	n, ok, big := percentPattern(s.Str)
	if !ok || big {
		return Value{}, false
	}
	return Percent(n), true
}

// percentPattern reports whether s matches the API server's percentage
// pattern [0-9]+% (ok), and if so its number n, or big when the number
// is beyond int32 (then n is 0).
func percentPattern(s string) (n int32, ok, big bool) {
	if len(s) < 2 || s[len(s)-1] != '%' {
		return 0, false, false
	}
	var v int64
	for i := 0; i < len(s)-1; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false, false
		}
		if !big {
			v = v*10 + int64(c-'0')
			big = v > math.MaxInt32
		}
	}
	if big {
		return 0, true, true
	}
	return int32(v), true, false
}

// text returns s as upstream's IntOrString.String does: a count's
// decimal digits, or the string as written.
func (s IntOrString) text() string {
	if !s.IsString {
		return strconv.FormatInt(int64(s.Int), 10)
	}
	return s.Str
}
