package cloneset

import (
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"
)

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// readyPod is a Running, Ready, Normal pod that has been ready since
// t0-age.
func readyPod(name, rev string, age time.Duration) Pod {
	return Pod{Name: name, Revision: rev, Phase: PodRunning, NodeName: "n1", Ready: true, ReadySince: t0.Add(-age), CreationTime: t0.Add(-time.Hour), Lifecycle: Normal}
}

func TestAvailability(t *testing.T) {
	tests := []struct {
		name                string
		pod                 Pod
		minReady            int32
		updateReady, avail  bool
		active, statusReady bool
		reason              string
	}{
		{name: "spec: ready 10s, minReady 10", pod: readyPod("p", "r1", 10*time.Second), minReady: 10, updateReady: false, avail: false, active: true, statusReady: true, reason: "k8s v1.32 compares strictly: 10 s is not more than 10 s"},
		{name: "ready 11s, minReady 10", pod: readyPod("p", "r1", 11*time.Second), minReady: 10, updateReady: true, avail: true, active: true, statusReady: true},
		{name: "spec: PreparingNormal", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Lifecycle = PreparingNormal; return p }(), updateReady: true, avail: false, active: true, statusReady: true, reason: "lifecycle checked by availability only"},
		{name: "no lifecycle label", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Lifecycle = ""; return p }(), updateReady: true, avail: true, active: true, statusReady: true},
		{name: "Updated", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Lifecycle = Updated; return p }(), updateReady: true, avail: false, active: true, statusReady: true},
		{name: "spec: InPlaceUpdateReady False", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.InPlaceUpdateReady = ConditionFalse; return p }(), updateReady: false, avail: false, active: true, statusReady: false},
		{name: "InPlaceUpdateReady Unknown", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.InPlaceUpdateReady = ConditionUnknown; return p }(), updateReady: false, avail: false, active: true, statusReady: false},
		{name: "InPlaceUpdateReady True", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.InPlaceUpdateReady = ConditionTrue; return p }(), updateReady: true, avail: true, active: true, statusReady: true},
		{name: "spec: Ready but Pending", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Phase = PodPending; return p }(), updateReady: false, avail: false, active: true, statusReady: false},
		{name: "empty phase", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Phase = ""; return p }(), updateReady: false, avail: false, active: true, statusReady: false, reason: "kruise treats an empty phase like Pending"},
		{name: "not ready", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Ready = false; return p }(), updateReady: false, avail: false, active: true, statusReady: false},
		{name: "zero ReadySince, minReady 0", pod: func() Pod { p := readyPod("p", "r1", 0); p.ReadySince = time.Time{}; return p }(), updateReady: true, avail: true, active: true, statusReady: true},
		{name: "zero ReadySince, minReady 1", pod: func() Pod { p := readyPod("p", "r1", 0); p.ReadySince = time.Time{}; return p }(), minReady: 1, updateReady: false, avail: false, active: true, statusReady: true, reason: "a zero lastTransitionTime never satisfies minReadySeconds"},
		{name: "terminating", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Terminating = true; return p }(), updateReady: true, avail: true, active: false, statusReady: true, reason: "activity is a separate test; callers filter first"},
		{name: "succeeded", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Phase = PodSucceeded; return p }(), updateReady: false, avail: false, active: false, statusReady: false},
		{name: "failed", pod: func() Pod { p := readyPod("p", "r1", time.Minute); p.Phase = PodFailed; return p }(), active: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.pod
			if got := IsPodUpdateReady(&p, tt.minReady, t0); got != tt.updateReady {
				t.Errorf("IsPodUpdateReady(%+v, %d) = %v, want %v (%s)", p, tt.minReady, got, tt.updateReady, tt.reason)
			}
			if got := IsPodAvailable(&p, tt.minReady, t0); got != tt.avail {
				t.Errorf("IsPodAvailable(%+v, %d) = %v, want %v (%s)", p, tt.minReady, got, tt.avail, tt.reason)
			}
			if got := IsPodUpdateReady(&p, 0, t0); got != tt.statusReady {
				t.Errorf("IsPodUpdateReady(%+v, 0) = %v, want %v (%s)", p, got, tt.statusReady, tt.reason)
			}
			if got := IsPodActive(&p); got != tt.active {
				t.Errorf("IsPodActive(%+v) = %v, want %v", p, got, tt.active)
			}
		})
	}
	if IsPodActive(nil) || IsPodUpdateReady(nil, 0, t0) || IsPodAvailable(nil, 0, t0) || IsPodAtRevision(nil, "") || IsSpecifiedDelete(nil, []string{""}) {
		t.Error("a nil pod is active, ready, available, at a revision or specified for deletion")
	}
}

