package rollout

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
)

// rolled returns the canonical deployment right after its image changed
// to img, with the settled old ReplicaSet.
func rolled(replicas int32, img string) (*Deployment[tmpl], []ReplicaSet[tmpl]) {
	d, rss := settled(replicas, "nginx:1.9")
	d.Template = image(img)
	d.Generation++
	return &d, rss
}

func deepCopyRSs(rss []ReplicaSet[tmpl]) []ReplicaSet[tmpl] {
	if rss == nil {
		return nil
	}
	out := make([]ReplicaSet[tmpl], len(rss))
	for i, r := range rss {
		r.Annotations = cloneMap(r.Annotations)
		r.Template.Labels = cloneMap(r.Template.Labels)
		if r.TerminatingReplicas != nil {
			r.TerminatingReplicas = ptr(*r.TerminatingReplicas)
		}
		if r.MinReadySeconds != nil {
			r.MinReadySeconds = ptr(*r.MinReadySeconds)
		}
		out[i] = r
	}
	return out
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func TestPlanCreatesNewReplicaSet(t *testing.T) {
	d, rss := rolled(10, "nginx:1.9.3")
	d.Annotations["team"] = "web"
	d.Annotations[revision.LastAppliedAnnotation] = "{}"
	before, beforeD := deepCopyRSs(rss), *d
	beforeD.Annotations = cloneMap(d.Annotations)
	s, err := Plan(d, rss, t0)
	if err != nil {
		t.Fatalf("Plan error: %v", err)
	}
	hash := revision.Hash(&d.Template, nil)
	name := revision.ReplicaSetName("nginx", hash)
	wantActions := []Action{
		{Kind: CreateReplicaSet, ReplicaSet: name, From: 0, To: 3, Reason: "created new ReplicaSet " + name + " (revision 2) at 3: 13 pods allowed (10 + maxSurge 3), 10 in other ReplicaSets"},
		{Kind: ScaleReplicaSet, ReplicaSet: "nginx-1", From: 10, To: 8, Reason: "scaled down old ReplicaSet nginx-1 from 10 to 8: 10 pods available, at least 8 must stay available (10 - maxUnavailable 2)"},
	}
	if diff := cmp.Diff(wantActions, s.Actions); diff != "" {
		t.Errorf("Plan(image change) actions mismatch (-want +got):\n%s", diff)
	}
	if s.Path != PathRollingUpdate || s.Hash != hash || s.NewReplicaSet != 1 || len(s.ReplicaSets) != 2 {
		t.Fatalf("Plan(image change) = path %v hash %q new %d with %d ReplicaSets, want RollingUpdate %q 1 of 2", s.Path, s.Hash, s.NewReplicaSet, len(s.ReplicaSets), hash)
	}
	created := s.ReplicaSets[1]
	wantAnn := map[string]string{
		revision.RevisionAnnotation: "2", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13", "team": "web",
	}
	if diff := cmp.Diff(wantAnn, created.Annotations); diff != "" {
		t.Errorf("created ReplicaSet annotations mismatch (-want +got):\n%s", diff)
	}
	if created.Name != name || created.Replicas != 3 || !created.CreationTime.Equal(t0) || created.Generation != 1 {
		t.Errorf("created ReplicaSet = %+v, want %s with 3 replicas created at t0, generation 1", created, name)
	}
	if old := s.ReplicaSets[0]; old.Replicas != 8 || old.Generation != 2 || old.Annotations[revision.DesiredReplicasAnnotation] != "10" {
		t.Errorf("old ReplicaSet after = %+v, want 8 replicas, generation 2", old)
	}
	if got := s.Deployment.Annotations[revision.RevisionAnnotation]; got != "2" {
		t.Errorf("deployment revision annotation = %q, want %q", got, "2")
	}
	c, _ := FindCondition(s.Deployment.Status.Conditions, DeploymentProgressing)
	if c.Reason != ReasonNewReplicaSetCreated || c.Message != `Created new replica set "`+name+`"` {
		t.Errorf("Progressing = %+v, want NewReplicaSetCreated", c)
	}
	if !reflect.DeepEqual(before, rss) || !reflect.DeepEqual(beforeD, *d) {
		t.Errorf("Plan modified its inputs")
	}
}

func TestPlanDeleting(t *testing.T) {
	d, rss := rolled(10, "nginx:2")
	d.Deleting = true
	s, err := Plan(d, rss, t0)
	if err != nil || s.Path != PathDeleting || len(s.Actions) != 0 || len(s.ReplicaSets) != 1 {
		t.Errorf("Plan(deleting) = %v %+v, %v; want status only", s.Path, s.Actions, err)
	}
	if s.Deployment.Status.ObservedGeneration != d.Generation {
		t.Errorf("Plan(deleting) observedGeneration = %d, want %d", s.Deployment.Status.ObservedGeneration, d.Generation)
	}
}

func TestPlanPaused(t *testing.T) {
	d, rss := rolled(10, "nginx:2")
	d.Paused = true
	s, err := Plan(d, rss, t0)
	if err != nil || s.Path != PathPaused || len(s.Actions) != 0 || s.NewReplicaSet != -1 {
		t.Fatalf("Plan(paused) = %v %+v new %d, %v; want no new ReplicaSet", s.Path, s.Actions, s.NewReplicaSet, err)
	}
	c, _ := FindCondition(s.Deployment.Status.Conditions, DeploymentProgressing)
	if c.Reason != ReasonDeploymentPaused || c.Status != ConditionUnknown {
		t.Errorf("Plan(paused) Progressing = %+v, want Unknown/DeploymentPaused", c)
	}
	if s.Reason != "paused: no rollout step until resumed" {
		t.Errorf("Plan(paused).Reason = %q", s.Reason)
	}
}

func TestPlanPausedCleansUpHistory(t *testing.T) {
	d := dep(3, nil, nil)
	d.Paused = true
	d.RevisionHistoryLimit = ptr(int32(1))
	old := func(name string, rev string, age int) ReplicaSet[tmpl] {
		r := rs(name, age, 0, 0)
		r.Annotations = map[string]string{revision.RevisionAnnotation: rev}
		return r
	}
	cur := rs("cur", 1, 3, 3)
	cur.Template = d.Template
	cur.Annotations = map[string]string{revision.RevisionAnnotation: "4", revision.DesiredReplicasAnnotation: "3", revision.MaxReplicasAnnotation: "4"}
	rss := []ReplicaSet[tmpl]{old("r3", "3", 10), old("r1", "1", 30), cur, old("r2", "2", 20)}
	s, err := Plan(d, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, a := range s.Actions {
		if a.Kind == DeleteReplicaSet {
			deleted = append(deleted, a.ReplicaSet)
		}
	}
	if want := []string{"r1", "r2"}; !cmp.Equal(deleted, want) || len(s.ReplicaSets) != 2 {
		t.Errorf("Plan(paused, limit 1, 3 idle) deleted %v leaving %d, want %v leaving 2", deleted, len(s.ReplicaSets), want)
	}
	if s.ReplicaSets[s.NewReplicaSet].Name != "cur" {
		t.Errorf("NewReplicaSet index %d names %q, want cur", s.NewReplicaSet, s.ReplicaSets[s.NewReplicaSet].Name)
	}
}

func TestPlanRollback(t *testing.T) {
	// Rolled out to nginx:2 (revision 2); roll back to revision 1.
	d, rss := rolled(3, "nginx:2")
	s, err := Plan(d, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	d2 := s.Deployment
	rss2 := s.ReplicaSets
	for _, tt := range []struct {
		name       string
		to         int64
		wantKind   ActionKind
		wantReason string
		wantImage  string
	}{
		{name: "to revision 1", to: 1, wantKind: RollBack, wantReason: `Rolled back deployment "nginx" to revision 1 (template of ReplicaSet nginx-1)`, wantImage: "nginx:1.9"},
		{name: "to the previous revision", to: 0, wantKind: RollBack, wantReason: `Rolled back deployment "nginx" to revision 1 (template of ReplicaSet nginx-1)`, wantImage: "nginx:1.9"},
		{name: "to a missing revision", to: 7, wantKind: SkipRollback, wantReason: "rollback skipped: Unable to find the revision to rollback to (revision 7).", wantImage: "nginx:2"},
		{name: "to the current revision", to: 2, wantKind: SkipRollback, wantReason: `rollback skipped: The rollback revision contains the same template as current deployment "nginx"`, wantImage: "nginx:2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := d2
			d.RollbackTo = ptr(tt.to)
			s, err := Plan(&d, rss2, t0.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			last := s.Actions[len(s.Actions)-1]
			if s.Path != PathRollback || last.Kind != tt.wantKind || last.Reason != tt.wantReason {
				t.Errorf("Plan(rollback %s) = %v %v %q, want %v %q", tt.name, s.Path, last.Kind, last.Reason, tt.wantKind, tt.wantReason)
			}
			if s.Deployment.RollbackTo != nil || s.Deployment.Template.Spec != tt.wantImage {
				t.Errorf("Plan(rollback %s) left RollbackTo %v, image %q; want nil, %q", tt.name, s.Deployment.RollbackTo, s.Deployment.Template.Spec, tt.wantImage)
			}
			if tt.wantKind == RollBack && s.Deployment.Generation != d.Generation+1 {
				t.Errorf("Plan(rollback) generation = %d, want %d", s.Deployment.Generation, d.Generation+1)
			}
		})
	}
	t.Run("no history", func(t *testing.T) {
		d := dep(3, nil, nil)
		d.RollbackTo = ptr(int64(0))
		s, _ := Plan(d, nil, t0)
		if last := s.Actions[len(s.Actions)-1]; last.Reason != "rollback skipped: Unable to find last revision." {
			t.Errorf("Plan(rollback, no history) = %+v", s.Actions)
		}
	})
}

func TestPlanRollForwardToOldTemplateRenumbers(t *testing.T) {
	// After a rollback the old ReplicaSet becomes new again: revision
	// max+1, its old number moves into revision-history, and the
	// deployment's revision follows in the next sync.
	d, rss := rolled(3, "nginx:2")
	s, _ := Plan(d, rss, t0)
	d2 := s.Deployment
	d2.Template = image("nginx:1.9")
	s, err := Plan(&d2, s.ReplicaSets, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Actions[0]
	if a.Kind != AnnotateReplicaSet || a.ReplicaSet != "nginx-1" || a.Reason != "updated annotations of new ReplicaSet nginx-1 (revision 1 -> 3)" {
		t.Errorf("Plan(roll forward to revision 1) first action = %+v", a)
	}
	ann := s.ReplicaSets[s.NewReplicaSet].Annotations
	if ann[revision.RevisionAnnotation] != "3" || ann[revision.RevisionHistoryAnnotation] != "1" {
		t.Errorf("re-promoted annotations = %v, want revision 3, history 1", ann)
	}
	if got := s.Deployment.Annotations[revision.RevisionAnnotation]; got != "2" {
		t.Errorf("deployment revision = %q, want 2 (synced in the next pass)", got)
	}
	s2, _ := Plan(&s.Deployment, s.ReplicaSets, t0.Add(2*time.Minute))
	if got := s2.Deployment.Annotations[revision.RevisionAnnotation]; got != "3" {
		t.Errorf("deployment revision next sync = %q, want 3", got)
	}
}

func TestPlanScalingEvent(t *testing.T) {
	for _, tt := range []struct {
		to               int32
		wantOld, wantNew int32
		wantMax          string
	}{
		{to: 20, wantOld: 15, wantNew: 10, wantMax: "25"},
		{to: 4, wantOld: 3, wantNew: 2, wantMax: "5"},
	} {
		d := dep(tt.to, nil, nil)
		ann := func(rev string) map[string]string {
			return map[string]string{revision.RevisionAnnotation: rev, revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"}
		}
		old, nw := rs("old", 10, 8, 8), rs("new", 1, 5, 3)
		old.Annotations, nw.Annotations, nw.Template = ann("1"), ann("2"), d.Template
		s, err := Plan(d, []ReplicaSet[tmpl]{old, nw}, t0)
		if err != nil {
			t.Fatal(err)
		}
		got := s.ReplicaSets
		if s.Path != PathScaling || got[0].Replicas != tt.wantOld || got[1].Replicas != tt.wantNew {
			t.Errorf("Plan(resize 10 -> %d) = %v old %d new %d, want scaling old %d new %d", tt.to, s.Path, got[0].Replicas, got[1].Replicas, tt.wantOld, tt.wantNew)
		}
		for _, r := range got {
			if r.Annotations[revision.DesiredReplicasAnnotation] != itoa(int64(tt.to)) || r.Annotations[revision.MaxReplicasAnnotation] != tt.wantMax {
				t.Errorf("Plan(resize 10 -> %d) %s annotations = %v, want desired %d max %s", tt.to, r.Name, r.Annotations, tt.to, tt.wantMax)
			}
		}
	}
}

func TestPlanRecreate(t *testing.T) {
	d, rss := rolled(3, "nginx:2")
	d.Strategy, d.MaxSurge, d.MaxUnavailable = Recreate, nil, nil
	s, err := Plan(d, rss, t0)
	if err != nil || s.Path != PathRecreate || len(s.Actions) != 1 || s.Actions[0].To != 0 || s.NewReplicaSet != -1 {
		t.Fatalf("Plan(Recreate, first) = %v %+v new %d, %v; want the old ReplicaSet scaled to 0, nothing created", s.Path, s.Actions, s.NewReplicaSet, err)
	}
	// The old pods are still there (status 3, then terminating).
	rss = s.ReplicaSets
	rss[0].TerminatingReplicas = ptr(int32(3))
	rss[0].StatusReplicas, rss[0].ReadyReplicas, rss[0].AvailableReplicas = 0, 0, 0
	s, _ = Plan(&s.Deployment, rss, t0.Add(time.Minute))
	if len(s.Actions) != 0 || s.Reason != "waiting for 3 old pods to stop before starting the new ReplicaSet" {
		t.Errorf("Plan(Recreate, terminating) = %+v %q, want waiting", s.Actions, s.Reason)
	}
	rss = s.ReplicaSets
	rss[0].TerminatingReplicas = ptr(int32(0))
	s, _ = Plan(&s.Deployment, rss, t0.Add(2*time.Minute))
	if len(s.Actions) != 1 || s.Actions[0].Kind != CreateReplicaSet || s.Actions[0].To != 3 {
		t.Errorf("Plan(Recreate, old gone) = %+v, want the new ReplicaSet created at 3", s.Actions)
	}
	if want := "Recreate starts all 3 pods once the old ones are gone"; !strings.HasSuffix(s.Actions[0].Reason, want) {
		t.Errorf("Plan(Recreate, old gone) reason = %q, want suffix %q", s.Actions[0].Reason, want)
	}
}

func TestPlanHashCollision(t *testing.T) {
	d, rss := rolled(3, "nginx:2")
	name := revision.ReplicaSetName("nginx", revision.Hash(&d.Template, nil))
	squatter := rs("squat", 5, 0, 0)
	squatter.Name = name
	rss = append(rss, squatter)
	s, err := Plan(d, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actions) != 1 || s.Actions[0].Kind != CountCollision || s.Deployment.Status.CollisionCount == nil || *s.Deployment.Status.CollisionCount != 1 || !s.Requeue {
		t.Fatalf("Plan(collision) = %+v, collisionCount %v requeue %v; want collisionCount 1 and a requeue", s.Actions, s.Deployment.Status.CollisionCount, s.Requeue)
	}
	s, _ = Plan(&s.Deployment, s.ReplicaSets, t0.Add(time.Second))
	want := revision.ReplicaSetName("nginx", revision.Hash(&d.Template, ptr(int32(1))))
	if s.Actions[0].Kind != CreateReplicaSet || s.Actions[0].ReplicaSet != want {
		t.Errorf("Plan(after collision) = %+v, want %s created", s.Actions, want)
	}
}

func TestPlanHugeMaxSurgeDoesNotStall(t *testing.T) {
	// B3: upstream wraps R + maxSurge negative and the rollout never moves.
	d, rss := rolled(10, "nginx:2")
	d.MaxSurge = num(math.MaxInt32)
	s, err := Plan(d, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	created := s.ReplicaSets[s.NewReplicaSet]
	if created.Replicas != 10 || created.Annotations[revision.MaxReplicasAnnotation] != "2147483647" {
		t.Errorf("Plan(maxSurge MaxInt32) created %d with max-replicas %q, want 10 and 2147483647", created.Replicas, created.Annotations[revision.MaxReplicasAnnotation])
	}
}

func TestPlanTooLargeNewReplicaSet(t *testing.T) {
	d := dep(5, nil, nil)
	nw := rs("new", 1, 8, 8)
	nw.Template = d.Template
	nw.Annotations = map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "5", revision.MaxReplicasAnnotation: "7"}
	s, _ := Plan(d, []ReplicaSet[tmpl]{nw}, t0)
	want := []Action{{Kind: ScaleReplicaSet, ReplicaSet: "new", From: 8, To: 5, Reason: "scaled down new ReplicaSet new from 8 to 5: more than the 5 desired replicas"}}
	if diff := cmp.Diff(want, s.Actions); diff != "" {
		t.Errorf("Plan(new 8 > R 5) mismatch (-want +got):\n%s", diff)
	}
}

func TestPlanStaleStatusBlocksScaleDown(t *testing.T) {
	// B9: an old ReplicaSet reporting more available pods than its spec
	// stops the cleanup, and upstream swallows the error: no scale-down.
	d := dep(10, nil, nil)
	nw := rs("new", 1, 5, 5)
	nw.Template = d.Template
	nw.Annotations = map[string]string{revision.RevisionAnnotation: "2", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"}
	stale := rs("old", 10, 5, 7)
	stale.Annotations = map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"}
	young := rs("old2", 5, 3, 1)
	young.Annotations = map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"}
	s, err := Plan(d, []ReplicaSet[tmpl]{stale, young, nw}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actions) != 0 || !strings.Contains(s.Reason, "got invalid request to scale down old 5 -> 7") {
		t.Errorf("Plan(stale status) = %+v %q, want no action and the stale-status note", s.Actions, s.Reason)
	}
}

func TestPlanRequeuesStuckDeployment(t *testing.T) {
	d, rss, cfg := canonical()
	cfg.NeverReady = 3
	cfg.MaxSteps = 3
	tr, err := Simulate(&d, rss, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Sync 3 sees nothing new; plan sync 4 with the same ReplicaSets.
	cur := tr.Deployment
	s, _ := Plan(&cur, tr.ReplicaSets, t0.Add(40*time.Second))
	s2, _ := Plan(&s.Deployment, s.ReplicaSets, t0.Add(50*time.Second))
	c, _ := FindCondition(s2.Deployment.Status.Conditions, DeploymentProgressing)
	want := c.LastUpdateTime.Add(600*time.Second).Sub(t0.Add(50*time.Second)) + time.Second
	if !s2.Requeue || s2.RequeueAfter != want {
		t.Errorf("Plan(stuck) requeue = (%v, %v), want (true, %v)\n%s", s2.Requeue, s2.RequeueAfter, want, tr.String())
	}
}

func TestPlanErrorsAreTyped(t *testing.T) {
	d := dep(3, nil, nil)
	d.Strategy = "Canary"
	_, err := Plan(d, nil, t0)
	if !errors.Is(err, field.ErrInvalid) {
		t.Errorf("Plan(Canary) error = %v, want field.ErrInvalid", err)
	}
}

func TestPlanWithCleanupSubstitute(t *testing.T) {
	// Limit 1, three old ReplicaSets; the lowest revision still has pods.
	// Upstream examines only the two lowest and deletes one; substituting
	// deletes two.
	d := dep(3, nil, nil)
	d.Paused = true
	d.RevisionHistoryLimit = ptr(int32(1))
	old := func(name, rev string, age int, spec int32) ReplicaSet[tmpl] {
		r := rs(name, age, spec, spec)
		r.Annotations = map[string]string{revision.RevisionAnnotation: rev, revision.DesiredReplicasAnnotation: "3", revision.MaxReplicasAnnotation: "4"}
		return r
	}
	cur := old("cur", "4", 1, 2)
	cur.Template = d.Template
	rss := []ReplicaSet[tmpl]{old("r1", "1", 30, 1), old("r2", "2", 20, 0), old("r3", "3", 10, 0), cur}
	for _, tt := range []struct {
		mode revision.CleanupMode
		want []string
	}{
		{mode: revision.CleanupUpstream, want: []string{"r2"}},
		{mode: revision.CleanupSubstitute, want: []string{"r2", "r3"}},
	} {
		s, err := PlanWith(d, rss, t0, Options{Cleanup: tt.mode})
		if err != nil {
			t.Fatal(err)
		}
		var deleted []string
		for _, a := range s.Actions {
			if a.Kind == DeleteReplicaSet {
				deleted = append(deleted, a.ReplicaSet)
			}
		}
		if !cmp.Equal(deleted, tt.want) {
			t.Errorf("PlanWith(Cleanup %v) deleted %v, want %v", tt.mode, deleted, tt.want)
		}
	}
}

func TestPlanWithTerminatingAwareSurge(t *testing.T) {
	t.Run("rolling scale-up takes terminating pods into account", func(t *testing.T) {
		d, rss := rolled(10, "nginx:2")
		rss[0].Replicas, rss[0].TerminatingReplicas = 8, ptr(int32(2))
		for _, tt := range []struct {
			surge SurgePolicy
			want  int32
		}{{SurgeIgnoresTerminating, 5}, {SurgeCountsTerminating, 3}} {
			s, _ := PlanWith(d, rss, t0, Options{Surge: tt.surge})
			if got := s.ReplicaSets[s.NewReplicaSet].Replicas; got != tt.want {
				t.Errorf("PlanWith(%v) created the new ReplicaSet at %d, want %d", tt.surge, got, tt.want)
			}
		}
	})
	t.Run("proportional scale-up waits for terminating pods", func(t *testing.T) {
		d := dep(20, nil, nil)
		ann := map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"}
		old, nw := rs("old", 10, 8, 8), rs("new", 1, 5, 3)
		old.Annotations, nw.Annotations, nw.Template = ann, cloneMap(ann), d.Template
		nw.Annotations[revision.RevisionAnnotation] = "2"
		old.TerminatingReplicas = ptr(int32(20))
		rss := []ReplicaSet[tmpl]{old, nw}
		s, _ := PlanWith(d, rss, t0, Options{Surge: SurgeCountsTerminating})
		if len(s.Actions) != 0 || !strings.HasPrefix(s.Reason, "waiting for 20 terminating pods before scaling up to 25") {
			t.Errorf("PlanWith(resize with 20 terminating) = %+v %q, want a wait", s.Actions, s.Reason)
		}
		s, _ = PlanWith(d, rss, t0, Options{})
		if len(s.Actions) != 2 {
			t.Errorf("PlanWith(resize, default) = %+v, want both ReplicaSets scaled", s.Actions)
		}
	})
	t.Run("Recreate waits for the new ReplicaSet's terminating pods", func(t *testing.T) {
		d := dep(3, nil, nil)
		d.Strategy, d.MaxSurge, d.MaxUnavailable = Recreate, nil, nil
		nw := rs("new", 1, 1, 1)
		nw.Template = d.Template
		nw.Annotations = map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "3", revision.MaxReplicasAnnotation: "3"}
		nw.TerminatingReplicas = ptr(int32(2))
		s, _ := PlanWith(d, []ReplicaSet[tmpl]{nw}, t0, Options{Surge: SurgeCountsTerminating})
		if len(s.Actions) != 0 || s.Reason != "waiting for 2 terminating pods before starting new pods" {
			t.Errorf("PlanWith(Recreate, terminating) = %+v %q, want a wait", s.Actions, s.Reason)
		}
	})
}

func TestPlanRollbackFromAnnotation(t *testing.T) {
	d, rss := rolled(3, "nginx:2")
	s, _ := Plan(d, rss, t0)
	d2 := s.Deployment
	d2.Annotations = cloneMap(d2.Annotations)
	d2.Annotations[revision.RollbackToAnnotation] = "1"
	s, err := Plan(&d2, s.ReplicaSets, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != PathRollback || s.Deployment.Template.Spec != "nginx:1.9" {
		t.Errorf("Plan(rollback annotation) = %v at %q, want a rollback to nginx:1.9", s.Path, s.Deployment.Template.Spec)
	}
	if _, ok := s.Deployment.Annotations[revision.RollbackToAnnotation]; ok {
		t.Errorf("Plan(rollback annotation) kept the annotation: %v", s.Deployment.Annotations)
	}
	d2.Annotations[revision.RollbackToAnnotation] = "soon"
	if s, _ := Plan(&d2, s.ReplicaSets, t0.Add(time.Minute)); s.Path == PathRollback {
		t.Errorf("Plan(rollback annotation %q) took the rollback path, want it ignored", "soon")
	}
}

func TestOldPodsRunning(t *testing.T) {
	for _, tt := range []struct {
		name        string
		old         ReplicaSet[tmpl]
		newRS       ReplicaSet[tmpl]
		wantRunning bool
	}{
		{name: "old pods in status", old: ReplicaSet[tmpl]{Name: "old", StatusReplicas: 1}, wantRunning: true},
		{name: "old pods terminating", old: ReplicaSet[tmpl]{Name: "old", TerminatingReplicas: ptr(int32(2))}, wantRunning: true},
		{name: "old gone", old: ReplicaSet[tmpl]{Name: "old", TerminatingReplicas: ptr(int32(0))}, wantRunning: false},
		{name: "new pods do not count", old: ReplicaSet[tmpl]{Name: "old"}, newRS: ReplicaSet[tmpl]{Name: "new", StatusReplicas: 3, TerminatingReplicas: ptr(int32(1))}, wantRunning: false},
		{name: "terminating not reported", old: ReplicaSet[tmpl]{Name: "old"}, wantRunning: false},
	} {
		p := &planner[tmpl]{rss: []ReplicaSet[tmpl]{tt.old, tt.newRS}, newIdx: 1}
		if got, _ := p.oldPodsRunning(); got != tt.wantRunning {
			t.Errorf("oldPodsRunning(%s) = %v, want %v", tt.name, got, tt.wantRunning)
		}
	}
}

func TestPlanUpstreamScalingDeadEnd(t *testing.T) {
	// R 2 with maxSurge 0: the first sync created the new ReplicaSet at 0
	// and took the old one to 1 (desired-replicas 2). Then R becomes 1: the
	// only active ReplicaSet already has 1, so upstream's scale() returns
	// without refreshing its annotation, and every sync after is the same
	// scaling event.
	d, rss := rolled(2, "nginx:2")
	d.MaxSurge, d.MaxUnavailable = num(0), num(1)
	s, _ := Plan(d, rss, t0)
	d2 := s.Deployment
	d2.Replicas, d2.Generation = 1, d2.Generation+1
	rss2 := s.ReplicaSets
	for sync := 0; sync < 3; sync++ {
		s2, _ := Plan(&d2, rss2, t0.Add(time.Minute))
		if s2.Path != PathScaling || len(s2.Actions) != 0 {
			t.Fatalf("Plan(dead end) sync %d = %v %+v, want a scaling event with nothing to do", sync, s2.Path, s2.Actions)
		}
		d2, rss2 = s2.Deployment, s2.ReplicaSets
	}
	s3, _ := PlanWith(&d2, rss2, t0.Add(time.Minute), Options{Resize: ResizeRefreshesAnnotations})
	want := []Action{{Kind: ScaleReplicaSet, ReplicaSet: "nginx-1", From: 1, To: 1, Reason: "refreshed replicas annotations of old ReplicaSet nginx-1 (desired 1, max 1)"}}
	if diff := cmp.Diff(want, s3.Actions); diff != "" {
		t.Fatalf("PlanWith(ResizeRefreshesAnnotations) mismatch (-want +got):\n%s", diff)
	}
	s4, _ := PlanWith(&s3.Deployment, s3.ReplicaSets, t0.Add(2*time.Minute), Options{Resize: ResizeRefreshesAnnotations})
	if s4.Path != PathRollingUpdate {
		t.Errorf("after the refresh, path = %v, want RollingUpdate", s4.Path)
	}
}

func TestPlanWithConservingProportion(t *testing.T) {
	// R 10 -> 1 over three ReplicaSets of 1 (maxSurge 0): upstream keeps the
	// new one; the conserving split, by largest remainder with upstream's
	// order for ties, keeps the oldest. Both sum to 1.
	d := dep(1, num(0), num(1))
	mk := func(name string, age int, rev string) ReplicaSet[tmpl] {
		r := rs(name, age, 1, 1)
		r.Annotations = map[string]string{revision.RevisionAnnotation: rev, revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "10"}
		return r
	}
	c := mk("c", 1, "3")
	c.Template = d.Template
	rss := []ReplicaSet[tmpl]{mk("a", 3, "1"), mk("b", 2, "2"), c}
	for _, tt := range []struct {
		mode proportion.Mode
		want []int32
	}{
		{mode: proportion.Upstream, want: []int32{0, 0, 1}},
		{mode: proportion.Conserving, want: []int32{1, 0, 0}},
	} {
		s, err := PlanWith(d, rss, t0, Options{Proportion: tt.mode})
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		for _, r := range s.ReplicaSets {
			got = append(got, r.Replicas)
		}
		if s.Path != PathScaling || !cmp.Equal(got, tt.want) {
			t.Errorf("PlanWith(%v) = %v %v, want scaling %v", tt.mode, s.Path, got, tt.want)
		}
	}
}
