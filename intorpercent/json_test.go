package intorpercent

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

var jsonCases = []struct {
	in   string
	want Value
}{
	{`3`, Int(3)},
	{`0`, Int(0)},
	{`-1`, Int(-1)},
	{`2147483647`, Int(math.MaxInt32)},
	{`-2147483648`, Int(math.MinInt32)},
	{`"25%"`, Percent(25)},
	{`"0%"`, Percent(0)},
	{`"1000%"`, Percent(1000)},
	{` "25%" `, Percent(25)},
	{`"\u0032\u0035%"`, Percent(25)},
}

var jsonErrorCases = []struct {
	in      string
	wantErr error
	text    string
}{
	{`"3"`, field.ErrSyntax, `intorpercent: parsing "3": a quoted value must be a percentage such as "25%"; write a count as a bare number`},
	{`"2.5%"`, field.ErrSyntax, `intorpercent: parsing "2.5%": fractional percentages are not allowed`},
	{`"+5%"`, field.ErrSyntax, `intorpercent: parsing "+5%": a sign is not allowed`},
	{`""`, field.ErrSyntax, `intorpercent: parsing "": empty string`},
	{`" 5%"`, field.ErrSyntax, `intorpercent: parsing " 5%": spaces are not allowed`},
	{`"99999999999%"`, field.ErrRange, `intorpercent: parsing "99999999999%": value out of range (at most 2147483647)`},
	{`2.5`, field.ErrSyntax, `intorpercent: parsing "2.5": fractional numbers are not allowed`},
	{`1e3`, field.ErrSyntax, `intorpercent: parsing "1e3": fractional numbers are not allowed`},
	{`2147483648`, field.ErrRange, `intorpercent: parsing "2147483648": value out of range (an int32 is required)`},
	{`-2147483649`, field.ErrRange, `intorpercent: parsing "-2147483649": value out of range (an int32 is required)`},
	{`true`, field.ErrSyntax, `intorpercent: parsing "true": want a number such as 3 or a string such as "25%"`},
	{`{}`, field.ErrSyntax, `intorpercent: parsing "{}": want a number such as 3 or a string such as "25%"`},
	{`[1]`, field.ErrSyntax, `intorpercent: parsing "[1]": want a number such as 3 or a string such as "25%"`},
}

