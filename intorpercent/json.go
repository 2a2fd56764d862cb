package intorpercent

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// MarshalJSON writes v as the API server writes an IntOrString: a count
// as a bare number (3), a percentage as a string ("25%").
func (v Value) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 14)
	if v.percent {
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(v.num), 10)
		return append(b, '%', '"'), nil
	}
	return strconv.AppendInt(b, int64(v.num), 10), nil
}

// UnmarshalJSON reads a bare integer within int32 (negative counts
// included, for validation to reject with the API server's words) as an
// Int, and a string as [Parse] reads a percentage. JSON null leaves v
// unchanged, as encoding/json does for other types. Everything else is a
// [*field.Error] (as [Parse]'s) and leaves v unchanged: a fraction or exponent (2.5, 1e3),
// a number beyond int32, a quoted plain number ("3", which upstream
// accepts as a string that then fails validation), a malformed
// percentage, booleans, objects and arrays.
func (v *Value) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return parseError(string(data), "not a valid JSON string", field.ErrSyntax)
		}
		p, err := Parse(s)
		if err != nil {
			return err
		}
		if !p.percent {
			return parseError(s, "a quoted value must be a percentage such as \"25%\"; write a count as a bare number", field.ErrSyntax)
		}
		*v = p
		return nil
	}
	n, err := parseJSONInt(data)
	if err != nil {
		return err
	}
	*v = Int(n)
	return nil
}

// parseJSONInt reads a JSON number that must be an integer within int32.
func parseJSONInt(data []byte) (int32, error) {
	s := string(data)
	if !json.Valid(data) || len(data) == 0 || (data[0] != '-' && (data[0] < '0' || data[0] > '9')) {
		return 0, parseError(s, `want a number such as 3 or a string such as "25%"`, field.ErrSyntax)
	}
	if bytes.ContainsAny(data, ".eE") {
		return 0, parseError(s, "fractional numbers are not allowed", field.ErrSyntax)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > math.MaxInt32 || n < math.MinInt32 {
		return 0, parseError(s, "value out of range (an int32 is required)", field.ErrRange)
	}
	return int32(n), nil
}

// MarshalText returns v.String(), so a Value works with flag.TextVar and
// other text encodings.
func (v Value) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads text as [Parse] does; on error v is unchanged.
func (v *Value) UnmarshalText(text []byte) error {
	p, err := Parse(string(text))
	if err != nil {
		return err
	}
	*v = p
	return nil
}
