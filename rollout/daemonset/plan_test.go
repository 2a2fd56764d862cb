package daemonset

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
)

func kinds(s *Sync[spec]) string {
	var out []string
	for _, a := range s.Actions {
		w := a.Kind.String()
		if a.Pod != "" {
			w += " " + a.Pod
		} else if a.Revision != "" {
			w += " " + a.Revision
		}
		out = append(out, w)
	}
	return strings.Join(out, ", ")
}

func TestPlanRollingUpdateFirstSync(t *testing.T) {
	f := newFixture(t, num(2), nil).layout(t, "o:r o:r o:r o:r o:r")
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := "DeletePod n0-0, DeletePod n1-0, WriteStatus"
	if got := kinds(&s); got != want {
		t.Errorf("Plan actions = %s, want %s", got, want)
	}
	if !s.Pods[0].Terminating || !s.Pods[1].Terminating || s.Pods[2].Terminating {
		t.Errorf("Plan pods = %+v, want n0-0 and n1-0 terminating", s.Pods)
	}
	wantStatus := Status{ObservedGeneration: 2, DesiredNumberScheduled: 5, CurrentNumberScheduled: 5, NumberReady: 5, NumberAvailable: 5}
	if diff := cmp.Diff(wantStatus, s.DaemonSet.Status); diff != "" {
		t.Errorf("status mismatch (-want +got):\n%s", diff)
	}
	wantReason := "rolling update deleted 2 pods (maxUnavailable 2 of 5 nodes, 0 unavailable); desired 5, current 5, ready 5, up-to-date 0, available 5"
	if s.Reason != wantReason {
		t.Errorf("Reason = %q, want %q", s.Reason, wantReason)
	}
	wantAction := "rolling update within maxUnavailable 2 of 5 nodes: old pod n0-0 on node n0 deleted"
	if s.Actions[0].Reason != wantAction {
		t.Errorf("Actions[0].Reason = %q, want %q", s.Actions[0].Reason, wantAction)
	}
}

func TestPlanManageWritesPostponeRollingUpdate(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "(empty) o:r o:r")
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.RollingUpdate != nil {
		t.Errorf("RollingUpdate = %+v, want nil after manage wrote", s.RollingUpdate)
	}
	if len(s.Actions) != 2 || s.Actions[0].Kind != CreatePod || s.Actions[0].Node != "n0" || s.Actions[1].Kind != WriteStatus {
		t.Fatalf("actions = %s, want CreatePod on n0, WriteStatus", kinds(&s))
	}
	p := s.Pods[len(s.Pods)-1]
	want := Pod{Name: s.Actions[0].Pod, Node: "n0", Unscheduled: true, Hash: f.newHash, TemplateGeneration: "2", Phase: PodPending, Created: t0}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("created pod mismatch (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(p.Name, "agent-") || len(p.Name) != len("agent-")+5 {
		t.Errorf("created pod name %q, want agent- and five characters", p.Name)
	}
}

