package intorpercent

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// pct and cnt build *IntOrStrings for the tables.
func pct(s string) *IntOrString { return &IntOrString{IsString: true, Str: s} }
func cnt(n int32) *IntOrString  { return &IntOrString{Int: n} }

// kruiseCase is a successful scaling with both roundings.
type kruiseCase struct {
	name     string
	in       *IntOrString
	total    int32
	up, down int32
	reason   string
}

// kruiseErrorCase is a failing scaling: the value returned with the
// error, the sentinel it wraps and its full text.
type kruiseErrorCase struct {
	name    string
	in      *IntOrString
	total   int32
	r       Rounding
	want    int32
	wantErr error
	text    string
	reason  string
}

// legacyCases hold values observed by running the real apimachinery
// reader (docs/cloneset.md#percent-readers) and the edges of the legacy reading.
var legacyCases = []kruiseCase{
	{name: "quoted number is a percent", in: pct("25"), total: 10, up: 3, down: 2, reason: "a string without '%' is a percentage"},
	{name: "inner percent deleted", in: pct("2%5"), total: 10, up: 3, down: 2, reason: "every '%' is deleted, giving 25"},
	{name: "plus sign", in: pct("+25%"), total: 10, up: 3, down: 2, reason: "Atoi accepts a sign"},
	{name: "over a hundred percent", in: pct("120%"), total: 5, up: 6, down: 6, reason: "nothing bounds a percentage"},
	{name: "negative percent", in: pct("-10%"), total: 10, up: -1, down: -1, reason: "passes through, ceil(-1) = -1"},
	{name: "negative fraction rounds toward its direction", in: pct("-15%"), total: 10, up: -1, down: -2},
	{name: "leading zeros", in: pct("007%"), total: 100, up: 7, down: 7},
	{name: "many percent signs", in: pct("%%2%%0%%"), total: 10, up: 2, down: 2},
	{name: "default maxUnavailable", in: pct("20%"), total: 17, up: 4, down: 3, reason: "3.4"},
	{name: "count", in: cnt(3), total: 10, up: 3, down: 3},
	{name: "negative count passes through", in: cnt(-3), total: 10, up: -3, down: -3},
	{name: "count ignores Str", in: &IntOrString{Int: 2, Str: "50%"}, total: 10, up: 2, down: 2},
	{name: "total zero", in: pct("50%"), total: 0, up: 0, down: 0},
	{name: "large percent within int32", in: pct("3000000000%"), total: 10, up: 300000000, down: 300000000,
		reason: "Atoi reads int64, so a percentage beyond int32 still scales"},
	{name: "one percent of max", in: pct("1%"), total: math.MaxInt32, up: 21474837, down: 21474836},
}

