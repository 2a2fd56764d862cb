package conformance

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// TestIntOrStringJSONMatchesApimachinery: intorpercent.IntOrString writes
// the JSON apimachinery's intstr.IntOrString writes for the same value,
// and reads any number or string JSON as apimachinery reads it (a string
// as written, an int32 number as a count; a number apimachinery rejects
// is rejected).
func TestIntOrStringJSONMatchesApimachinery(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var ours intorpercent.IntOrString
		var theirs intstr.IntOrString
		if rapid.Bool().Draw(t, "isString") {
			s := rapid.OneOf(rapid.SampledFrom([]string{"40%", "40", "33.3%", "2%5", "", " 5%", "<5%>&"}), rapid.String()).Draw(t, "str")
			ours, theirs = intorpercent.FromString(s), intstr.FromString(s)
		} else {
			n := rapid.Int32().Draw(t, "int")
			ours, theirs = intorpercent.FromInt(n), intstr.FromInt32(n)
		}
		ob, oerr := json.Marshal(ours)
		tb, terr := json.Marshal(theirs)
		if oerr != nil || terr != nil || string(ob) != string(tb) {
			t.Fatalf("json.Marshal: ours %s, %v; apimachinery's %s, %v", ob, oerr, tb, terr)
		}

		in := rapid.OneOf(
			rapid.Just(string(ob)),
			rapid.SampledFrom([]string{`2.5`, `1e3`, `2147483648`, `-2147483649`, `-0`, `"\u0034\u0030%"`}),
			rapid.StringMatching(`-?[0-9]{1,11}`),
		).Draw(t, "json")
		var gotOurs intorpercent.IntOrString
		var gotTheirs intstr.IntOrString
		oerr = json.Unmarshal([]byte(in), &gotOurs)
		terr = json.Unmarshal([]byte(in), &gotTheirs)
		if (oerr == nil) != (terr == nil) {
			t.Fatalf("json.Unmarshal(%s): ours %v, apimachinery's %v", in, oerr, terr)
		}
		if oerr != nil {
			return
		}
		want := intorpercent.IntOrString{IsString: gotTheirs.Type == intstr.String, Int: gotTheirs.IntVal, Str: gotTheirs.StrVal}
		if gotOurs != want {
			t.Fatalf("json.Unmarshal(%s) = %#v, apimachinery's %#v", in, gotOurs, gotTheirs)
		}
	})
}