func TestUnmarshalJSON(t *testing.T) {
	for _, tt := range jsonCases {
		var got Value
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil || got != tt.want {
			t.Errorf("json.Unmarshal(%s) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestUnmarshalJSONErrors(t *testing.T) {
	for _, tt := range jsonErrorCases {
		got := Percent(42)
		err := got.UnmarshalJSON([]byte(tt.in))
		if err == nil {
			t.Errorf("UnmarshalJSON(%s) = nil, want error %q", tt.in, tt.text)
			continue
		}
		if got != Percent(42) {
			t.Errorf("UnmarshalJSON(%s) changed the value to %v on error", tt.in, got)
		}
		if !errors.Is(err, tt.wantErr) || err.Error() != tt.text {
			t.Errorf("UnmarshalJSON(%s) error = %q, want %q wrapping %v", tt.in, err, tt.text, tt.wantErr)
		}
	}
}

func TestUnmarshalJSONNullKeepsValue(t *testing.T) {
	v := Percent(25)
	if err := json.Unmarshal([]byte(`null`), &v); err != nil || v != Percent(25) {
		t.Errorf("json.Unmarshal(null) = %v, %v; want the value unchanged, nil", v, err)
	}
}

// TestJSONInStruct decodes a strategy the way a manifest holds it.
func TestJSONInStruct(t *testing.T) {
	type rollingUpdate struct {
		MaxSurge       *Value `json:"maxSurge,omitempty"`
		MaxUnavailable *Value `json:"maxUnavailable,omitempty"`
	}
	var got rollingUpdate
	if err := json.Unmarshal([]byte(`{"maxSurge": 1, "maxUnavailable": "25%"}`), &got); err != nil {
		t.Fatal(err)
	}
	surge, unavail := Int(1), Percent(25)
	want := rollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavail}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b Value) bool { return a == b })); diff != "" {
		t.Errorf("decoding a rollingUpdate mismatch (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(got)
	if err != nil || string(b) != `{"maxSurge":1,"maxUnavailable":"25%"}` {
		t.Errorf("json.Marshal = %s, %v", b, err)
	}
}

func FuzzUnmarshalJSON(f *testing.F) {
	for _, tt := range jsonCases {
		f.Add(tt.in)
	}
	for _, tt := range jsonErrorCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var got Value
		err := json.Unmarshal([]byte(in), &got)
		// Reference: decode generically, then apply the rules independently.
		var raw any
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		if json.Unmarshal([]byte(in), new(any)) != nil || dec.Decode(&raw) != nil {
			if err == nil {
				t.Fatalf("json.Unmarshal(%q) accepted invalid JSON as %v", in, got)
			}
			return
		}
		var want Value
		ok := false
		switch x := raw.(type) {
		case nil:
			ok = true // null leaves the zero value
		case json.Number:
			n, perr := strconv.ParseInt(string(x), 10, 32)
			ok = perr == nil
			want = Int(int32(n))
		case string:
			if len(x) > 0 && x[len(x)-1] == '%' {
				want, ok = referenceParse(x)
			}
		}
		if ok != (err == nil) {
			t.Fatalf("json.Unmarshal(%q) = %v, %v; reference valid=%v", in, got, err, ok)
		}
		if !ok {
			return
		}
		if got != want {
			t.Fatalf("json.Unmarshal(%q) = %v, reference %v", in, got, want)
		}
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("json.Marshal(%v): %v", got, err)
		}
		var again Value
		if err := json.Unmarshal(b, &again); err != nil || again != got {
			t.Fatalf("JSON round trip of %v via %s = %v, %v", got, b, again, err)
		}
	})
}

var intOrStringJSONCases = []struct {
	in   string
	want IntOrString
	out  string // the encoding of want; "" means in
}{
	{in: `3`, want: FromInt(3)},
	{in: `-1`, want: FromInt(-1)},
	{in: `2147483647`, want: FromInt(math.MaxInt32)},
	{in: `-2147483648`, want: FromInt(math.MinInt32)},
	{in: `"40%"`, want: FromString("40%")},
	{in: `"40"`, want: FromString("40")},
	{in: `"33.3%"`, want: FromString("33.3%")},
	{in: `"2%5"`, want: FromString("2%5")},
	{in: `""`, want: FromString("")},
	{in: `" 5%"`, want: FromString(" 5%")},
	{in: ` 3 `, want: FromInt(3), out: `3`},
	{in: `"\u0034\u0030%"`, want: FromString("40%"), out: `"40%"`},
	{in: `"<5%>"`, want: FromString("<5%>"), out: `"\u003c5%\u003e"`},
}

var intOrStringJSONErrorCases = []struct {
	in      string
	wantErr error
	text    string
}{
	{`2.5`, field.ErrSyntax, `intorpercent: parsing "2.5": fractional numbers are not allowed`},
	{`1e3`, field.ErrSyntax, `intorpercent: parsing "1e3": fractional numbers are not allowed`},
	{`2147483648`, field.ErrRange, `intorpercent: parsing "2147483648": value out of range (an int32 is required)`},
	{`-2147483649`, field.ErrRange, `intorpercent: parsing "-2147483649": value out of range (an int32 is required)`},
	{`true`, field.ErrSyntax, `intorpercent: parsing "true": want a number such as 3 or a string such as "25%"`},
	{`{}`, field.ErrSyntax, `intorpercent: parsing "{}": want a number such as 3 or a string such as "25%"`},
	{`["40%"]`, field.ErrSyntax, `intorpercent: parsing "[\"40%\"]": want a number such as 3 or a string such as "25%"`},
}

