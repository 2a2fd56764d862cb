package ownership

import (
	"testing"
)

// FuzzSelectorMatches: no input panics; Matches fails exactly when an
// entry breaks a rule (checked here by the regexp-based error functions);
// a valid selector with one In requirement selects a label set holding
// one of its values.
func FuzzSelectorMatches(f *testing.F) {
	f.Add("app", "web", "tier", "In", "a", "tier", "a")
	f.Add("example.com/app", "", "legacy", "DoesNotExist", "", "legacy", "x")
	f.Add("a b", "x", "tier", "Exists", "v", "", "")
	f.Add("app", "-x", "tier", "Gt", "1", "tier", "2")
	f.Add("/app", "web", "", "NotIn", "", "app", "web")
	f.Fuzz(func(t *testing.T, mk, mv, ek, op, ev, lk, lv string) {
		s := &Selector{MatchLabels: map[string]string{mk: mv}, MatchExpressions: []Requirement{{Key: ek, Operator: Operator(op)}}}
		if ev != "" || op == string(In) || op == string(NotIn) {
			s.MatchExpressions[0].Values = []string{ev}
		}
		labels := map[string]string{lk: lv}
		ok, err := s.Matches(labels)
		r := s.MatchExpressions[0]
		valid := len(labelKeyErrors(mk)) == 0 && len(labelValueErrors(mv)) == 0 && len(labelKeyErrors(ek)) == 0
		for _, v := range r.Values {
			valid = valid && len(labelValueErrors(v)) == 0
		}
		switch r.Operator {
		case In, NotIn:
		case Exists, DoesNotExist:
			valid = valid && len(r.Values) == 0
		default:
			valid = false
		}
		if (err == nil) != valid {
			t.Fatalf("Matches(%+v) error %v, but valid = %v", s, err, valid)
		}
		if err != nil && ok {
			t.Fatalf("Matches returned true with an error")
		}
		if err == nil && r.Operator == In && mk == ek && mv == ev {
			both := map[string]string{mk: mv}
			if got, _ := s.Matches(both); !got {
				t.Fatalf("%+v does not select %v", s, both)
			}
		}
	})
}