func TestPlanCreatesRevisionForNewTemplate(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r o:r")
	revs := f.revisions[:1] // only the old revision exists
	s, err := Plan(f.ds, f.nodes, f.pods, revs, t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Actions[0].Kind != WriteRevision || s.Actions[0].Revision != "agent-"+f.newHash || s.Actions[0].Number != 2 {
		t.Errorf("first action = %+v, want WriteRevision agent-%s number 2", s.Actions[0], f.newHash)
	}
	if len(s.Revisions) != 2 || s.Revisions[1].Name != "agent-"+f.newHash {
		t.Errorf("revisions = %+v, want the created one last", s.Revisions)
	}
	if s.Hash != f.newHash {
		t.Errorf("Hash = %q, want %q", s.Hash, f.newHash)
	}
}

func TestPlanCollisionRaisesCountAndStops(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r o:r")
	taken := ControllerRevision{Name: "agent-" + f.newHash, Hash: f.newHash, Number: 2, Data: []byte(`{"other":1}`)}
	s, err := Plan(f.ds, f.nodes, f.pods, []ControllerRevision{f.revisions[0], taken}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(&s); got != "BumpCollisionCount agent-"+f.newHash {
		t.Errorf("actions = %s, want only BumpCollisionCount", got)
	}
	if c := s.DaemonSet.Status.CollisionCount; c == nil || *c != 1 || !s.Requeue {
		t.Errorf("collisionCount = %v, requeue %v; want 1 and a requeue", c, s.Requeue)
	}
	if f.ds.Status.CollisionCount != nil {
		t.Errorf("Plan modified the input's collision count")
	}
	// The next sync, with the new count, creates a revision of another name.
	ds := s.DaemonSet
	s2, err := Plan(&ds, f.nodes, f.pods, []ControllerRevision{f.revisions[0], taken}, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := "agent-" + Hash(&ds.Template, ds.Status.CollisionCount)
	if s2.Actions[0].Kind != WriteRevision || s2.Actions[0].Revision != want || want == taken.Name {
		t.Errorf("second sync first action = %+v, want WriteRevision %s", s2.Actions[0], want)
	}
}

func TestPlanHistoryCleanupCountsLiveRevisions(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r x:r")
	limit := int32(2)
	f.ds.RevisionHistoryLimit = &limit
	revs := append([]ControllerRevision{}, f.revisions...)
	for i, h := range []string{"aaa", "bbb", f.thirdHash} {
		revs = append(revs, ControllerRevision{Name: "agent-" + h, Hash: h, Number: int64(i + 3), Data: []byte(h)})
	}
	// Renumber the new template's revision so it is the newest.
	s, err := Plan(f.ds, f.nodes, f.pods, revs, t0)
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, a := range s.Actions {
		if a.Kind == DeleteRevision {
			deleted = append(deleted, a.Revision)
		}
	}
	// Old: o (live), aaa, bbb, x (live): 4 old, limit 2: both non-live go.
	want := []string{"agent-aaa", "agent-bbb"}
	if diff := cmp.Diff(want, deleted); diff != "" {
		t.Errorf("deleted revisions mismatch (-want +got):\n%s", diff)
	}
}

func TestPlanDeletingDoesNothing(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r (empty)")
	f.ds.Deleting = true
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actions) != 0 || s.Reason != "the DaemonSet is being deleted: the controller writes nothing, not even status" {
		t.Errorf("Plan = %s / %q, want nothing", kinds(&s), s.Reason)
	}
}

func TestPlanMinReadyRequeue(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "n:y n:r")
	f.ds.MinReadySeconds = 60
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Requeue || s.RequeueAfter != 60*time.Second {
		t.Errorf("requeue = %v after %v, want after 60s (a ready pod not yet available)", s.Requeue, s.RequeueAfter)
	}
}

func TestPlanErrors(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r o:r")
	tests := []struct {
		name   string
		change func(ds *DaemonSet[spec], nodes []Node, pods []Pod) ([]Node, []Pod)
		want   string
		kind   error
	}{
		{"invalid DaemonSet", func(ds *DaemonSet[spec], n []Node, p []Pod) ([]Node, []Pod) {
			ds.UpdateStrategy.RollingUpdate.MaxSurge = num(1)
			return n, p
		}, `daemonset: invalid DaemonSet "agent": spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`, field.ErrInvalid},
		{"duplicate pod", func(ds *DaemonSet[spec], n []Node, p []Pod) ([]Node, []Pod) {
			return n, append(p, p[0])
		}, `daemonset: pods[2].name: duplicate name "n0-0"`, field.ErrDuplicate},
		{"duplicate node", func(ds *DaemonSet[spec], n []Node, p []Pod) ([]Node, []Pod) {
			return append(n, n[1]), p
		}, `daemonset: nodes[2].name: duplicate name "n1"`, field.ErrDuplicate},
		{"empty node name", func(ds *DaemonSet[spec], n []Node, p []Pod) ([]Node, []Pod) {
			return append(n, Node{}), p
		}, `daemonset: nodes[2].name: must not be empty`, field.ErrRequired},
		{"shouldRun without shouldContinueRunning", func(ds *DaemonSet[spec], n []Node, p []Pod) ([]Node, []Pod) {
			return append(n, Node{Name: "n9", ShouldRun: true}), p
		}, `daemonset: nodes[2].shouldContinueRunning: false: must be true when shouldRun is true`, field.ErrInvalid},
		{"unknown phase", func(ds *DaemonSet[spec], n []Node, p []Pod) ([]Node, []Pod) {
			p[1].Phase = "Sleeping"
			return n, p
		}, `daemonset: pods[1].phase: "Sleeping": supported values: "Pending", "Running", "Succeeded", "Failed", "Unknown"`, field.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := *f.ds
			ru := *ds.UpdateStrategy.RollingUpdate
			ds.UpdateStrategy.RollingUpdate = &ru
			nodes, pods := tt.change(&ds, append([]Node{}, f.nodes...), append([]Pod{}, f.pods...))
			_, err := Plan(&ds, nodes, pods, f.revisions, t0)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Plan error = %v, want %s", err, tt.want)
			}
			if !errors.Is(err, field.ErrInvalid) || !errors.Is(err, tt.kind) {
				t.Errorf("Plan error %v does not wrap field.ErrInvalid and %v", err, tt.kind)
			}
		})
	}
	if _, err := Plan[spec](nil, nil, nil, nil, t0); err == nil || err.Error() != "daemonset: daemonset: Required value" {
		t.Errorf("Plan(nil) error = %v", err)
	}
}