var legacyErrorCases = []kruiseErrorCase{
	{name: "nil", in: nil, total: 10, r: Up, wantErr: field.ErrRequired, text: "nil value for IntOrString"},
	{name: "fraction", in: pct("33.3%"), total: 10, r: Up, wantErr: field.ErrSyntax, reason: "Atoi refuses a fraction; the controller then uses 0",
		text: `invalid value for IntOrString: invalid value "33.3%": strconv.Atoi: parsing "33.3": invalid syntax`},
	{name: "only a percent sign", in: pct("%"), total: 10, r: Up, wantErr: field.ErrSyntax, reason: "nothing is left for Atoi once every '%' is deleted",
		text: `invalid value for IntOrString: invalid value "%": strconv.Atoi: parsing "": invalid syntax`},
	{name: "empty", in: pct(""), total: 10, r: Down, wantErr: field.ErrSyntax,
		text: `invalid value for IntOrString: invalid value "": strconv.Atoi: parsing "": invalid syntax`},
	{name: "exponent", in: pct("1e2%"), total: 10, r: Up, wantErr: field.ErrSyntax,
		text: `invalid value for IntOrString: invalid value "1e2%": strconv.Atoi: parsing "1e2": invalid syntax`},
	{name: "space", in: pct(" 5%"), total: 10, r: Up, wantErr: field.ErrSyntax,
		text: `invalid value for IntOrString: invalid value " 5%": strconv.Atoi: parsing " 5": invalid syntax`},
	{name: "beyond int64", in: pct("99999999999999999999%"), total: 10, r: Up, wantErr: field.ErrRange,
		text: `invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range`},
	{name: "quoted as upstream quotes", in: pct("a\"b\n%"), total: 10, r: Up, wantErr: field.ErrSyntax,
		text: `invalid value for IntOrString: invalid value "a\"b\n%": strconv.Atoi: parsing "a\"b\n": invalid syntax`},
	{name: "overflow saturates", in: pct("300%"), total: 1_000_000_000, r: Up, want: math.MaxInt32, wantErr: ErrOverflow,
		text:   `intorpercent: scaling "300%" of 1000000000: scaled value overflows int32`,
		reason: "upstream's 64-bit int holds 3e9; we saturate and say so"},
	{name: "negative overflow saturates", in: pct("-300%"), total: 1_000_000_000, r: Down, want: math.MinInt32, wantErr: ErrOverflow,
		text: `intorpercent: scaling "-300%" of 1000000000: scaled value overflows int32`},
	{name: "beyond int64 result saturates", in: pct("9223372036854775807%"), total: 1000, r: Up, want: math.MaxInt32, wantErr: ErrOverflow,
		text:   `intorpercent: scaling "9223372036854775807%" of 1000: scaled value overflows int32`,
		reason: "upstream's int conversion is implementation-defined here (amd64: MinInt64)"},
	{name: "negative total", in: pct("25%"), total: -1, r: Up, wantErr: ErrNegativeTotal,
		text: `intorpercent: scaling "25%" of -1: total must not be negative`},
	{name: "negative total with a count", in: cnt(3), total: -1, r: Up, wantErr: ErrNegativeTotal,
		text: `intorpercent: scaling "3" of -1: total must not be negative`},
	{name: "unknown rounding", in: pct("25%"), total: 10, r: Rounding(9), wantErr: ErrRounding,
		text: `intorpercent: scaling "25%" of 10: unknown rounding`},
}

