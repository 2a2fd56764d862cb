package ownership

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// parseCases are labels' TestSelectorParse strings plus the quirks of its
// grammar, each with the label sets the result must and must not select.
var parseCases = []struct {
	name   string
	in     string
	want   *Selector
	errStr string // the full error, when in is invalid
	reason string
}{
	{name: "three equalities", in: "x=a,y=b,z=c", want: &Selector{MatchExpressions: []Requirement{{"x", In, []string{"a"}}, {"y", In, []string{"b"}}, {"z", In, []string{"c"}}}}},
	{name: "empty selects everything", in: "", want: &Selector{}},
	{name: "only spaces", in: " \t\n", want: &Selector{}},
	{name: "not equal", in: "x!=a,y=b", want: &Selector{MatchExpressions: []Requirement{{"x", NotIn, []string{"a"}}, {"y", In, []string{"b"}}}}},
	{name: "empty value", in: "x=", want: &Selector{MatchExpressions: []Requirement{{"x", In, []string{""}}}}},
	{name: "empty values with spaces", in: "x= ,z= ", want: &Selector{MatchExpressions: []Requirement{{"x", In, []string{""}}, {"z", In, []string{""}}}}},
	{name: "does not exist", in: "!x", want: &Selector{MatchExpressions: []Requirement{{"x", DoesNotExist, nil}}}},
	{name: "exists, double equals", in: "x, y == b", want: &Selector{MatchExpressions: []Requirement{{"x", Exists, nil}, {"y", In, []string{"b"}}}}},
	{name: "set, sorted and deduplicated", in: "tier in (web, api,web)", want: &Selector{MatchExpressions: []Requirement{{"tier", In, []string{"api", "web"}}}}},
	{name: "empty members", in: "a notin (,b,,)", want: &Selector{MatchExpressions: []Requirement{{"a", NotIn, []string{"", "b"}}}}, reason: "missing values are the empty value, as upstream's set"},
	{name: "empty parentheses", in: "a in ()", want: &Selector{MatchExpressions: []Requirement{{"a", In, []string{""}}}}},
	{name: "keywords as key and value", in: "in in (in,notin)", want: &Selector{MatchExpressions: []Requirement{{"in", In, []string{"in", "notin"}}}}},
	{name: "NUL where a token starts ends the input", in: "a=b \x00,c", want: &Selector{MatchExpressions: []Requirement{{"a", In, []string{"b"}}}}, reason: "upstream's lexer reads a NUL byte as the end"},
	{name: "NUL inside a token ends the token", in: "a\x00=b", want: &Selector{MatchExpressions: []Requirement{{"a", In, []string{"b"}}}}, reason: "upstream's lexer drops it"},
	{name: "or is not a thing", in: "x=a||y=b", errStr: `ownership: parsing "x=a||y=b": values[0][x]: Invalid value: "a||y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`, reason: "| is not a symbol: a||y is one value"},
	{name: "chained equals", in: "x==a==b", errStr: `ownership: parsing "x==a==b": found "==" at byte 4, expected ',' or end of string`},
	{name: "negated equality", in: "!x=a", errStr: `ownership: parsing "!x=a": found "=" at byte 2, expected ',' or end of string`},
	{name: "numeric comparison", in: "x>1", errStr: `ownership: parsing "x>1": found ">" at byte 1: the numeric comparisons > and < are not supported by apps/v1 label selectors`, reason: "labels.Parse accepts it; apps/v1 cannot hold it"},
	{name: "trailing comma", in: "a,", errStr: `ownership: parsing "a,": found end of string, expected '!' or a key`},
	{name: "unclosed set", in: "a in (b", errStr: `ownership: parsing "a in (b": found end of string, expected a value, ',' or ')'`},
	{name: "bad key", in: "-a", errStr: `ownership: parsing "-a": key: Invalid value: "-a": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
	{name: "bad value", in: "a=b/c", errStr: `ownership: parsing "a=b/c": values[0][a]: Invalid value: "b/c": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
}

func TestParseSelectorUpstreamCases(t *testing.T) {
	for _, tt := range parseCases {
		got, err := ParseSelector(tt.in)
		if tt.errStr != "" {
			if err == nil || err.Error() != tt.errStr || !errors.Is(err, ErrInvalidSelector) || got != nil {
				t.Errorf("%s: ParseSelector(%q) = %v, %v\nwant error %s (%s)", tt.name, tt.in, got, err, tt.errStr, tt.reason)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: ParseSelector(%q): %v", tt.name, tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: ParseSelector(%q) mismatch (-want +got) (%s):\n%s", tt.name, tt.in, tt.reason, diff)
		}
	}
}

func TestSelectorString(t *testing.T) {
	s := &Selector{MatchLabels: map[string]string{"b": "2", "a": ""}, MatchExpressions: []Requirement{{"t", In, []string{"x", ""}}, {"u", NotIn, []string{"y"}}, {"v", Exists, nil}, {"w", DoesNotExist, nil}}}
	if got, want := s.String(), "a=,b=2,t in (x,),u notin (y),v,!w"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParseSelectorStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSelector().Draw(t, "selector")
		if s == nil {
			return
		}
		back, err := ParseSelector(s.String())
		if err != nil {
			t.Fatalf("ParseSelector(%q): %v", s.String(), err)
		}
		for i := 0; i < 5; i++ {
			labels := genLabels().Draw(t, "labels")
			want, _ := s.Matches(labels)
			if got, _ := back.Matches(labels); got != want {
				t.Fatalf("ParseSelector(%q).Matches(%v) = %v, the selector says %v", s.String(), labels, got, want)
			}
		}
	})
}

func FuzzParseSelector(f *testing.F) {
	for _, tt := range parseCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSelector(in)
		if err != nil {
			if s != nil || !errors.Is(err, ErrInvalidSelector) {
				t.Fatalf("ParseSelector(%q) = %v, %v", in, s, err)
			}
			return
		}
		if verr := s.Validate(); verr != nil {
			t.Fatalf("ParseSelector(%q) returned an invalid selector: %v", in, verr)
		}
		back, err := ParseSelector(s.String())
		if err != nil {
			t.Fatalf("ParseSelector(%q) = %+v, but its String %q does not parse: %v", in, s, s.String(), err)
		}
		if diff := cmp.Diff(s, back); diff != "" {
			t.Fatalf("ParseSelector(String()) differs for %q (-first +second):\n%s", in, diff)
		}
	})
}
