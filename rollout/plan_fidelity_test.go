package rollout

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
	"pgregory.net/rapid"
)

// withAnn returns r with the given annotations (key, value pairs).
func withAnn(r ReplicaSet[tmpl], kv ...string) ReplicaSet[tmpl] {
	r.Annotations = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		r.Annotations[kv[i]] = kv[i+1]
	}
	return r
}

// TestPlanRejectsDuplicateNames is issue 12 case 6: two ReplicaSets with
// one name made Plan scale one ReplicaSet down twice and Simulate report
// more available pods than replicas. Both now refuse the input.
func TestPlanRejectsDuplicateNames(t *testing.T) {
	d := dep(10, nil, nil)
	nw := withAnn(rs("web-new", 1, 5, 5), revision.RevisionAnnotation, "2", revision.DesiredReplicasAnnotation, "10", revision.MaxReplicasAnnotation, "13")
	nw.Template = d.Template
	old := withAnn(rs("web-old", 10, 8, 8), revision.RevisionAnnotation, "1", revision.DesiredReplicasAnnotation, "10", revision.MaxReplicasAnnotation, "13")
	oldAgain := old
	oldAgain.CreationTime = old.CreationTime.Add(1)
	newNamedOld := nw
	newNamedOld.Name = "web-old"
	for _, tt := range []struct {
		name    string
		rss     []ReplicaSet[tmpl]
		wantErr string
		reason  string
	}{
		{
			name:    "the same old ReplicaSet listed twice",
			rss:     []ReplicaSet[tmpl]{old, nw, old},
			wantErr: `rollout: rss[2].Name: "web-old" duplicates rss[0].Name`,
			reason:  "the issue's case: two contradictory scale-downs of one ReplicaSet",
		},
		{
			name:    "two old ReplicaSets with one name and different creation times",
			rss:     []ReplicaSet[tmpl]{oldAgain, old, nw},
			wantErr: `rollout: rss[1].Name: "web-old" duplicates rss[0].Name`,
			reason:  "the name alone identifies a ReplicaSet in a namespace",
		},
		{
			name:    "the new ReplicaSet named like an old one",
			rss:     []ReplicaSet[tmpl]{old, newNamedOld},
			wantErr: `rollout: rss[1].Name: "web-old" duplicates rss[0].Name`,
			reason:  "templates differ, names do not",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Plan(d, tt.rss, t0)
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("Plan(%s) error = %v, want %q (%s)", tt.name, err, tt.wantErr, tt.reason)
			}
			if !errors.Is(err, field.ErrInvalid) || !errors.Is(err, field.ErrDuplicate) {
				t.Errorf("Plan(%s) error %v does not wrap field.ErrInvalid and field.ErrDuplicate", tt.name, err)
			}
			tr, err := Simulate(d, tt.rss, Config[tmpl]{Start: t0})
			if err == nil || err.Error() != tt.wantErr || !errors.Is(err, field.ErrDuplicate) {
				t.Fatalf("Simulate(%s) error = %v, want %q wrapping field.ErrDuplicate", tt.name, err, tt.wantErr)
			}
			if len(tr.Steps) != 0 || tr.Outcome != 0 {
				t.Errorf("Simulate(%s) ran %d steps, outcome %v; want none", tt.name, len(tr.Steps), tr.Outcome)
			}
		})
	}
}

// write is an Action without its reason, for comparing write orders.
type write struct {
	Kind       ActionKind
	ReplicaSet string
	From, To   int32
}

func writes(actions []Action) []write {
	out := make([]write, 0, len(actions))
	for _, a := range actions {
		out = append(out, write{a.Kind, a.ReplicaSet, a.From, a.To})
	}
	return out
}

// scaled returns a ReplicaSet created age minutes before t0 with spec
// replicas, all available, at revision rev, last scaled for desired and
// maxReplicas.
func scaled(name string, age int, spec int32, rev, desired, maxReplicas string) ReplicaSet[tmpl] {
	return withAnn(rs(name, age, spec, spec), revision.RevisionAnnotation, rev,
		revision.DesiredReplicasAnnotation, desired, revision.MaxReplicasAnnotation, maxReplicas)
}