// fractionalCases hold values observed by running kruise's reader, kruise's
// own unit test cases (TestGetScaledValueFromIntOrPercent) and the parser
// cases behind the partition examples of docs/cloneset.md#partition (CalculatePartitionReplicas rounds Up,
// before its guards and clamp).
var fractionalCases = []kruiseCase{
	{name: "fraction", in: pct("33.3%"), total: 10, up: 4, down: 3, reason: "33.3% of 10 is 3.33"},
	{name: "kruise test: 99.99% of 999", in: pct("99.99%"), total: 999, up: 999, down: 998, reason: "kruise unit test"},
	{name: "kruise test: 0.01% of 95", in: pct("0.01%"), total: 95, up: 1, down: 0, reason: "kruise unit test"},
	{name: "kruise test: 90% of 100", in: pct("90%"), total: 100, up: 90, down: 90},
	{name: "kruise test: 90% of 95", in: pct("90%"), total: 95, up: 86, down: 85},
	{name: "kruise test: count", in: cnt(123), total: 0, up: 123, down: 123},
	{name: "exponent", in: pct("1e1%"), total: 10, up: 1, down: 1, reason: "ParseFloat reads 1e1 as 10"},
	{name: "exponent hundred", in: pct("1e2%"), total: 5, up: 5, down: 5, reason: "partition 1e2% of 5 (guard G2 then gives 4)"},
	{name: "plus sign", in: pct("+5%"), total: 100, up: 5, down: 5},
	{name: "leading dot", in: pct(".5%"), total: 1000, up: 5, down: 5},
	{name: "hexadecimal", in: pct("0x1p3%"), total: 100, up: 8, down: 8, reason: "0x1p3 is 8"},
	{name: "negative zero", in: pct("-0%"), total: 10, up: 0, down: 0},
	{name: "negative percent", in: pct("-10%"), total: 10, up: -1, down: -1, reason: "partition -10% of 10 gives -1, clamped to 0 later"},
	{name: "negative fraction", in: pct("-0.5%"), total: 10, up: 0, down: -1, reason: "-0.05: ceiling is -0, which is 0"},
	{name: "float64 product above an integer", in: pct("64.4%"), total: 250, up: 162, down: 161,
		reason: "64.4*250 is 16100.000000000002 in float64: kruise rounds Up to 162 where exact arithmetic gives 161"},
	{name: "float64 product below an integer", in: pct("18.4%"), total: 375, up: 69, down: 68,
		reason: "18.4*375 is 6899.999999999999 in float64: kruise rounds Down to 68 where exact arithmetic gives 69"},
	// The parser step of CalculatePartitionReplicas (Up), before its guards
	// and clamp (docs/cloneset.md#partition).
	{name: "partition 99% of 9", in: pct("99%"), total: 9, up: 9, down: 8, reason: "8.91; guard G2 then gives 8"},
	{name: "partition 99% of 99", in: pct("99%"), total: 99, up: 99, down: 98, reason: "98.01; G2 then gives 98"},
	{name: "partition 100% of 99", in: pct("100%"), total: 99, up: 99, down: 99, reason: "the literal 100% skips G2"},
	{name: "partition 1% of nil replicas", in: pct("1%"), total: 1, up: 1, down: 0, reason: "nil replicas reads as 1; 0.01 rounds up"},
	{name: "partition 0.01% of 9", in: pct("0.01%"), total: 9, up: 1, down: 0, reason: "guard G1 comes from the ceiling"},
	{name: "partition 99% of 2", in: pct("99%"), total: 2, up: 2, down: 1, reason: "1.98; G2 then gives 1"},
	{name: "partition 50% of 1", in: pct("50%"), total: 1, up: 1, down: 0, reason: "no G2 at R=1"},
	{name: "partition 100.0% of 5", in: pct("100.0%"), total: 5, up: 5, down: 5, reason: "not the literal 100%, so G2 gives 4"},
	{name: "partition 150% of 5", in: pct("150%"), total: 5, up: 8, down: 7, reason: "7.5; clamped to 5 later"},
	{name: "partition 50% of 0", in: pct("50%"), total: 0, up: 0, down: 0, reason: "a total of 0 gives 0"},
	{name: "partition count 12 of 10", in: cnt(12), total: 10, up: 12, down: 12, reason: "clamped to 10 later"},
	{name: "partition count -1", in: cnt(-1), total: 10, up: -1, down: -1, reason: "clamped to 0 later"},
	{name: "partition 99.99% of 999", in: pct("99.99%"), total: 999, up: 999, down: 998, reason: "G2 then gives 998"},
}

