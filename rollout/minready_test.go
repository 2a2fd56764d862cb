package rollout

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/revision"
)

// TestPlanNewReplicaSetMinReadySeconds holds the three sub-cases of gap
// G1 found by the whole-controller differential test, and their controls.
// Upstream's getNewReplicaSet updates an existing new ReplicaSet when its
// annotations need syncing or its spec.minReadySeconds differs from the
// Deployment's, setting minReadySeconds in that update; the API server
// raises the ReplicaSet's generation for the spec change; and
// getNewReplicaSet returns right after the update, before it copies the
// ReplicaSet's revision to the Deployment and before it adds the
// FoundNewReplicaSet condition. The in-memory ReplicaSet it updates has
// already had the Deployment's annotations copied onto it, even when its
// revision does not parse, so that update persists them. A nil
// MinReadySeconds is "not known" and assumed equal: no write.
func TestPlanNewReplicaSetMinReadySeconds(t *testing.T) {
	// G1 case 1 (trace 37 sync 19, seed 1): paused, R=8, one ReplicaSet,
	// the new one, at 8 with its annotations already right.
	paused := func(m *int32) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d := dep(8, nil, nil)
		d.Paused = true
		d.MinReadySeconds = 1
		d.Annotations = map[string]string{revision.RevisionAnnotation: "1"}
		n := scaled("web-new", 10, 8, "1", "8", "10")
		n.Template, n.Generation, n.ObservedGeneration, n.MinReadySeconds = d.Template, 2, 2, m
		return d, []ReplicaSet[tmpl]{n}
	}
	// G1 case 2 (trace 88 sync 11, seed 1): Recreate, R=5, the deployment
	// at revision 2; the new ReplicaSet (revision 3, the rolled-back-to
	// template) at 0 with 4 pods terminating, the old one (revision 2) at 5.
	recreate := func(m *int32) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d := dep(5, nil, nil)
		d.Strategy = Recreate
		d.MinReadySeconds = 5
		d.Annotations = map[string]string{revision.RevisionAnnotation: "2"}
		n := scaled("web-new", 20, 0, "3", "5", "5")
		n.Template, n.StatusReplicas, n.TerminatingReplicas, n.MinReadySeconds = d.Template, 0, ptr(int32(4)), m
		o := scaled("web-old", 10, 5, "2", "5", "5")
		return d, []ReplicaSet[tmpl]{n, o}
	}
	// G1 case 3 (trace 1420 sync 22, seed 5000): RollingUpdate, R=4, the
	// deployment annotated team: red and at revision x1; the new ReplicaSet
	// at revision x1 without team.
	unparsable := func(m *int32) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d := dep(4, nil, nil)
		d.MinReadySeconds = 1
		d.Annotations = map[string]string{revision.RevisionAnnotation: "x1", "team": "red"}
		n := scaled("web-new", 10, 4, "x1", "4", "5")
		n.Template, n.MinReadySeconds = d.Template, m
		d.Status = CalculateStatus(d, []ReplicaSet[tmpl]{n}, 0, t0)
		return d, []ReplicaSet[tmpl]{n}
	}
	// The FoundNewReplicaSet condition: a rolling update at rest with a
	// progress deadline and no Progressing condition yet; the status
	// already says what this sync computes, so nothing else sets one.
	found := func(m *int32) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d := dep(2, nil, nil)
		d.MinReadySeconds = 5
		d.Annotations = map[string]string{revision.RevisionAnnotation: "1"}
		n := scaled("web-new", 10, 2, "1", "2", "3")
		n.Template, n.AvailableReplicas, n.MinReadySeconds = d.Template, 0, m
		d.Status = CalculateStatus(d, []ReplicaSet[tmpl]{n}, 0, t0)
		d.Status.ObservedGeneration = d.Generation
		return d, []ReplicaSet[tmpl]{n}
	}
	// Both at once: a copied annotation to add and minReadySeconds to set.
	both := func(m *int32) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d, rss := paused(m)
		d.Annotations["team"] = "blue"
		return d, rss
	}

	for _, tt := range []struct {
		name      string
		build     func(*int32) (*Deployment[tmpl], []ReplicaSet[tmpl])
		minReady  *int32 // the new ReplicaSet's MinReadySeconds
		want      []write
		wantGen   int64  // the new ReplicaSet's generation after the sync
		wantMin   *int32 // and its MinReadySeconds
		wantRev   string // the deployment's revision annotation after the sync
		wantTeam  string // the new ReplicaSet's team annotation after the sync ("" absent)
		wantFound bool   // whether Progressing is FoundNewReplicaSet after the sync
		wantInWhy string // a piece of the write's Reason
		reason    string
	}{
		{name: "case 1: the minReadySeconds write raises the generation", build: paused, minReady: ptr(int32(5)),
			want: []write{{AnnotateReplicaSet, "web-new", 8, 8}}, wantGen: 3, wantMin: ptr(int32(1)), wantRev: "1",
			wantInWhy: "set minReadySeconds of new ReplicaSet web-new from 5 to the deployment's 1",
			reason:    "upstream: update web-new minReadySeconds=1, generation 2 -> 3"},
		{name: "case 1 control: known and equal, no write", build: paused, minReady: ptr(int32(1)),
			want: []write{}, wantGen: 2, wantMin: ptr(int32(1)), wantRev: "1",
			reason: "nothing to sync"},
		{name: "case 1 control: not known, no write", build: paused, minReady: nil,
			want: []write{}, wantGen: 2, wantMin: nil, wantRev: "1",
			reason: "nil is assumed equal to the deployment's, the behaviour before the field existed"},
		{name: "case 2: the revision is not synced in that sync", build: recreate, minReady: ptr(int32(1)),
			want: []write{{AnnotateReplicaSet, "web-new", 0, 0}, {ScaleReplicaSet, "web-old", 5, 0}}, wantGen: 2, wantMin: ptr(int32(5)), wantRev: "2",
			wantInWhy: "from 1 to the deployment's 5",
			reason:    "getNewReplicaSet returns after its update, before SetDeploymentRevision; the old ReplicaSet is still scaled down"},
		{name: "case 2 control: equal, the revision is synced", build: recreate, minReady: ptr(int32(5)),
			want: []write{{ScaleReplicaSet, "web-old", 5, 0}}, wantGen: 1, wantMin: ptr(int32(5)), wantRev: "3",
			reason: "SetDeploymentRevision copies the new ReplicaSet's revision 3"},
		{name: "case 3: the write persists copied annotations despite an unparsable revision", build: unparsable, minReady: ptr(int32(0)),
			want: []write{{AnnotateReplicaSet, "web-new", 4, 4}}, wantGen: 2, wantMin: ptr(int32(1)), wantRev: "x1", wantTeam: "red",
			wantInWhy: `revision "x1" does not parse`,
			reason:    "SetNewReplicaSetAnnotations copied team: red onto the in-memory ReplicaSet before it gave up on x1; the minReadySeconds update sends that copy"},
		{name: "case 3 control: not known, nothing written or persisted", build: unparsable, minReady: nil,
			want: []write{}, wantGen: 1, wantMin: nil, wantRev: "x1", wantTeam: "",
			reason: "no update, and nothing scales the new ReplicaSet later in the sync"},
		{name: "no FoundNewReplicaSet condition in the sync of the write", build: found, minReady: ptr(int32(0)),
			want: []write{{AnnotateReplicaSet, "web-new", 2, 2}}, wantGen: 2, wantMin: ptr(int32(5)), wantRev: "1", wantFound: false,
			reason: "the condition is added after the early return"},
		{name: "FoundNewReplicaSet control: not known", build: found, minReady: nil,
			want: []write{}, wantGen: 1, wantMin: nil, wantRev: "1", wantFound: true,
			reason: "a deadline and no Progressing condition: getNewReplicaSet adds FoundNewReplicaSet"},
		{name: "annotations and minReadySeconds in one write", build: both, minReady: ptr(int32(5)),
			want: []write{{AnnotateReplicaSet, "web-new", 8, 8}}, wantGen: 3, wantMin: ptr(int32(1)), wantRev: "1", wantTeam: "blue",
			wantInWhy: "updated annotations of new ReplicaSet web-new (revision 1 -> 1) and minReadySeconds 5 -> 1",
			reason:    "one update carries both; the generation rises once, for the spec"},
		{name: "annotations only: the generation stays", build: both, minReady: ptr(int32(1)),
			want: []write{{AnnotateReplicaSet, "web-new", 8, 8}}, wantGen: 2, wantMin: ptr(int32(1)), wantRev: "1", wantTeam: "blue",
			reason: "the API server raises a ReplicaSet's generation for spec changes only"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, rss := tt.build(tt.minReady)
			s, err := Plan(d, rss, t0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, writes(s.Actions)); diff != "" {
				t.Fatalf("Plan(%s) writes mismatch (-want +got), %s:\n%s", tt.name, tt.reason, diff)
			}
			if s.NewReplicaSet < 0 {
				t.Fatalf("Plan(%s) has no new ReplicaSet", tt.name)
			}
			n := s.ReplicaSets[s.NewReplicaSet]
			if n.Generation != tt.wantGen {
				t.Errorf("Plan(%s) new ReplicaSet generation = %d, want %d (%s)", tt.name, n.Generation, tt.wantGen, tt.reason)
			}
			if diff := cmp.Diff(tt.wantMin, n.MinReadySeconds); diff != "" {
				t.Errorf("Plan(%s) new ReplicaSet MinReadySeconds mismatch (-want +got):\n%s", tt.name, diff)
			}
			if got := s.Deployment.Annotations[revision.RevisionAnnotation]; got != tt.wantRev {
				t.Errorf("Plan(%s) deployment revision = %q, want %q (%s)", tt.name, got, tt.wantRev, tt.reason)
			}
			if got := n.Annotations["team"]; got != tt.wantTeam {
				t.Errorf("Plan(%s) new ReplicaSet team annotation = %q, want %q (%s)", tt.name, got, tt.wantTeam, tt.reason)
			}
			c, ok := FindCondition(s.Deployment.Status.Conditions, DeploymentProgressing)
			if got := ok && c.Reason == ReasonFoundNewReplicaSet; got != tt.wantFound {
				t.Errorf("Plan(%s) Progressing is FoundNewReplicaSet: %v, want %v (conditions %+v)", tt.name, got, tt.wantFound, s.Deployment.Status.Conditions)
			}
			if tt.wantInWhy != "" && (len(s.Actions) == 0 || !strings.Contains(s.Actions[0].Reason, tt.wantInWhy)) {
				t.Errorf("Plan(%s) first reason = %q, want it to contain %q", tt.name, s.Reason, tt.wantInWhy)
			}
		})
	}
}

