package cloneset

import (
	"testing"
	"time"

	"slices"
	"strconv"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// scaleDecision keeps the parts of a ScaleDecision the tables state.
type scaleWant struct {
	Branch        ScaleBranch
	Modified      bool
	Regret        []string
	CreateCurrent int32
	CreateUpdate  int32
	Delete        []string
	PrepareDelete []string
}

func scaleGot(d ScaleDecision) scaleWant {
	return scaleWant{d.Branch, d.Modified, d.Regret, d.CreateCurrent, d.CreateUpdate, d.Delete, d.PrepareDelete}
}

// ready returns a Running, Ready, Normal pod at rev named name, created
// age ago and ready for as long.
func ready(name, rev string, age time.Duration) Pod {
	return Pod{Name: name, Revision: rev, Phase: PodRunning, NodeName: "node-" + name, Ready: true, ReadySince: t0.Add(-age), CreationTime: t0.Add(-age), Lifecycle: Normal}
}

func unready(name, rev string, age time.Duration) Pod {
	p := ready(name, rev, age)
	p.Ready = false
	return p
}

// TestScaleSpecCases holds scale steps observed by running kruise v1.9.1
// (docs/cloneset.md#scale); S5, S6 and S7 name the kruise surprises of
// docs/cloneset.md#surprises.
func TestScaleSpecCases(t *testing.T) {
	h := time.Hour
	with := func(p Pod, f func(*Pod)) Pod { f(&p); return p }
	hook := &Lifecycle{PreDelete: &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}}
	held := func(p *Pod) { p.Labels = map[string]string{"hold": "true"} }
	tests := []struct {
		name   string
		cs     *CloneSet[struct{}]
		paused bool
		life   *Lifecycle
		pods   []Pod
		revs   Revisions
		opts   Options
		want   scaleWant
		reason string
	}{
		{name: "R7 P3, 5 Or: 2 created at the update revision", cs: kcs(7, num(3), nil, nil),
			pods: []Pod{ready("p0", oldRev, h), ready("p1", oldRev, h), ready("p2", oldRev, h), ready("p3", oldRev, h), ready("p4", oldRev, h)},
			want: scaleWant{Branch: ScaleOut, Modified: true, CreateUpdate: 2}, reason: "5 old pods >= partition 3"},
		{name: "R5 P4, 2 Or + 1 Nr: 2 created at the current revision", cs: kcs(5, num(4), nil, nil),
			pods: []Pod{ready("p0", oldRev, h), ready("p1", oldRev, h), ready("p2", newRev, h)},
			want: scaleWant{Branch: ScaleOut, Modified: true, CreateCurrent: 2}, reason: "2 old pods, partition 4: ScaleUpNumOldRevision 2 >= limit 2"},
		{name: "paused R5 P0, 3 Or: pause does not stop scaling", cs: kcs(5, num(0), nil, nil), paused: true,
			pods: []Pod{ready("p0", oldRev, h), ready("p1", oldRev, h), ready("p2", oldRev, h)},
			want: scaleWant{Branch: ScaleOut, Modified: true, CreateUpdate: 2}},
		{name: "R2 P1 U0, 2 Or + 2 Nr + 1 Nu", cs: kcs(2, num(1), num(0), nil),
			pods:   []Pod{ready("o0", oldRev, 3*h), ready("o1", oldRev, 2*h), ready("n0", newRev, 3*h), ready("n1", newRev, 2*h), unready("n2", newRev, h)},
			want:   scaleWant{Branch: ScaleIn, Modified: true, Delete: []string{"o1", "n2", "n1"}},
			reason: "scaleDown 3, 1 old; deleteReadyLimit 0+3-1 = 2: the newer old pod, the unready new one, the newer ready new one"},
		{name: "R3, 5 pods ready 10 s, minReadySeconds 9999: none deleted (S6)", cs: func() *CloneSet[struct{}] {
			cs := kcs(3, nil, nil, nil)
			cs.MinReadySeconds = 9999
			return cs
		}(),
			revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{ready("p0", newRev, 10*time.Second), ready("p1", newRev, 10*time.Second), ready("p2", newRev, 10*time.Second), ready("p3", newRev, 10*time.Second), ready("p4", newRev, 10*time.Second)},
			want: scaleWant{Branch: ScaleIn}, reason: "deleteReadyLimit max(1+2-5, 0) = 0 and every pod is ready"},
		{name: "S6 the same with ReadyLimitAvailableOnly: the 2 newest deleted (kruise #1478)", cs: func() *CloneSet[struct{}] {
			cs := kcs(3, nil, nil, nil)
			cs.MinReadySeconds = 9999
			return cs
		}(),
			revs: Revisions{Current: newRev, Update: newRev}, opts: Options{ReadyLimit: ReadyLimitAvailableOnly},
			pods: []Pod{ready("p0", newRev, 50*time.Second), ready("p1", newRev, 40*time.Second), ready("p2", newRev, 30*time.Second), ready("p3", newRev, 20*time.Second), ready("p4", newRev, 10*time.Second)},
			want: scaleWant{Branch: ScaleIn, Modified: true, Delete: []string{"p4", "p3"}}, reason: "no pod is available yet, so none uses the limit"},
		{name: "minReadySeconds 0: the 2 newest deleted", cs: kcs(3, nil, nil, nil), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{ready("p0", newRev, 50*time.Second), ready("p1", newRev, 40*time.Second), ready("p2", newRev, 30*time.Second), ready("p3", newRev, 20*time.Second), ready("p4", newRev, 10*time.Second)},
			want: scaleWant{Branch: ScaleIn, Modified: true, Delete: []string{"p4", "p3"}}},
		{name: "R3 U1, 2 NrD + 1 Nr: the first by name only", cs: kcs(3, nil, num(1), nil), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{with(ready("p1", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), with(ready("p0", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), ready("p2", newRev, h)},
			want: scaleWant{Branch: ScaleDeleteSpecified, Modified: true, Delete: []string{"p0"}}, reason: "deleteReadyLimit 1"},
		{name: "specified delete: unready pods always, ready ones within the limit", cs: kcs(3, nil, num(1), nil), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{with(ready("p0", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), with(ready("p1", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), with(unready("p2", newRev, h), func(p *Pod) { p.SpecifiedDelete = true })},
			want: scaleWant{Branch: ScaleDeleteSpecified, Modified: true, Delete: []string{"p0", "p2"}}},
		{name: "podsToDelete names count as specified", cs: func() *CloneSet[struct{}] {
			cs := kcs(3, nil, num(1), nil)
			cs.ScaleStrategy.PodsToDelete = []string{"p2", "gone"}
			return cs
		}(), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{ready("p0", newRev, h), ready("p1", newRev, h), ready("p2", newRev, h)},
			want: scaleWant{Branch: ScaleDeleteSpecified, Modified: true, Delete: []string{"p2"}}},
		{name: "regret: R3, 2 Nr + 1 N PreparingDelete", cs: kcs(3, nil, nil, nil), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{ready("p0", newRev, h), ready("p1", newRev, h), with(ready("p2", newRev, h), func(p *Pod) { p.Lifecycle = PreparingDelete })},
			want: scaleWant{Branch: ScaleRegret, Modified: true, Regret: []string{"p2"}}, reason: "d = 3 - 3 + 1 = 1"},
		{name: "no regret when a hook marks pods not ready", cs: kcs(3, nil, nil, nil), revs: Revisions{Current: newRev, Update: newRev},
			life: &Lifecycle{InPlaceUpdate: &LifecycleHook{MarkPodNotReady: true}},
			pods: []Pod{ready("p0", newRev, h), ready("p1", newRev, h), with(ready("p2", newRev, h), func(p *Pod) { p.Lifecycle = PreparingDelete })},
			want: scaleWant{Branch: ScaleDeletePreDeleted, Modified: true, Delete: []string{"p2"}}, reason: "scaleUp 1 would come first, but the pod still counts: 3 pods, none missing"},
		{name: "no regret for a specified pod", cs: kcs(3, nil, nil, nil), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{ready("p0", newRev, h), ready("p1", newRev, h), with(ready("p2", newRev, h), func(p *Pod) { p.Lifecycle = PreparingDelete; p.SpecifiedDelete = true })},
			want: scaleWant{Branch: ScaleDeletePreDeleted, Modified: true, Delete: []string{"p2"}}},
		{name: "a pre-deleted pod still hooked waits", cs: kcs(2, nil, nil, nil), life: hook, revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{ready("p0", newRev, h), ready("p1", newRev, h), with(ready("p2", newRev, h), func(p *Pod) { p.Lifecycle = PreparingDelete; held(p) })},
			want: scaleWant{Branch: ScaleWaitForDeletion}, reason: "d = 2-3+1 = 0: no regret; the hooked pod is re-marked (no change); scaleDown 3-2 = 1 waits for it"},
		{name: "R2, 3 Nr hooked: the newest moves to PreparingDelete", cs: kcs(2, nil, nil, nil), life: hook, revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{with(ready("p0", newRev, 3*h), held), with(ready("p1", newRev, 2*h), held), with(ready("p2", newRev, h), held)},
			want: scaleWant{Branch: ScaleIn, Modified: true, PrepareDelete: []string{"p2"}}},
		{name: "paused R5 U0 S1, 1 NrD + 4 Nr: nothing (S5)", cs: kcs(5, nil, num(0), num(1)), paused: true, revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{with(ready("p0", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), ready("p1", newRev, h), ready("p2", newRev, h), ready("p3", newRev, h), ready("p4", newRev, h)},
			want: scaleWant{Branch: ScaleNone}, reason: "paused forces maxSurge 0, so no replacement is created and the ready pod may not go"},
		{name: "S5 unpaused: a replacement is created first", cs: kcs(5, nil, num(0), num(1)), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{with(ready("p0", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), ready("p1", newRev, h), ready("p2", newRev, h), ready("p3", newRev, h), ready("p4", newRev, h)},
			want: scaleWant{Branch: ScaleOut, Modified: true, CreateUpdate: 1}},
		{name: "S7 R5 SU0, 1 NuD + 3 Nr: scale out with limit 0 blocks deletes, not modified", cs: func() *CloneSet[struct{}] {
			cs := kcs(5, nil, nil, nil)
			cs.ScaleStrategy.MaxUnavailable = num(0)
			return cs
		}(), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{with(unready("p0", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), ready("p1", newRev, h), ready("p2", newRev, h), ready("p3", newRev, h)},
			want: scaleWant{Branch: ScaleOut}},
		{name: "scale in waits for planned deletions", cs: kcs(2, nil, num(0), nil), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{with(ready("p0", newRev, h), func(p *Pod) { p.SpecifiedDelete = true }), ready("p1", newRev, h), unready("p2", newRev, h), unready("p3", newRev, h)},
			want: scaleWant{Branch: ScaleWaitForDeletion}, reason: "deleteReadyLimit 0+2-2 = 0 keeps the ready p0; scaleDown 4-1-2 = 1 waits for it"},
		{name: "same-node ranker: R2, p0 p1 on n1, p2 on n2, p3 on n3", cs: kcs(2, nil, nil, nil), revs: Revisions{Current: newRev, Update: newRev},
			pods: []Pod{
				with(ready("p0", newRev, 4*h), func(p *Pod) { p.NodeName = "n1" }), with(ready("p1", newRev, 3*h), func(p *Pod) { p.NodeName = "n1" }),
				with(ready("p2", newRev, 2*h), func(p *Pod) { p.NodeName = "n2" }), with(ready("p3", newRev, h), func(p *Pod) { p.NodeName = "n3" }),
			},
			want: scaleWant{Branch: ScaleIn, Modified: true, Delete: []string{"p1", "p3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := *tt.cs
			cs.UpdateStrategy.Paused = tt.paused
			cs.Lifecycle = tt.life
			revs := tt.revs
			if revs.Update == "" {
				revs = Revisions{Current: oldRev, Update: newRev}
			}
			d, err := Scale(&cs, tt.pods, revs, t0, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, scaleGot(d)); diff != "" {
				t.Errorf("Scale mismatch (-want +got):\n%s\n%s\ndiffs %+v", diff, tt.reason, d.Diffs)
			}
		})
	}
}

type scaleDraw struct {
	diffsDraw
	life *Lifecycle
}

func drawScaleInput(t *rapid.T) scaleDraw {
	in := drawDiffsInput(t)
	for i := range in.pods {
		if rapid.IntRange(0, 3).Draw(t, "held") == 0 {
			in.pods[i].Labels = map[string]string{"hold": "true"}
		}
	}
	var life *Lifecycle
	if rapid.Bool().Draw(t, "preDeleteHook") {
		life = &Lifecycle{PreDelete: &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}, MarkPodNotReady: rapid.Bool().Draw(t, "markPodNotReady")}}
	}
	in.cs.Lifecycle = life
	return scaleDraw{diffsDraw: in, life: life}
}

func (in scaleDraw) scale(t *rapid.T) ScaleDecision {
	d, err := Scale(in.cs, in.pods, in.revs, t0, in.opts)
	if err != nil {
		t.Fatalf("Scale: %v", err)
	}
	return d
}

func TestScaleNeverDeletesMoreReadyPodsThanDeleteReadyLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawScaleInput(t)
		d := in.scale(t)
		if d.Branch != ScaleDeleteSpecified && d.Branch != ScaleIn {
			return
		}
		readyGone := 0
		for _, name := range append(slices.Clone(d.Delete), d.PrepareDelete...) {
			i := slices.IndexFunc(in.pods, func(p Pod) bool { return p.Name == name })
			minReady := int32(0)
			if in.opts.ReadyLimit == ReadyLimitAvailableOnly {
				minReady = in.cs.MinReadySeconds
			}
			if IsPodAvailable(&in.pods[i], minReady, t0) {
				readyGone++
			}
		}
		if int32(readyGone) > d.Diffs.DeleteReadyLimit {
			t.Fatalf("%v deletes %d ready pods, limit %d", d.Branch, readyGone, d.Diffs.DeleteReadyLimit)
		}
	})
}

func TestScaleCreatesExactlyScaleUpLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawScaleInput(t).scale(t)
		created := d.CreateCurrent + d.CreateUpdate
		want := int32(0)
		if d.Branch == ScaleOut {
			want = d.Diffs.ScaleUpLimit
		}
		if created != want || d.CreateCurrent < 0 || d.CreateUpdate < 0 {
			t.Fatalf("%v creates %d + %d pods, want %d in all", d.Branch, d.CreateCurrent, d.CreateUpdate, want)
		}
		if d.Branch == ScaleOut && d.CreateCurrent > d.Diffs.ScaleUpNumOldRevision {
			t.Fatalf("creates %d at the current revision, more than ScaleUpNumOldRevision %d", d.CreateCurrent, d.Diffs.ScaleUpNumOldRevision)
		}
	})
}