var fractionalErrorCases = []kruiseErrorCase{
	{name: "nil", in: nil, total: 10, r: Up, wantErr: field.ErrRequired, text: "nil value for IntOrString"},
	{name: "quoted number", in: pct("25"), total: 10, r: Up, wantErr: field.ErrSyntax, text: "invalid type: string is not a percentage",
		reason: "the fractional reader needs a '%', kruise unit test (90)"},
	{name: "partition string 99 of 9", in: pct("99"), total: 9, r: Up, wantErr: field.ErrSyntax, text: "invalid type: string is not a percentage",
		reason: "a partition without '%' is refused, kruise unit test"},
	{name: "not a number", in: pct("abc"), total: 10, r: Up, wantErr: field.ErrSyntax, text: "invalid type: string is not a percentage",
		reason: "webhook rule V2: the suffix is checked first"},
	{name: "double percent", in: pct("5%%"), total: 10, r: Up, wantErr: field.ErrSyntax, text: `strconv.ParseFloat: parsing "5%": invalid syntax`,
		reason: "only one '%' is removed"},
	{name: "kruise test: percent alone", in: pct("%"), total: 10, r: Up, wantErr: field.ErrSyntax, text: `strconv.ParseFloat: parsing "": invalid syntax`},
	{name: "kruise test: wrong suffix", in: pct("90#"), total: 10, r: Up, wantErr: field.ErrSyntax, text: "invalid type: string is not a percentage"},
	{name: "kruise test: not a number", in: pct("#%"), total: 10, r: Up, wantErr: field.ErrSyntax, text: `strconv.ParseFloat: parsing "#": invalid syntax`},
	{name: "letters before percent", in: pct("abc%"), total: 10, r: Up, wantErr: field.ErrSyntax, text: `strconv.ParseFloat: parsing "abc": invalid syntax`},
	{name: "space", in: pct(" 5%"), total: 10, r: Up, wantErr: field.ErrSyntax, text: `strconv.ParseFloat: parsing " 5": invalid syntax`},
	{name: "float64 range", in: pct("1e400%"), total: 10, r: Up, wantErr: field.ErrRange, text: `strconv.ParseFloat: parsing "1e400": value out of range`},
	{name: "NaN", in: pct("NaN%"), total: 10, r: Up, wantErr: ErrNotFinite, text: `intorpercent: scaling "NaN%" of 10: percentage is not a finite number`,
		reason: "kruise's int conversion of NaN depends on the CPU (amd64: MinInt64, arm64: 0)"},
	{name: "infinity", in: pct("Inf%"), total: 10, r: Up, wantErr: ErrNotFinite, text: `intorpercent: scaling "Inf%" of 10: percentage is not a finite number`,
		reason: "amd64 gives MinInt64, arm64 MaxInt64"},
	{name: "negative infinity of zero", in: pct("-infinity%"), total: 0, r: Down, wantErr: ErrNotFinite,
		text: `intorpercent: scaling "-infinity%" of 0: percentage is not a finite number`, reason: "-Inf*0 is NaN upstream"},
	{name: "overflow within int64", in: pct("1e12%"), total: 10, r: Up, want: math.MaxInt32, wantErr: ErrOverflow,
		text: `intorpercent: scaling "1e12%" of 10: scaled value overflows int32`, reason: "kruise holds 1e11 exactly; we saturate"},
	{name: "negative overflow", in: pct("-1e12%"), total: 10, r: Down, want: math.MinInt32, wantErr: ErrOverflow,
		text: `intorpercent: scaling "-1e12%" of 10: scaled value overflows int32`},
	{name: "float64 product overflows", in: pct("1e308%"), total: 1000, r: Up, want: math.MaxInt32, wantErr: ErrOverflow,
		text: `intorpercent: scaling "1e308%" of 1000: scaled value overflows int32`, reason: "the product is +Inf"},
	{name: "negative total", in: pct("25%"), total: -1, r: Up, wantErr: ErrNegativeTotal,
		text: `intorpercent: scaling "25%" of -1: total must not be negative`},
	{name: "unknown rounding", in: cnt(1), total: 10, r: Rounding(2), wantErr: ErrRounding,
		text: `intorpercent: scaling "1" of 10: unknown rounding`},
}

func testKruiseCases(t *testing.T, name string, f func(*IntOrString, int32, Rounding) (int32, error), cases []kruiseCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				r    Rounding
				want int32
			}{{Up, tt.up}, {Down, tt.down}} {
				got, err := f(tt.in, tt.total, c.r)
				if err != nil || got != c.want {
					t.Errorf("%s(%#v, %d, %v) = %d, %v; want %d, nil (%s)", name, *tt.in, tt.total, c.r, got, err, c.want, tt.reason)
				}
			}
		})
	}
}

func testKruiseErrorCases(t *testing.T, name string, f func(*IntOrString, int32, Rounding) (int32, error), cases []kruiseErrorCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f(tt.in, tt.total, tt.r)
			if got != tt.want || !errors.Is(err, tt.wantErr) {
				t.Fatalf("%s(%v, %d, %v) = %d, %v; want %d and an error wrapping %v (%s)", name, tt.in, tt.total, tt.r, got, err, tt.want, tt.wantErr, tt.reason)
			}
			if err.Error() != tt.text {
				t.Errorf("%s(%v, %d, %v) error = %q, want %q", name, tt.in, tt.total, tt.r, err, tt.text)
			}
			var ue *field.Error
			var se *ScaleError
			switch {
			case errors.As(err, &ue):
				if tt.wantErr != field.ErrRequired && tt.wantErr != field.ErrSyntax && tt.wantErr != field.ErrRange {
					t.Errorf("%s: %v is an *field.Error, want a *ScaleError", name, err)
				}
			case errors.As(err, &se):
				if se.Written == nil || *se.Written != *tt.in || se.Total != tt.total {
					t.Errorf("%s: %#v does not name the input %#v and total %d", name, se, *tt.in, tt.total)
				}
			default:
				t.Errorf("%s: error %#v is neither an *field.Error nor a *ScaleError", name, err)
			}
		})
	}
}

