package daemonset

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
)

func TestEnumsReadAndWriteTheirNames(t *testing.T) {
	for k := LabelRevision; k <= WriteStatus; k++ {
		b, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `"`+k.String()+`"` {
			t.Errorf("json.Marshal(%v) = %s", k, b)
		}
		var back ActionKind
		if err := json.Unmarshal(b, &back); err != nil || back != k {
			t.Errorf("json.Unmarshal(%s) = %v, %v", b, back, err)
		}
	}
	for _, o := range []Outcome{OutcomeComplete, OutcomeSyncLimit, OutcomeStalled} {
		var back Outcome
		b, _ := json.Marshal(o)
		if err := json.Unmarshal(b, &back); err != nil || back != o {
			t.Errorf("Outcome round trip %s: %v, %v", b, back, err)
		}
	}
	var p UnavailableOldPolicy
	if err := json.Unmarshal([]byte(`"ReplaceWithinBudget"`), &p); err != nil || p != ReplaceWithinBudget {
		t.Errorf("UnavailableOldPolicy = %v, %v", p, err)
	}
	var k ActionKind
	err := json.Unmarshal([]byte(`"Explode"`), &k)
	if err == nil || !errors.Is(err, field.ErrUnsupported) {
		t.Fatalf("unknown name: err = %v", err)
	}
	if want := `daemonset: ActionKind: "Explode": unknown name`; err.Error() != want {
		t.Errorf("unknown name error = %q, want %q", err.Error(), want)
	}
	if _, err := ActionKind(99).MarshalText(); err == nil || err.Error() != "daemonset: ActionKind: 99: has no name" {
		t.Errorf("MarshalText(99) error = %v", err)
	}
}

func TestSyncJSONRoundTrip(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r (empty) n:y")
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Sync[spec]
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("Sync JSON round trip mismatch (-want +got):\n%s", diff)
	}
}

func TestReplaceWithinBudgetKeepsUnavailableOldPodsInBudget(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:u o:u o:r o:r")
	up, err := RollingUpdateStep(f.ds, f.nodes, f.pods, f.newHash, t0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	within, err := RollingUpdateStep(f.ds, f.nodes, f.pods, f.newHash, t0, Options{UnavailableOldPods: ReplaceWithinBudget})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"n0-0", "n1-0"}, up.Delete); diff != "" {
		t.Errorf("upstream deletes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"n0-0"}, within.Delete); diff != "" {
		t.Errorf("ReplaceWithinBudget deletes mismatch (-want +got):\n%s", diff)
	}
}

func TestReplaceWithinBudgetStopsABrokenRollout(t *testing.T) {
	// Three pods of an earlier broken update (x, never ready) and three
	// healthy old pods, maxUnavailable 2: upstream replaces the three
	// broken ones at once, the option only two.
	f := newFixture(t, num(2), nil).layout(t, "x:u x:u x:u o:r o:r o:r")
	for _, tt := range []struct {
		opts Options
		want int
	}{{Options{}, 3}, {Options{UnavailableOldPods: ReplaceWithinBudget}, 2}} {
		d, err := RollingUpdateStep(f.ds, f.nodes, f.pods, f.newHash, t0, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Delete) != tt.want {
			t.Errorf("%v: deletes %v, want %d pods", tt.opts.UnavailableOldPods, d.Delete, tt.want)
		}
	}
}
