package cloneset

import (
	"testing"

	"pgregory.net/rapid"
)

func TestRefreshLifecycle(t *testing.T) {
	hook := &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}, FinalizersHandler: []string{"x/f"}}
	full := func(p Pod) Pod {
		p.Labels = map[string]string{"hold": "true"}
		p.Finalizers = []string{"x/f"}
		return p
	}
	half := func(p Pod) Pod { p.Labels = map[string]string{"hold": "true"}; return p }
	base := func(s LifecycleState, rev, node string) Pod {
		return Pod{Name: "p", Revision: rev, Lifecycle: s, NodeName: node}
	}
	done := func(p Pod, d bool) Pod {
		p.InPlaceUpdate = &InPlaceUpdateState{Revision: p.Revision, Done: d}
		return p
	}
	held := func(p Pod) Pod {
		p.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: p.Revision, GraceSeconds: 5}
		return p
	}
	tests := []struct {
		name   string
		lc     *Lifecycle
		pod    Pod
		want   LifecycleState
		moved  bool
		reason string
	}{
		{name: "PreparingNormal scheduled", pod: base(PreparingNormal, "r2", "n1"), want: Normal, moved: true},
		{name: "PreparingNormal unscheduled", pod: base(PreparingNormal, "r2", ""), want: PreparingNormal},
		{name: "preNormal hook not all there", lc: &Lifecycle{PreNormal: hook}, pod: half(base(PreparingNormal, "r2", "n1")), want: PreparingNormal, reason: "scheduling does not matter with a preNormal hook"},
		{name: "preNormal hook all there", lc: &Lifecycle{PreNormal: hook}, pod: full(base(PreparingNormal, "r2", "")), want: Normal, moved: true},
		{name: "PreparingUpdate at update revision, no lifecycle", pod: base(PreparingUpdate, "r2", "n1"), want: Normal, moved: true, reason: "kruise issue #1156"},
		{name: "PreparingUpdate at update revision, hook off the pod", lc: &Lifecycle{InPlaceUpdate: hook}, pod: base(PreparingUpdate, "r2", "n1"), want: Updated, moved: true},
		{name: "PreparingUpdate at update revision, hook back", lc: &Lifecycle{InPlaceUpdate: hook}, pod: full(base(PreparingUpdate, "r2", "n1")), want: Normal, moved: true},
		{name: "PreparingUpdate at old revision", lc: &Lifecycle{InPlaceUpdate: hook}, pod: base(PreparingUpdate, "r1", "n1"), want: PreparingUpdate},
		{name: "Updating done", pod: done(base(Updating, "r2", "n1"), true), want: Normal, moved: true},
		{name: "Updating not done", pod: done(base(Updating, "r2", "n1"), false), want: Updating},
		{name: "Updating without a record counts as done", pod: base(Updating, "r2", "n1"), want: Normal, moved: true},
		{name: "Updating held for grace", pod: held(done(base(Updating, "r2", "n1"), true)), want: Updating},
		{name: "Updating done, preDelete-only lifecycle", lc: &Lifecycle{PreDelete: hook}, pod: done(base(Updating, "r2", "n1"), true), want: Updated, moved: true, reason: "a nil inPlaceUpdate hook is never all-hooked"},
		{name: "Updated, preDelete-only lifecycle", lc: &Lifecycle{PreDelete: hook}, pod: base(Updated, "r2", "n1"), want: Normal, moved: true},
		{name: "Updated waits for the hook", lc: &Lifecycle{InPlaceUpdate: hook}, pod: half(base(Updated, "r2", "n1")), want: Updated},
		{name: "Updated with the hook back", lc: &Lifecycle{InPlaceUpdate: hook}, pod: full(base(Updated, "r2", "n1")), want: Normal, moved: true},
		{name: "Normal stays", pod: base(Normal, "r1", "n1"), want: Normal},
		{name: "PreparingDelete stays", pod: base(PreparingDelete, "r2", "n1"), want: PreparingDelete},
	}
	for _, tt := range tests {
		got, moved := RefreshLifecycle(tt.lc, &tt.pod, "r2")
		if got != tt.want || moved != tt.moved {
			t.Errorf("%s: RefreshLifecycle = %s, %v; want %s, %v (%s)", tt.name, got, moved, tt.want, tt.moved, tt.reason)
		}
	}
	if got, moved := RefreshLifecycle(nil, nil, "r2"); got != "" || moved {
		t.Errorf("RefreshLifecycle(nil pod) = %q, %v", got, moved)
	}
}