func TestScaledLegacy(t *testing.T) { testKruiseCases(t, "ScaledLegacy", ScaledLegacy, legacyCases) }
func TestScaledLegacyErrors(t *testing.T) {
	testKruiseErrorCases(t, "ScaledLegacy", ScaledLegacy, legacyErrorCases)
}
func TestScaledFractional(t *testing.T) {
	testKruiseCases(t, "ScaledFractional", ScaledFractional, fractionalCases)
}
func TestScaledFractionalErrors(t *testing.T) {
	testKruiseErrorCases(t, "ScaledFractional", ScaledFractional, fractionalErrorCases)
}

// TestKruiseSpecExample14 puts the same three strings through both
// readers; the answers were observed by running kruise v1.9.1
// (docs/cloneset.md#percent-readers).
func TestKruiseSpecExample14(t *testing.T) {
	tests := []struct {
		in                   string
		legacy, fractional   int32
		legacyOK, fractionOK bool
	}{
		{in: "25", legacy: 3, legacyOK: true},
		{in: "2%5", legacy: 3, legacyOK: true},
		{in: "33.3%", fractional: 4, fractionOK: true},
	}
	for _, tt := range tests {
		l, lerr := ScaledLegacy(pct(tt.in), 10, Up)
		f, ferr := ScaledFractional(pct(tt.in), 10, Up)
		if l != tt.legacy || (lerr == nil) != tt.legacyOK {
			t.Errorf("ScaledLegacy(%q, 10, Up) = %d, %v; want %d, ok=%v", tt.in, l, lerr, tt.legacy, tt.legacyOK)
		}
		if f != tt.fractional || (ferr == nil) != tt.fractionOK {
			t.Errorf("ScaledFractional(%q, 10, Up) = %d, %v; want %d, ok=%v", tt.in, f, ferr, tt.fractional, tt.fractionOK)
		}
	}
}

func TestKruiseModesDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	percent, fraction, count := pct("25%"), pct("33.3%"), cnt(3)
	var sink int32
	if n := testing.AllocsPerRun(100, func() {
		a, _ := ScaledLegacy(percent, 10, Up)
		b, _ := ScaledLegacy(count, 10, Down)
		sink += a + b
	}); n != 0 {
		t.Errorf("ScaledLegacy allocates %v times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		a, _ := ScaledFractional(fraction, 10, Up)
		b, _ := ScaledFractional(count, 10, Down)
		sink += a + b
	}); n != 0 {
		t.Errorf("ScaledFractional allocates %v times per call, want 0", n)
	}
	_ = sink
}

// referenceResult is what our documented contract makes of upstream's
// float64 result f (already rounded): NaN or infinite input is
// ErrNotFinite with 0, beyond int32 is ErrOverflow saturated.
func referenceResult(f float64, notFinite bool) (int32, error) {
	switch {
	case notFinite:
		return 0, ErrNotFinite
	case f > math.MaxInt32:
		return math.MaxInt32, ErrOverflow
	case f < math.MinInt32:
		return math.MinInt32, ErrOverflow
	}
	return int32(f), nil
}

// referenceFractional is kruise's GetScaledValueFromIntOrPercent written
// out step by step in float64, as its source reads, ending in our
// documented results where kruise's int conversion is wider than int32
// or depends on the CPU. errKind is the sentinel the error must wrap.
func referenceFractional(s IntOrString, total int32, up bool) (want int32, errKind error) {
	if !s.IsString {
		return s.Int, nil
	}
	if !strings.HasSuffix(s.Str, "%") {
		return 0, field.ErrSyntax
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s.Str, "%"), 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, field.ErrRange
		}
		return 0, field.ErrSyntax
	}
	f := v * float64(total) / 100
	if up {
		f = math.Ceil(f)
	} else {
		f = math.Floor(f)
	}
	return referenceResult(f, math.IsNaN(v) || math.IsInf(v, 0))
}

