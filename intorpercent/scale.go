package intorpercent

import (
	"errors"
	"math"
	"strconv"
)

// Rounding is the direction in which [Value.Scaled] rounds a percentage
// of a total that is not a whole number.
type Rounding uint8

const (
	// Down rounds toward negative infinity (floor). Upstream uses it for
	// maxUnavailable, so that 25% of 10 leaves at most 2 pods unavailable.
	Down Rounding = iota
	// Up rounds toward positive infinity (ceiling). Upstream uses it for
	// maxSurge, so that 25% of 10 allows 3 extra pods.
	Up
)

// String returns "Down" or "Up".
func (r Rounding) String() string {
	switch r {
	case Down:
		return "Down"
	case Up:
		return "Up"
	}
	return "Rounding(" + strconv.Itoa(int(r)) + ")"
}

// ErrNegativeTotal is wrapped by the error [Value.Scaled] returns for a
// negative total.
var ErrNegativeTotal = errors.New("total must not be negative")

// ErrOverflow is wrapped by the error [Value.Scaled] returns when the
// scaled value does not fit in an int32.
var ErrOverflow = errors.New("scaled value overflows int32")

// ErrRounding is wrapped by the error [Value.Scaled] returns for a
// Rounding that is neither Down nor Up.
var ErrRounding = errors.New("unknown rounding")

// ScaleError reports why [Value.Scaled], [ScaledLegacy] or
// [ScaledFractional] could not resolve a value. Err is one of
// [ErrNegativeTotal], [ErrOverflow], [ErrRounding] and (from
// ScaledFractional) [ErrNotFinite].
//
// ScaleError is not a field.Error and does not wrap field.ErrInvalid: it
// reports arithmetic on a value that was already read, named by the
// operation as strconv's NumError names its function, and its causes
// (mostly a result beyond int32) belong to no field of an object. The
// bad-input errors of reading a value (field.ErrSyntax, field.ErrRange)
// are *field.Errors.
type ScaleError struct {
	Value Value // the value scaled by Value.Scaled; the zero Value when Written is set
	Total int32
	Err   error
	// Written is the value as written, when the error comes from
	// ScaledLegacy or ScaledFractional, which read an IntOrString; nil
	// when it comes from Value.Scaled.
	Written *IntOrString
}

// Error returns `intorpercent: scaling "<value>" of <total>: <cause>`,
// where the value is Written as written (a count's digits, a string as
// is) when Written is set, and Value otherwise.
func (e *ScaleError) Error() string {
	in := e.Value.String()
	if e.Written != nil {
		in = e.Written.text()
	}
	return "intorpercent: scaling " + strconv.Quote(in) + " of " +
		strconv.FormatInt(int64(e.Total), 10) + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *ScaleError) Unwrap() error { return e.Err }

// Scaled resolves v against total, a replica count (total >= 0). An Int
// is returned as is, whatever total is, negative counts included. A
// Percent p gives p*total/100 rounded in direction r: Down is the floor
// and Up the ceiling, also for negative p (-15% of 10 is -2 Down and -1
// Up). Percentages above 100 scale beyond total (150% of 10 is 15).
//
// The arithmetic is exact integer arithmetic in 64 bits. Upstream
// multiplies and divides in float64; the two agree on every input whose
// result fits in an int32, because such products are far below 2^53.
//
// Errors, each a [*ScaleError]: a negative total wraps [ErrNegativeTotal]
// and returns 0; a Rounding other than Down or Up wraps [ErrRounding] and
// returns 0; a result beyond int32 (for example 200% of 2,000,000,000)
// wraps [ErrOverflow] and returns the result saturated to math.MaxInt32
// or math.MinInt32, where upstream would wrap around silently.
//
// Scaled does not allocate, except for the error on a failing call.
// Upstream: intstr.GetScaledValueFromIntOrPercent.
func (v Value) Scaled(total int32, r Rounding) (int32, error) {
	if r != Down && r != Up {
		return 0, &ScaleError{Value: v, Total: total, Err: ErrRounding}
	}
	if total < 0 {
		return 0, &ScaleError{Value: v, Total: total, Err: ErrNegativeTotal}
	}
	if !v.percent {
		return v.num, nil
	}
	x := scale64(v.num, total, r)
	switch {
	case x > math.MaxInt32:
		return math.MaxInt32, &ScaleError{Value: v, Total: total, Err: ErrOverflow}
	case x < math.MinInt32:
		return math.MinInt32, &ScaleError{Value: v, Total: total, Err: ErrOverflow}
	}
	return int32(x), nil
}

// scale64 returns p*total/100 rounded in direction r. With |p| and total
// below 2^31 the product stays below 2^62, so it cannot overflow.
func scale64(p, total int32, r Rounding) int64 {
	prod := int64(p) * int64(total)
	q, rem := prod/100, prod%100 // Go truncates toward zero
	switch {
	case rem > 0 && r == Up:
		q++
	case rem < 0 && r == Down:
		q--
	}
	return q
}
