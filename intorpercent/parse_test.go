package intorpercent

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

var parseCases = []struct {
	in   string
	want Value
}{
	{"0", Int(0)},
	{"3", Int(3)},
	{"007", Int(7)},
	{"2147483647", Int(math.MaxInt32)},
	{"0%", Percent(0)},
	{"25%", Percent(25)},
	{"05%", Percent(5)},
	{"100%", Percent(100)},
	{"150%", Percent(150)},
	{"2147483647%", Percent(math.MaxInt32)},
}

var parseErrorCases = []struct {
	in      string
	wantErr error
	text    string
}{
	{"", field.ErrSyntax, `intorpercent: parsing "": empty string`},
	{"%", field.ErrSyntax, `intorpercent: parsing "%": a '%' needs a number before it`},
	{"2.5%", field.ErrSyntax, `intorpercent: parsing "2.5%": fractional percentages are not allowed`},
	{"25.5%", field.ErrSyntax, `intorpercent: parsing "25.5%": fractional percentages are not allowed`},
	{"2.5", field.ErrSyntax, `intorpercent: parsing "2.5": fractional numbers are not allowed`},
	{" 25%", field.ErrSyntax, `intorpercent: parsing " 25%": spaces are not allowed`},
	{"25% ", field.ErrSyntax, `intorpercent: parsing "25% ": spaces are not allowed`},
	{"25 %", field.ErrSyntax, `intorpercent: parsing "25 %": spaces are not allowed`},
	{"+5%", field.ErrSyntax, `intorpercent: parsing "+5%": a sign is not allowed`},
	{"-1%", field.ErrSyntax, `intorpercent: parsing "-1%": a sign is not allowed`},
	{"-3", field.ErrSyntax, `intorpercent: parsing "-3": a sign is not allowed`},
	{"25%%", field.ErrSyntax, `intorpercent: parsing "25%%": only one trailing '%' is allowed`},
	{"%5%", field.ErrSyntax, `intorpercent: parsing "%5%": only one trailing '%' is allowed`},
	{"abc", field.ErrSyntax, `intorpercent: parsing "abc": want a whole number such as "3" or a percentage such as "25%"`},
	{"1_0%", field.ErrSyntax, `intorpercent: parsing "1_0%": want a whole number such as "3" or a percentage such as "25%"`},
	{"0x10%", field.ErrSyntax, `intorpercent: parsing "0x10%": want a whole number such as "3" or a percentage such as "25%"`},
	{"2147483648", field.ErrRange, `intorpercent: parsing "2147483648": value out of range (at most 2147483647)`},
	{"99999999999", field.ErrRange, `intorpercent: parsing "99999999999": value out of range (at most 2147483647)`},
	{"99999999999999999999%", field.ErrRange, `intorpercent: parsing "99999999999999999999%": value out of range (at most 2147483647)`},
}

func TestParse(t *testing.T) {
	for _, tt := range parseCases {
		got, err := Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, nil", tt.in, got, err, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range parseErrorCases {
		got, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, nil; want error %q", tt.in, got, tt.text)
			continue
		}
		if got != (Value{}) {
			t.Errorf("Parse(%q) returned %v with its error, want the zero Value", tt.in, got)
		}
		if !errors.Is(err, tt.wantErr) {
			t.Errorf("Parse(%q) error %v does not wrap %v", tt.in, err, tt.wantErr)
		}
		if err.Error() != tt.text {
			t.Errorf("Parse(%q) error = %q, want %q", tt.in, err, tt.text)
		}
		var pe *field.Error
		if !errors.As(err, &pe) || pe.Value != strconv.Quote(tt.in) {
			t.Errorf("Parse(%q) error %#v is not a *field.Error naming the input", tt.in, err)
		}
	}
}

func TestString(t *testing.T) {
	for _, tt := range []struct {
		v    Value
		want string
	}{{Int(0), "0"}, {Value{}, "0"}, {Int(3), "3"}, {Int(-3), "-3"}, {Percent(25), "25%"},
		{Percent(-5), "-5%"}, {Int(math.MinInt32), "-2147483648"}, {Percent(math.MaxInt32), "2147483647%"}} {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("String() of %#v = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func drawValue(t *rapid.T, label string) Value {
	n := rapid.Int32Range(0, math.MaxInt32).Draw(t, label+"Number")
	if rapid.Bool().Draw(t, label+"IsPercent") {
		return Percent(n)
	}
	return Int(n)
}

func TestParseStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawValue(t, "v")
		got, err := Parse(v.String())
		if err != nil || got != v {
			t.Fatalf("Parse(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
	})
}

func TestJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawValue(t, "v")
		if !v.IsPercent() && rapid.Bool().Draw(t, "negative") {
			v = Int(-v.Number())
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%v): %v", v, err)
		}
		var got Value
		if err := json.Unmarshal(b, &got); err != nil || got != v {
			t.Fatalf("json.Unmarshal(%s) = %v, %v; want %v", b, got, err, v)
		}
	})
}

func TestTextRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawValue(t, "v")
		b, err := v.MarshalText()
		if err != nil {
			t.Fatalf("%v.MarshalText(): %v", v, err)
		}
		var got Value
		if err := got.UnmarshalText(b); err != nil || got != v {
			t.Fatalf("UnmarshalText(%q) = %v, %v; want %v", b, got, err, v)
		}
	})
}

// validText is the reference grammar, written independently of Parse:
// digits with an optional single trailing '%', at most MaxInt32.
var validText = regexp.MustCompile(`^([0-9]+)%?$`)

func referenceParse(s string) (Value, bool) {
	m := validText.FindStringSubmatch(s)
	if m == nil {
		return Value{}, false
	}
	n, ok := new(big.Int).SetString(m[1], 10)
	if !ok || n.Cmp(big.NewInt(math.MaxInt32)) > 0 {
		return Value{}, false
	}
	if s[len(s)-1] == '%' {
		return Percent(int32(n.Int64())), true
	}
	return Int(int32(n.Int64())), true
}

func FuzzParse(f *testing.F) {
	for _, tt := range parseCases {
		f.Add(tt.in)
	}
	for _, tt := range parseErrorCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		want, ok := referenceParse(s)
		if ok != (err == nil) {
			t.Fatalf("Parse(%q) = %v, %v; reference says valid=%v", s, got, err, ok)
		}
		if !ok {
			var pe *field.Error
			if !errors.As(err, &pe) || pe.Value != strconv.Quote(s) {
				t.Fatalf("Parse(%q) error %#v is not a *field.Error naming the input", s, err)
			}
			return
		}
		if got != want {
			t.Fatalf("Parse(%q) = %v, reference %v", s, got, want)
		}
		if again, err := Parse(got.String()); err != nil || again != got {
			t.Fatalf("Parse(%q) = %v, %v; want %v", got.String(), again, err, got)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	for _, s := range []string{"3", "25%", "2147483647%"} {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