// TestPlanProportionalWriteOrder is issue 12 case 1: the writes of a
// proportional scaling come in the order upstream's scale() makes them,
// not in input order: the largest ReplicaSet first (newer first among
// equals when growing, older first when shrinking), and the old
// ReplicaSets newest first, then the new one, when the total does not
// change or the new ReplicaSet is saturated.
func TestPlanProportionalWriteOrder(t *testing.T) {
	for _, tt := range []struct {
		name   string
		d      *Deployment[tmpl]
		rss    []ReplicaSet[tmpl]
		newRS  string // gets d's template
		want   []write
		reason string
	}{
		{
			name:  "scale-up writes the largest first",
			d:     dep(4, num(1), num(1)),
			rss:   []ReplicaSet[tmpl]{scaled("d-old", 10, 1, "1", "2", "3"), scaled("d-new", 1, 2, "2", "2", "3")},
			newRS: "d-new",
			want:  []write{{ScaleReplicaSet, "d-new", 2, 3}, {ScaleReplicaSet, "d-old", 1, 2}},
			reason: "the issue's case: 5 allowed, 3 exist; ReplicaSetsBySizeNewer puts d-new (2) before d-old (1); " +
				"d-new gets round(2*5/3)-2 = 1, d-old round(1*5/3)-1 = 1",
		},
		{
			name:  "scale-down of equal sizes writes the oldest first",
			d:     dep(3, num(0), num(1)),
			rss:   []ReplicaSet[tmpl]{scaled("c", 10, 2, "3", "6", "6"), scaled("b", 20, 2, "2", "6", "6"), scaled("a", 30, 2, "1", "6", "6")},
			newRS: "c",
			want:  []write{{ScaleReplicaSet, "a", 2, 1}, {ScaleReplicaSet, "b", 2, 1}, {ScaleReplicaSet, "c", 2, 1}},
			reason: "ReplicaSetsBySizeOlder: equal sizes, older first; each loses round(2*3/6)-2 = -1. " +
				"(c is the new ReplicaSet but is given first)",
		},
		{
			name:  "nothing to add writes old newest first, then new",
			d:     dep(4, num(1), num(1)),
			rss:   []ReplicaSet[tmpl]{scaled("a", 30, 2, "1", "3", "4"), scaled("b", 20, 1, "2", "3", "4"), scaled("c", 10, 2, "3", "3", "4")},
			newRS: "c",
			want:  []write{{ScaleReplicaSet, "b", 1, 1}, {ScaleReplicaSet, "a", 2, 2}, {ScaleReplicaSet, "c", 2, 2}},
			reason: "5 allowed and 5 exist: no sort, so the order FindActiveOrLatest left (old newest first) plus the new one; " +
				"every annotation is refreshed",
		},
		{
			name:   "a saturated new ReplicaSet scales old ones down newest first",
			d:      dep(4, num(1), num(1)),
			rss:    []ReplicaSet[tmpl]{scaled("a", 30, 1, "1", "3", "4"), scaled("b", 20, 1, "2", "3", "4"), scaled("c", 10, 4, "3", "4", "5")},
			newRS:  "c",
			want:   []write{{ScaleReplicaSet, "b", 1, 0}, {ScaleReplicaSet, "a", 1, 0}},
			reason: "IsSaturated(c): FilterActiveReplicaSets(oldRSs) after FindActiveOrLatest sorted them newest first",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.rss {
				if tt.rss[i].Name == tt.newRS {
					tt.rss[i].Template = tt.d.Template
				}
			}
			s, err := Plan(tt.d, tt.rss, t0)
			if err != nil {
				t.Fatal(err)
			}
			if s.Path != PathScaling {
				t.Fatalf("Plan(%s) path = %v, want scaling", tt.name, s.Path)
			}
			if diff := cmp.Diff(tt.want, writes(s.Actions)); diff != "" {
				t.Errorf("Plan(%s) writes mismatch (-want +got), %s:\n%s", tt.name, tt.reason, diff)
			}
		})
	}
}

