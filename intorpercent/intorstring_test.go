package intorpercent

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// str and count build IntOrStrings for the tables.
func str(s string) IntOrString  { return IntOrString{IsString: true, Str: s} }
func count(n int32) IntOrString { return IntOrString{Int: n} }

var intOrStringValueCases = []struct {
	name   string
	in     IntOrString
	want   Value
	ok     bool
	reason string
}{
	{name: "count", in: count(3), want: Int(3), ok: true},
	{name: "negative count", in: count(-1), want: Int(-1), ok: true, reason: "validation rejects it, in the API server's words"},
	{name: "count ignores Str", in: IntOrString{Int: 2, Str: "25%"}, want: Int(2), ok: true},
	{name: "percent", in: str("25%"), want: Percent(25), ok: true},
	{name: "leading zeros", in: str("00%"), want: Percent(0), ok: true},
	{name: "largest percent", in: str("2147483647%"), want: Percent(math.MaxInt32), ok: true},
	{name: "percent beyond int32", in: str("2147483648%"), reason: "matches [0-9]+% but a Value cannot hold it"},
	{name: "fraction", in: str("2.5%")},
	{name: "quoted count", in: str("3"), reason: "the API server accepts only percentages as strings"},
	{name: "sign", in: str("+5%")},
	{name: "negative percent", in: str("-5%")},
	{name: "leading space", in: str(" 5%")},
	{name: "empty", in: str("")},
	{name: "only a percent sign", in: str("%")},
	{name: "two percent signs", in: str("25%%")},
}

func TestIntOrStringValue(t *testing.T) {
	for _, tt := range intOrStringValueCases {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.in.Value()
			if got != tt.want || ok != tt.ok {
				t.Errorf("%#v.Value() = %v, %v; want %v, %v (%s)", tt.in, got, ok, tt.want, tt.ok, tt.reason)
			}
		})
	}
}

// percentRuleFor is the API server's pattern error for value v on field f.
func percentRuleFor(f, v string) string {
	return ru + "." + f + ": Invalid value: " + v + ": " + percentRule
}

const bothZero = "may not be 0 when `maxSurge` is 0"

