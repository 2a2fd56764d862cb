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

// MarshalJSON writes s as a manifest holds it, as apimachinery's
// IntOrString writes itself: a count as a bare number (3) and a text as
// a JSON string holding Str exactly ("40%", "33.3%", "40"), escaped as
// encoding/json escapes strings. Only the field IsString selects is
// written, so IntOrString{Int: 2, Str: "x"} is 2. Str that is not valid
// UTF-8 has its invalid bytes written as U+FFFD, as encoding/json writes
// any string. For every s whose selected field is set and whose Str is
// valid UTF-8, UnmarshalJSON of the result gives s back.
func (s IntOrString) MarshalJSON() ([]byte, error) {
	if s.IsString {
		return json.Marshal(s.Str)
	}
	return strconv.AppendInt(make([]byte, 0, 11), int64(s.Int), 10), nil
}

// UnmarshalJSON reads a manifest value as apimachinery's IntOrString
// reads one: a JSON string is kept as written, whatever it holds
// ([FromString]: "40%", "2.5%", "40", ""), and a bare integer within
// int32 is a count ([FromInt], negative counts included). JSON null
// leaves s unchanged, as encoding/json does for other types (upstream
// turns a string into the count it last held). Everything else is a
// [*field.Error] worded as [Value.UnmarshalJSON]'s and leaves s
// unchanged: a fraction or exponent (2.5, 1e3), a number beyond int32
// (where upstream's decoder reports an int32 overflow too), booleans,
// objects and arrays.
func (s *IntOrString) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var str string
		if err := json.Unmarshal(data, &str); err != nil {
			return parseError(string(data), "not a valid JSON string", field.ErrSyntax)
		}
		*s = FromString(str)
		return nil
	}
	n, err := parseJSONInt(data)
	if err != nil {
		return err
	}
	*s = FromInt(n)
	return nil
}

// MarshalText returns s.String(): a count's decimal digits, or Str as
// is. It never fails.
func (s IntOrString) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a flag value as apimachinery's intstr.Parse reads
// text: text that strconv.Atoi reads as a number within int32 ("3", "-3",
// "+3", "007") is a count, and any other text is kept as written ("40%",
// "2.5%", "", " 3", "3000000000"). It never fails. Text has no quotes, so
// it cannot say that "40" was written as a string: FromString("40")
// written as text reads back as FromInt(40); JSON keeps the difference.
// Where this differs from upstream: intstr.Parse wraps a number beyond
// int32 into an int32 (and logs); here it stays text.
func (s *IntOrString) UnmarshalText(text []byte) error {
	if n, err := strconv.ParseInt(string(text), 10, 32); err == nil {
		*s = FromInt(int32(n))
		return nil
	}
	*s = FromString(string(text))
	return nil
}