// TestPlanAnswerDoesNotDependOnInputOrder is issue 12 case 5 on concrete
// cases: each is planned with rss as given and reversed, and both must
// give upstream's answer, which starts from the ReplicaSets sorted oldest
// first.
func TestPlanAnswerDoesNotDependOnInputOrder(t *testing.T) {
	recreate := dep(3, nil, nil)
	recreate.Strategy = Recreate

	complete := dep(3, nil, nil)
	complete.RevisionHistoryLimit = ptr(int32(2))
	cleanupRSs := []ReplicaSet[tmpl]{
		withAnn(rs("r0", 10, 0, 0)),
		withAnn(rs("rx", 20, 0, 0), revision.RevisionAnnotation, "x1"),
		withAnn(rs("r1", 30, 0, 0), revision.RevisionAnnotation, "1"),
		scaled("n", 1, 3, "4", "3", "4"),
	}
	cleanupRSs[3].Template = complete.Template
	complete.Status = CalculateStatus(complete, cleanupRSs, 3, t0)

	rollback := dep(3, nil, nil)
	rollback.RollbackTo = ptr(int64(1))
	rollbackRSs := []ReplicaSet[tmpl]{scaled("b", 20, 0, "1", "3", "4"), scaled("a", 30, 0, "1", "3", "4"), scaled("n", 1, 3, "3", "3", "4")}
	rollbackRSs[2].Template = rollback.Template

	for _, tt := range []struct {
		name      string
		d         *Deployment[tmpl]
		rss       []ReplicaSet[tmpl]
		want      []write
		wantImage string // the template after the sync, "" for d's
		reason    string
	}{
		{
			name:   "Recreate scales old ReplicaSets down oldest first",
			d:      recreate,
			rss:    []ReplicaSet[tmpl]{rs("b", 20, 1, 1), rs("a", 30, 2, 2)},
			want:   []write{{ScaleReplicaSet, "a", 2, 0}, {ScaleReplicaSet, "b", 1, 0}},
			reason: "scaleDownOldReplicaSetsForRecreate walks the active old ReplicaSets in the order FindOldReplicaSets left them: oldest first",
		},
		{
			name: "rolling-update history cleanup sorts from the oldest-first order",
			d:    complete,
			rss:  cleanupRSs,
			want: []write{{DeleteReplicaSet, "r1", 0, 0}},
			reason: "limit 2 of 3 old: ReplicaSetsByRevision falls back to creation time when a revision does not parse; " +
				"sort.Sort from [r1 rx r0] keeps that order and deletes r1 (from [r0 rx r1] it would delete rx)",
		},
		{
			name:      "a rollback to a revision two ReplicaSets share restores the older",
			d:         rollback,
			rss:       rollbackRSs,
			want:      []write{{RollBack, "a", 0, 0}},
			wantImage: "nginx:a",
			reason:    "rollback walks the old ReplicaSets oldest first and takes the first with the revision",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reversed := slices.Clone(tt.rss)
			slices.Reverse(reversed)
			var first Sync[tmpl]
			for k, rss := range [][]ReplicaSet[tmpl]{tt.rss, reversed} {
				s, err := Plan(tt.d, rss, t0)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, writes(s.Actions)); diff != "" {
					t.Errorf("Plan(%s, order %d) writes mismatch (-want +got), %s:\n%s", tt.name, k, tt.reason, diff)
				}
				want := tt.wantImage
				if want == "" {
					want = tt.d.Template.Spec
				}
				if s.Deployment.Template.Spec != want {
					t.Errorf("Plan(%s, order %d) left template %q, want %q", tt.name, k, s.Deployment.Template.Spec, want)
				}
				if k == 0 {
					first = s
				} else if !reflect.DeepEqual(first, s) {
					t.Errorf("Plan(%s) differs between rss and its reverse:\n%+v\n%+v", tt.name, first, s)
				}
			}
		})
	}
}

