package main

import (
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// intOrPercent is a maxSurge or maxUnavailable as the user wrote it, on
// the command line or in a manifest. The API server accepts any string
// into an IntOrString and rejects a malformed one in validation, in its
// own words; keeping the text lets this program do the same (with
// intorpercent.ValidateRollingUpdateIntOrString) instead of failing while
// parsing. It works with flag.TextVar and encoding/json.
type intOrPercent intorpercent.IntOrString

// UnmarshalText reads a flag value: a count ("3") is a count, any other
// text is kept as written, as a string ("25%", "2.5%", "-3").
func (p *intOrPercent) UnmarshalText(b []byte) error {
	*p = intOrPercent{IsString: true, Str: string(b)}
	if v, err := intorpercent.Parse(p.Str); err == nil && !v.IsPercent() {
		*p = intOrPercent{Int: v.Number()}
	}
	return nil
}

// MarshalText returns the value as written.
func (p intOrPercent) MarshalText() ([]byte, error) {
	if p.IsString {
		return []byte(p.Str), nil
	}
	return intorpercent.Int(p.Int).MarshalText()
}

// UnmarshalJSON reads a manifest value as intorpercent.IntOrString
// does, as the API server's decoder does: a JSON string is kept as
// written, whatever it holds ("25%", "2.5%", "3"); a number must be an
// integer within int32, so 2.5, a number beyond int32, true or {} is an
// error.
func (p *intOrPercent) UnmarshalJSON(b []byte) error {
	return (*intorpercent.IntOrString)(p).UnmarshalJSON(b)
}

// written returns p as written, or def as the apps/v1 defaulting writes
// it when p is nil (not set).
func written(p *intOrPercent, def intorpercent.Value) intorpercent.IntOrString {
	if p != nil {
		return intorpercent.IntOrString(*p)
	}
	return def.IntOrString()
}

// value returns the Value p holds, or for text that is not a valid
// int-or-percent a stand-in, 0: validation reports the text as written,
// so the stand-in only marks the field as set.
func (p *intOrPercent) value() intorpercent.Value {
	v, _ := intorpercent.IntOrString(*p).Value()
	return v
}