// referenceLegacy is apimachinery's GetValueFromIntOrPercent written out
// step by step: every '%' deleted, strconv.Atoi (a 64-bit int on the
// platforms the tests run on), then float64.
func referenceLegacy(s IntOrString, total int32, up bool) (want int32, errKind error) {
	if !s.IsString {
		return s.Int, nil
	}
	v, err := strconv.Atoi(strings.Replace(s.Str, "%", "", -1))
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, field.ErrRange
		}
		return 0, field.ErrSyntax
	}
	f := float64(v) * float64(total) / 100
	if up {
		f = math.Ceil(f)
	} else {
		f = math.Floor(f)
	}
	return referenceResult(f, false)
}

// drawDecimal draws text such as "-012.50": an optional sign, digits,
// optionally a point and more digits.
func drawDecimal(t *rapid.T, label string) string {
	return rapid.StringMatching(`[+-]?[0-9]{0,12}(\.[0-9]{0,6})?`).Draw(t, label)
}

// drawFractionalInput draws what a user may write where kruise reads a
// fractional percentage: counts, decimal percentages, exponents and hex,
// the special values, and text without a '%'.
func drawFractionalInput(t *rapid.T) IntOrString {
	switch rapid.IntRange(0, 5).Draw(t, "kind") {
	case 0:
		return IntOrString{Int: rapid.Int32().Draw(t, "count")}
	case 1, 2:
		return IntOrString{IsString: true, Str: drawDecimal(t, "decimal") + "%"}
	case 3:
		e := rapid.StringMatching(`[+-]?[0-9]{1,4}(\.[0-9]{0,3})?[eE][+-]?[0-9]{1,3}`).Draw(t, "exponent")
		return IntOrString{IsString: true, Str: e + "%"}
	case 4:
		return IntOrString{IsString: true, Str: rapid.SampledFrom([]string{
			"NaN%", "Inf%", "-Inf%", "+infinity%", "0x1p3%", "0x1.8p1%", "1_0%", "%", "%%", "5%%", "25", "", "1e400%", "-1e400%",
		}).Draw(t, "special")}
	default:
		return IntOrString{IsString: true, Str: rapid.String().Draw(t, "text")}
	}
}

// drawLegacyInput draws what a user may write where kruise's controller
// uses the legacy reader: counts, signed integers with '%' signs
// scattered through them, and other text.
func drawLegacyInput(t *rapid.T) IntOrString {
	switch rapid.IntRange(0, 4).Draw(t, "kind") {
	case 0:
		return IntOrString{Int: rapid.Int32().Draw(t, "count")}
	case 1, 2:
		s := rapid.StringMatching(`[+-]?[0-9]{0,20}`).Draw(t, "integer")
		var b strings.Builder
		for i := 0; i <= len(s); i++ {
			for n := rapid.IntRange(0, 2).Draw(t, "percents"); n > 0; n-- {
				b.WriteByte('%')
			}
			if i < len(s) {
				b.WriteByte(s[i])
			}
		}
		return IntOrString{IsString: true, Str: b.String()}
	case 3:
		return IntOrString{IsString: true, Str: drawDecimal(t, "decimal") + "%"}
	default:
		return IntOrString{IsString: true, Str: rapid.String().Draw(t, "text")}
	}
}

func drawTotal(t *rapid.T) int32 {
	if rapid.Bool().Draw(t, "smallTotal") {
		return rapid.Int32Range(0, 1000).Draw(t, "total")
	}
	return rapid.Int32Range(0, math.MaxInt32).Draw(t, "total")
}