func TestIntOrStringJSON(t *testing.T) {
	for _, tt := range intOrStringJSONCases {
		var got IntOrString
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil || got != tt.want {
			t.Errorf("json.Unmarshal(%s) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
		want := tt.out
		if want == "" {
			want = tt.in
		}
		if b, err := json.Marshal(tt.want); err != nil || string(b) != want {
			t.Errorf("json.Marshal(%#v) = %s, %v; want %s", tt.want, b, err, want)
		}
	}
}

func TestIntOrStringUnmarshalJSONErrors(t *testing.T) {
	for _, tt := range intOrStringJSONErrorCases {
		got := FromString("42%")
		err := got.UnmarshalJSON([]byte(tt.in))
		if err == nil {
			t.Errorf("UnmarshalJSON(%s) = nil, want error %q", tt.in, tt.text)
			continue
		}
		if got != FromString("42%") {
			t.Errorf("UnmarshalJSON(%s) changed the value to %#v on error", tt.in, got)
		}
		if !errors.Is(err, field.ErrInvalid) || !errors.Is(err, tt.wantErr) || err.Error() != tt.text {
			t.Errorf("UnmarshalJSON(%s) error = %q, want %q wrapping %v and field.ErrInvalid", tt.in, err, tt.text, tt.wantErr)
		}
	}
}

func TestIntOrStringUnmarshalJSONNullKeepsValue(t *testing.T) {
	s := FromString("25%")
	if err := json.Unmarshal([]byte(`null`), &s); err != nil || s != FromString("25%") {
		t.Errorf("json.Unmarshal(null) = %#v, %v; want the value unchanged, nil", s, err)
	}
}

func TestIntOrStringMarshalJSONWritesOnlyTheSelectedField(t *testing.T) {
	for _, tt := range []struct {
		in   IntOrString
		want string
	}{
		{IntOrString{Int: 2, Str: "25%"}, `2`},
		{IntOrString{IsString: true, Int: 2, Str: "25%"}, `"25%"`},
		{IntOrString{}, `0`},
		{IntOrString{IsString: true, Str: "a\xffb"}, `"a\ufffdb"`},
	} {
		if b, err := json.Marshal(tt.in); err != nil || string(b) != tt.want {
			t.Errorf("json.Marshal(%#v) = %s, %v; want %s", tt.in, b, err, tt.want)
		}
	}
}

// drawIntOrString draws a count or a text as a user may write it, mostly
// near the int-or-percent syntax and sometimes any string.
func drawIntOrString(t *rapid.T, label string) IntOrString {
	if rapid.Bool().Draw(t, label+"IsString") {
		return FromString(rapid.OneOf(
			rapid.SampledFrom([]string{"40%", "40", "33.3%", "2%5", "", "-10%", "+5%", " 5%", "<5%>", "\"%\"", "\\", "\u2028"}),
			rapid.StringMatching(`[-+0-9.%e ]{0,8}`),
			rapid.String(),
		).Draw(t, label+"Str"))
	}
	return FromInt(rapid.Int32().Draw(t, label+"Int"))
}

// TestIntOrStringJSONRoundTrip: every IntOrString built by FromInt or
// FromString (with valid UTF-8) decodes from its JSON to itself, and its
// JSON is a number exactly when it is a count.
func TestIntOrStringJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawIntOrString(t, "s")
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("json.Marshal(%#v): %v", s, err)
		}
		if isString := b[0] == '"'; isString != s.IsString {
			t.Fatalf("json.Marshal(%#v) = %s: a string is written exactly for a text", s, b)
		}
		var back IntOrString
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Fatalf("JSON round trip of %#v via %s = %#v, %v", s, b, back, err)
		}
	})
}

// TestValueJSONRoundTrip: every Value decodes from its JSON to itself,
// and its JSON is the JSON of the IntOrString the API server writes for
// it.
func TestValueJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawAnyValue(t, "v")
		if v.IsPercent() && v.Number() < 0 {
			t.Skip("Parse reads no negative percentage, so JSON cannot")
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%v): %v", v, err)
		}
		var back Value
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Fatalf("JSON round trip of %v via %s = %v, %v", v, b, back, err)
		}
		if w, _ := json.Marshal(v.IntOrString()); string(w) != string(b) {
			t.Fatalf("json.Marshal(%v) = %s, but json.Marshal(%v.IntOrString()) = %s", v, b, v, w)
		}
	})
}