// TestPlanMinReadySecondsWriteAtTopGeneration: the write that sets the
// new ReplicaSet's minReadySeconds raises its generation, so at
// math.MaxInt64 Plan returns ErrCounterOverflow rather than a generation
// the API server rejects.
func TestPlanMinReadySecondsWriteAtTopGeneration(t *testing.T) {
	d := dep(2, nil, nil)
	d.MinReadySeconds = 5
	d.Annotations = map[string]string{revision.RevisionAnnotation: "1"}
	n := scaled("web-new", 10, 2, "1", "2", "3")
	n.Template, n.Generation, n.MinReadySeconds = d.Template, math.MaxInt64, ptr(int32(0))
	if _, err := Plan(d, []ReplicaSet[tmpl]{n}, t0); !errors.Is(err, ErrCounterOverflow) {
		t.Errorf("Plan(new ReplicaSet at generation MaxInt64, minReadySeconds 0 -> 5) error = %v, want ErrCounterOverflow", err)
	}
	n.MinReadySeconds = ptr(int32(5))
	if _, err := Plan(d, []ReplicaSet[tmpl]{n}, t0); err != nil {
		t.Errorf("Plan(new ReplicaSet at generation MaxInt64, minReadySeconds equal) error = %v, want nil", err)
	}
}

