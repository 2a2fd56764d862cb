package rollout

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/ownership"
)

func TestPlanSelectingAll(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		selector *ownership.Selector
		deleting bool
		gen, obs int64
		wantPath Path
		wantObs  int64
		reason   string
	}{
		{name: "empty selector records the new generation", selector: &ownership.Selector{}, gen: 3, obs: 2, wantPath: PathSelectingAll, wantObs: 3},
		{name: "empty selector with the generation seen writes nothing", selector: &ownership.Selector{}, gen: 3, obs: 3, wantPath: PathSelectingAll, wantObs: 3},
		{name: "empty selector never lowers observedGeneration", selector: &ownership.Selector{}, gen: 3, obs: 5, wantPath: PathSelectingAll, wantObs: 5, reason: "upstream writes only when observedGeneration < generation"},
		{name: "empty selector comes before deletion", selector: &ownership.Selector{}, deleting: true, gen: 3, obs: 2, wantPath: PathSelectingAll, wantObs: 3, reason: "syncDeployment checks the selector first"},
		{name: "empty map is not upstream's empty selector", selector: &ownership.Selector{MatchLabels: map[string]string{}}, gen: 3, obs: 2, wantPath: PathRollingUpdate, wantObs: 3, reason: "reflect.DeepEqual tells a nil map from an empty one"},
		{name: "nil selector keeps today's behaviour", selector: nil, gen: 3, obs: 2, wantPath: PathRollingUpdate, wantObs: 3},
	}
	for _, tt := range tests {
		d, rss := settled(10, "nginx:1.9.3")
		d.Selector, d.Deleting, d.Generation, d.Status.ObservedGeneration = tt.selector, tt.deleting, tt.gen, tt.obs
		before := d
		s, err := Plan(&d, rss, now)
		if err != nil {
			t.Fatalf("%s: Plan: %v", tt.name, err)
		}
		if s.Path != tt.wantPath || s.Deployment.Status.ObservedGeneration != tt.wantObs {
			t.Errorf("%s: Plan path %v observedGeneration %d, want %v and %d (%s)", tt.name, s.Path, s.Deployment.Status.ObservedGeneration, tt.wantPath, tt.wantObs, tt.reason)
		}
		if tt.wantPath == PathSelectingAll {
			want := before
			want.Status.ObservedGeneration = tt.wantObs
			if diff := cmp.Diff(want, s.Deployment); diff != "" {
				t.Errorf("%s: Plan changed more than observedGeneration (-want +got):\n%s", tt.name, diff)
			}
			if len(s.Actions) != 0 || !cmp.Equal(s.ReplicaSets, rss) || s.NewReplicaSet != -1 || s.Requeue {
				t.Errorf("%s: Plan acted on the ReplicaSets: %+v", tt.name, s)
			}
		}
	}
}

func TestPlanRejectsAnInvalidSelector(t *testing.T) {
	d, rss := settled(10, "nginx:1.9.3")
	d.Selector = &ownership.Selector{MatchExpressions: []ownership.Requirement{{Key: "app", Operator: ownership.In}}}
	_, err := Plan(&d, rss, time.Time{})
	want := `rollout: invalid Deployment "nginx": spec.selector: Invalid value: values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`
	if err == nil || err.Error() != want || !errors.Is(err, field.ErrInvalid) {
		t.Errorf("Plan(invalid selector) error = %v\nwant %s", err, want)
	}
}

// TestPlanIgnoresAValidNonEmptySelector: a selector that is valid and not
// empty changes nothing in Plan (ownership is the caller's, see Plan).
func TestPlanIgnoresAValidNonEmptySelector(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss := settled(rapid.Int32Range(0, 20).Draw(t, "replicas"), "nginx:1.9")
		d.Template = image(rapid.SampledFrom([]string{"nginx:1.9", "nginx:1.9.3"}).Draw(t, "image"))
		d.Generation = rapid.Int64Range(0, 3).Draw(t, "generation")
		d.Paused = rapid.Bool().Draw(t, "paused")
		d.Deleting = rapid.Bool().Draw(t, "deleting")
		now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		plain, err := Plan(&d, rss, now)
		if err != nil {
			t.Fatalf("Plan: %v", err)
		}
		d.Selector = &ownership.Selector{MatchLabels: map[string]string{"app": rapid.SampledFrom([]string{"nginx", "other"}).Draw(t, "app")}}
		selected, err := Plan(&d, rss, now)
		if err != nil {
			t.Fatalf("Plan with a selector: %v", err)
		}
		selected.Deployment.Selector = nil
		if diff := cmp.Diff(plain, selected); diff != "" {
			t.Fatalf("a selector changed Plan (-without +with):\n%s", diff)
		}
	})
}

// TestSimulateSelectingAllIsStalled: a deployment whose selector selects
// everything is refused on every sync, so its simulation ends Stalled even
// when its last status says the rollout was complete.
func TestSimulateSelectingAllIsStalled(t *testing.T) {
	d, rss, cfg := canonical()
	d.Selector = &ownership.Selector{}
	tr, err := Simulate(&d, rss, cfg)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if tr.Outcome != OutcomeStalled {
		t.Errorf("Simulate with an empty selector ended %v, want %v:\n%s", tr.Outcome, OutcomeStalled, tr.String())
	}
	for _, s := range tr.Steps {
		if s.Path != PathSelectingAll {
			t.Errorf("step %d took path %v, want %v", s.Sync, s.Path, PathSelectingAll)
		}
	}
}
