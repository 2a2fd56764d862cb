package statefulset

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/ownership"
)

// kinds renders the actions of s as "Kind pod" or "Kind revision".
func kinds(s Sync[tmpl]) string {
	var out []string
	for _, a := range s.Actions {
		switch {
		case a.Pod != "":
			out = append(out, a.Kind.String()+" "+a.Pod)
		case a.Revision != "":
			out = append(out, a.Kind.String()+" "+short(a.Revision))
		default:
			out = append(out, a.Kind.String())
		}
	}
	return strings.Join(out, ", ")
}

func TestPlanClaimsPods(t *testing.T) {
	sel := &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}
	labelled := func(s string, labels map[string]string, owner string) Pod {
		p := pod(s)
		p.Labels, p.ControllerUID = labels, owner
		return p
	}
	web := map[string]string{"app": "web"}
	other := map[string]string{"app": "db"}
	tests := []struct {
		name     string
		pods     []Pod
		deleting bool
		want     string
		reason   string
	}{
		{"orphan member matching is adopted", []Pod{labelled("0:r", web, "uid-web"), labelled("1:r", web, ""), labelled("2:r", web, "uid-web")},
			false, "AdoptPod web-1", "ClaimPods adopts an orphan the selector matches"},
		{"owned pod no longer matching is released", []Pod{labelled("0:r", web, "uid-web"), labelled("1:r", other, "uid-web"), labelled("2:r", web, "uid-web")},
			false, "ReleasePod web-1, CreatePod web-1, WriteStatus", "released, then its slot is empty and created"},
		{"owned non-member is released", []Pod{labelled("0:r", web, "uid-web"), labelled("1:r", web, "uid-web"), labelled("2:r", web, "uid-web"), {Name: "cache-0", Labels: web, ControllerUID: "uid-web", Phase: PodRunning}},
			false, "ReleasePod cache-0", "isMemberOf is part of the match; the status is unchanged"},
		{"pod of another controller is ignored", []Pod{labelled("0:r", web, "uid-web"), labelled("1:r", web, "uid-other"), labelled("2:r", web, "uid-web")},
			false, "CreatePod web-1, WriteStatus", "its slot is empty to this set: the create will fail with AlreadyExists"},
		{"terminating orphan is not adopted", []Pod{labelled("0:r", web, "uid-web"), labelled("1:t", web, ""), labelled("2:r", web, "uid-web")},
			false, "CreatePod web-1, WriteStatus", "ClaimObject ignores orphans being deleted"},
		{"deleting set neither adopts nor releases", []Pod{labelled("0:r", web, "uid-web"), labelled("1:r", web, ""), labelled("2:r", other, "uid-web")},
			true, "WriteStatus", "a set being deleted writes only its status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(3, false)
			w.set.Selector, w.set.TemplateLabels, w.set.Deleting = sel, web, tt.deleting
			w.pods = tt.pods
			w.set.Status = Status{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, CurrentReplicas: 3, UpdatedReplicas: 3, CurrentRevision: revO.Name, UpdateRevision: revO.Name}
			s := w.plan(t)
			if got := kinds(s); got != tt.want {
				t.Errorf("actions = %s, want %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// TestPlanDeletingCountsEveryClaimedPod: a set being deleted counts
// its status over every claimed pod, those outside the slots too.
func TestPlanDeletingCountsEveryClaimedPod(t *testing.T) {
	w := newWorld(2, false, "0:r", "1:r", "2:r", "3:u")
	w.set.Deleting = true
	s := w.plan(t)
	if got := podWrites(s); got != "nothing" {
		t.Errorf("pod writes = %s, want nothing", got)
	}
	if got := countsOf(s.Status); got != (counts{4, 3, 3, 4, 4, "o"}) {
		t.Errorf("status = %+v, want replicas 4, ready 3, current 4", got)
	}
}

// TestPlanRevisions: the revision step's writes and the history's.
func TestPlanRevisions(t *testing.T) {
	t.Run("new template creates revision 3", func(t *testing.T) {
		w := newWorld(0, true)
		w.set.Template.Image = "third"
		s := w.plan(t)
		if got := kinds(s); got != "CreateRevision x, WriteStatus" {
			t.Fatalf("actions = %s", got)
		}
		if a := s.Actions[0]; a.Number != 3 || a.Collisions != 0 {
			t.Errorf("CreateRevision = %+v, want number 3", a)
		}
		if n := len(s.Revisions); n != 3 || s.Revisions[2].Name != revX.Name || s.Revisions[2].Hash != revX.Hash {
			t.Errorf("revisions after = %+v", s.Revisions)
		}
	})
	t.Run("a taken name raises the collision count", func(t *testing.T) {
		w := newWorld(0, false)
		w.set.Template.Image = "third"
		// A revision holding other data under the name the template hashes to.
		w.revisions = append(w.revisions, ControllerRevision{Name: revX.Name, Number: 2, Data: []byte(`{"other":1}`)})
		s := w.plan(t)
		a := s.Actions[0]
		if a.Kind != CreateRevision || a.Collisions != 1 || a.Revision != RevisionName("web", HashRevision(revX.Data, 1)) || a.Number != 3 {
			t.Fatalf("first action = %+v, want CreateRevision after one collision", a)
		}
		if cc := s.StatefulSet.Status.CollisionCount; cc == nil || *cc != 1 {
			t.Errorf("status.collisionCount = %v, want 1", cc)
		}
	})
	t.Run("rollback renumbers", func(t *testing.T) {
		w := newWorld(0, true)
		w.set.Template.Image = "old"
		s := w.plan(t)
		if got := kinds(s); !strings.HasPrefix(got, "RenumberRevision o") || s.Actions[0].Number != 3 {
			t.Fatalf("actions = %s (%+v)", got, s.Actions)
		}
	})
	t.Run("history keeps live revisions and the limit", func(t *testing.T) {
		limit := int32(1)
		w := newWorld(2, false, "0:x:r", "1:o:r")
		w.set.RevisionHistoryLimit = &limit
		old1 := ControllerRevision{Name: "web-old1", Number: 0, Data: []byte(`{"a":1}`)}
		old2 := ControllerRevision{Name: "web-old2", Number: 0, Data: []byte(`{"a":2}`), CreatedUnixNano: 5}
		w.revisions = []ControllerRevision{old2, revX, revO, old1}
		s := w.plan(t)
		// Live: o (current and update), x (pod web-0). Non-live: old1,
		// old2 (same number, old1 created first); limit 1 drops old1.
		var del []string
		for _, a := range s.Actions {
			if a.Kind == DeleteRevision {
				del = append(del, a.Revision)
			}
		}
		if fmt.Sprint(del) != "[web-old1]" || len(s.Revisions) != 3 {
			t.Errorf("deleted %v, revisions left %d; want [web-old1] and 3", del, len(s.Revisions))
		}
	})
}

// TestPlanRequeue: with minReadySeconds, a sync requeues itself when
// the first ready pod becomes available.
func TestPlanRequeue(t *testing.T) {
	w := newWorld(2, false, "0:r", "1:y").minReady(30)
	s := w.plan(t)
	if !s.Requeue || s.RequeueAfter != 25*time.Second {
		t.Errorf("requeue %v after %v, want after 25s (ready 5 s ago, minReadySeconds 30)", s.Requeue, s.RequeueAfter)
	}
	w = newWorld(2, false, "0:r", "1:r").minReady(30)
	if s := w.plan(t); s.Requeue {
		t.Errorf("all available: requeue %v after %v, want none", s.Requeue, s.RequeueAfter)
	}
}

// TestPlanParallelBatches: Parallel writes carry their slow-start batch.
func TestPlanParallelBatches(t *testing.T) {
	s := newWorld(7, false).parallel().plan(t)
	var got []int32
	for _, a := range s.Actions {
		if a.Kind == CreatePod {
			got = append(got, a.Batch)
		}
	}
	if fmt.Sprint(got) != "[1 2 2 3 3 3 3]" {
		t.Errorf("batches = %v, want [1 2 2 3 3 3 3] (sizes 1, 2, 4)", got)
	}
}

// TestPlanFixesIdentity: a pod whose pod-name label differs is updated.
func TestPlanFixesIdentity(t *testing.T) {
	w := newWorld(2, false, "0:r", "1:r")
	w.pods[1].PodNameLabel = ""
	s := w.plan(t)
	if got := kinds(s); got != "UpdatePod web-1, WriteStatus" {
		t.Errorf("actions = %s", got)
	}
	if s.Pods[1].PodNameLabel != "web-1" {
		t.Errorf("pod after = %+v", s.Pods[1])
	}
}