// TestValidateReplicaSetRejectsNegativeMinReadySeconds: the API server's
// ReplicaSet spec rule; nil (not known) passes.
func TestValidateReplicaSetRejectsNegativeMinReadySeconds(t *testing.T) {
	r := rs("web-a", 1, 1, 1)
	if err := ValidateReplicaSet(&r); err != nil {
		t.Fatalf("ValidateReplicaSet(nil minReadySeconds) = %v, want nil", err)
	}
	r.MinReadySeconds = ptr(int32(-1))
	const want = "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"
	if err := ValidateReplicaSet(&r); err == nil || err.Error() != want {
		t.Errorf("ValidateReplicaSet(minReadySeconds -1) = %v, want %q", err, want)
	}
}

// TestPlanLeavesKnownNewReplicaSetMinReadySecondsEqualToDeployments: after
// any sync that reads the ReplicaSets, a new ReplicaSet whose
// MinReadySeconds is known holds the deployment's, and it was written
// (AnnotateReplicaSet) whenever it differed before, with its generation
// raised by one for it (and by one more when the sync resized it).
func TestPlanLeavesKnownNewReplicaSetMinReadySecondsEqualToDeployments(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := drawSyncState(t, false)
		s, err := PlanWith(st.d, st.rss, st.now, st.opts)
		if err != nil || s.Path == PathSelectingAll || s.NewReplicaSet < 0 {
			return
		}
		n := &s.ReplicaSets[s.NewReplicaSet]
		if n.MinReadySeconds != nil && *n.MinReadySeconds != st.d.MinReadySeconds {
			t.Fatalf("PlanWith(%v) left new ReplicaSet %s at minReadySeconds %d, deployment's %d", s.Path, n.Name, *n.MinReadySeconds, st.d.MinReadySeconds)
		}
		var before *ReplicaSet[tmpl]
		for i := range st.rss {
			if st.rss[i].Name == n.Name {
				before = &st.rss[i]
			}
		}
		if before == nil {
			return // created by this sync
		}
		differed := before.MinReadySeconds != nil && *before.MinReadySeconds != st.d.MinReadySeconds
		annotated := false
		for _, a := range s.Actions {
			annotated = annotated || a.Kind == AnnotateReplicaSet && a.ReplicaSet == n.Name
		}
		if differed && !annotated {
			t.Fatalf("PlanWith(%v) did not write new ReplicaSet %s whose minReadySeconds %d differed from %d: %+v", s.Path, n.Name, *before.MinReadySeconds, st.d.MinReadySeconds, s.Actions)
		}
		want := before.Generation
		if differed {
			want++
		}
		if n.Replicas != before.Replicas {
			want++ // the scale write's spec change
		}
		if n.Generation != want {
			t.Fatalf("PlanWith(%v) new ReplicaSet %s generation %d -> %d, want %d (minReadySeconds differed: %v)", s.Path, n.Name, before.Generation, n.Generation, want, differed)
		}
	})
}