// TestPlanIsIndependentOfInputOrder is issue 12 case 5 as a property:
// every permutation of rss gives the same Sync (deep-equal: actions in
// order, ReplicaSets, deployment, requeue, reason) or the same error, on
// every path.
func TestPlanIsIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := drawSyncState(t, false)
		perm := rapid.Permutation(st.rss).Draw(t, "permutation")
		a, errA := PlanWith(st.d, st.rss, st.now, st.opts)
		b, errB := PlanWith(st.d, perm, st.now, st.opts)
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("PlanWith errors differ between orders: %v vs %v", errA, errB)
		}
		if diff := cmp.Diff(a, b, cmp.AllowUnexported(intorpercent.Value{})); diff != "" {
			t.Fatalf("PlanWith(%v) differs between rss and a permutation (-given +permuted):\n%s", a.Path, diff)
		}
	})
}

// TestPlanPausedCleanupStartsNewestFirst is issue 12 case 4. Upstream's
// history cleanup sorts with ReplicaSetsByRevision, which is not a strict
// order when a revision does not parse, so the order sort.Sort starts
// from decides. On the paused path, scale() has just called
// FindActiveOrLatest, which sorted the old ReplicaSets newest first, and
// the cleanup starts from there (on the rolling path it starts oldest
// first). The results were checked with upstream's
// ReplicaSetsByRevision: from [r0 rx r1] sort.Sort gives [rx r0 r1], from
// [r1 rx r0] it keeps [r1 rx r0].
func TestPlanPausedCleanupStartsNewestFirst(t *testing.T) {
	d := dep(3, nil, nil)
	d.Paused = true
	d.RevisionHistoryLimit = ptr(int32(2))
	idle := func(name string, age int, kv ...string) ReplicaSet[tmpl] {
		return withAnn(rs(name, age, 0, 0), kv...)
	}
	unobserved := idle("rx", 20, revision.RevisionAnnotation, "x1")
	unobserved.Generation = 2 // scaled to 0, not yet seen by the ReplicaSet controller
	nw := scaled("n", 1, 3, "4", "3", "4")
	nw.Template = d.Template
	for _, tt := range []struct {
		name   string
		rss    []ReplicaSet[tmpl]
		want   []write
		reason string
	}{
		{
			name:   "the issue's case: the first one examined is not idle",
			rss:    []ReplicaSet[tmpl]{idle("r1", 30, revision.RevisionAnnotation, "1"), unobserved, idle("r0", 10), nw},
			want:   []write{},
			reason: "limit 2 of 3 old, so only the first after the sort is examined: rx, whose generation is not observed yet",
		},
		{
			name:   "all idle: the unparsable revision goes first",
			rss:    []ReplicaSet[tmpl]{idle("r1", 30, revision.RevisionAnnotation, "1"), idle("rx", 20, revision.RevisionAnnotation, "x1"), idle("r0", 10), nw},
			want:   []write{{DeleteReplicaSet, "rx", 0, 0}},
			reason: "starting oldest first would have kept r1 first and deleted it",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Plan(d, tt.rss, t0)
			if err != nil {
				t.Fatal(err)
			}
			if s.Path != PathPaused {
				t.Fatalf("Plan(%s) path = %v, want paused", tt.name, s.Path)
			}
			if diff := cmp.Diff(tt.want, writes(s.Actions)); diff != "" {
				t.Errorf("Plan(%s) writes mismatch (-want +got), %s:\n%s", tt.name, tt.reason, diff)
			}
		})
	}
}

