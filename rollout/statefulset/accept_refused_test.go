package statefulset

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/ownership"
)

// writes renders every write of s in order: "create 2@n", "create 1@n
// refused", "release 1", "delete 4", "status".
func writes(s Sync[tmpl]) string {
	var out []string
	for _, a := range s.Actions {
		_, ord := ParseOrdinal(a.Pod)
		w := ""
		switch a.Kind {
		case CreatePod:
			w = fmt.Sprintf("create %d@%s", ord, short(a.Revision))
		case DeletePod:
			w = fmt.Sprintf("delete %d", ord)
		case ReleasePod:
			w = fmt.Sprintf("release %d", ord)
		case AdoptPod:
			w = fmt.Sprintf("adopt %d", ord)
		case UpdatePod:
			w = fmt.Sprintf("identity %d", ord)
		case WriteStatus:
			w = "status"
		default:
			w = a.Kind.String()
		}
		if a.Rejected != "" {
			w += " refused"
		}
		out = append(out, w)
	}
	return strings.Join(out, ", ")
}

// selected gives w the selector app=web and labels the pods of the set
// app=web, but for the names in other, labelled app=other.
func (w *world) selected(other ...string) *world {
	w.set.Selector = &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}
	w.set.TemplateLabels = map[string]string{"app": "web"}
	for i := range w.pods {
		w.pods[i].Labels = map[string]string{"app": "web"}
		for _, o := range other {
			if w.pods[i].Name == o {
				w.pods[i].Labels = map[string]string{"app": "other"}
			}
		}
	}
	return w
}

// with adds pod s (see pod) changed by f.
func (w *world) with(s string, f func(*Pod)) *world {
	p := pod(s)
	f(&p)
	w.pods = append(w.pods, p)
	return w
}