var rollingUpdateIntOrStringCases = []struct {
	name                     string
	maxUnavailable, maxSurge IntOrString
	want                     []string // full texts, in order; nil for valid
	reason                   string
}{
	{name: "defaults", maxUnavailable: str("25%"), maxSurge: str("25%")},
	{name: "zero percent and zero", maxUnavailable: str("0%"), maxSurge: count(0),
		want: []string{ru + `.maxUnavailable: Invalid value: "0%": ` + bothZero}},
	{name: "over a hundred percent", maxUnavailable: str("101%"), maxSurge: count(0),
		want: []string{ru + `.maxUnavailable: Invalid value: "101%": must not be greater than 100%`}},
	{name: "hundred percent and zero", maxUnavailable: str("100%"), maxSurge: count(0)},
	{name: "int unavailable is not capped", maxUnavailable: count(1000), maxSurge: count(0), reason: "the rollout math clamps it to R"},
	{name: "largest count surge", maxUnavailable: count(0), maxSurge: count(math.MaxInt32), reason: "maxSurge has no upper bound"},
	{name: "largest percent surge", maxUnavailable: count(0), maxSurge: str("2147483647%")},
	{name: "plus sign", maxUnavailable: str("+5%"), maxSurge: count(1),
		want: []string{percentRuleFor("maxUnavailable", `"+5%"`)}},
	{name: "quoted count surge", maxUnavailable: count(1), maxSurge: str("5"),
		want: []string{percentRuleFor("maxSurge", `"5"`)}},
	{name: "quoted count counts as its number", maxUnavailable: str("5"), maxSurge: count(0),
		want:   []string{percentRuleFor("maxUnavailable", `"5"`)},
		reason: "upstream reads a string failing the pattern with strconv.Atoi: 5 is not zero"},
	{name: "quoted zero counts as zero", maxUnavailable: str("0"), maxSurge: count(0),
		want: []string{percentRuleFor("maxUnavailable", `"0"`), ru + `.maxUnavailable: Invalid value: "0": ` + bothZero}},
	{name: "fraction", maxUnavailable: count(1), maxSurge: str("5.5%"),
		want: []string{percentRuleFor("maxSurge", `"5.5%"`)}},
	{name: "leading space", maxUnavailable: str(" 5%"), maxSurge: str("25%"),
		want: []string{percentRuleFor("maxUnavailable", `" 5%"`)}},
	{name: "not a number with zero surge", maxUnavailable: str("abc"), maxSurge: count(0),
		want:   []string{percentRuleFor("maxUnavailable", `"abc"`), ru + `.maxUnavailable: Invalid value: "abc": ` + bothZero},
		reason: `"abc" reads as 0, so both rules fire`},
	{name: "leading zeros quoted as written", maxUnavailable: str("00%"), maxSurge: count(0),
		want: []string{ru + `.maxUnavailable: Invalid value: "00%": ` + bothZero}},
	{name: "empty string", maxUnavailable: count(2), maxSurge: str(""),
		want: []string{percentRuleFor("maxSurge", `""`)}},
	{name: "negative percent reads as zero", maxUnavailable: str("-1%"), maxSurge: str("0%"),
		want: []string{percentRuleFor("maxUnavailable", `"-1%"`), ru + `.maxUnavailable: Invalid value: "-1%": ` + bothZero}},
	{name: "count beyond int64 reads as nonzero", maxUnavailable: str("99999999999999999999"), maxSurge: count(0),
		want:   []string{percentRuleFor("maxUnavailable", `"99999999999999999999"`)},
		reason: "strconv.Atoi saturates out-of-range numbers"},
	{name: "negative counts", maxUnavailable: count(-1), maxSurge: count(-2),
		want: []string{ru + `.maxUnavailable: Invalid value: -1: must be greater than or equal to 0`,
			ru + `.maxSurge: Invalid value: -2: must be greater than or equal to 0`}},
	{name: "every rule", maxUnavailable: str("200%"), maxSurge: str("x"),
		want: []string{percentRuleFor("maxSurge", `"x"`), ru + `.maxUnavailable: Invalid value: "200%": must not be greater than 100%`}},
	{name: "rendered as JSON", maxUnavailable: str(`<a "b">`), maxSurge: count(1),
		want:   []string{percentRuleFor("maxUnavailable", `"\u003ca \"b\"\u003e"`)},
		reason: "the API server renders an IntOrString with encoding/json, which escapes < and >"},
	{name: "unavailable percent beyond int32", maxUnavailable: str("30000000000%"), maxSurge: count(0),
		want:   []string{ru + `.maxUnavailable: Invalid value: "30000000000%": must not be greater than 100%`},
		reason: "as upstream: it matches the pattern and is above 100"},
	{name: "surge percent beyond int32", maxUnavailable: count(0), maxSurge: str("30000000000%"),
		want:   []string{ru + `.maxSurge: Invalid value: "30000000000%": must not be greater than 2147483647% (rolloutmath keeps percentages in an int32)`},
		reason: "valid upstream; a Value cannot hold it"},
}

func TestValidateRollingUpdateIntOrString(t *testing.T) {
	for _, tt := range rollingUpdateIntOrStringCases {
		t.Run(tt.name, func(t *testing.T) {
			got := errorTexts(ValidateRollingUpdateIntOrString(tt.maxUnavailable, tt.maxSurge, ru))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("ValidateRollingUpdateIntOrString(%#v, %#v) =\n  %s\nwant\n  %s\n(%s)", tt.maxUnavailable, tt.maxSurge,
					strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "), tt.reason)
			}
			if ref := referenceValidateWritten(tt.maxUnavailable, tt.maxSurge); strings.Join(ref, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("the table disagrees with referenceValidateWritten(%#v, %#v) =\n  %s", tt.maxUnavailable, tt.maxSurge, strings.Join(ref, "\n  "))
			}
		})
	}
}

func TestValidateRollingUpdateIntOrStringDoesNotAllocateWhenValid(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	unavailable, surge := str("25%"), count(1)
	if n := testing.AllocsPerRun(100, func() { ValidateRollingUpdateIntOrString(unavailable, surge, ru) }); n != 0 {
		t.Errorf("ValidateRollingUpdateIntOrString allocates %v times per call on valid values, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { ValidateRollingUpdate(Percent(25), Int(1), ru) }); n != 0 {
		t.Errorf("ValidateRollingUpdate allocates %v times per call on valid values, want 0", n)
	}
}

func errorTexts(l field.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Error())
	}
	return out
}

// writtenForm returns v as an API object holds it: a count as an int, a
// percentage as its "N%" text.
func writtenForm(v Value) IntOrString {
	if v.IsPercent() {
		return str(v.String())
	}
	return count(v.Number())
}

// drawAnyValue draws any Value, negative ones included.
func drawAnyValue(t *rapid.T, label string) Value {
	n := rapid.Int32().Draw(t, label+"Number")
	if rapid.Bool().Draw(t, label+"IsPercent") {
		return Percent(n)
	}
	return Int(n)
}