// TestValueIntOrStringRoundTrip: v.IntOrString().Value() gives v back
// for every count and every percentage >= 0.
func TestValueIntOrStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawAnyValue(t, "v")
		got, ok := v.IntOrString().Value()
		want := !v.IsPercent() || v.Number() >= 0
		if ok != want || (ok && got != v) {
			t.Fatalf("%v.IntOrString() = %#v, whose Value() = %v, %v; want %v, %v", v, v.IntOrString(), got, ok, v, want)
		}
	})
}

// TestIntOrStringTextRoundTrip: writing text read by UnmarshalText gives
// the text back unless it is a count written another way ("+3", "007");
// reading the text of s gives s back unless s is a text that strconv.Atoi
// reads as an int32 ("40"), which reads back as that count.
func TestIntOrStringTextRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawIntOrString(t, "s")
		text, err := s.MarshalText()
		if err != nil {
			t.Fatalf("MarshalText(%#v): %v", s, err)
		}
		var back IntOrString
		if err := back.UnmarshalText(text); err != nil {
			t.Fatalf("UnmarshalText(%q): %v", text, err)
		}
		want := s
		if n, err := strconv.ParseInt(s.Str, 10, 32); s.IsString && err == nil {
			want = FromInt(int32(n))
		}
		if back != want {
			t.Fatalf("UnmarshalText(MarshalText(%#v) = %q) = %#v, want %#v", s, text, back, want)
		}
		again, _ := back.MarshalText()
		if _, err := strconv.ParseInt(string(text), 10, 32); err != nil && string(again) != string(text) {
			t.Fatalf("MarshalText(UnmarshalText(%q)) = %q, want the text back", text, again)
		}
	})
}

func TestIntOrStringUnmarshalText(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want IntOrString
	}{
		{"3", FromInt(3)},
		{"-3", FromInt(-3)},
		{"+3", FromInt(3)},
		{"007", FromInt(7)},
		{"2147483647", FromInt(math.MaxInt32)},
		{"2147483648", FromString("2147483648")},
		{"40%", FromString("40%")},
		{"2.5", FromString("2.5")},
		{" 3", FromString(" 3")},
		{"1_000", FromString("1_000")},
		{"", FromString("")},
	} {
		var got IntOrString
		if err := got.UnmarshalText([]byte(tt.in)); err != nil || got != tt.want {
			t.Errorf("UnmarshalText(%q) = %#v, %v; want %#v, nil", tt.in, got, err, tt.want)
		}
	}
}

func FuzzIntOrStringUnmarshalJSON(f *testing.F) {
	for _, tt := range intOrStringJSONCases {
		f.Add(tt.in)
	}
	for _, tt := range intOrStringJSONErrorCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := FromString("unset")
		err := json.Unmarshal([]byte(in), &got)
		// Reference: decode generically, then apply apimachinery's rules.
		var raw any
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		if json.Unmarshal([]byte(in), new(any)) != nil || dec.Decode(&raw) != nil {
			if err == nil {
				t.Fatalf("json.Unmarshal(%q) accepted invalid JSON as %#v", in, got)
			}
			return
		}
		want, ok := FromString("unset"), false
		switch x := raw.(type) {
		case nil:
			ok = true
		case json.Number:
			n, perr := strconv.ParseInt(string(x), 10, 32)
			want, ok = FromInt(int32(n)), perr == nil
		case string:
			want, ok = FromString(x), true
		}
		if ok != (err == nil) {
			t.Fatalf("json.Unmarshal(%q) = %#v, %v; reference valid=%v", in, got, err, ok)
		}
		if !ok {
			return
		}
		if got != want {
			t.Fatalf("json.Unmarshal(%q) = %#v, reference %#v", in, got, want)
		}
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("json.Marshal(%#v): %v", got, err)
		}
		var again IntOrString
		if err := json.Unmarshal(b, &again); err != nil || again != got {
			t.Fatalf("JSON round trip of %#v via %s = %#v, %v", got, b, again, err)
		}
	})
}
