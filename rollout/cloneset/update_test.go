package cloneset

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// templateData returns the revision data of a one-container template with
// the given image, and env when env is not "".
func templateData(image, env string) []byte {
	c := fmt.Sprintf(`{"name":"main","image":%q,"resources":{}}`, image)
	if env != "" {
		c = fmt.Sprintf(`{"name":"main","image":%q,"env":[{"name":"MODE","value":%q}],"resources":{}}`, image, env)
	}
	data, err := RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[` + c + `]}}`))
	if err != nil {
		panic(err)
	}
	return data
}

// The revisions of the update tests: r1 runs nginx:1.25, r2 nginx:1.26
// (an in-place change from r1), r3 nginx:1.25 with an env var (not one).
var (
	r1 = ControllerRevision{Name: "cs-r1", Number: 1, Data: templateData("nginx:1.25", "")}
	r2 = ControllerRevision{Name: "cs-r2", Number: 2, Data: templateData("nginx:1.26", "")}
	r3 = ControllerRevision{Name: "cs-r3", Number: 3, Data: templateData("nginx:1.25", "fast")}
)

// upod is a Running pod at revision rev, Ready for an hour, Normal.
func upod(name, rev string) Pod {
	return Pod{Name: name, Revision: rev, Phase: PodRunning, NodeName: "n1", Ready: true,
		ReadySince: ut0.Add(-time.Hour), CreationTime: ut0.Add(-2 * time.Hour), Lifecycle: Normal}
}

func upods(rev string, names ...string) []Pod {
	out := make([]Pod, len(names))
	for i, n := range names {
		out[i] = upod(n, rev)
	}
	return out
}

// kinds summarises actions as "kind pod[ from>to]".
func kinds(actions []Action) []string {
	var out []string
	for _, a := range actions {
		s := a.Kind.String() + " " + a.Pod
		if a.To != "" {
			s += " " + string(a.From) + ">" + string(a.To)
		}
		if a.Revision != "" {
			s += " @" + a.Revision
		}
		out = append(out, s)
	}
	return out
}

func TestUpdate(t *testing.T) {
	hook := &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}
	hooked := func(p Pod) Pod {
		p.Labels = map[string]string{"hold": "true"}
		return p
	}
	withState := func(p Pod, s LifecycleState) Pod { p.Lifecycle = s; return p }
	tests := []struct {
		name        string
		cs          CloneSet[struct{}]
		pods        []Pod
		revs        Revisions
		opts        Options
		wantBranch  UpdateBranch
		wantActions []string
		wantFailure string
		wantRequeue time.Duration
		reason      string
	}{
		{
			name: "ReCreate marks the unready pod", cs: CloneSet[struct{}]{Replicas: 3},
			pods: func() []Pod { p := upods("cs-r1", "p0", "p1", "p2"); p[1].Ready = false; return p }(),
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdatePods,
			wantActions: []string{"RecreatePod p1 @cs-r2"},
			reason:      "budget 1 and p1 is already unavailable: sorted first, costs nothing, then the budget is used",
		},
		{
			name: "ReCreate marks one pod of 3", cs: CloneSet[struct{}]{Replicas: 3},
			pods: upods("cs-r1", "p0", "p1", "p2"), revs: Revisions{Current: "cs-r1", Update: "cs-r2"},
			wantBranch: UpdatePods, wantActions: []string{"RecreatePod p0 @cs-r2"},
		},
		{
			name: "already marked pods are not written again", cs: CloneSet[struct{}]{Replicas: 3},
			pods: func() []Pod { p := upods("cs-r1", "p0", "p1", "p2"); p[0].SpecifiedDelete = true; return p }(),
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdatePods, wantActions: nil,
			reason: "the specified-delete pod is ready, so it is still a candidate; its label is already there",
		},
		{
			name: "InPlaceIfPossible image change", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}},
			pods: upods("cs-r1", "p0", "p1", "p2"), revs: Revisions{Current: "cs-r1", Update: "cs-r2"},
			wantBranch: UpdatePods, wantActions: []string{"UpdatePodInPlace p0 Normal>Updating @cs-r2"},
		},
		{
			name: "in-place with a grace period", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible, InPlaceGracePeriodSeconds: 10}},
			pods: upods("cs-r1", "p0", "p1", "p2"), revs: Revisions{Current: "cs-r1", Update: "cs-r2"},
			wantBranch: UpdatePods, wantActions: []string{"UpdatePodInPlace p0 Normal>Updating @cs-r2"}, wantRequeue: 10 * time.Second,
		},
		{
			name: "InPlaceIfPossible env change falls back to recreate", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}},
			pods: upods("cs-r1", "p0", "p1", "p2"), revs: Revisions{Current: "cs-r1", Update: "cs-r3"},
			wantBranch: UpdatePods, wantActions: []string{"RecreatePod p0 @cs-r3"},
		},
		{
			name: "InPlaceOnly env change fails", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceOnly}},
			pods: upods("cs-r1", "p0", "p1", "p2"), revs: Revisions{Current: "cs-r1", Update: "cs-r3"},
			wantBranch: UpdateFailed, wantFailure: "find Pod p0 update strategy is InPlaceOnly but can not update in-place",
		},
		{
			name: "InPlaceOnly with the pod's revision unknown fails", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceOnly}},
			pods: upods("cs-gone", "p0", "p1", "p2"), revs: Revisions{Current: "cs-gone", Update: "cs-r2"},
			wantBranch: UpdateFailed, wantFailure: "find Pod p0 update strategy is InPlaceOnly but can not update in-place",
		},
		{
			name: "InPlaceIfPossible with the pod's revision unknown recreates", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}},
			pods: upods("cs-gone", "p0", "p1", "p2"), revs: Revisions{Current: "cs-gone", Update: "cs-r2"},
			wantBranch: UpdatePods, wantActions: []string{"RecreatePod p0 @cs-r2"},
		},
		{
			name: "inPlaceUpdate hook: PreparingUpdate, no image change",
			cs:   CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}, Lifecycle: &Lifecycle{InPlaceUpdate: hook}},
			pods: []Pod{hooked(upod("p0", "cs-r1")), hooked(upod("p1", "cs-r1")), hooked(upod("p2", "cs-r1"))},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdatePods,
			wantActions: []string{"SetPodLifecycle p0 Normal>PreparingUpdate"},
		},
		{
			name: "inPlaceUpdate hook, next round: the hooked PreparingUpdate pod uses the budget and waits",
			cs:   CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}, Lifecycle: &Lifecycle{InPlaceUpdate: hook}},
			pods: []Pod{hooked(upod("p0", "cs-r1")), hooked(upod("p1", "cs-r1")), withState(hooked(upod("p2", "cs-r1")), PreparingUpdate)},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdatePods, wantActions: nil,
			reason: "PreparingUpdate pods sort first; the pod is no longer available, so the budget of 1 is spent on it",
		},
		{
			name: "inPlaceUpdate hook released: the PreparingUpdate pod is updated in place",
			cs:   CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}, Lifecycle: &Lifecycle{InPlaceUpdate: hook}},
			pods: []Pod{hooked(upod("p0", "cs-r1")), hooked(upod("p1", "cs-r1")), withState(upod("p2", "cs-r1"), PreparingUpdate)},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdatePods,
			wantActions: []string{"UpdatePodInPlace p2 PreparingUpdate>Updating @cs-r2"},
		},
		{
			name: "refresh: Updated waits for the hook, then a new revision reuses it",
			cs:   CloneSet[struct{}]{Replicas: 1, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible, MaxUnavailable: num(1)}, Lifecycle: &Lifecycle{InPlaceUpdate: hook}},
			pods: []Pod{withState(upod("p0", "cs-r2"), Updated)},
			revs: Revisions{Current: "cs-r2", Update: "cs-r1"}, wantBranch: UpdatePods,
			wantActions: []string{"SetPodLifecycle p0 Updated>PreparingUpdate"},
			reason:      "an Updated pod is a candidate even though not available; the hook is put back",
		},
		{
			name: "rollback with the partition-rollback gate",
			cs:   CloneSet[struct{}]{Replicas: 8, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible, Partition: num(7), MaxUnavailable: num(3)}},
			pods: append(upods("cs-r1", "o0", "o1", "o2"), func() []Pod {
				p := upods("cs-r2", "n0", "n1", "n2", "n3", "n4")
				for i := range p {
					p[i].Ready = false
				}
				return p
			}()...),
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, opts: Options{Gates: Gates{PartitionRollback: true}}, wantBranch: UpdatePods,
			wantActions: []string{"UpdatePodInPlace n0 Normal>Updating @cs-r1", "UpdatePodInPlace n1 Normal>Updating @cs-r1", "UpdatePodInPlace n2 Normal>Updating @cs-r1"},
			reason:      "updateNum -4, budget 3 + 8 - 8 = 3",
		},
		{
			name: "rollback without the gate: nothing to do", cs: CloneSet[struct{}]{Replicas: 8, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible, Partition: num(7), MaxUnavailable: num(3)}},
			pods: append(upods("cs-r1", "o0", "o1", "o2"), upods("cs-r2", "n0", "n1", "n2", "n3", "n4")...),
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateNothing,
		},
		{
			name: "refresh moves only the scheduled PreparingNormal pod, and stops",
			cs:   CloneSet[struct{}]{Replicas: 3},
			pods: func() []Pod {
				p := upods("cs-r1", "p0", "p1", "p2")
				p[0].Lifecycle, p[1].Lifecycle, p[1].NodeName = PreparingNormal, PreparingNormal, ""
				return p
			}(),
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateRefreshed,
			wantActions: []string{"SetPodLifecycle p0 PreparingNormal>Normal"},
		},
		{
			name: "paused: refresh runs, no update", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Paused: true}},
			pods: upods("cs-r1", "p0", "p1", "p2"), revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdatePaused,
		},
		{
			name: "OnDelete: nothing at all", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: OnDelete}},
			pods: []Pod{withState(upod("p0", "cs-r1"), PreparingNormal)}, revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateOnDelete,
		},
		{
			name: "completed in-place update: condition, then Updating to Normal",
			cs:   CloneSet[struct{}]{Replicas: 1},
			pods: []Pod{func() Pod {
				p := withState(upod("p0", "cs-r2"), Updating)
				p.InPlaceUpdate = &InPlaceUpdateState{Revision: "cs-r2", UpdateTime: ut0.Add(-time.Minute), Done: true}
				p.InPlaceUpdateReady = ConditionFalse
				return p
			}()},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateRefreshed,
			wantActions: []string{"SetPodInPlaceUpdateReady p0", "SetPodLifecycle p0 Updating>Normal"},
		},
		{
			name: "completed in-place update with a preDelete-only lifecycle goes through Updated",
			cs:   CloneSet[struct{}]{Replicas: 1, Lifecycle: &Lifecycle{PreDelete: hook}},
			pods: []Pod{func() Pod {
				p := withState(upod("p0", "cs-r2"), Updating)
				p.InPlaceUpdate = &InPlaceUpdateState{Revision: "cs-r2", Done: true}
				return p
			}()},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateRefreshed,
			wantActions: []string{"SetPodLifecycle p0 Updating>Updated"},
		},
		{
			name: "held update still in its grace period", cs: CloneSet[struct{}]{Replicas: 1},
			pods: []Pod{func() Pod {
				p := withState(upod("p0", "cs-r2"), Updating)
				p.InPlaceUpdate = &InPlaceUpdateState{Revision: "cs-r2", UpdateTime: ut0.Add(-3500 * time.Millisecond)}
				p.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: "cs-r2", GraceSeconds: 10}
				return p
			}()},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateNothing, wantRequeue: 7 * time.Second,
			reason: "6.5 s left, rounded up; the pod is at the update revision, so updateNum is 0",
		},
		{
			name: "held update whose grace period is over", cs: CloneSet[struct{}]{Replicas: 1},
			pods: []Pod{func() Pod {
				p := withState(upod("p0", "cs-r2"), Updating)
				p.InPlaceUpdate = &InPlaceUpdateState{Revision: "cs-r2", UpdateTime: ut0.Add(-10 * time.Second)}
				p.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: "cs-r2", GraceSeconds: 10}
				return p
			}()},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateNothing,
			wantActions: []string{"ApplyHeldPodUpdate p0 @cs-r2"},
		},
		{
			name: "held update for another revision is dropped", cs: CloneSet[struct{}]{Replicas: 1},
			pods: []Pod{func() Pod {
				p := upod("p0", "cs-r2")
				p.InPlaceUpdate = &InPlaceUpdateState{Revision: "cs-r3"}
				p.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: "cs-r3", GraceSeconds: 10}
				return p
			}()},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateNothing,
			wantActions: []string{"DropHeldPodUpdate p0 @cs-r3"},
		},
		{
			name: "held update without its state record fails", cs: CloneSet[struct{}]{Replicas: 1},
			pods: []Pod{func() Pod {
				p := upod("p0", "cs-r2")
				p.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: "cs-r2", GraceSeconds: 10}
				return p
			}()},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateFailed,
			wantFailure: "pod p0 has apps.kruise.io/inplace-update-grace but apps.kruise.io/inplace-update-state not found",
		},
		{
			name: "unknown lifecycle state fails the in-place update", cs: CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}},
			pods: []Pod{withState(upod("p0", "cs-r1"), "Weird"), upod("p1", "cs-r1"), upod("p2", "cs-r1")},
			revs: Revisions{Current: "cs-r1", Update: "cs-r2"}, wantBranch: UpdateFailed,
			wantFailure: "not allowed to in-place update pod p0 in state Weird",
			reason:      "all three pods tie in the update order, so p0 is first by name",
		},
	}
	revisions := []ControllerRevision{r2, r1, r3}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Update(&tt.cs, tt.pods, revisions, tt.revs, ut0, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Branch != tt.wantBranch || got.Failure != tt.wantFailure || got.Requeue != tt.wantRequeue {
				t.Errorf("Update = branch %v, failure %q, requeue %v; want %v, %q, %v (%s)", got.Branch, got.Failure, got.Requeue, tt.wantBranch, tt.wantFailure, tt.wantRequeue, tt.reason)
			}
			if diff := cmp.Diff(tt.wantActions, kinds(got.Actions)); diff != "" {
				t.Errorf("Update actions mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
			for _, a := range got.Actions {
				if a.Reason == "" {
					t.Errorf("action %v has no reason", a)
				}
			}
		})
	}
}

// Cases of kruise's TestUpdate (pkg/controller/cloneset/sync): one
// replica, revisions rev_old (image foo1) and rev_new (foo2, or malformed
// data in "recreate update 2"), the pod Running and Ready. Kruise's cases
// also check PVCs and the pod-template-hash label, which are not modelled;
// its "normal update condition" case writes InPlaceUpdateReady True on a
// pod that has the readiness gate but no condition, which Update leaves
// alone (see its doc comment).
func TestUpdateKruiseCases(t *testing.T) {
	oldRev := ControllerRevision{Name: "rev_old", Number: 1, Data: []byte(`{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo1"}]}}}}`)}
	newRev := ControllerRevision{Name: "rev_new", Number: 2, Data: []byte(`{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2"}]}}}}`)}
	badRev := ControllerRevision{Name: "rev_new", Number: 2, Data: []byte(`{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c1","image":"foo2","env":["name":"k", "value":"v"]}]}}}}`)}
	pod := func(rev string, state LifecycleState, node string, finalizers ...string) Pod {
		return Pod{Name: "pod-0", Revision: rev, Phase: PodRunning, Ready: true, NodeName: node, Lifecycle: state,
			InPlaceUpdateReady: ConditionTrue, Finalizers: finalizers}
	}
	inPlace := UpdateStrategy{Type: InPlaceIfPossible}
	online := &LifecycleHook{FinalizersHandler: []string{"slb/online"}}
	tests := []struct {
		name        string
		strategy    UpdateStrategy
		lifecycle   *Lifecycle
		pod         Pod
		update      ControllerRevision
		wantBranch  UpdateBranch
		wantActions []string
		wantRequeue time.Duration
	}{
		{name: "do nothing", pod: pod("rev_new", "", ""), update: newRev, wantBranch: UpdateNothing},
		{name: "recreate update 1", strategy: UpdateStrategy{Type: ReCreate}, pod: pod("rev_old", "", ""), update: newRev, wantBranch: UpdatePods, wantActions: []string{"RecreatePod pod-0 @rev_new"}},
		{name: "recreate update 2", strategy: inPlace, pod: pod("rev_old", "", ""), update: badRev, wantBranch: UpdatePods, wantActions: []string{"RecreatePod pod-0 @rev_new"}},
		{name: "inplace update", strategy: inPlace, pod: pod("rev_old", "", ""), update: newRev, wantBranch: UpdatePods, wantActions: []string{"UpdatePodInPlace pod-0 >Updating @rev_new"}},
		{
			name: "inplace update with grace period", strategy: UpdateStrategy{Type: InPlaceIfPossible, InPlaceGracePeriodSeconds: 3630},
			pod: pod("rev_old", "", ""), update: newRev, wantBranch: UpdatePods, wantActions: []string{"UpdatePodInPlace pod-0 >Updating @rev_new"}, wantRequeue: 3630 * time.Second,
		},
		{name: "create: preparingNormal->Normal without hook", pod: pod("rev_new", PreparingNormal, "127.0.0.1"), update: newRev, wantBranch: UpdateRefreshed, wantActions: []string{"SetPodLifecycle pod-0 PreparingNormal>Normal"}},
		{
			name: "create: preparingNormal->preparingNormal, preNormal does not hook", lifecycle: &Lifecycle{PreNormal: &LifecycleHook{LabelsHandler: map[string]string{"preNormalHooked": "true"}}},
			pod: pod("rev_new", PreparingNormal, "127.0.0.1"), update: newRev, wantBranch: UpdateNothing,
		},
		{
			name: "create: preparingNormal->Normal, preNormal does hook", lifecycle: &Lifecycle{PreNormal: &LifecycleHook{LabelsHandler: map[string]string{"preNormalHooked": "true"}}},
			pod: func() Pod {
				p := pod("rev_new", PreparingNormal, "")
				p.Labels = map[string]string{"preNormalHooked": "true"}
				return p
			}(),
			update: newRev, wantBranch: UpdateRefreshed, wantActions: []string{"SetPodLifecycle pod-0 PreparingNormal>Normal"},
		},
		{
			name: "recreate update: preparingNormal, preNormal does not hook, specific delete", lifecycle: &Lifecycle{PreNormal: &LifecycleHook{FinalizersHandler: []string{"preNormalHooked"}}},
			pod: pod("rev_old", PreparingNormal, ""), update: newRev, wantBranch: UpdatePods, wantActions: []string{"RecreatePod pod-0 @rev_new"},
		},
		{
			name: "in-place update: preparingNormal->Updating, preNormal & InPlaceUpdate does not hook", strategy: inPlace, lifecycle: &Lifecycle{PreNormal: &LifecycleHook{FinalizersHandler: []string{"slb.com/online"}}},
			pod: pod("rev_old", PreparingNormal, ""), update: newRev, wantBranch: UpdatePods, wantActions: []string{"UpdatePodInPlace pod-0 PreparingNormal>Updating @rev_new"},
		},
		{
			name: "in-place update: preparingNormal->Normal, preNormal & InPlaceUpdate does hook", strategy: inPlace, lifecycle: &Lifecycle{PreNormal: online, InPlaceUpdate: online},
			pod: pod("rev_old", PreparingNormal, "", "slb/online"), update: newRev, wantBranch: UpdateRefreshed, wantActions: []string{"SetPodLifecycle pod-0 PreparingNormal>Normal"},
		},
		{
			name: "in-place update: Normal->preparingUpdate, preNormal & InPlaceUpdate does hook", strategy: inPlace, lifecycle: &Lifecycle{PreNormal: online, InPlaceUpdate: online},
			pod: pod("rev_old", Normal, "", "slb/online"), update: newRev, wantBranch: UpdatePods, wantActions: []string{"SetPodLifecycle pod-0 Normal>PreparingUpdate"},
		},
		{
			name: "create: preparingNormal->Normal without hook, pod is not scheduled, should stay at preparingNormal",
			pod:  pod("rev_new", PreparingNormal, ""), update: newRev, wantBranch: UpdateNothing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[struct{}]{Replicas: 1, UpdateStrategy: tt.strategy, Lifecycle: tt.lifecycle}
			got, err := Update(cs, []Pod{tt.pod}, []ControllerRevision{oldRev, tt.update}, Revisions{Current: "rev_old", Update: "rev_new"}, ut0, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Branch != tt.wantBranch || got.Requeue != tt.wantRequeue {
				t.Errorf("Update = %v, requeue %v; want %v, %v", got.Branch, got.Requeue, tt.wantBranch, tt.wantRequeue)
			}
			if diff := cmp.Diff(tt.wantActions, kinds(got.Actions)); diff != "" {
				t.Errorf("Update actions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpdateReasons(t *testing.T) {
	cs := &CloneSet[struct{}]{Replicas: 3, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}}
	got, err := Update(cs, upods("cs-r1", "p0", "p1", "p2"), []ControllerRevision{r1, r2}, Revisions{Current: "cs-r1", Update: "cs-r2"}, ut0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "update budget 1: pod p0 updated in place to cs-r2 (in place: images main=nginx:1.26)"
	if len(got.Actions) != 1 || got.Actions[0].Reason != want {
		t.Errorf("Update reason = %+v, want %q", got.Actions, want)
	}
	got, err = Update(cs, upods("cs-r1", "p0", "p1", "p2"), []ControllerRevision{r1, r3}, Revisions{Current: "cs-r1", Update: "cs-r3"}, ut0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want = "update budget 1: pod p0 marked for deletion, to be recreated at cs-r3 (cannot update in place (add /spec/containers/0/env))"
	if len(got.Actions) != 1 || got.Actions[0].Reason != want {
		t.Errorf("Update reason = %+v, want %q", got.Actions, want)
	}
}

func TestUpdateErrors(t *testing.T) {
	revs := Revisions{Current: "cs-r1", Update: "cs-r2"}
	tests := []struct {
		name      string
		cs        *CloneSet[struct{}]
		pods      []Pod
		revisions []ControllerRevision
		want      string
	}{
		{name: "nil cloneset", cs: nil, want: "cloneset: Required value"},
		{name: "unknown strategy", cs: &CloneSet[struct{}]{Replicas: 1, UpdateStrategy: UpdateStrategy{Type: "Rolling"}}, want: `cloneset: spec.updateStrategy.type: "Rolling": must be ReCreate, InPlaceIfPossible, InPlaceOnly or OnDelete`},
		{name: "duplicate pods", cs: &CloneSet[struct{}]{Replicas: 1}, pods: []Pod{{Name: "a"}, {Name: "a"}}, want: `cloneset: pods[1].name: duplicate name "a"`},
		{name: "duplicate revisions", cs: &CloneSet[struct{}]{Replicas: 1}, revisions: []ControllerRevision{r1, r1}, want: `cloneset: revisions[1].name: duplicate name "cs-r1"`},
		{
			name: "target revision missing", cs: &CloneSet[struct{}]{Replicas: 1, UpdateStrategy: UpdateStrategy{Type: InPlaceIfPossible}},
			pods: upods("cs-r1", "p0"), revisions: []ControllerRevision{r1},
			want: `cloneset: revisions: no revision named "cs-r2", the target of the update`,
		},
	}
	for _, tt := range tests {
		got, err := Update(tt.cs, tt.pods, tt.revisions, revs, ut0, Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: Update error = %v, want %q", tt.name, err, tt.want)
		}
		if diff := cmp.Diff(UpdateDecision{}, got); diff != "" {
			t.Errorf("%s: result with an error is not zero:\n%s", tt.name, diff)
		}
	}
}

// drawUpdateScenario draws a CloneSet, pods and revisions for Update.
func drawUpdateScenario(t *rapid.T) (*CloneSet[struct{}], []Pod, Revisions, Options) {
	cs := &CloneSet[struct{}]{
		Replicas:        rapid.Int32Range(0, 12).Draw(t, "replicas"),
		MinReadySeconds: rapid.Int32Range(0, 30).Draw(t, "minReadySeconds"),
	}
	us := &cs.UpdateStrategy
	us.Type = rapid.SampledFrom([]UpdateStrategyType{"", ReCreate, InPlaceIfPossible, InPlaceOnly, OnDelete}).Draw(t, "type")
	us.Paused = rapid.IntRange(0, 5).Draw(t, "paused") == 0
	if rapid.Bool().Draw(t, "hasPartition") {
		us.Partition = num(rapid.Int32Range(0, 12).Draw(t, "partition"))
	}
	us.MaxUnavailable = rapid.SampledFrom([]*intorpercent.IntOrString{nil, num(0), num(1), num(3), str("50%")}).Draw(t, "maxUnavailable")
	us.MaxSurge = rapid.SampledFrom([]*intorpercent.IntOrString{nil, num(1), str("30%")}).Draw(t, "maxSurge")
	us.InPlaceGracePeriodSeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, "grace")
	if rapid.Bool().Draw(t, "hasLifecycle") {
		cs.Lifecycle = &Lifecycle{InPlaceUpdate: &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}}
	}
	n := rapid.IntRange(0, 16).Draw(t, "pods")
	pods := make([]Pod, n)
	for i := range pods {
		p := upod(fmt.Sprintf("p%02d", i), rapid.SampledFrom([]string{"cs-r1", "cs-r2", "cs-r3", "r2"}).Draw(t, "revision"))
		p.Ready = rapid.Bool().Draw(t, "ready")
		p.ReadySince = ut0.Add(-time.Duration(rapid.IntRange(0, 60).Draw(t, "readyAgo")) * time.Second)
		p.Lifecycle = rapid.SampledFrom([]LifecycleState{"", Normal, PreparingNormal, PreparingUpdate, Updating, Updated, PreparingDelete}).Draw(t, "lifecycle")
		p.NodeName = rapid.SampledFrom([]string{"", "n1"}).Draw(t, "node")
		p.SpecifiedDelete = rapid.IntRange(0, 6).Draw(t, "specified") == 0
		p.Terminating = rapid.IntRange(0, 8).Draw(t, "terminating") == 0
		if rapid.Bool().Draw(t, "hooked") {
			p.Labels = map[string]string{"hold": "true"}
		}
		if rapid.IntRange(0, 3).Draw(t, "inPlace") == 0 {
			p.InPlaceUpdate = &InPlaceUpdateState{Revision: p.Revision, UpdateTime: ut0.Add(-time.Duration(rapid.IntRange(0, 20).Draw(t, "updateAgo")) * time.Second), Done: rapid.Bool().Draw(t, "done")}
			if rapid.Bool().Draw(t, "held") {
				p.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: rapid.SampledFrom([]string{p.Revision, "cs-r1"}).Draw(t, "heldRevision"), GraceSeconds: 10}
			}
			p.InPlaceUpdateReady = rapid.SampledFrom([]ConditionStatus{"", ConditionTrue, ConditionFalse}).Draw(t, "inPlaceUpdateReady")
		}
		pods[i] = p
	}
	revs := Revisions{Current: rapid.SampledFrom([]string{"cs-r1", ""}).Draw(t, "current"), Update: rapid.SampledFrom([]string{"cs-r2", "cs-r3"}).Draw(t, "update")}
	opts := Options{Gates: Gates{PartitionRollback: rapid.Bool().Draw(t, "rollback")}}
	return cs, pods, revs, opts
}

// TestUpdateIsPureDeterministicAndIndependentOfInputOrder: Update modifies
// nothing, gives the same answer twice, and the same answer for the pods
// and revisions in another order.
func TestUpdateIsPureDeterministicAndIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs, pods, revs, opts := drawUpdateScenario(t)
		revisions := []ControllerRevision{r1, r2, r3}
		podsBefore := clonePods(pods)
		got, err := Update(cs, pods, revisions, revs, ut0, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(podsBefore, pods); diff != "" {
			t.Fatalf("Update modified pods:\n%s", diff)
		}
		for i, want := range [][]byte{templateData("nginx:1.25", ""), templateData("nginx:1.26", ""), templateData("nginx:1.25", "fast")} {
			if diff := cmp.Diff(want, revisions[i].Data); diff != "" {
				t.Fatalf("Update modified revisions[%d]:\n%s", i, diff)
			}
		}
		again, err := Update(cs, pods, revisions, revs, ut0, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, again); diff != "" {
			t.Fatalf("Update is not deterministic:\n%s", diff)
		}
		shuffled := rapid.Permutation(pods).Draw(t, "podOrder")
		revShuffled := rapid.Permutation(revisions).Draw(t, "revisionOrder")
		other, err := Update(cs, shuffled, revShuffled, revs, ut0, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got, other); diff != "" {
			t.Fatalf("Update depends on input order (-original +shuffled):\n%s", diff)
		}
	})
}

// TestUpdateActsWithinTheBudget: the update phase acts only on chosen pods,
// at most once each, never on more than |UpdateNum|; every chosen pod is a
// candidate, and no action comes after a failure.
func TestUpdateActsWithinTheBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs, pods, revs, opts := drawUpdateScenario(t)
		got, err := Update(cs, pods, []ControllerRevision{r1, r2, r3}, revs, ut0, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Chosen, got.Candidates[:len(got.Chosen)]) {
			t.Fatalf("chosen %v is not a prefix of candidates %v", got.Chosen, got.Candidates)
		}
		n := int(got.Diffs.UpdateNum)
		if len(got.Chosen) > max(n, -n) {
			t.Fatalf("chose %d pods for updateNum %d", len(got.Chosen), n)
		}
		seen := map[string]bool{}
		for _, a := range got.Actions {
			switch a.Kind {
			case RecreatePod, UpdatePodInPlace:
				if !slices.Contains(got.Chosen, a.Pod) || seen[a.Pod] {
					t.Fatalf("action %v on a pod not chosen, or twice", a)
				}
				seen[a.Pod] = true
				if a.Revision != got.Target {
					t.Fatalf("action %v moves to %s, target %s", a, a.Revision, got.Target)
				}
			}
			if a.Reason == "" {
				t.Fatalf("action %v without reason", a)
			}
		}
		if got.Branch == UpdateRefreshed {
			for _, a := range got.Actions {
				if a.Kind == RecreatePod || a.Kind == UpdatePodInPlace {
					t.Fatalf("update action %v in a refreshed round", a)
				}
			}
		}
		if cs.UpdateStrategy.Type == OnDelete && (len(got.Actions) > 0 || got.Branch != UpdateOnDelete) {
			t.Fatalf("OnDelete acted: %+v", got)
		}
	})
}

func benchmarkUpdate(b *testing.B, n int) {
	pods := make([]Pod, n)
	for i := range pods {
		pods[i] = upod(fmt.Sprintf("demo-%06d", i), "cs-r1")
		pods[i].NodeName = fmt.Sprintf("n%d", i%50)
		pods[i].ReadySince = ut0.Add(-time.Duration(i%13) * time.Minute)
		pods[i].Labels = map[string]string{"zone": []string{"a", "b", "c"}[i%3]}
	}
	cs := &CloneSet[struct{}]{Name: "demo", Replicas: int32(n), UpdateStrategy: UpdateStrategy{
		Type: InPlaceIfPossible, MaxUnavailable: str("10%"), ScatterStrategy: []ScatterTerm{{Key: "zone", Value: "b"}}}}
	revisions := []ControllerRevision{r1, r2}
	revs := Revisions{Current: "cs-r1", Update: "cs-r2"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Update(cs, pods, revisions, revs, ut0, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdate1000(b *testing.B)   { benchmarkUpdate(b, 1000) }
func BenchmarkUpdate100000(b *testing.B) { benchmarkUpdate(b, 100000) }
