package ownership

import (
	"strings"
	"testing"
)

// TestSelectorMatchesUpstreamCases holds apimachinery's
// TestLabelSelectorAsSelector selectors and labels.Selector's matching
// rules, each checked on label sets.
func TestSelectorMatchesUpstreamCases(t *testing.T) {
	in := []Requirement{{Key: "baz", Operator: In, Values: []string{"qux", "norf"}}}
	tests := []struct {
		name   string
		sel    *Selector
		labels map[string]string
		want   bool
		reason string
	}{
		{name: "nil selects nothing", sel: nil, labels: map[string]string{}, want: false, reason: "labels.Nothing"},
		{name: "empty selects everything", sel: &Selector{}, labels: nil, want: true, reason: "labels.Everything"},
		{name: "empty map selects everything", sel: &Selector{MatchLabels: map[string]string{}}, labels: map[string]string{"a": "b"}, want: true},
		{name: "foo=bar matches", sel: &Selector{MatchLabels: map[string]string{"foo": "bar"}}, labels: map[string]string{"foo": "bar", "x": "y"}, want: true},
		{name: "foo=bar needs the key", sel: &Selector{MatchLabels: map[string]string{"foo": "bar"}}, labels: map[string]string{"x": "y"}, want: false},
		{name: "foo=bar needs the value", sel: &Selector{MatchLabels: map[string]string{"foo": "bar"}}, labels: map[string]string{"foo": "baz"}, want: false},
		{name: "foo= matches an empty value", sel: &Selector{MatchLabels: map[string]string{"foo": ""}}, labels: map[string]string{"foo": ""}, want: true},
		{name: "baz in (norf,qux)", sel: &Selector{MatchExpressions: in}, labels: map[string]string{"baz": "norf"}, want: true},
		{name: "in needs the key", sel: &Selector{MatchExpressions: in}, labels: nil, want: false},
		{name: "baz in (norf,qux),foo=bar", sel: &Selector{MatchLabels: map[string]string{"foo": "bar"}, MatchExpressions: in}, labels: map[string]string{"baz": "qux"}, want: false, reason: "foo=bar fails"},
		{name: "notin holds without the key", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: NotIn, Values: []string{"b"}}}}, labels: nil, want: true},
		{name: "notin holds for another value", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: NotIn, Values: []string{"b"}}}}, labels: map[string]string{"a": "c"}, want: true},
		{name: "notin fails on a listed value", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: NotIn, Values: []string{"b"}}}}, labels: map[string]string{"a": "b"}, want: false},
		{name: "exists with an empty value", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: Exists}}}, labels: map[string]string{"a": ""}, want: true},
		{name: "doesnotexist", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: DoesNotExist}}}, labels: map[string]string{"a": ""}, want: false},
	}
	for _, tt := range tests {
		got, err := tt.sel.Matches(tt.labels)
		if err != nil || got != tt.want {
			t.Errorf("%s: Matches(%v) = %v, %v; want %v (%s)", tt.name, tt.labels, got, err, tt.want, tt.reason)
		}
	}
}

// TestSelectorValidateUpstreamText compares full error texts, taken from
// metav1.LabelSelectorAsSelector v0.36.3.
func TestSelectorValidateUpstreamText(t *testing.T) {
	keyMsg := "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	valMsg := "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	tests := []struct {
		name string
		sel  *Selector
		want string
	}{
		{name: "space in key", sel: &Selector{MatchLabels: map[string]string{"a b": "x"}}, want: `key: Invalid value: "a b": name part ` + keyMsg},
		{name: "space in value", sel: &Selector{MatchLabels: map[string]string{"a": "x y"}}, want: `values[0][a]: Invalid value: "x y": ` + valMsg},
		{name: "empty prefix and bad value", sel: &Selector{MatchLabels: map[string]string{"/a": "-x"}}, want: `[key: Invalid value: "/a": prefix part must be non-empty, values[0][/a]: Invalid value: "-x": ` + valMsg + `]`},
		{name: "in without values", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: In}}}, want: `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
		{name: "exists with values", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: Exists, Values: []string{"<b>", "c c"}}}},
			want: `[values: Invalid value: ["\u003cb\u003e","c c"]: values set must be empty for exists and does not exist, values[0][a]: Invalid value: "<b>": ` + valMsg + `, values[1][a]: Invalid value: "c c": ` + valMsg + `]`},
		{name: "unknown operator", sel: &Selector{MatchExpressions: []Requirement{{Key: "a", Operator: "Gt", Values: []string{"1"}}}}, want: `"Gt" is not a valid label selector operator`},
		{name: "empty key", sel: &Selector{MatchExpressions: []Requirement{{Key: "", Operator: In, Values: []string{"", ""}}}}, want: `key: Invalid value: "": name part must be non-empty; name part ` + keyMsg},
		{name: "two slashes", sel: &Selector{MatchLabels: map[string]string{"a/b/c": "x"}}, want: `key: Invalid value: "a/b/c": a valid label key ` + keyMsg + ` with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		{name: "long name", sel: &Selector{MatchLabels: map[string]string{strings.Repeat("a", 64): "x"}}, want: `key: Invalid value: "` + strings.Repeat("a", 64) + `": name part must be no more than 63 bytes`},
		{name: "long value", sel: &Selector{MatchLabels: map[string]string{"a": strings.Repeat("v", 64)}}, want: `values[0][a]: Invalid value: "` + strings.Repeat("v", 64) + `": must be no more than 63 bytes`},
		{name: "upper-case prefix", sel: &Selector{MatchLabels: map[string]string{"Example.com/a": "x"}}, want: `key: Invalid value: "Example.com/a": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{name: "first invalid matchLabels key in sorted order", sel: &Selector{MatchLabels: map[string]string{"z z": "x", "a a": "x"}}, want: `key: Invalid value: "a a": name part ` + keyMsg},
	}
	for _, tt := range tests {
		err := tt.sel.Validate()
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: Validate() = %v\nwant %s", tt.name, err, tt.want)
		}
		if ok, merr := tt.sel.Matches(map[string]string{}); ok || merr == nil || merr.Error() != tt.want {
			t.Errorf("%s: Matches = %v, %v; want false and the Validate error", tt.name, ok, merr)
		}
	}
}
