package main

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// intOrPercent is a maxSurge or maxUnavailable as the user wrote it: an
// intorpercent.Value, or text that is not one. The API server accepts any
// string into an IntOrString and rejects a malformed one in validation, in
// its own words; keeping the text lets this program do the same instead of
// failing while parsing. It works with flag.TextVar and encoding/json.
type intOrPercent struct {
	v       intorpercent.Value
	invalid bool   // the text is not a valid int-or-percent
	text    string // the text as written, when invalid
}

// UnmarshalText reads a flag value: a count ("3") or a percentage
// ("25%"); any other text is kept for validation to reject.
func (p *intOrPercent) UnmarshalText(b []byte) error {
	*p = intOrPercent{}
	if err := p.v.UnmarshalText(b); err != nil {
		p.invalid, p.text = true, string(b)
	}
	return nil
}

// MarshalText returns the value as written.
func (p intOrPercent) MarshalText() ([]byte, error) {
	if p.invalid {
		return []byte(p.text), nil
	}
	return p.v.MarshalText()
}

// UnmarshalJSON reads a manifest value as intorpercent.Value does, except
// that a JSON string it rejects ("2.5%", "3") is kept for validation to
// reject, as the API server does. Other malformed JSON (2.5, true, {}) is
// an error, as it is for the API server's decoder.
func (p *intOrPercent) UnmarshalJSON(b []byte) error {
	var v intorpercent.Value
	err := v.UnmarshalJSON(b)
	if err == nil {
		*p = intOrPercent{v: v}
		return nil
	}
	var s string
	if b = bytes.TrimSpace(b); len(b) == 0 || b[0] != '"' || json.Unmarshal(b, &s) != nil {
		return err
	}
	*p = intOrPercent{invalid: true, text: s}
	return nil
}

// value returns the Value, or for invalid text the count the API server
// compares with zero for its both-zero rule: the text read as an integer,
// or 0 when it is not one. Only zero or not matters, so a nonzero count
// is returned as 1 (which passes every other rule, as upstream's check of
// the text's format is the only one that applies to it).
func (p *intOrPercent) value() intorpercent.Value {
	if !p.invalid {
		return p.v
	}
	if n, err := strconv.Atoi(p.text); err == nil && n != 0 {
		return intorpercent.Int(1)
	}
	return intorpercent.Int(0)
}

// percentRule is the API server's message for a string that is not a
// valid percentage. intorpercent words it for negative percentages; its
// text is taken from there rather than repeated here.
var percentRule = intorpercent.ValidateNonNegative(intorpercent.Percent(-1), "").Detail

// fixRollingUpdateErrors returns errs, the errors rollout.Validate found
// in a Deployment whose invalid maxUnavailable or maxSurge text was
// replaced by value(), with those texts reported as the API server reports
// them: "<field>: Invalid value: "2.5%": a valid percent string must be
// ...", in its order (maxUnavailable's format, maxUnavailable's sign,
// maxSurge's format, maxSurge's sign, then the other rolling-update rules),
// and with the invalid text as the value of a both-zero error.
func fixRollingUpdateErrors(errs intorpercent.ErrorList, unavailable, surge *intOrPercent) intorpercent.ErrorList {
	const prefix = "spec.strategy.rollingUpdate"
	fields := []struct {
		name string
		p    *intOrPercent
	}{{prefix + ".maxUnavailable", unavailable}, {prefix + ".maxSurge", surge}}
	isFormat := func(e *intorpercent.FieldError) bool {
		return e.Detail == "must be greater than or equal to 0" || e.Detail == percentRule
	}
	var head, rolling, rest, tail intorpercent.ErrorList
	for _, e := range errs {
		switch {
		case e.Field == "spec.replicas":
			head = append(head, e)
		case len(e.Field) >= len(prefix) && e.Field[:len(prefix)] == prefix && !isFormat(e):
			if e.Field == fields[0].name && unavailable != nil && unavailable.invalid {
				fixed := *e
				fixed.Value = strconv.Quote(unavailable.text)
				e = &fixed
			}
			rest = append(rest, e)
		case len(e.Field) >= len(prefix) && e.Field[:len(prefix)] == prefix:
			// Format errors of valid values are placed below, field by field.
		default:
			tail = append(tail, e)
		}
	}
	for _, f := range fields {
		if f.p != nil && f.p.invalid {
			rolling = append(rolling, &intorpercent.FieldError{Type: intorpercent.Invalid, Field: f.name,
				Value: strconv.Quote(f.p.text), Detail: percentRule})
		}
		for _, e := range errs {
			if e.Field == f.name && isFormat(e) {
				rolling = append(rolling, e)
			}
		}
	}
	out := append(head, rolling...)
	out = append(out, rest...)
	return append(out, tail...)
}