// TestRefusedCreation: a slot whose name a pod the set does not own
// holds (another controller's pod, a pod released in the same sync, an
// orphan the set does not adopt) gets a creation the API server refuses
// with AlreadyExists. Upstream's processReplica returns the error and
// runForAll ends the replica step: at once under OrderedReady, after the
// slow-start batch holding the slot under Parallel. The condemned and
// update steps do not run, the status is counted over the slots and
// condemned pods without the update step's decrements and written, the
// history is truncated, and the sync fails (requeued at once,
// rate-limited).
func TestRefusedCreation(t *testing.T) {
	const fails = "; the sync fails and is requeued"
	tests := []struct {
		name    string
		w       *world
		writes  string
		stopped string // StoppedPod; Blocker must be BlockRefused
		pods    []string
		status  counts
		reasons []string // the refused creations' reasons, in order
		summary string
	}{
		{
			name:   "OR name held by another controller's pod",
			w:      newWorld(3, false, "0:r").with("1:r", func(p *Pod) { p.ControllerUID = "uid-db" }),
			writes: "create 1@o refused, status", stopped: "web-1", pods: []string{"web-0"},
			status: counts{1, 1, 1, 1, 1, "o"},
			reasons: []string{`slot 1 (ordinal 1) has no pod of the set: creating web-1 at the update revision ` + revO.Name +
				` is refused (pods "web-1" already exists): the name is held by pod web-1, which controller uid-db owns` + fails},
			summary: "1 pod creation(s) refused, wrote the status; the sync fails (requeued): creating pod web-1 is refused: a pod the set does not own holds the name",
		},
		{
			name:   "OR name held by an orphan, pods claimed by the caller",
			w:      newWorld(3, true, "0:o:r", "2:o:r").with("1:o:r", func(p *Pod) { p.ControllerUID = "" }),
			writes: "create 1@n refused, status", stopped: "web-1", pods: []string{"web-0", "web-2"},
			status: counts{2, 2, 2, 2, 0, "o"},
			reasons: []string{`slot 1 (ordinal 1) has no pod of the set: creating web-1 at the update revision ` + revN.Name +
				` is refused (pods "web-1" already exists): the name is held by pod web-1, an orphan the set does not own` + fails},
			summary: "1 pod creation(s) refused, wrote the status; the sync fails (requeued): creating pod web-1 is refused: a pod the set does not own holds the name",
		},
		{
			name:   "OR name held by a terminating orphan the selector matches",
			w:      newWorld(2, false).with("0:t", func(p *Pod) { p.ControllerUID = "" }).selected(),
			writes: "create 0@o refused, status", stopped: "web-0", pods: []string{},
			status: counts{0, 0, 0, 0, 0, "o"},
			reasons: []string{`slot 0 (ordinal 0) has no pod of the set: creating web-0 at the update revision ` + revO.Name +
				` is refused (pods "web-0" already exists): the name is held by pod web-0, a terminating orphan, which the set does not adopt` + fails},
			summary: "1 pod creation(s) refused, wrote the status; the sync fails (requeued): creating pod web-0 is refused: a pod the set does not own holds the name",
		},
		{
			// Without the refusal: create 3@n in batch 3, delete 5
			// (condemned), delete 3 (update), currentReplicas 2.
			name:   "Par released pod: the rest of its batch runs, nothing after",
			w:      newWorld(4, true, "0:o:r", "1:o:r", "3:o:r", "5:o:r").selected("web-1"),
			writes: "release 1, create 1@n refused, create 2@n, status", stopped: "web-1",
			pods:   []string{"web-0", "web-3", "web-5", "web-2"},
			status: counts{3, 3, 3, 3, 0, "o"},
			reasons: []string{`slot 1 (ordinal 1) has no pod of the set: creating web-1 at the update revision ` + revN.Name +
				` is refused (pods "web-1" already exists): the name is held by pod web-1, which the set releases in this sync` + fails + ` [Parallel batch 2]`},
			summary: "released 1 pod, created 1 pod, 1 pod creation(s) refused, wrote the status; the sync fails (requeued): creating pod web-1 is refused: a pod the set does not own holds the name",
		},
		{
			// Batches of 7 slots: [0], [1 2], [3 4 5 6].
			name:   "Par two orphans the selector does not match in one batch",
			w:      newWorld(7, false).with("1:r", func(p *Pod) { p.ControllerUID = "" }).with("2:r", func(p *Pod) { p.ControllerUID = "" }).selected("web-1", "web-2"),
			writes: "create 0@o, create 1@o refused, create 2@o refused, status", stopped: "web-1", pods: []string{"web-0"},
			status: counts{0, 0, 0, 0, 0, "o"},
			reasons: []string{
				`slot 1 (ordinal 1) has no pod of the set: creating web-1 at the update revision ` + revO.Name +
					` is refused (pods "web-1" already exists): the name is held by pod web-1, an orphan the set's selector does not match` + fails + ` [Parallel batch 2]`,
				`slot 2 (ordinal 2) has no pod of the set: creating web-2 at the update revision ` + revO.Name +
					` is refused (pods "web-2" already exists): the name is held by pod web-2, an orphan the set's selector does not match` + fails + ` [Parallel batch 2]`,
			},
			summary: "created 1 pod, 2 pod creation(s) refused, wrote the status; the sync fails (requeued): creating pod web-1 is refused: a pod the set does not own holds the name",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "Par") {
				tt.w.parallel()
			}
			s := tt.w.plan(t)
			if got := writes(s); got != tt.writes {
				t.Errorf("writes = %s, want %s", got, tt.writes)
			}
			if s.StoppedAt != StageReplicas || s.Blocker != BlockRefused || s.StoppedPod != tt.stopped {
				t.Errorf("stopped at %v %q by %v, want StageReplicas %q by BlockRefused", s.StoppedAt, s.StoppedPod, s.Blocker, tt.stopped)
			}
			if !s.Requeue || s.RequeueAfter != 0 {
				t.Errorf("requeue %v after %s, want at once (the sync fails)", s.Requeue, s.RequeueAfter)
			}
			var names []string
			for _, p := range s.Pods {
				names = append(names, p.Name)
			}
			if names == nil {
				names = []string{}
			}
			if !reflect.DeepEqual(names, tt.pods) {
				t.Errorf("pods after = %v, want %v", names, tt.pods)
			}
			if got := countsOf(s.Status); got != tt.status {
				t.Errorf("status = %+v, want %+v", got, tt.status)
			}
			if s.StatefulSet.Status.ObservedGeneration != 2 {
				t.Errorf("stored status not written: %+v", s.StatefulSet.Status)
			}
			var reasons []string
			for _, a := range s.Actions {
				if a.Rejected != "" {
					if want := `pods "` + a.Pod + `" already exists`; a.Rejected != want {
						t.Errorf("Rejected = %q, want %q", a.Rejected, want)
					}
					reasons = append(reasons, a.Reason)
				}
			}
			if !reflect.DeepEqual(reasons, tt.reasons) {
				t.Errorf("reasons =\n  %s\nwant\n  %s", strings.Join(reasons, "\n  "), strings.Join(tt.reasons, "\n  "))
			}
			if s.Reason != tt.summary {
				t.Errorf("summary =\n  %s\nwant\n  %s", s.Reason, tt.summary)
			}
		})
	}
}