func TestScaleInNeverRemovesMoreThanScaleDownNum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawScaleInput(t).scale(t)
		if d.Branch == ScaleIn && int32(len(d.Delete)+len(d.PrepareDelete)) > d.Diffs.ScaleDownNum {
			t.Fatalf("scale in removes %d pods, ScaleDownNum %d", len(d.Delete)+len(d.PrepareDelete), d.Diffs.ScaleDownNum)
		}
	})
}

func TestScaleActsOnlyOnActivePodsAndEachOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawScaleInput(t)
		d := in.scale(t)
		all := slices.Concat(d.Delete, d.PrepareDelete, d.Regret)
		seen := map[string]bool{}
		for _, name := range all {
			i := slices.IndexFunc(in.pods, func(p Pod) bool { return p.Name == name })
			if i < 0 || !IsPodActive(&in.pods[i]) || seen[name] {
				t.Fatalf("acts on %q: absent, inactive or twice (%v)", name, all)
			}
			seen[name] = true
			if slices.Contains(d.PrepareDelete, name) && in.pods[i].Lifecycle == PreparingDelete {
				t.Fatalf("moves %q to PreparingDelete, where it already is", name)
			}
		}
		if d.Modified != (len(all) > 0 || d.CreateCurrent+d.CreateUpdate > 0) {
			t.Fatalf("Modified %v with %d pod writes and %d creations", d.Modified, len(all), d.CreateCurrent+d.CreateUpdate)
		}
	})
}

func TestScaleIndependentOfPodOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawScaleInput(t)
		want := in.scale(t)
		in.pods = rapid.Permutation(in.pods).Draw(t, "order")
		if got := in.scale(t); !cmp.Equal(want, got, cmp.Comparer(errorsEqual)) {
			t.Fatalf("order changed the decision:\n%s", cmp.Diff(want, got, cmp.Comparer(errorsEqual)))
		}
	})
}

func TestScaleDoesNotModifyInputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawScaleInput(t)
		before := deepCopyInput(in.diffsDraw)
		in.scale(t)
		if diff := cmp.Diff(before, in.diffsDraw, cmp.AllowUnexported(diffsDraw{})); diff != "" {
			t.Fatalf("Scale modified its inputs (-before +after):\n%s", diff)
		}
	})
}

func TestScaleRejectsBadInput(t *testing.T) {
	if _, err := Scale[struct{}](nil, nil, Revisions{}, t0, Options{}); err == nil {
		t.Error("Scale(nil CloneSet) succeeded")
	}
	if _, err := Scale(kcs(1, nil, nil, nil), []Pod{{Name: "a"}, {Name: "a"}}, Revisions{}, t0, Options{}); err == nil {
		t.Error("Scale(duplicate pods) succeeded")
	}
}

// TestScaleKruiseCases holds kruise v1.9.1's TestScale
// (pkg/controller/cloneset/sync/cloneset_scale_test.go): R3, maxUnavailable
// "20%", five identical pods ready for 10 s, replicas lowered from 5.
// Kruise checks how many pods remain and whether Scale modified anything.
func TestScaleKruiseCases(t *testing.T) {
	rev := "sample-b976d4544"
	pods := func() []Pod {
		out := make([]Pod, 5)
		for i := range out {
			out[i] = Pod{Name: "sample-" + strconv.Itoa(i), Revision: rev, Phase: PodRunning, Ready: true, ReadySince: t0.Add(-10 * time.Second)}
		}
		return out
	}
	tests := []struct {
		name         string
		minReady     int32
		specified    bool
		wantRemain   int
		wantModified bool
	}{
		{"minReadySeconds 9999: nothing deleted", 9999, false, 5, false},
		{"minReadySeconds 0, sample-0 specified: it alone is deleted", 0, true, 4, true},
		{"minReadySeconds 0: two deleted", 0, false, 3, true},
	}
	for _, tt := range tests {
		cs := kcs(3, nil, str("20%"), nil)
		cs.Name, cs.MinReadySeconds = "sample", tt.minReady
		in := pods()
		in[0].SpecifiedDelete = tt.specified
		d, err := Scale(cs, in, Revisions{Current: rev, Update: rev}, t0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if remain := len(in) - len(d.Delete); remain != tt.wantRemain || d.Modified != tt.wantModified {
			t.Errorf("%s: %d remain, modified %v; want %d, %v (decision %+v)", tt.name, remain, d.Modified, tt.wantRemain, tt.wantModified, d)
		}
	}
}
