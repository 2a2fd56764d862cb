package intorpercent

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
