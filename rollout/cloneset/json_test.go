package cloneset

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// enumAsNumber matches an enum field of the result types written as a
// number.
var enumAsNumber = regexp.MustCompile(`"(kind|branch|outcome|action|updateBudget|readyLimit|noKey|scatter)":[0-9]`)

// jsonRoundTrip encodes v with encoding/json, checks that the text holds
// no enum as a number, and decodes it into a fresh T.
func jsonRoundTrip[T any](t *rapid.T, v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	if m := enumAsNumber.Find(b); m != nil {
		t.Fatalf("an enum is written as a number: %s", m)
	}
	var back T
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("json.Unmarshal: %v\n%s", err, b)
	}
	return back
}

// TestSyncJSONRoundTrip: a Sync that Plan returns encodes with
// encoding/json, its enums as names, and decodes to an equal Sync (nil
// and empty slices and maps are not told apart).
func TestSyncJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		in := drawPlanInput(t, r1, r2)
		s, err := PlanWith(in.cs, in.pods, in.revs, in.now, in.opts)
		if err != nil {
			t.Skip(err)
		}
		back := jsonRoundTrip(t, s)
		if diff := cmp.Diff(s, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Sync after a JSON round trip (-before +after):\n%s", diff)
		}
	})
}

// TestTraceJSONRoundTrip: a Trace that Simulate returns encodes with
// encoding/json, its enums as names, and decodes to an equal Trace.
func TestTraceJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawScenario(t, true)
		sc.cfg.MaxSyncs = 60
		tr := run(t, sc)
		back := jsonRoundTrip(t, tr)
		if diff := cmp.Diff(tr, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Trace after a JSON round trip (-before +after):\n%s", diff)
		}
	})
}
