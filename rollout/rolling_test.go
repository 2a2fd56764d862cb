package rollout

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
)

func TestNewReplicas(t *testing.T) {
	recreate := dep(3, nil, nil)
	recreate.Strategy = Recreate
	for _, tt := range []struct {
		name    string
		d       *Deployment[tmpl]
		other   int32 // spec of the one old ReplicaSet
		newSpec int32
		want    int32
		reason  string
	}{
		{name: "first step", d: dep(10, pct(25), nil), other: 10, newSpec: 0, want: 3, reason: "13 allowed, 10 exist"},
		{name: "second step", d: dep(10, pct(25), nil), other: 8, newSpec: 3, want: 5, reason: "13 allowed, 11 exist"},
		{name: "surge 2 with 5 old", d: dep(10, num(2), nil), other: 5, newSpec: 0, want: 7, reason: "12 allowed, 5 exist"},
		{name: "no surge", d: dep(10, num(0), nil), other: 10, newSpec: 0, want: 0, reason: "no room: the both-zero rule does not apply here"},
		{name: "at the limit", d: dep(10, num(2), nil), other: 10, newSpec: 2, want: 2},
		{name: "room but capped at R", d: dep(6, num(10), nil), other: 5, newSpec: 2, want: 6, reason: "min(16-7, 6-2) = 4 more"},
		{name: "25% of 3", d: dep(3, pct(25), nil), other: 3, newSpec: 0, want: 1},
		{name: "upstream test: too large new, no room", d: dep(1, num(1), nil), other: 0, newSpec: 5, want: 5, reason: "total 5 >= allowed 2: unchanged"},
		{name: "upstream test: R6 new 2 surge 10", d: dep(6, num(10), nil), other: 5, newSpec: 2, want: 6},
		{name: "Recreate", d: recreate, other: 5, newSpec: 0, want: 3},
		{name: "MaxInt32 surge saturates", d: dep(10, num(math.MaxInt32), nil), other: 5, newSpec: 0, want: 10, reason: "upstream wraps R + maxSurge negative and returns 0 forever (B3)"},
		{name: "MaxInt32 replicas", d: dep(math.MaxInt32, pct(100), nil), other: 0, newSpec: math.MaxInt32 - 1, want: math.MaxInt32},
		{name: "MaxInt32 replicas, old full", d: dep(math.MaxInt32, pct(25), nil), other: math.MaxInt32, newSpec: 0, want: 0,
			reason: "R + maxSurge saturates at MaxInt32 and the old ReplicaSet already has that many: no room"},
		{name: "MaxInt32 replicas, mid-rollout", d: dep(math.MaxInt32, pct(25), nil), other: 1610612736, newSpec: 536870912, want: 536870912,
			reason: "the total may not pass the saturated ceiling: 1610612736 + 536870912 = MaxInt32 + 1 already, so unchanged"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rss := []ReplicaSet[tmpl]{rs("old", 10, tt.other, tt.other), rs("new", 1, tt.newSpec, 0)}
			got, err := NewReplicas(tt.d, rss, 1)
			if err != nil || got != tt.want {
				t.Errorf("NewReplicas(%s) = (%d, %v), want (%d, nil) (%s)", tt.name, got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestNewReplicasCreating(t *testing.T) {
	rss := []ReplicaSet[tmpl]{rs("old", 10, 10, 10)}
	if got, err := NewReplicas(dep(10, nil, nil), rss, -1); err != nil || got != 3 {
		t.Errorf("NewReplicas(R10, [10], -1) = (%d, %v), want (3, nil)", got, err)
	}
	if got, err := NewReplicas(dep(10, nil, nil), nil, -1); err != nil || got != 10 {
		t.Errorf("NewReplicas(R10, nil, -1) = (%d, %v), want (10, nil)", got, err)
	}
}

func TestNewReplicasErrors(t *testing.T) {
	bad := dep(10, nil, nil)
	bad.Strategy = "Canary"
	_, err := NewReplicas(bad, nil, -1)
	var fe *field.Error
	if !errors.As(err, &fe) || !errors.Is(err, field.ErrUnsupported) || err.Error() != "deployment type Canary isn't supported" {
		t.Errorf("NewReplicas(Canary) error = %v, want a *field.Error %q", err, "deployment type Canary isn't supported")
	}
	_, err = NewReplicas(dep(10, nil, nil), nil, 0)
	if !errors.Is(err, field.ErrIndex) || err.Error() != "rollout: newRS: 0 is out of range [-1, 0)" {
		t.Errorf("NewReplicas(index 0 of none) error = %v, want field.ErrIndex", err)
	}
	_, err = NewReplicas(dep(-1, nil, nil), nil, -1)
	if !errors.Is(err, intorpercent.ErrNegativeTotal) {
		t.Errorf("NewReplicas(R -1) error = %v, want ErrNegativeTotal", err)
	}
}

func TestReconcileNew(t *testing.T) {
	for _, tt := range []struct {
		name         string
		d            *Deployment[tmpl]
		old, newSpec int32
		want         int32
	}{
		{name: "no surge, full old: no-op", d: dep(10, num(0), num(1)), old: 10, newSpec: 0, want: 0},
		{name: "surge 2", d: dep(10, num(2), num(0)), old: 10, newSpec: 0, want: 2},
		{name: "old 5", d: dep(10, num(2), num(0)), old: 5, newSpec: 0, want: 7},
		{name: "too large: straight down", d: dep(10, num(2), num(0)), old: 0, newSpec: 11, want: 10},
		{name: "too large despite no room", d: dep(1, num(1), nil), old: 5, newSpec: 5, want: 1},
		{name: "already R", d: dep(10, nil, nil), old: 3, newSpec: 10, want: 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rss := []ReplicaSet[tmpl]{rs("old", 10, tt.old, tt.old), rs("new", 1, tt.newSpec, 0)}
			got, err := ReconcileNew(tt.d, rss, 1)
			if err != nil || got != tt.want {
				t.Errorf("ReconcileNew(%s) = (%d, %v), want (%d, nil)", tt.name, got, err, tt.want)
			}
		})
	}
	if _, err := ReconcileNew(dep(1, nil, nil), nil, -1); !errors.Is(err, field.ErrIndex) {
		t.Errorf("ReconcileNew(index -1) error = %v, want field.ErrIndex", err)
	}
}

func TestMaxScaledDown(t *testing.T) {
	for _, tt := range []struct {
		name   string
		d      *Deployment[tmpl]
		rss    []ReplicaSet[tmpl]
		want   int32
		reason string
	}{
		{name: "first sync", d: dep(10, nil, nil), rss: []ReplicaSet[tmpl]{rs("old", 10, 10, 10), rs("new", 1, 3, 0)}, want: 2, reason: "13 - 8 - 3"},
		{name: "new pods unavailable block", d: dep(10, num(0), num(2)), rss: []ReplicaSet[tmpl]{rs("old", 10, 8, 8), rs("new", 1, 2, 0)}, want: 0},
		{name: "negative budget", d: dep(10, num(0), num(0)), rss: []ReplicaSet[tmpl]{rs("old", 10, 5, 5), rs("new", 1, 5, 0)}, want: -4},
		{name: "huge specs saturate", d: dep(0, nil, nil), rss: []ReplicaSet[tmpl]{rs("a", 10, math.MaxInt32, 0), rs("b", 9, math.MaxInt32, 0), rs("new", 1, 0, 0)}, want: math.MaxInt32},
	} {
		if got := MaxScaledDown(tt.d, tt.rss, len(tt.rss)-1); got != tt.want {
			t.Errorf("MaxScaledDown(%s) = %d, want %d (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

func sizesOf(rss []ReplicaSet[tmpl]) []int32 {
	s := make([]int32, len(rss))
	for i := range rss {
		s[i] = rss[i].Replicas
	}
	return s
}

func TestCleanupUnhealthy(t *testing.T) {
	// Upstream inventory: one old ReplicaSet of 10 with 8 ready.
	for _, tt := range []struct {
		name        string
		avail       int32
		maxCleanup  int32
		wantCleaned int32
		wantSize    int32
	}{
		{name: "max 1", avail: 8, maxCleanup: 1, wantCleaned: 1, wantSize: 9},
		{name: "max 3", avail: 8, maxCleanup: 3, wantCleaned: 2, wantSize: 8},
		{name: "max 0", avail: 8, maxCleanup: 0, wantCleaned: 0, wantSize: 10},
		{name: "all ready", avail: 10, maxCleanup: 3, wantCleaned: 0, wantSize: 10},
		{name: "negative budget", avail: 8, maxCleanup: -2, wantCleaned: 0, wantSize: 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rss := []ReplicaSet[tmpl]{rs("old", 10, 10, tt.avail), rs("new", 1, 0, 0)}
			sizes := sizesOf(rss)
			got, err := CleanupUnhealthy(rss, 1, tt.maxCleanup, sizes)
			if err != nil || got != tt.wantCleaned || sizes[0] != tt.wantSize {
				t.Errorf("CleanupUnhealthy(10 old, %d available, max %d) = (%d, %v) size %d, want (%d, nil) size %d", tt.avail, tt.maxCleanup, got, err, sizes[0], tt.wantCleaned, tt.wantSize)
			}
		})
	}
}

func TestCleanupUnhealthyOldestFirst(t *testing.T) {
	// Two old ReplicaSets with unhealthy pods; the oldest is cleaned first,
	// whatever the input order.
	rss := []ReplicaSet[tmpl]{rs("younger", 20, 5, 2), rs("new", 1, 3, 0), rs("oldest", 30, 5, 3)}
	sizes := sizesOf(rss)
	got, err := CleanupUnhealthy(rss, 1, 3, sizes)
	if want := []int32{4, 3, 3}; err != nil || got != 3 || !cmp.Equal(sizes, want) {
		t.Errorf("CleanupUnhealthy(oldest first, max 3) = (%d, %v) sizes %v, want (3, nil) sizes %v", got, err, sizes, want)
	}
}

func TestCleanupUnhealthyStaleStatus(t *testing.T) {
	// B9: the oldest ReplicaSet was scaled down but its status still shows
	// more available pods than its spec; the younger one, visited after it,
	// keeps its unhealthy pods.
	stale := rs("stale", 30, 3, 5)
	rss := []ReplicaSet[tmpl]{rs("younger", 20, 5, 2), stale, rs("new", 1, 3, 0)}
	sizes := sizesOf(rss)
	got, err := CleanupUnhealthy(rss, 2, 4, sizes)
	var se *StaleStatusError
	if !errors.As(err, &se) || !errors.Is(err, ErrStaleStatus) || got != 0 {
		t.Fatalf("CleanupUnhealthy(stale) = (%d, %v), want (0, *StaleStatusError)", got, err)
	}
	if want := "when cleaning up unhealthy replicas, got invalid request to scale down stale 3 -> 5"; err.Error() != want {
		t.Errorf("CleanupUnhealthy(stale) error = %q, want %q", err, want)
	}
	if want := []int32{5, 3, 3}; !cmp.Equal(sizes, want) {
		t.Errorf("CleanupUnhealthy(stale) sizes = %v, want %v", sizes, want)
	}
}

func TestScaleDownOld(t *testing.T) {
	// Upstream inventory: R10, no surge; one old ReplicaSet of 10.
	for _, tt := range []struct {
		name        string
		unavailable int32
		old, avail  int32
		wantRemoved int32
		wantSize    int32
	}{
		{name: "maxUnavailable 0 (both-zero gives 1)", unavailable: 0, old: 10, avail: 10, wantRemoved: 1, wantSize: 9},
		{name: "maxUnavailable 2", unavailable: 2, old: 10, avail: 10, wantRemoved: 2, wantSize: 8},
		{name: "8 ready: none", unavailable: 2, old: 10, avail: 8, wantRemoved: 0, wantSize: 10},
		{name: "old at 0: none", unavailable: 2, old: 0, avail: 0, wantRemoved: 0, wantSize: 0},
		{name: "1 ready: none", unavailable: 2, old: 10, avail: 1, wantRemoved: 0, wantSize: 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := dep(10, num(0), num(tt.unavailable))
			rss := []ReplicaSet[tmpl]{rs("old", 10, tt.old, tt.avail), rs("new", 1, 0, 0)}
			sizes := sizesOf(rss)
			got, err := ScaleDownOld(d, rss, 1, sizes)
			if err != nil || got != tt.wantRemoved || sizes[0] != tt.wantSize {
				t.Errorf("ScaleDownOld(%s) = (%d, %v) size %d, want (%d, nil) size %d", tt.name, got, err, sizes[0], tt.wantRemoved, tt.wantSize)
			}
		})
	}
	if _, err := ScaleDownOld(dep(1, nil, nil), []ReplicaSet[tmpl]{rs("a", 1, 1, 1)}, -1, nil); !errors.Is(err, field.ErrIndex) {
		t.Errorf("ScaleDownOld(sizes nil) error = %v, want field.ErrIndex", err)
	}
}

func TestReconcileOld(t *testing.T) {
	for _, tt := range []struct {
		name        string
		d           *Deployment[tmpl]
		old, avail  int32
		newSpec     int32
		newAvail    int32
		wantRemoved int32
		wantOld     int32
		reason      string
	}{
		{name: "R10 25%/25%: healthy", d: dep(10, pct(25), pct(25)), old: 10, avail: 10, newSpec: 3, wantRemoved: 2, wantOld: 8, reason: "maxScaledDown 13-8-3 = 2"},
		{name: "R10 25%/25%: unhealthy first", d: dep(10, pct(25), pct(25)), old: 10, avail: 7, newSpec: 3, wantRemoved: 2, wantOld: 8, reason: "cleanup takes the 2, scale-down finds 7 <= 8"},
		{name: "maxUnavailable 0", d: dep(10, num(0), num(0)), old: 10, avail: 10, wantRemoved: 1, wantOld: 9},
		{name: "maxUnavailable 2", d: dep(10, num(0), num(2)), old: 10, avail: 10, wantRemoved: 2, wantOld: 8},
		{name: "unhealthy cleanup", d: dep(10, num(0), num(2)), old: 10, avail: 8, wantRemoved: 2, wantOld: 8},
		{name: "one unhealthy cleaned, one ready scaled down", d: dep(10, num(0), num(2)), old: 10, avail: 9, wantRemoved: 2, wantOld: 8, reason: "cleanup 1 (budget 2), then 9 available - 8 = 1"},
		{name: "new ReplicaSet unavailable blocks", d: dep(10, num(0), num(2)), old: 8, avail: 8, newSpec: 2, wantRemoved: 0, wantOld: 8},
		{name: "no old pods", d: dep(10, nil, nil), old: 0, avail: 0, newSpec: 10, newAvail: 10, wantRemoved: 0, wantOld: 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rss := []ReplicaSet[tmpl]{rs("old", 10, tt.old, tt.avail), rs("new", 1, tt.newSpec, tt.newAvail)}
			sizes := sizesOf(rss)
			got, err := ReconcileOld(tt.d, rss, 1, sizes)
			if err != nil || got != tt.wantRemoved || sizes[0] != tt.wantOld {
				t.Errorf("ReconcileOld(%s) = (%d, %v) old %d, want (%d, nil) old %d (%s)", tt.name, got, err, sizes[0], tt.wantRemoved, tt.wantOld, tt.reason)
			}
		})
	}
}

func TestIsSaturated(t *testing.T) {
	d := dep(3, nil, nil)
	withDesired := func(spec, avail int32, desired string) *ReplicaSet[tmpl] {
		r := rs("new", 1, spec, avail)
		r.Annotations = map[string]string{revision.DesiredReplicasAnnotation: desired}
		return &r
	}
	for _, tt := range []struct {
		name string
		rs   *ReplicaSet[tmpl]
		want bool
	}{
		{name: "saturated", rs: withDesired(3, 3, "3"), want: true},
		{name: "plus sign accepted like Atoi", rs: withDesired(3, 3, "+3"), want: true},
		{name: "not all available", rs: withDesired(3, 2, "3"), want: false},
		{name: "stale desired", rs: withDesired(3, 3, "4"), want: false},
		{name: "bad annotation", rs: withDesired(3, 3, "three"), want: false},
		{name: "beyond int32 does not wrap", rs: withDesired(3, 3, "4294967299"), want: false},
		{name: "nil", rs: nil, want: false},
	} {
		if got := IsSaturated(d, tt.rs); got != tt.want {
			t.Errorf("IsSaturated(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSizesLengthError(t *testing.T) {
	rss := []ReplicaSet[tmpl]{rs("a", 2, 1, 1), rs("b", 1, 1, 1)}
	want := "rollout: sizes: 1 for 2 ReplicaSets"
	for name, f := range map[string]func() error{
		"CleanupUnhealthy": func() error { _, err := CleanupUnhealthy(rss, 1, 1, []int32{1}); return err },
		"ScaleDownOld":     func() error { _, err := ScaleDownOld(dep(2, nil, nil), rss, 1, []int32{1}); return err },
		"ReconcileOld":     func() error { _, err := ReconcileOld(dep(2, nil, nil), rss, 1, []int32{1}); return err },
	} {
		if err := f(); !errors.Is(err, field.ErrIndex) || err.Error() != want {
			t.Errorf("%s(1 size for 2 ReplicaSets) error = %v, want %q", name, err, want)
		}
	}
}