func TestIsPodAtRevision(t *testing.T) {
	tests := []struct {
		podRev, rev string
		want        bool
	}{
		{"demo-788944f45", "demo-788944f45", true},
		{"788944f45", "demo-788944f45", true},
		{"demo-788944f45", "788944f45", true},
		{"other-788944f45", "demo-788944f45", true},
		{"demo-788944f44", "demo-788944f45", false},
		{"", "demo-788944f45", false},
		{"", "", true},
		{"", "demo-", true},
		{"a-b-c", "c", true},
		{"demo", "demo-demo", true},
	}
	for _, tt := range tests {
		p := Pod{Name: "p", Revision: tt.podRev}
		if got := IsPodAtRevision(&p, tt.rev); got != tt.want {
			t.Errorf("IsPodAtRevision(revision %q, %q) = %v, want %v", tt.podRev, tt.rev, got, tt.want)
		}
	}
}

func TestIsSpecifiedDelete(t *testing.T) {
	p := Pod{Name: "p1"}
	if IsSpecifiedDelete(&p, nil) || IsSpecifiedDelete(&p, []string{"p2"}) {
		t.Error("IsSpecifiedDelete(p1 unlabelled) = true, want false")
	}
	if !IsSpecifiedDelete(&p, []string{"p0", "p1"}) {
		t.Error("IsSpecifiedDelete(p1, podsToDelete [p0 p1]) = false, want true")
	}
	p.SpecifiedDelete = true
	if !IsSpecifiedDelete(&p, nil) {
		t.Error("IsSpecifiedDelete(p1 labelled) = false, want true")
	}
}

func TestClassifyPod(t *testing.T) {
	cs := &CloneSet[struct{}]{Replicas: 3, MinReadySeconds: 30, ScaleStrategy: ScaleStrategy{PodsToDelete: []string{"named"}}}
	mk := func(f func(*Pod)) *Pod { p := readyPod("p", "r1", time.Minute); f(&p); return &p }
	tests := []struct {
		name string
		pod  *Pod
		want PodClass
	}{
		{"available", mk(func(*Pod) {}), Available},
		{"not yet minReady", mk(func(p *Pod) { p.ReadySince = t0.Add(-10 * time.Second) }), Unavailable},
		{"specified and unready", mk(func(p *Pod) { p.SpecifiedDelete = true; p.Ready = false }), ToDelete},
		{"named in podsToDelete", mk(func(p *Pod) { p.Name = "named" }), ToDelete},
		{"preparing delete and specified", mk(func(p *Pod) { p.Lifecycle = PreparingDelete; p.SpecifiedDelete = true }), PreDeleting},
		{"terminating preparing delete", mk(func(p *Pod) { p.Lifecycle = PreparingDelete; p.Terminating = true }), Inactive},
		{"nil", nil, Inactive},
	}
	for _, tt := range tests {
		if got := ClassifyPod(cs, tt.pod, t0); got != tt.want {
			t.Errorf("ClassifyPod(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := ClassifyPod[struct{}](nil, mk(func(p *Pod) { p.ReadySince = t0 }), t0); got != Available {
		t.Errorf("ClassifyPod(nil CloneSet, just ready) = %v, want Available (minReadySeconds 0)", got)
	}
	if s := PodClass(0).String(); s != "PodClass(0)" {
		t.Errorf("PodClass(0).String() = %q", s)
	}
}

func TestParseDeletionCost(t *testing.T) {
	tests := []struct {
		in   string
		want int32
		ok   bool
	}{
		{"5", 5, true}, {"-1", -1, true}, {"0", 0, true}, {"-0", 0, true}, {"-007", -7, true},
		{"2147483647", 2147483647, true}, {"-2147483648", -2147483648, true},
		{"", 0, false}, {"+3", 0, false}, {"007", 0, false}, {"00", 0, false}, {" 1", 0, false},
		{"1e3", 0, false}, {"2147483648", 0, false}, {"-", 0, false}, {"--1", 0, false}, {"1 ", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseDeletionCost(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseDeletionCost(%q) = %d, %v, want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseDeletionCostReadsEveryCanonicalInt32(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.Int32().Draw(t, "cost")
		if got, ok := ParseDeletionCost(strconv.Itoa(int(n))); !ok || got != n {
			t.Fatalf("ParseDeletionCost(%q) = %d, %v, want %d, true", strconv.Itoa(int(n)), got, ok, n)
		}
	})
}

func FuzzParseDeletionCost(f *testing.F) {
	for _, s := range []string{"5", "-1", "0", "-0", "-007", "", "+3", "007", "1e3", "2147483648", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseDeletionCost(s)
		if !ok {
			if got != 0 {
				t.Fatalf("ParseDeletionCost(%q) = %d, false, want 0", s, got)
			}
			return
		}
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || int32(n) != got {
			t.Fatalf("ParseDeletionCost(%q) = %d, true, but ParseInt gives %d, %v", s, got, n, err)
		}
		if s[0] == '+' || (s[0] == '0' && s != "0") {
			t.Fatalf("ParseDeletionCost(%q) accepted a plus sign or a leading zero", s)
		}
	})
}