// TestPlanRollbackRaisesGeneration is issue 12 case 2: every rollback,
// performed or skipped, ends with an update of the deployment that
// removes the rollback annotation, and the API server raises
// metadata.generation for a change of annotations (or spec), so a
// skipped rollback raises it too. The status is not written in that sync.
func TestPlanRollbackRaisesGeneration(t *testing.T) {
	d := dep(3, nil, nil)
	d.Generation = 2
	current := scaled("cur", 1, 3, "2", "3", "4")
	current.Template = d.Template
	one := scaled("one", 30, 0, "1", "3", "4")
	for _, tt := range []struct {
		name       string
		rollbackTo *int64
		annotation string // the deprecated annotation, "" for none
		rss        []ReplicaSet[tmpl]
		wantKind   ActionKind
		reason     string
	}{
		{name: "revision not found", rollbackTo: ptr(int64(5)), rss: []ReplicaSet[tmpl]{one}, wantKind: SkipRollback,
			reason: "the issue's case: generation 2, rollback to 5, one ReplicaSet at revision 1; upstream's update gives generation 3"},
		{name: "template already equal", rollbackTo: ptr(int64(2)), rss: []ReplicaSet[tmpl]{one, current}, wantKind: SkipRollback,
			reason: "DeploymentRollbackTemplateUnchanged, then the same update"},
		{name: "no previous revision", rollbackTo: ptr(int64(0)), rss: nil, wantKind: SkipRollback,
			reason: "LastRevision is 0: Unable to find last revision, then the same update"},
		{name: "skipped, asked by annotation", annotation: "7", rss: []ReplicaSet[tmpl]{one, current}, wantKind: SkipRollback,
			reason: "removing the annotation is a change of annotations"},
		{name: "performed", rollbackTo: ptr(int64(1)), rss: []ReplicaSet[tmpl]{one, current}, wantKind: RollBack,
			reason: "template and annotations change in one update: one more, not two"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := *d
			d.RollbackTo = tt.rollbackTo
			d.Annotations = map[string]string{revision.RevisionAnnotation: "2"}
			if tt.annotation != "" {
				d.Annotations[revision.RollbackToAnnotation] = tt.annotation
			}
			s, err := Plan(&d, tt.rss, t0)
			if err != nil {
				t.Fatal(err)
			}
			last := s.Actions[len(s.Actions)-1]
			if s.Path != PathRollback || last.Kind != tt.wantKind {
				t.Fatalf("Plan(%s) = %v ending with %v, want rollback ending with %v", tt.name, s.Path, last.Kind, tt.wantKind)
			}
			if s.Deployment.Generation != 3 || s.Deployment.Status.ObservedGeneration != d.Status.ObservedGeneration {
				t.Errorf("Plan(%s) generation %d, observedGeneration %d; want 3 and the status untouched (%s)",
					tt.name, s.Deployment.Generation, s.Deployment.Status.ObservedGeneration, tt.reason)
			}
			if _, ok := s.Deployment.Annotations[revision.RollbackToAnnotation]; ok || s.Deployment.RollbackTo != nil {
				t.Errorf("Plan(%s) left the rollback pending: %v %v", tt.name, s.Deployment.RollbackTo, s.Deployment.Annotations)
			}
		})
	}
}

// TestPlanNewReplicaSetUnparsableRevisionKeepsCopiedAnnotations is issue
// 12 case 3. Upstream copies the deployment's annotations onto its
// in-memory copy of the new ReplicaSet before it finds the revision
// unparsable and gives up updating it; that copy is what the sync then
// scales, so the next write of the new ReplicaSet in the same sync
// persists them. A sync that does not write it leaves the ReplicaSet as
// it was.
func TestPlanNewReplicaSetUnparsableRevisionKeepsCopiedAnnotations(t *testing.T) {
	newRS := func(d *Deployment[tmpl], spec int32, desired string) ReplicaSet[tmpl] {
		r := scaled("web-new", 1, spec, "x1", desired, "3")
		r.Template = d.Template
		return r
	}
	rolling := dep(2, nil, nil)
	paused := dep(2, nil, nil)
	paused.Paused = true
	recreate := dep(2, nil, nil)
	recreate.Strategy = Recreate
	settled := dep(1, nil, nil)
	for _, tt := range []struct {
		name     string
		d        *Deployment[tmpl]
		spec     int32
		desired  string
		want     []write
		wantTeam bool
		reason   string
	}{
		{name: "rolling scale-up persists them", d: rolling, spec: 1, desired: "2",
			want: []write{{ScaleReplicaSet, "web-new", 1, 2}}, wantTeam: true,
			reason: "the issue's case: R=2, new ReplicaSet at revision x1 with 1 replica scales 1->2 and carries team: blue"},
		{name: "paused proportional scaling persists them", d: paused, spec: 1, desired: "1",
			want: []write{{ScaleReplicaSet, "web-new", 1, 2}}, wantTeam: true,
			reason: "scale() sets the only active ReplicaSet, the in-memory copy, to R"},
		{name: "Recreate scale-up persists them", d: recreate, spec: 1, desired: "2",
			want: []write{{ScaleReplicaSet, "web-new", 1, 2}}, wantTeam: true,
			reason: "scaleUpNewReplicaSetForRecreate writes the in-memory copy"},
		{name: "no write, nothing persisted", d: settled, spec: 1, desired: "1",
			want: []write{}, wantTeam: false,
			reason: "nothing scales the new ReplicaSet, and upstream did not update it for the annotations"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := *tt.d
			d.Annotations = map[string]string{"team": "blue"}
			s, err := Plan(&d, []ReplicaSet[tmpl]{newRS(&d, tt.spec, tt.desired)}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, writes(s.Actions)); diff != "" {
				t.Fatalf("Plan(%s) writes mismatch (-want +got):\n%s", tt.name, diff)
			}
			got := s.ReplicaSets[s.NewReplicaSet].Annotations
			if _, ok := got["team"]; ok != tt.wantTeam || got[revision.RevisionAnnotation] != "x1" {
				t.Errorf("Plan(%s) new ReplicaSet annotations = %v, want team present %v and revision x1 (%s)", tt.name, got, tt.wantTeam, tt.reason)
			}
			if rev := s.Deployment.Annotations[revision.RevisionAnnotation]; rev != "x1" {
				t.Errorf("Plan(%s) deployment revision = %q, want the new ReplicaSet's x1", tt.name, rev)
			}
		})
	}
}

