package intorpercent

import (
	"errors"
	"math"
	"strconv"
)

// ErrSyntax is wrapped by a [ParseError] for text that is not a whole,
// unsigned number optionally followed by a single '%'.
var ErrSyntax = errors.New("invalid syntax")

// ErrRange is wrapped by a [ParseError] for a number beyond int32.
var ErrRange = errors.New("value out of range")

// ParseError reports text that is not a valid int-or-percent. Its message
// names the package, quotes the input and says which rule it broke:
//
//	intorpercent: parsing "2.5%": fractional percentages are not allowed
//
// Err is [ErrSyntax] or [ErrRange], so callers can use errors.Is.
type ParseError struct {
	Input  string // the text as given (for JSON, the decoded string or the raw number)
	Reason string // the rule that was broken, in words
	Err    error  // ErrSyntax or ErrRange
}

// Error returns `intorpercent: parsing "<input>": <reason>`.
func (e *ParseError) Error() string {
	return "intorpercent: parsing " + strconv.Quote(e.Input) + ": " + e.Reason
}

// Unwrap returns Err.
func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads a count ("3") or a percentage ("25%"). It accepts exactly
// one or more ASCII digits, optionally followed by one '%', with a value
// of at most math.MaxInt32; leading zeros are allowed ("05%" is 5%), as
// they are by the API server's validation. Everything else is a
// [*ParseError]: the empty string, spaces, a sign, a fraction, a second
// '%', and numbers beyond int32. On error the Value is the zero Value.
//
// Parse is stricter than upstream intstr.Parse, which turns any text that
// is not an int32 into a string that only fails later, when it is
// scaled or validated.
func Parse(s string) (Value, error) {
	if s == "" {
		return Value{}, &ParseError{Input: s, Reason: "empty string", Err: ErrSyntax}
	}
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			return Value{}, &ParseError{Input: s, Reason: "spaces are not allowed", Err: ErrSyntax}
		}
	}
	digits, percent := s, false
	if s[len(s)-1] == '%' {
		digits, percent = s[:len(s)-1], true
	}
	if err := checkDigits(s, digits, percent); err != nil {
		return Value{}, err
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		n = n*10 + int64(digits[i]-'0')
		if n > math.MaxInt32 {
			return Value{}, &ParseError{Input: s, Reason: "value out of range (at most 2147483647)", Err: ErrRange}
		}
	}
	return Value{num: int32(n), percent: percent}, nil
}

// checkDigits returns nil when digits is a non-empty run of ASCII digits,
// and otherwise a ParseError for input naming the first rule broken.
func checkDigits(input, digits string, percent bool) error {
	if digits == "" {
		return &ParseError{Input: input, Reason: "a '%' needs a number before it", Err: ErrSyntax}
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c >= '0' && c <= '9' {
			continue
		}
		reason := `want a whole number such as "3" or a percentage such as "25%"`
		switch {
		case (c == '+' || c == '-') && i == 0:
			reason = "a sign is not allowed"
		case c == '.' || c == ',':
			if percent {
				reason = "fractional percentages are not allowed"
			} else {
				reason = "fractional numbers are not allowed"
			}
		case c == '%':
			reason = "only one trailing '%' is allowed"
		}
		return &ParseError{Input: input, Reason: reason, Err: ErrSyntax}
	}
	return nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
