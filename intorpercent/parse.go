package intorpercent

import (
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// parseError returns the error for text input (for JSON, the decoded
// string or the raw number) that is not a valid int-or-percent: a
// *field.Error that names the package, quotes the input and says which
// rule it broke, wrapping kind (field.ErrSyntax or field.ErrRange):
//
//	intorpercent: parsing "2.5%": fractional percentages are not allowed
func parseError(input, reason string, kind error) error {
	return &field.Error{Prefix: "intorpercent", Value: strconv.Quote(input), Detail: reason, Err: kind}
}

// Parse reads a count ("3") or a percentage ("25%"). It accepts exactly
// one or more ASCII digits, optionally followed by one '%', with a value
// of at most math.MaxInt32; leading zeros are allowed ("05%" is 5%), as
// they are by the API server's validation. Everything else is an error,
// a [*field.Error] wrapping [field.ErrInvalid] and [field.ErrSyntax] (or
// [field.ErrRange] for numbers beyond int32): the empty string, spaces, a
// sign, a fraction, a second '%'. On error the Value is the zero Value.
//
// Parse is stricter than upstream intstr.Parse, which turns any text that
// is not an int32 into a string that only fails later, when it is
// scaled or validated.
func Parse(s string) (Value, error) {
	if s == "" {
		return Value{}, parseError(s, "empty string", field.ErrSyntax)
	}
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			return Value{}, parseError(s, "spaces are not allowed", field.ErrSyntax)
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
			return Value{}, parseError(s, "value out of range (at most 2147483647)", field.ErrRange)
		}
	}
	return Value{num: int32(n), percent: percent}, nil
}

// checkDigits returns nil when digits is a non-empty run of ASCII digits,
// and otherwise a parse error for input naming the first rule broken.
func checkDigits(input, digits string, percent bool) error {
	if digits == "" {
		return parseError(input, "a '%' needs a number before it", field.ErrSyntax)
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
		return parseError(input, reason, field.ErrSyntax)
	}
	return nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