// TestPlanCounterOverflow is issue 12 case 7. Upstream raises
// status.collisionCount after a hash collision and the API server raises
// metadata.generation on every change of spec (or, for a Deployment,
// annotations), all with wrapping arithmetic; at the top of the range the
// value wraps negative and the API server rejects the write
// (status.collisionCount: must be greater than or equal to 0, cannot be
// decremented; metadata.generation: must not be decremented), so the
// controller repeats the same failing sync forever. Plan returns an error
// wrapping ErrCounterOverflow instead of writing what Validate rejects.
func TestPlanCounterOverflow(t *testing.T) {
	collide := func(cc int32) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d, rss := rolled(3, "nginx:2")
		d.Status.CollisionCount = ptr(cc)
		squatter := rs(revision.ReplicaSetName("nginx", revision.Hash(&d.Template, d.Status.CollisionCount)), 5, 0, 0)
		return d, append(rss, squatter)
	}
	rollback := func(gen int64) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d, rss := rolled(3, "nginx:2")
		s, err := Plan(d, rss, t0)
		if err != nil {
			t.Fatal(err)
		}
		d2 := s.Deployment
		d2.Generation, d2.RollbackTo = gen, ptr(int64(1))
		return &d2, s.ReplicaSets
	}
	scaleUp := func(gen int64) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
		d, rss := rolled(3, "nginx:2")
		s, err := Plan(d, rss, t0)
		if err != nil {
			t.Fatal(err)
		}
		rss = s.ReplicaSets
		rss[s.NewReplicaSet].Generation = gen
		rss[1-s.NewReplicaSet].Replicas = 2 // the old one lost a pod: the new one grows in the next sync
		return &s.Deployment, rss
	}
	for _, tt := range []struct {
		name    string
		state   func() (*Deployment[tmpl], []ReplicaSet[tmpl])
		wantErr string // "" for no error
		reason  string
	}{
		{
			name:  "collision at MaxInt32",
			state: func() (*Deployment[tmpl], []ReplicaSet[tmpl]) { return collide(math.MaxInt32) },
			wantErr: `rollout: Deployment "nginx": ReplicaSet "` + revision.ReplicaSetName("nginx", revision.Hash(ptr(image("nginx:2")), ptr(int32(math.MaxInt32)))) +
				`" collides with the new template at status.collisionCount 2147483647; one more wraps to -2147483648, which the API server rejects: counter overflow`,
			reason: "upstream writes -2147483648 and its UpdateStatus fails validation on every sync",
		},
		{
			name:   "collision just below MaxInt32",
			state:  func() (*Deployment[tmpl], []ReplicaSet[tmpl]) { return collide(math.MaxInt32 - 1) },
			reason: "MaxInt32 is a valid count: written, and the next collision is the one that cannot be",
		},
		{
			name:    "rollback at generation MaxInt64",
			state:   func() (*Deployment[tmpl], []ReplicaSet[tmpl]) { return rollback(math.MaxInt64) },
			wantErr: `rollout: Deployment "nginx": metadata.generation is 9223372036854775807; the rollback's update would wrap it to -9223372036854775808, which the API server rejects: counter overflow`,
			reason:  "the update that clears the rollback annotation raises the generation",
		},
		{
			name:   "rollback just below MaxInt64",
			state:  func() (*Deployment[tmpl], []ReplicaSet[tmpl]) { return rollback(math.MaxInt64 - 1) },
			reason: "raised to MaxInt64",
		},
		{
			name:  "scaling a ReplicaSet at generation MaxInt64",
			state: func() (*Deployment[tmpl], []ReplicaSet[tmpl]) { return scaleUp(math.MaxInt64) },
			wantErr: `rollout: ReplicaSet "` + revision.ReplicaSetName("nginx", revision.Hash(ptr(image("nginx:2")), nil)) +
				`": metadata.generation is 9223372036854775807; resizing it would wrap it to -9223372036854775808, which the API server rejects: counter overflow`,
			reason: "a change of spec.replicas raises the ReplicaSet's generation",
		},
		{
			name: "an old ReplicaSet resized twice from MaxInt64-1",
			state: func() (*Deployment[tmpl], []ReplicaSet[tmpl]) {
				d := dep(3, num(1), num(1))
				old := scaled("web-old", 10, 4, "1", "3", "4")
				old.StatusReplicas, old.ReadyReplicas, old.AvailableReplicas = 4, 3, 3
				old.Generation, old.ObservedGeneration = math.MaxInt64-1, 1
				nw := scaled("web-new", 1, 0, "2", "3", "4")
				nw.Template = d.Template
				return d, []ReplicaSet[tmpl]{old, nw}
			},
			wantErr: `rollout: ReplicaSet "web-old": metadata.generation is 9223372036854775807; resizing it would wrap it to -9223372036854775808, which the API server rejects: counter overflow`,
			reason: "4 pods, 2 may go: the unhealthy-pod cleanup takes 1 (4 -> 3, generation MaxInt64), " +
				"then the scale-down of available pods takes 1 more (3 -> 2), a second update",
		},
		{
			name:   "scaling a ReplicaSet just below MaxInt64",
			state:  func() (*Deployment[tmpl], []ReplicaSet[tmpl]) { return scaleUp(math.MaxInt64 - 1) },
			reason: "raised to MaxInt64",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, rss := tt.state()
			s, err := Plan(d, rss, t0.Add(time.Minute))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, ErrCounterOverflow) {
					t.Fatalf("Plan(%s) error = %v, want %q wrapping ErrCounterOverflow (%s)", tt.name, err, tt.wantErr, tt.reason)
				}
				if !reflect.DeepEqual(s, Sync[tmpl]{}) {
					t.Errorf("Plan(%s) returned a Sync with its error: %+v", tt.name, s)
				}
				return
			}
			if err != nil {
				t.Fatalf("Plan(%s) error = %v, want none (%s)", tt.name, err, tt.reason)
			}
			if err := Validate(&s.Deployment); err != nil {
				t.Errorf("Plan(%s) wrote a Deployment Validate rejects: %v", tt.name, err)
			}
			for i := range s.ReplicaSets {
				if err := ValidateReplicaSet(&s.ReplicaSets[i]); err != nil {
					t.Errorf("Plan(%s) wrote a ReplicaSet Validate rejects: %v", tt.name, err)
				}
			}
			if len(s.Actions) == 0 {
				t.Errorf("Plan(%s) did nothing; the case is meant to raise a counter", tt.name)
			}
		})
	}
}