func TestPlanSurgeOldPodOnMissingNodeFails(t *testing.T) {
	f := newFixture(t, nil, num(1)).layout(t, "o:r o:r")
	f.pods = append(f.pods, Pod{Name: "stray", Node: "gone", Hash: f.oldHash, Phase: PodRunning, Ready: true, ReadySince: t0.Add(-time.Hour)})
	_, err := RollingUpdateStep(f.ds, f.nodes, f.pods, f.newHash, t0, Options{})
	var nf *NodeNotFoundError
	if !errors.As(err, &nf) || nf.Node != "gone" || err.Error() != `couldn't get node for nodeName "gone": node "gone" not found` {
		t.Fatalf("RollingUpdateStep error = %v, want NodeNotFoundError for gone", err)
	}
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Requeue || s.RequeueAfter != 0 || len(s.RollingUpdate.Create) != 0 || s.Actions[len(s.Actions)-1].Kind != WriteStatus {
		t.Errorf("Plan = %s, requeue %v after %v; want only the status and a rate-limited requeue", kinds(&s), s.Requeue, s.RequeueAfter)
	}
	if want := `the rolling update failed: couldn't get node for nodeName "gone": node "gone" not found`; !strings.Contains(s.Reason, want) {
		t.Errorf("Reason %q does not say %q", s.Reason, want)
	}
}

// TestPlanFailedRollingUpdateDropsDeletedDuplicates: the history step
// deletes a duplicate of the current revision before manage; when the
// rolling update then fails (an old pod on a node that is gone, with
// surge), the cleanup is skipped but the duplicate is gone all the same,
// so it must not be among the revisions the sync leaves.
func TestPlanFailedRollingUpdateDropsDeletedDuplicates(t *testing.T) {
	f := newFixture(t, nil, num(1)).layout(t, "o:r o:r")
	f.pods = append(f.pods, Pod{Name: "stray", Node: "gone", Hash: f.oldHash, Phase: PodRunning, Ready: true, ReadySince: t0.Add(-time.Hour)})
	dup := f.revisions[1]
	dup.Name, dup.Hash = "agent-copy", "agent-copy"
	revisions := append(append([]ControllerRevision{}, f.revisions...), dup)
	s, err := Plan(f.ds, f.nodes, f.pods, revisions, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Requeue || s.RequeueAfter != 0 {
		t.Fatalf("Plan = %s, requeue %v after %v; want the failed rolling update's rate-limited requeue", kinds(&s), s.Requeue, s.RequeueAfter)
	}
	var deleted []string
	for _, a := range s.Actions {
		if a.Kind == DeleteRevision {
			deleted = append(deleted, a.Revision)
		}
	}
	var left []string
	for _, r := range s.Revisions {
		left = append(left, r.Name)
	}
	// Whichever of the two tied revisions is kept, the other is deleted
	// and must be absent.
	if len(deleted) != 1 || len(left) != 2 || slices.Contains(left, deleted[0]) {
		t.Errorf("deleted %q, revisions left %q; want one duplicate deleted and absent", deleted, left)
	}
}