func checkAgainstReference(t *rapid.T, name string, s IntOrString, total int32, r Rounding, got int32, err error, want int32, wantErr error) {
	if wantErr == nil {
		if err != nil || got != want {
			t.Fatalf("%s(%#v, %d, %v) = %d, %v; reference %d", name, s, total, r, got, err, want)
		}
		return
	}
	if got != want || !errors.Is(err, wantErr) {
		t.Fatalf("%s(%#v, %d, %v) = %d, %v; reference %d with an error wrapping %v", name, s, total, r, got, err, want, wantErr)
	}
}

func TestScaledFractionalMatchesFloatReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawFractionalInput(t)
		total := drawTotal(t)
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		got, err := ScaledFractional(&s, total, r)
		want, wantErr := referenceFractional(s, total, r == Up)
		checkAgainstReference(t, "ScaledFractional", s, total, r, got, err, want, wantErr)
	})
}

func TestScaledLegacyMatchesFloatReference(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("the reference calls strconv.Atoi, whose range is int64 only on 64-bit platforms")
	}
	rapid.Check(t, func(t *rapid.T) {
		s := drawLegacyInput(t)
		total := drawTotal(t)
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		got, err := ScaledLegacy(&s, total, r)
		want, wantErr := referenceLegacy(s, total, r == Up)
		checkAgainstReference(t, "ScaledLegacy", s, total, r, got, err, want, wantErr)
	})
}

// TestScaledLegacyErrorTextIsUpstreams builds upstream's message with
// upstream's own calls (fmt's %q and %v, strconv.Atoi) and compares.
func TestScaledLegacyErrorTextIsUpstreams(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("strconv.Atoi reads int64 only on 64-bit platforms")
	}
	rapid.Check(t, func(t *rapid.T) {
		s := drawLegacyInput(t)
		_, err := ScaledLegacy(&s, 10, Up)
		_, atoiErr := strconv.Atoi(strings.Replace(s.Str, "%", "", -1))
		if !s.IsString || atoiErr == nil {
			if errors.As(err, new(*field.Error)) {
				t.Fatalf("ScaledLegacy(%#v) = %v, want no upstream error", s, err)
			}
			return
		}
		want := fmt.Sprintf("invalid value for IntOrString: %v", fmt.Errorf("invalid value %q: %v", s.Str, atoiErr))
		if err == nil || err.Error() != want {
			t.Fatalf("ScaledLegacy(%#v) error = %v, want %q", s, err, want)
		}
	})
}

// TestScaledFractionalErrorTextIsUpstreams compares with the error
// strconv.ParseFloat returns, which kruise passes on unwrapped.
func TestScaledFractionalErrorTextIsUpstreams(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawFractionalInput(t)
		if !s.IsString || !strings.HasSuffix(s.Str, "%") {
			return
		}
		_, err := ScaledFractional(&s, 10, Up)
		_, perr := strconv.ParseFloat(s.Str[:len(s.Str)-1], 64)
		if (perr == nil) != !errors.As(err, new(*field.Error)) {
			t.Fatalf("ScaledFractional(%#v) = %v; ParseFloat error %v", s, err, perr)
		}
		if perr != nil && err.Error() != perr.Error() {
			t.Fatalf("ScaledFractional(%#v) error = %q, want ParseFloat's %q", s, err, perr)
		}
	})
}

// checkUpDown checks the rounding invariant on one input: when both
// roundings succeed, Up >= Down and they differ by at most 1.
func checkUpDown(t *rapid.T, name string, f func(*IntOrString, int32, Rounding) (int32, error), s IntOrString, total int32) {
	up, err1 := f(&s, total, Up)
	down, err2 := f(&s, total, Down)
	if (err1 == nil) != (err2 == nil) && !errors.Is(err1, ErrOverflow) && !errors.Is(err2, ErrOverflow) {
		t.Fatalf("%s(%#v, %d): Up error %v, Down error %v; the rounding must not decide validity", name, s, total, err1, err2)
	}
	if err1 != nil || err2 != nil {
		return
	}
	if d := int64(up) - int64(down); d != 0 && d != 1 {
		t.Fatalf("%s(%#v, %d): Up %d - Down %d = %d, want 0 or 1", name, s, total, up, down, d)
	}
}