// TestValidateRejectsNegativeGeneration: the API server validates
// metadata.generation >= 0 (ValidateObjectMeta), first of all.
func TestValidateRejectsNegativeGeneration(t *testing.T) {
	d := dep(3, nil, nil)
	d.Generation = -1
	want := "metadata.generation: Invalid value: -1: must be greater than or equal to 0"
	if err := Validate(d); err == nil || err.Error() != want {
		t.Errorf("Validate(generation -1) = %v, want %q", err, want)
	}
	r := rs("web-1", 1, 1, 1)
	r.Generation = -1
	if err := ValidateReplicaSet(&r); err == nil || err.Error() != want {
		t.Errorf("ValidateReplicaSet(generation -1) = %v, want %q", err, want)
	}
}

// TestPlanWritesPassValidate is issue 12 case 7 as a property: on any
// input that passes validation, Plan either writes a Deployment and
// ReplicaSets that pass Validate and ValidateReplicaSet and raise no
// counter the API server forbids lowering (generations, collisionCount),
// or it returns an error wrapping ErrCounterOverflow, and only when a
// counter is at (or, for a ReplicaSet resized twice, next to) the top of
// its range. The generator reaches collision
// counts at MaxInt32, generations at MaxInt64 and every condition reason.
func TestPlanWritesPassValidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := drawSyncState(t, true)
		if err := Validate(st.d); err != nil {
			t.Fatalf("the generator drew an invalid Deployment: %v", err)
		}
		atTop := st.d.Generation == math.MaxInt64 || st.d.Status.CollisionCount != nil && *st.d.Status.CollisionCount == math.MaxInt32
		before := map[string]int64{}
		for i := range st.rss {
			// A rolling update may resize one old ReplicaSet twice in a
			// sync (unhealthy pods, then available ones), raising its
			// generation by two.
			atTop = atTop || st.rss[i].Generation >= math.MaxInt64-1
			before[st.rss[i].Name] = st.rss[i].Generation
		}
		s, err := PlanWith(st.d, st.rss, st.now, st.opts)
		if err != nil {
			if !errors.Is(err, ErrCounterOverflow) || !atTop {
				t.Fatalf("PlanWith on a valid input failed: %v", err)
			}
			return
		}
		if err := Validate(&s.Deployment); err != nil {
			t.Fatalf("PlanWith(%v) wrote a Deployment that Validate rejects: %v", s.Path, err)
		}
		if s.Deployment.Generation < st.d.Generation {
			t.Fatalf("PlanWith(%v) lowered the generation %d -> %d", s.Path, st.d.Generation, s.Deployment.Generation)
		}
		if in, out := st.d.Status.CollisionCount, s.Deployment.Status.CollisionCount; in != nil && (out == nil || *out < *in) {
			t.Fatalf("PlanWith(%v) lowered the collision count %d -> %v", s.Path, *in, out)
		}
		for i := range s.ReplicaSets {
			r := &s.ReplicaSets[i]
			if err := ValidateReplicaSet(r); err != nil {
				t.Fatalf("PlanWith(%v) wrote ReplicaSet %s that ValidateReplicaSet rejects: %v", s.Path, r.Name, err)
			}
			if g, ok := before[r.Name]; ok && r.Generation < g {
				t.Fatalf("PlanWith(%v) lowered the generation of %s %d -> %d", s.Path, r.Name, g, r.Generation)
			}
		}
	})
}

// TestSimulateIsIndependentOfInputOrder: Simulate drives Plan, so a
// permutation of its ReplicaSets gives the same trace too.
func TestSimulateIsIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := drawSyncState(t, false)
		perm := rapid.Permutation(st.rss).Draw(t, "permutation")
		cfg := Config[tmpl]{
			Start:            t0,
			ReadyDelay:       time.Duration(rapid.IntRange(0, 20).Draw(t, "readyDelaySeconds")) * time.Second,
			TerminationDelay: time.Duration(rapid.IntRange(0, 20).Draw(t, "terminationDelaySeconds")) * time.Second,
			MaxSteps:         20,
			Options:          st.opts,
		}
		a, errA := Simulate(st.d, st.rss, cfg)
		b, errB := Simulate(st.d, perm, cfg)
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("Simulate errors differ between orders: %v vs %v", errA, errB)
		}
		if diff := cmp.Diff(a, b, cmp.AllowUnexported(intorpercent.Value{})); diff != "" {
			t.Fatalf("Simulate differs between rss and a permutation (-given +permuted):\n%s", diff)
		}
	})
}