func TestValidateAsWrittenEqualsAsParsed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		maxUnavailable, maxSurge := drawAnyValue(t, "maxUnavailable"), drawAnyValue(t, "maxSurge")
		got := errorTexts(ValidateRollingUpdateIntOrString(writtenForm(maxUnavailable), writtenForm(maxSurge), ru))
		want := errorTexts(ValidateRollingUpdate(maxUnavailable, maxSurge, ru))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("ValidateRollingUpdateIntOrString(%#v, %#v) =\n  %s\nValidateRollingUpdate(%v, %v) =\n  %s",
				writtenForm(maxUnavailable), writtenForm(maxSurge), strings.Join(got, "\n  "),
				maxUnavailable, maxSurge, strings.Join(want, "\n  "))
		}
	})
}

// upstreamPercent is the API server's percentage pattern.
var upstreamPercent = regexp.MustCompile(`^[0-9]+%$`)

// referenceValidateWritten is a slow, literal transcription of upstream's
// ValidateRollingUpdateDeployment, ValidatePositiveIntOrPercent,
// getIntOrPercentValue and IsNotMoreThan100Percent, with field.Error's
// rendering, plus our one documented difference (a maxSurge percentage
// beyond int32).
func referenceValidateWritten(maxUnavailable, maxSurge IntOrString) []string {
	render := func(s IntOrString) string {
		if !s.IsString {
			return strconv.Itoa(int(s.Int))
		}
		b, _ := json.Marshal(s.Str)
		return string(b)
	}
	percent := func(s IntOrString) (int, bool) {
		if !s.IsString || !upstreamPercent.MatchString(s.Str) {
			return 0, false
		}
		n, _ := strconv.Atoi(s.Str[:len(s.Str)-1])
		return n, true
	}
	number := func(s IntOrString) int {
		if n, ok := percent(s); ok {
			return n
		}
		if !s.IsString {
			return int(s.Int)
		}
		n, _ := strconv.Atoi(s.Str)
		return n
	}
	var out []string
	for _, f := range []struct {
		name string
		v    IntOrString
	}{{"maxUnavailable", maxUnavailable}, {"maxSurge", maxSurge}} {
		prefix := ru + "." + f.name + ": Invalid value: " + render(f.v) + ": "
		n, isPercent := percent(f.v)
		switch {
		case f.v.IsString && !isPercent:
			out = append(out, prefix+percentRule)
		case !f.v.IsString && f.v.Int < 0:
			out = append(out, prefix+"must be greater than or equal to 0")
		case isPercent && f.name == "maxSurge" && n > math.MaxInt32:
			out = append(out, prefix+"must not be greater than 2147483647% (rolloutmath keeps percentages in an int32)")
		}
	}
	if number(maxUnavailable) == 0 && number(maxSurge) == 0 {
		out = append(out, ru+".maxUnavailable: Invalid value: "+render(maxUnavailable)+": "+bothZero)
	}
	if n, ok := percent(maxUnavailable); ok && n > 100 {
		out = append(out, ru+".maxUnavailable: Invalid value: "+render(maxUnavailable)+": must not be greater than 100%")
	}
	return out
}

func FuzzValidateRollingUpdateIntOrString(f *testing.F) {
	for _, tt := range intOrStringValueCases {
		f.Add(tt.in.Str, tt.in.Int)
	}
	for _, tt := range rollingUpdateIntOrStringCases {
		f.Add(tt.maxUnavailable.Str, tt.maxSurge.Int)
		f.Add(tt.maxSurge.Str, tt.maxUnavailable.Int)
	}
	f.Fuzz(func(t *testing.T, s string, n int32) {
		written := str(s)
		got, ok := written.Value()
		p, err := Parse(s)
		if wantOK := err == nil && p.IsPercent(); ok != wantOK || (ok && got != p) {
			t.Fatalf("%#v.Value() = %v, %v; Parse(%q) = %v, %v", written, got, ok, s, p, err)
		}
		for _, pair := range [][2]IntOrString{{written, count(n)}, {count(n), written}, {written, written}} {
			gotErrs := errorTexts(ValidateRollingUpdateIntOrString(pair[0], pair[1], ru))
			want := referenceValidateWritten(pair[0], pair[1])
			if strings.Join(gotErrs, "\n") != strings.Join(want, "\n") {
				t.Fatalf("ValidateRollingUpdateIntOrString(%#v, %#v) =\n  %s\nreference\n  %s", pair[0], pair[1],
					strings.Join(gotErrs, "\n  "), strings.Join(want, "\n  "))
			}
		}
	})
}
