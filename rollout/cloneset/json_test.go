package cloneset

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
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
	if strings.Contains(string(b), `"IsString"`) {
		t.Fatalf("an int-or-percent is written as a Go struct, not as a manifest holds it:\n%s", b)
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

// TestCloneSetManifestJSON: int-or-percent fields decode from a
// manifest's JSON as written (a number is a count, a string is kept, "40"
// included) and encode back to the same JSON.
func TestCloneSetManifestJSON(t *testing.T) {
	const in = `{"replicas":10,"updateStrategy":{"partition":"40%","maxSurge":1,"maxUnavailable":"20%"},"scaleStrategy":{"maxUnavailable":"40"}}`
	var got CloneSet[json.RawMessage]
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", in, err)
	}
	partition, surge, unavailable, scaleUnavailable := intorpercent.FromString("40%"), intorpercent.FromInt(1), intorpercent.FromString("20%"), intorpercent.FromString("40")
	want := CloneSet[json.RawMessage]{
		Replicas:       10,
		UpdateStrategy: UpdateStrategy{Partition: &partition, MaxSurge: &surge, MaxUnavailable: &unavailable},
		ScaleStrategy:  ScaleStrategy{MaxUnavailable: &scaleUnavailable},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("json.Unmarshal(%s) mismatch (-want +got):\n%s", in, diff)
	}

	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	// The input's objects, with the keys in the order of the struct
	// fields (encoding/json writes them so), and the fields the input
	// leaves out at their zero values.
	const out = `{"name":"","generation":0,"replicas":10,` +
		`"updateStrategy":{"partition":"40%","maxUnavailable":"20%","maxSurge":1},` +
		`"scaleStrategy":{"maxUnavailable":"40"},"template":null,` +
		`"status":{"observedGeneration":0,"replicas":0,"readyReplicas":0,"availableReplicas":0,"updatedReplicas":0,"updatedReadyReplicas":0,"updatedAvailableReplicas":0,"expectedUpdatedReplicas":0}}`
	if string(b) != out {
		t.Fatalf("json.Marshal(json.Unmarshal(%s)) =\n  %s\nwant\n  %s", in, b, out)
	}
	// Every object of the input comes back with the same members.
	var inTree, outTree map[string]any
	if err := json.Unmarshal([]byte(in), &inTree); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &outTree); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"replicas", "updateStrategy", "scaleStrategy"} {
		if diff := cmp.Diff(inTree[key], outTree[key]); diff != "" {
			t.Errorf("%q after a JSON round trip (-in +out):\n%s", key, diff)
		}
	}
	var again CloneSet[json.RawMessage]
	if err := json.Unmarshal(b, &again); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	if b2, _ := json.Marshal(again); string(b2) != string(b) {
		t.Errorf("second JSON round trip =\n  %s\nwant\n  %s", b2, b)
	}
}

// TestCloneSetManifestJSONErrors: a value no manifest can hold fails to
// decode, with intorpercent's words in a *field.Error.
func TestCloneSetManifestJSONErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"updateStrategy":{"partition":2.5}}`, `intorpercent: parsing "2.5": fractional numbers are not allowed`},
		{`{"updateStrategy":{"maxSurge":true}}`, `intorpercent: parsing "true": want a number such as 3 or a string such as "25%"`},
		{`{"scaleStrategy":{"maxUnavailable":4294967296}}`, `intorpercent: parsing "4294967296": value out of range (an int32 is required)`},
	} {
		var cs CloneSet[json.RawMessage]
		err := json.Unmarshal([]byte(tt.in), &cs)
		var fe *field.Error
		if err == nil || !errors.As(err, &fe) || err.Error() != tt.want {
			t.Errorf("json.Unmarshal(%s) = %v, want %q (a *field.Error)", tt.in, err, tt.want)
		}
	}
}

// TestConfigManifestJSON: a simulation's partitions and SetPartition
// events hold int-or-percents as written too.
func TestConfigManifestJSON(t *testing.T) {
	p := intorpercent.FromString("33.3%")
	cfg := Config[json.RawMessage]{
		Events:     []Event[json.RawMessage]{{Sync: 2, Kind: SetPartition, Template: json.RawMessage(`{}`), Partition: &p}},
		Partitions: []intorpercent.IntOrString{intorpercent.FromString("40%"), intorpercent.FromInt(5), intorpercent.FromString("40")},
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	const want = `{"start":"0001-01-01T00:00:00Z","events":[{"sync":2,"kind":"SetPartition","template":{},"partition":"33.3%"}],"partitions":["40%",5,"40"],"options":{"gates":{},"updateOrder":{}}}`
	if string(b) != want {
		t.Fatalf("json.Marshal(%+v) =\n  %s\nwant\n  %s", cfg, b, want)
	}
	var back Config[json.RawMessage]
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	if diff := cmp.Diff(cfg, back); diff != "" {
		t.Errorf("Config after a JSON round trip (-before +after):\n%s", diff)
	}
}