func TestScaledFractionalUpAtLeastDownByAtMostOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkUpDown(t, "ScaledFractional", ScaledFractional, drawFractionalInput(t), drawTotal(t))
	})
}

func TestScaledLegacyUpAtLeastDownByAtMostOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkUpDown(t, "ScaledLegacy", ScaledLegacy, drawLegacyInput(t), drawTotal(t))
	})
}

// TestKruiseModesAgreeWithScaledOnStrictValues: on what Parse accepts
// (a count or a whole percentage), the two kruise readers and
// Value.Scaled give the same number and the same overflow.
func TestKruiseModesAgreeWithScaledOnStrictValues(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawValue(t, "v")
		total := drawTotal(t)
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		written := writtenForm(v)
		want, wantErr := v.Scaled(total, r)
		for _, m := range []struct {
			name string
			f    func(*IntOrString, int32, Rounding) (int32, error)
		}{{"ScaledLegacy", ScaledLegacy}, {"ScaledFractional", ScaledFractional}} {
			got, err := m.f(&written, total, r)
			if got != want || errors.Is(err, ErrOverflow) != errors.Is(wantErr, ErrOverflow) || (err == nil) != (wantErr == nil) {
				t.Fatalf("%s(%#v, %d, %v) = %d, %v; %v.Scaled = %d, %v", m.name, written, total, r, got, err, v, want, wantErr)
			}
		}
	})
}

func TestKruiseModesDoNotModifyInput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawFractionalInput(t)
		before := s
		_, _ = ScaledFractional(&s, 10, Up)
		_, _ = ScaledLegacy(&s, 10, Down)
		if s != before {
			t.Fatalf("input changed from %#v to %#v", before, s)
		}
	})
}

// fuzzSeeds adds every table case of both modes to f.
func fuzzSeeds(f *testing.F) {
	add := func(in *IntOrString, total int32) {
		if in == nil {
			f.Add(true, false, int32(0), "", total)
			return
		}
		f.Add(false, in.IsString, in.Int, in.Str, total)
	}
	for _, cs := range [][]kruiseCase{legacyCases, fractionalCases} {
		for _, tt := range cs {
			add(tt.in, tt.total)
		}
	}
	for _, cs := range [][]kruiseErrorCase{legacyErrorCases, fractionalErrorCases} {
		for _, tt := range cs {
			add(tt.in, tt.total)
		}
	}
}

func fuzzKruise(f *testing.F, name string, mode func(*IntOrString, int32, Rounding) (int32, error),
	ref func(IntOrString, int32, bool) (int32, error)) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, isNil, isString bool, n int32, str string, total int32) {
		var in *IntOrString
		if !isNil {
			in = &IntOrString{IsString: isString, Int: n, Str: str}
		}
		for _, r := range []Rounding{Down, Up} {
			got, err := mode(in, total, r)
			var want int32
			var wantErr error
			switch {
			case in == nil:
				wantErr = field.ErrRequired
			case total < 0:
				wantErr = ErrNegativeTotal
			default:
				want, wantErr = ref(*in, total, r == Up)
			}
			if got != want || (wantErr == nil) != (err == nil) || (wantErr != nil && !errors.Is(err, wantErr)) {
				t.Fatalf("%s(%#v, %d, %v) = %d, %v; reference %d, %v", name, in, total, r, got, err, want, wantErr)
			}
		}
	})
}

func FuzzScaledFractional(f *testing.F) {
	fuzzKruise(f, "ScaledFractional", ScaledFractional, referenceFractional)
}

func FuzzScaledLegacy(f *testing.F) {
	if strconv.IntSize != 64 {
		f.Skip("the reference calls strconv.Atoi, whose range is int64 only on 64-bit platforms")
	}
	fuzzKruise(f, "ScaledLegacy", ScaledLegacy, referenceLegacy)
}

func BenchmarkScaledFractional(b *testing.B) {
	for _, s := range []string{"25%", "99.99%"} {
		in := pct(s)
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ScaledFractional(in, 999, Up); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScaledLegacy(b *testing.B) {
	for _, s := range []string{"25%", "25"} {
		in := pct(s)
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ScaledLegacy(in, 999, Up); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
