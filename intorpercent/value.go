package intorpercent

import "strconv"

// Value is an int32 count or an int32 percentage. The zero Value is Int(0).
// Values are comparable with ==: Int(3) == Int(3), Int(3) != Percent(3).
type Value struct {
	num     int32
	percent bool
}

// Int returns the count n. Negative counts can be represented (upstream
// passes them through scaling unchanged) but fail [ValidateNonNegative].
// Upstream: intstr.FromInt32.
func Int(n int32) Value { return Value{num: n} }

// Percent returns the percentage p, so Percent(25) is "25%". Negative and
// above-100 percentages can be represented: scaling handles both as
// upstream does, and validation decides whether they are allowed where
// they are used. Upstream: intstr.FromString(fmt.Sprintf("%d%%", p)).
func Percent(p int32) Value { return Value{num: p, percent: true} }

// IsPercent reports whether v is a percentage.
func (v Value) IsPercent() bool { return v.percent }

// Number returns the count of an Int, or the percentage of a Percent
// (25 for "25%").
func (v Value) Number() int32 { return v.num }

// String returns v as Kubernetes writes it: "3" for a count, "25%" for a
// percentage. For every Value v that [Parse] can return,
// Parse(v.String()) == v.
func (v Value) String() string {
	var buf [12]byte
	b := strconv.AppendInt(buf[:0], int64(v.num), 10)
	if v.percent {
		b = append(b, '%')
	}
	return string(b)
}