func TestPodHooked(t *testing.T) {
	h := &LifecycleHook{LabelsHandler: map[string]string{"a": "1", "empty": ""}, FinalizersHandler: []string{"f"}}
	tests := []struct {
		name           string
		labels         map[string]string
		finalizers     []string
		hooked, allHkd bool
	}{
		{name: "nothing but the empty-valued label matches its absence", hooked: true, allHkd: false},
		{name: "all", labels: map[string]string{"a": "1"}, finalizers: []string{"f"}, hooked: true, allHkd: true},
		{name: "empty label present with a value", labels: map[string]string{"empty": "x"}, hooked: false},
		{name: "finalizer only", labels: map[string]string{"empty": "x"}, finalizers: []string{"f"}, hooked: true},
	}
	for _, tt := range tests {
		p := &Pod{Name: "p", Labels: tt.labels, Finalizers: tt.finalizers}
		if got := podHooked(h, p); got != tt.hooked {
			t.Errorf("%s: podHooked = %v, want %v", tt.name, got, tt.hooked)
		}
		if got := podAllHooked(h, p); got != tt.allHkd {
			t.Errorf("%s: podAllHooked = %v, want %v", tt.name, got, tt.allHkd)
		}
	}
	if podHooked(nil, &Pod{}) || podAllHooked(nil, &Pod{}) {
		t.Error("a nil hook holds a pod")
	}
	if !podAllHooked(&LifecycleHook{}, &Pod{}) || podHooked(&LifecycleHook{}, &Pod{}) {
		t.Error("an empty hook: want all-hooked and not hooked, as kruise")
	}
}

// TestRefreshLifecycleOnlyTakesAutomaticEdges: the bookkeeping never moves
// a pod into PreparingUpdate, Updating or PreparingDelete (only the update
// and scale steps do), never out of Normal, "" or PreparingDelete, and only
// along the state machine's edges.
func TestRefreshLifecycleOnlyTakesAutomaticEdges(t *testing.T) {
	edges := map[LifecycleState][]LifecycleState{
		PreparingNormal: {Normal},
		PreparingUpdate: {Updated, Normal},
		Updating:        {Updated, Normal},
		Updated:         {Normal},
	}
	rapid.Check(t, func(t *rapid.T) {
		hook := &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}
		var lc *Lifecycle
		switch rapid.IntRange(0, 3).Draw(t, "lifecycle") {
		case 1:
			lc = &Lifecycle{InPlaceUpdate: hook}
		case 2:
			lc = &Lifecycle{PreNormal: hook}
		case 3:
			lc = &Lifecycle{PreDelete: hook}
		}
		p := Pod{
			Name:      "p",
			Revision:  rapid.SampledFrom([]string{"r1", "r2"}).Draw(t, "revision"),
			Lifecycle: rapid.SampledFrom([]LifecycleState{"", PreparingNormal, Normal, PreparingUpdate, Updating, Updated, PreparingDelete}).Draw(t, "state"),
			NodeName:  rapid.SampledFrom([]string{"", "n1"}).Draw(t, "node"),
		}
		if rapid.Bool().Draw(t, "hooked") {
			p.Labels = map[string]string{"hold": "true"}
		}
		if rapid.Bool().Draw(t, "record") {
			p.InPlaceUpdate = &InPlaceUpdateState{Done: rapid.Bool().Draw(t, "done")}
		}
		to, moved := RefreshLifecycle(lc, &p, "r2")
		if !moved {
			if to != p.Lifecycle {
				t.Fatalf("not moved but reports %s for %s", to, p.Lifecycle)
			}
			return
		}
		ok := false
		for _, e := range edges[p.Lifecycle] {
			ok = ok || e == to
		}
		if !ok {
			t.Fatalf("RefreshLifecycle moved %s to %s, not an automatic edge", p.Lifecycle, to)
		}
	})
}
