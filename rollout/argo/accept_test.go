package argo

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// The Argo acceptance cases, each test named after its case number.
// Canary/stable pairs are written "c/s"; a ReplicaSet "a/b" has spec a
// and available b.

func TestCase01SplitForWeight(t *testing.T) {
	tests := []struct{ r, w, s, c, st int32 }{
		{0, 50, 1, 0, 0}, {1, 49, 0, 0, 1}, {1, 50, 0, 1, 0}, {1, 1, 1, 1, 1}, {1, 100, 1, 1, 0},
		{2, 99, 0, 1, 1}, {2, 99, 1, 2, 1}, {3, 50, 0, 2, 1}, {3, 49, 1, 2, 2}, {10, 15, 0, 2, 8},
		{10, 24, 1, 3, 8}, {10, 1, 1, 1, 10}, {10, 99, 1, 10, 1},
	}
	for _, tt := range tests {
		c, s := SplitForWeight(tt.r, tt.w, 100, tt.s)
		if c != tt.c || s != tt.st {
			t.Errorf("SplitForWeight(%d, %d, 100, %d) = %d/%d, want %d/%d", tt.r, tt.w, tt.s, c, s, tt.c, tt.st)
		}
	}
}

// basicCase is one BasicCanaryCounts input.
type basicCase struct {
	name            string
	ro              *Rollout[tmpl]
	newRS, stableRS *ReplicaSet[tmpl]
	others          []*ReplicaSet[tmpl]
	wantNew, wantSt int32
}

func runBasic(t *testing.T, tests []basicCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, s := BasicCanaryCounts(tt.ro, tt.newRS, tt.stableRS, tt.others)
			if n != tt.wantNew || s != tt.wantSt {
				t.Errorf("BasicCanaryCounts = %d/%d, want %d/%d", n, s, tt.wantNew, tt.wantSt)
			}
		})
	}
}

func aborted(ro *Rollout[tmpl]) *Rollout[tmpl] {
	ro.Status.Abort = true
	return ro
}

func promoteFull(ro *Rollout[tmpl]) *Rollout[tmpl] {
	ro.Status.PromoteFull = true
	return ro
}

func TestCases02to19BasicCanaryCounts(t *testing.T) {
	stable := func(spec, avail int32) *ReplicaSet[tmpl] { return rs("web-stable", "stable", spec, avail) }
	newRS := func(spec, avail int32) *ReplicaSet[tmpl] { return rs("web-new", "new", spec, avail) }
	runBasic(t, []basicCase{
		{"case 2", basic(10, 20, ioi(2), ioi(0)), newRS(0, 0), stable(10, 10), nil, 2, 10},
		{"case 3", basic(10, 20, ioi(0), ioi(2)), newRS(0, 0), stable(10, 10), nil, 0, 8},
		{"case 4", basic(10, 50, ioi(2), ioi(1)), newRS(0, 0), stable(10, 10), nil, 2, 9},
		{"case 5", basic(10, 20, ios("20%"), ioi(0)), newRS(2, 2), stable(10, 10), nil, 2, 8},
		{"case 6 first", basic(10, 5, ioi(0), ioi(1)), newRS(0, 0), stable(10, 10), nil, 0, 9},
		{"case 6 then", basic(10, 5, ioi(0), ioi(1)), newRS(0, 0), stable(9, 9), nil, 1, 9},
		{"case 7 both 0% force maxUnavailable 1", basic(10, 10, ios("0%"), ios("0%")), newRS(0, 0), stable(10, 10), nil, 0, 9},
		{"case 8 first", basic(1, 51, ioi(0), ioi(1)), newRS(0, 0), stable(1, 1), nil, 0, 0},
		{"case 8 then", basic(1, 51, ioi(0), ioi(1)), newRS(0, 0), stable(0, 0), nil, 1, 0},
		{"case 9 first", basic(4, 100, ioi(1), ioi(0)), newRS(0, 0), stable(4, 1), nil, 1, 4},
		{"case 9 then", basic(4, 100, ioi(1), ioi(0)), newRS(1, 1), stable(4, 1), nil, 1, 3},
		{"case 10 first", basic(4, 0, ioi(1), ioi(0)), newRS(4, 4), stable(0, 0), nil, 4, 1},
		{"case 10 second", basic(4, 0, ioi(1), ioi(0)), newRS(4, 4), stable(1, 0), nil, 4, 1},
		{"case 10 third", basic(4, 0, ioi(1), ioi(0)), newRS(4, 4), stable(1, 1), nil, 3, 1},
		{"case 11 S3 U0", promoteFull(basic(4, 1, ioi(3), ioi(0))), newRS(0, 0), stable(4, 4), nil, 3, 4},
		{"case 11 S4 U4", promoteFull(basic(4, 1, ioi(4), ioi(4))), newRS(0, 0), stable(4, 4), nil, 4, 0},
		{"case 12 older drain first", basic(10, 30, ioi(0), ioi(1)), newRS(4, 2), stable(8, 6), []*ReplicaSet[tmpl]{rs("web-old", "old", 3, 3)}, 4, 8},
		{"case 13", basic(10, 100, ioi(1), ioi(0)), newRS(10, 8), stable(10, 2), nil, 9, 2},
		{"case 14", basic(10, 30, ioi(0), ioi(3)), newRS(4, 4), stable(8, 5), nil, 3, 7},
		{"case 15 doc comment says 1/9", basic(10, 5, ioi(1), ioi(1)), newRS(0, 0), stable(10, 10), nil, 1, 10},
		{"case 16 defaults first", basic(10, 50, nil, nil), newRS(0, 0), stable(10, 10), nil, 3, 8},
		{"case 16 defaults then", basic(10, 50, nil, nil), newRS(3, 3), stable(10, 10), nil, 3, 5},
		{"case 17 maxSurge abc", basic(10, 20, ios("abc"), nil), newRS(0, 0), stable(10, 10), nil, 0, 10},
		{"case 18 first", basic(10, 50, ioi(-1), ioi(1)), newRS(0, 0), stable(10, 10), nil, 0, 9},
		{"case 18 forever", basic(10, 50, ioi(-1), ioi(1)), newRS(0, 0), stable(9, 9), nil, 0, 9},
		{"case 19 abort", aborted(basic(10, 20, ioi(0), ioi(1))), newRS(3, 3), stable(7, 7), nil, 2, 7},
	})
}

func TestCase17AtDesiredWhenStuck(t *testing.T) {
	ro := basic(10, 20, ios("abc"), nil)
	if !AtDesiredReplicaCountsForCanary(ro, rs("web-new", "new", 0, 0), rs("web-stable", "stable", 10, 10), nil, nil) {
		t.Error("AtDesiredReplicaCountsForCanary with maxSurge \"abc\" = false, want true (the stepped counts cannot move)")
	}
}

func TestCase20Fenceposts(t *testing.T) {
	bg := func(r int32) *Rollout[tmpl] {
		return &Rollout[tmpl]{Replicas: i32(r), Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "a"}}}
	}
	tests := []struct {
		name       string
		ro         *Rollout[tmpl]
		surge, unv int32
	}{
		{"canary defaults R3", basic(3, 0, nil, nil), 1, 0},
		{"canary defaults R10", basic(10, 0, nil, nil), 3, 2},
		{"blue-green defaults R10", bg(10), 0, 2},
		{"blue-green defaults R3", bg(3), 0, 0},
		{"canary S0 U5 R2", basic(2, 0, ioi(0), ioi(5)), 0, 2},
		{"canary R0", basic(0, 0, nil, nil), 0, 0},
		{"canary maxSurge abc R10", basic(10, 0, ios("abc"), nil), 0, 0},
	}
	for _, tt := range tests {
		if s, u := MaxSurge(tt.ro), MaxUnavailable(tt.ro); s != tt.surge || u != tt.unv {
			t.Errorf("%s: (MaxSurge, MaxUnavailable) = (%d, %d), want (%d, %d)", tt.name, s, u, tt.surge, tt.unv)
		}
	}
	// The defaults table of R = 1, 2, 3, 4, 5, 10.
	want := map[int32][2]int32{1: {1, 0}, 2: {1, 0}, 3: {1, 0}, 4: {1, 1}, 5: {2, 1}, 10: {3, 2}}
	for r, w := range want {
		ro := basic(r, 0, nil, nil)
		if s, u := MaxSurge(ro), MaxUnavailable(ro); s != w[0] || u != w[1] {
			t.Errorf("defaults on R%d = (%d, %d), want (%d, %d)", r, s, u, w[0], w[1])
		}
	}
}

func TestCases21to25TrafficRoutedCanaryCounts(t *testing.T) {
	newRS := rs("web-new", "new", 1, 1)
	stable := rs("web-stable", "stable", 1, 1)
	minPods := func(ro *Rollout[tmpl], n int32) *Rollout[tmpl] {
		ro.Strategy.Canary.MinPodsPerReplicaSet = i32(n)
		return ro
	}
	dynamic := func(ro *Rollout[tmpl]) *Rollout[tmpl] { ro.Strategy.Canary.DynamicStableScale = true; return ro }
	abortDelay := func(ro *Rollout[tmpl], s int32) *Rollout[tmpl] {
		ro.Strategy.Canary.AbortScaleDownDelaySeconds = i32(s)
		return ro
	}
	weights := func(c, s int32) *Weights {
		return &Weights{Canary: WeightDestination{Weight: c}, Stable: WeightDestination{Weight: s}}
	}
	scale := func(s SetCanaryScale) CanaryStep { return CanaryStep{SetCanaryScale: &s} }
	m1000 := routed(3, setWeight(5))
	m1000.Strategy.Canary.TrafficRouting.MaxTrafficWeight = i32(1000)
	tests := []struct {
		name            string
		ro              *Rollout[tmpl]
		newRS, stableRS *ReplicaSet[tmpl]
		w               *Weights
		wantNew, wantSt int32
	}{
		{"case 21 w10", routed(10, setWeight(10)), nil, nil, nil, 1, 10},
		{"case 21 w5 minPods 2", minPods(routed(10, setWeight(5)), 2), nil, nil, nil, 2, 10},
		{"case 21 R1 promoteFull minPods 2", promoteFull(minPods(routed(1, setWeight(5)), 2)), nil, nil, nil, 1, 1},
		{"case 21 R1 setCanaryScale replicas 9", routed(1, scale(SetCanaryScale{Replicas: i32(9)})), nil, nil, nil, 9, 1},
		{"case 21 R4 setCanaryScale weight 200", routed(4, scale(SetCanaryScale{Weight: i32(200)})), nil, nil, nil, 8, 4},
		{"case 21 matchTrafficWeight", func() *Rollout[tmpl] {
			ro := routed(10, setWeight(20), scale(SetCanaryScale{MatchTrafficWeight: true}))
			ro.Status.CurrentStepIndex = i32(1)
			return ro
		}(), nil, nil, nil, 2, 10},
		{"case 22 abort delay 0 keeps canary", aborted(abortDelay(routed(1, scale(SetCanaryScale{Replicas: i32(1)})), 0)), newRS, stable, nil, 1, 1},
		{"case 22 abort delay 30", aborted(abortDelay(routed(1, scale(SetCanaryScale{Replicas: i32(1)})), 30)), newRS, stable, nil, 0, 1},
		{"case 23a", dynamic(routed(10, setWeight(20))), nil, nil, weights(10, 90), 2, 9},
		{"case 23b", dynamic(routed(10, setWeight(10))), nil, nil, weights(10, 90), 1, 9},
		{"case 23c", aborted(dynamic(routed(10, setWeight(20)))), nil, nil, weights(20, 80), 2, 10},
		{"case 23d", aborted(dynamic(routed(10, setWeight(20)))), nil, nil, weights(10, 90), 1, 10},
		{"case 23e", aborted(dynamic(routed(10, setWeight(20), setWeight(60)))), rs("web-new", "new", 6, 6), rs("web-stable", "stable", 4, 4), weights(60, 40), 6, 8},
		{"case 23f", aborted(dynamic(routed(10, setWeight(20), setWeight(60)))), nil, nil, weights(60, 40), 6, 10},
		{"case 24 not dynamic", minPods(routed(4, scale(SetCanaryScale{Replicas: i32(1)})), 3), nil, nil, nil, 1, 4},
		{"case 24 dynamic", dynamic(minPods(routed(4, scale(SetCanaryScale{Replicas: i32(1)})), 3)), nil, nil, nil, 3, 4},
		{"case 25 maxTrafficWeight 1000", m1000, nil, nil, nil, 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, s := TrafficRoutedCanaryCounts(tt.ro, tt.newRS, tt.stableRS, tt.w)
			if n != tt.wantNew || s != tt.wantSt {
				t.Errorf("TrafficRoutedCanaryCounts = %d/%d, want %d/%d", n, s, tt.wantNew, tt.wantSt)
			}
		})
	}
}

func TestCase26DesiredCanaryWeightOnAbort(t *testing.T) {
	ro := aborted(routed(10, setWeight(20), setWeight(60)))
	ro.Strategy.Canary.DynamicStableScale = true
	tests := []struct{ newAvail, stableAvail, want int32 }{{6, 4, 20}, {2, 8, 0}, {3, 8, 20}}
	for _, tt := range tests {
		got := DesiredCanaryWeight(ro, rs("web-new", "new", 6, tt.newAvail), rs("web-stable", "stable", 10, tt.stableAvail))
		if got != tt.want {
			t.Errorf("DesiredCanaryWeight(new avail %d, stable avail %d) = %d, want %d", tt.newAvail, tt.stableAvail, got, tt.want)
		}
	}
}

func TestCase27CanaryReplicasOrWeight(t *testing.T) {
	mk := func(index int32, abort bool, delay *int32) *Rollout[tmpl] {
		ro := routed(10, CanaryStep{SetCanaryScale: &SetCanaryScale{Replicas: i32(3)}}, setWeight(50))
		ro.Status.CurrentStepIndex = i32(index)
		ro.Status.Abort = abort
		ro.Strategy.Canary.AbortScaleDownDelaySeconds = delay
		return ro
	}
	tests := []struct {
		name   string
		ro     *Rollout[tmpl]
		rep    *int32
		weight int32
	}{
		{"index 1", mk(1, false, nil), i32(3), 0},
		{"index 1 aborted", mk(1, true, nil), nil, 0},
		{"aborted with abortScaleDownDelaySeconds 0", mk(1, true, i32(0)), i32(3), 0},
		{"index 2", mk(2, false, nil), nil, 100},
	}
	for _, tt := range tests {
		rep, w := CanaryReplicasOrWeight(tt.ro, nil, nil)
		if !ptrEqual(rep, tt.rep) || w != tt.weight {
			t.Errorf("%s: CanaryReplicasOrWeight = (%s, %d), want (%s, %d)", tt.name, ptrText(rep), w, ptrText(tt.rep), tt.weight)
		}
	}
}

func ptrText(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}

func TestCase28CurrentSetWeight(t *testing.T) {
	at := func(ro *Rollout[tmpl], i int32) *Rollout[tmpl] { ro.Status.CurrentStepIndex = i32(i); return ro }
	m1000 := at(routed(10, setWeight(10)), 1)
	m1000.Strategy.Canary.TrafficRouting.MaxTrafficWeight = i32(1000)
	tests := []struct {
		name string
		ro   *Rollout[tmpl]
		want int32
	}{
		{"[setWeight 10] index 1", at(routed(10, setWeight(10)), 1), 100},
		{"[setWeight 10] index 0", at(routed(10, setWeight(10)), 0), 10},
		{"[setWeight 10] aborted", aborted(routed(10, setWeight(10))), 0},
		{"[pause, setWeight 30, pause] index 0", at(routed(10, pauseFor(""), setWeight(30), pauseFor("")), 0), 0},
		{"[pause, setWeight 30, pause] index 2", at(routed(10, pauseFor(""), setWeight(30), pauseFor("")), 2), 30},
		{"maxTrafficWeight 1000 past the end", m1000, 1000},
		{"no steps", routed(10), 100},
	}
	for _, tt := range tests {
		if got := CurrentSetWeight(tt.ro); got != tt.want {
			t.Errorf("%s: CurrentSetWeight = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestCase29NewReplicasBlueGreen(t *testing.T) {
	active := rs("web-a", "a", 5, 5)
	newRS := rs("web-n", "n", 1, 1)
	mk := func(f func(ro *Rollout[tmpl])) *Rollout[tmpl] {
		ro := &Rollout[tmpl]{Name: "web", Replicas: i32(5), Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active", PreviewReplicaCount: i32(1)}},
			Status: Status{CurrentPodHash: "n", StableRS: "a", BlueGreen: BlueGreenStatus{ActiveSelector: "a"}}}
		f(ro)
		return ro
	}
	tests := []struct {
		name string
		ro   *Rollout[tmpl]
		want int32
	}{
		{"plain", mk(func(*Rollout[tmpl]) {}), 1},
		{"checkpoint", mk(func(ro *Rollout[tmpl]) { ro.Status.BlueGreen.ScaleUpPreviewCheckPoint = true }), 5},
		{"checkpoint + pause condition", mk(func(ro *Rollout[tmpl]) {
			ro.Status.BlueGreen.ScaleUpPreviewCheckPoint = true
			ro.Status.PauseConditions = []PauseCondition{{Reason: PauseBlueGreen, StartTime: t0}}
		}), 1},
		{"N hash is not currentPodHash", mk(func(ro *Rollout[tmpl]) {
			ro.Status.CurrentPodHash = "other"
			ro.Status.BlueGreen.ScaleUpPreviewCheckPoint = true
		}), 1},
		{"active is N", mk(func(ro *Rollout[tmpl]) { ro.Status.BlueGreen.ActiveSelector = "n" }), 5},
		{"promoteFull", mk(func(ro *Rollout[tmpl]) { ro.Status.PromoteFull = true }), 5},
		{"no previewReplicaCount", mk(func(ro *Rollout[tmpl]) { ro.Strategy.BlueGreen.PreviewReplicaCount = nil }), 5},
	}
	for _, tt := range tests {
		if got := NewReplicas(tt.ro, []*ReplicaSet[tmpl]{active, newRS}, newRS, nil); got != tt.want {
			t.Errorf("%s: NewReplicas = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestCase30AtDesiredReplicaCounts(t *testing.T) {
	withActual := func(r *ReplicaSet[tmpl], actual int32) *ReplicaSet[tmpl] { r.StatusReplicas = actual; return r }
	dyn := routed(10, setWeight(10))
	dyn.Strategy.Canary.DynamicStableScale = true
	tests := []struct {
		name            string
		ro              *Rollout[tmpl]
		newRS, stableRS *ReplicaSet[tmpl]
		older           []*ReplicaSet[tmpl]
		want            bool
	}{
		{"R4 w50 at 2/2", basic(4, 50, ioi(1), ioi(1)), rs("web-new", "new", 2, 2), rs("web-stable", "stable", 2, 2), nil, true},
		{"R4 w50 new avail 1", basic(4, 50, ioi(1), ioi(1)), rs("web-new", "new", 2, 1), rs("web-stable", "stable", 2, 2), nil, false},
		{"R4 w50 stable actual 3", basic(4, 50, ioi(1), ioi(1)), rs("web-new", "new", 2, 2), withActual(rs("web-stable", "stable", 2, 2), 3), nil, false},
		{"basic older with an available pod", basic(10, 10, ioi(1), ioi(0)), rs("web-new", "new", 1, 1), rs("web-stable", "stable", 9, 9),
			[]*ReplicaSet[tmpl]{rs("web-old", "old", 0, 1)}, false},
		{"dynamic stable not checked", dyn, rs("web-new", "new", 1, 1), rs("web-stable", "stable", 10, 3), nil, true},
	}
	for _, tt := range tests {
		if got := AtDesiredReplicaCountsForCanary(tt.ro, tt.newRS, tt.stableRS, tt.older, nil); got != tt.want {
			t.Errorf("%s: AtDesiredReplicaCountsForCanary = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCase31ReplicaProgressThresholdMet(t *testing.T) {
	pct := func(v int32) *ReplicaProgressThreshold {
		return &ReplicaProgressThreshold{Type: ProgressPercent, Value: v}
	}
	pods := func(v int32) *ReplicaProgressThreshold {
		return &ReplicaProgressThreshold{Type: ProgressPods, Value: v}
	}
	tests := []struct {
		name    string
		th      *ReplicaProgressThreshold
		rs      *ReplicaSet[tmpl]
		desired int32
		want    bool
	}{
		{"Percent 90 avail 9 of 10", pct(90), rs("a", "a", 10, 9), 10, true},
		{"Pods 9 avail 9", pods(9), rs("a", "a", 10, 9), 10, true},
		{"Percent 90 avail 8", pct(90), rs("a", "a", 10, 8), 10, false},
		{"Pods 8 avail 7", pods(8), rs("a", "a", 10, 7), 10, false},
		{"Pods -100 falls back", pods(-100), rs("a", "a", 10, 10), 10, true},
		{"nil spec 5 avail 10 desired 10", nil, rs("a", "a", 5, 10), 10, false},
		{"rs nil", pct(90), nil, 10, false},
		{"Percent 90 desired 0", pct(90), rs("a", "a", 10, 0), 0, true},
		{"Pods 9 avail 2 desired 2", pods(9), rs("a", "a", 2, 2), 2, false},
	}
	for _, tt := range tests {
		if got := ReplicaProgressThresholdMet(tt.th, tt.rs, tt.desired); got != tt.want {
			t.Errorf("%s: ReplicaProgressThresholdMet = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// steady returns rss with every desired-replicas annotation at r, as
// the controller leaves them once it has scaled them.
func steady(r int32, rss ...*ReplicaSet[tmpl]) []ReplicaSet[tmpl] {
	out := make([]ReplicaSet[tmpl], len(rss))
	for i, x := range rss {
		out[i] = *x
		out[i].DesiredReplicas = i32(r)
		out[i].Template = tmpl{Image: x.PodTemplateHash}
		out[i].CreationTime = t0.Add(time.Duration(i) * time.Minute)
		if out[i].Revision == 0 {
			out[i].Revision = int64(i + 1)
		}
	}
	return out
}

// synced returns ro with the status a previous sync would have
// recorded, and its template hashing to "new" being the new one: the
// new ReplicaSet is found by its template (Image "new").
func synced(ro *Rollout[tmpl]) *Rollout[tmpl] {
	ro.Template = tmpl{Image: "new"}
	ro.Status.CurrentStepHash = StepsHash(ro)
	return ro
}

// writes renders a sync's ReplicaSet writes as "name from→to".
func writes(s Sync[tmpl]) string {
	var out string
	for _, a := range s.Actions {
		if a.Kind != ScaleReplicaSet {
			continue
		}
		if out != "" {
			out += ", "
		}
		out += a.ReplicaSet + " " + strconv.Itoa(int(a.From)) + "→" + strconv.Itoa(int(a.Replicas))
	}
	if out == "" {
		return "none"
	}
	return out
}

func TestCases32to36Reconcile(t *testing.T) {
	withRev := func(r *ReplicaSet[tmpl], rev int64) *ReplicaSet[tmpl] { r.Revision = rev; return r }
	case35 := synced(basic(10, 20, ioi(1), ioi(0)))
	case35.Status.ControllerPause = true
	case35.Status.PauseConditions = []PauseCondition{{Reason: PauseCanaryStep, StartTime: t0}}
	case35RSs := steady(5, rs("web-stable", "stable", 5, 5), rs("web-new", "new", 0, 0))
	tests := []struct {
		name string
		ro   *Rollout[tmpl]
		rss  []ReplicaSet[tmpl]
		want string
	}{
		{"case 32 intermediate RS scaled down", synced(basic(10, 10, ioi(1), ioi(0))),
			steady(10, withRev(rs("web-stable", "stable", 9, 9), 1), withRev(rs("web-mid", "mid", 1, 1), 2), withRev(rs("web-new", "new", 1, 1), 3)),
			"web-mid 1→0"},
		{"case 33 new RS grows", synced(basic(5, 40, ioi(0), ioi(1))),
			steady(5, rs("web-stable", "stable", 3, 3), rs("web-new", "new", 1, 1)), "web-new 1→2"},
		{"case 34 stable shrinks first", synced(basic(10, 10, ioi(0), ioi(1))),
			steady(10, rs("web-stable", "stable", 10, 10), rs("web-new", "new", 0, 0)), "web-stable 10→9"},
		{"case 35 scaling event while controller-paused", case35, case35RSs, "web-stable 5→8"},
		{"case 36 older RS budget", synced(basic(10, 30, ioi(1), ioi(1))),
			steady(10, rs("web-stable", "stable", 5, 5), rs("web-new", "new", 1, 1), withRev(rs("web-a", "a", 3, 3), 1), withRev(rs("web-b", "b", 2, 1), 2)),
			"web-b 2→1, web-b 1→0"},
	}
	for _, tt := range tests {
		for i := range tt.rss {
			if tt.rss[i].PodTemplateHash == "new" {
				tt.rss[i].Revision = 9
			}
		}
		t.Run(tt.name, func(t *testing.T) {
			s, err := Plan(tt.ro, tt.rss, t0)
			if err != nil {
				t.Fatal(err)
			}
			if got := writes(s); got != tt.want {
				t.Errorf("Plan scales %s, want %s\n%s", got, tt.want, dump(s))
			}
		})
	}
}

// dump renders a sync for a failure message.
func dump(s Sync[tmpl]) string {
	out := s.Reason + "\n"
	for _, a := range s.Actions {
		out += "  " + a.Kind.String() + " " + a.ReplicaSet + ": " + a.Reason + "\n"
	}
	return out
}

func TestCase37BlueGreenRevisionLimit(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Replicas: i32(1), Template: tmpl{Image: "rs3"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active", ScaleDownDelayRevisionLimit: i32(1)}},
		Status:   Status{StableRS: "rs3", CurrentPodHash: "rs3", BlueGreen: BlueGreenStatus{ActiveSelector: "rs3"}}}
	future := FormatDeadline(t0.Add(time.Minute))
	rss := steady(1, rs("web-rs1", "rs1", 1, 1), rs("web-rs2", "rs2", 1, 1), rs("web-rs3", "rs3", 1, 1))
	rss[0].ScaleDownDeadline, rss[1].ScaleDownDeadline = future, future
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := writes(s); got != "web-rs1 1→0" {
		t.Errorf("Plan scales %s, want web-rs1 1→0\n%s", got, dump(s))
	}
}

func TestCase38BlueGreenDelay(t *testing.T) {
	ro := &Rollout[tmpl]{Name: "web", Replicas: i32(5), Template: tmpl{Image: "y"},
		Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "active"}},
		Status:   Status{StableRS: "y", CurrentPodHash: "y", BlueGreen: BlueGreenStatus{ActiveSelector: "y"}}}
	rss := steady(5, rs("web-x", "x", 5, 5), rs("web-y", "y", 5, 5))
	// t0: the promotion has happened; X gets its deadline and keeps 5.
	s, err := Plan(ro, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := FormatDeadline(t0.Add(30 * time.Second))
	if x := s.ReplicaSets[0]; x.ScaleDownDeadline != want || x.Replicas != 5 {
		t.Fatalf("t0: X = %d pods, deadline %q; want 5, %q\n%s", x.Replicas, x.ScaleDownDeadline, want, dump(s))
	}
	if !s.Requeue || s.RequeueAfter != 30*time.Second {
		t.Errorf("t0: requeue %v after %v, want after 30s", s.Requeue, s.RequeueAfter)
	}
	// t0+10s, replicas 8: a scaling event; X follows R.
	ro8 := *ro
	ro8.Replicas = i32(8)
	s, err = Plan(&ro8, s.ReplicaSets, t0.Add(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got := writes(s); got != "web-y 5→8, web-x 5→8" {
		t.Errorf("t0+10s: Plan scales %s, want web-y 5→8, web-x 5→8\n%s", got, dump(s))
	}
	// t0+31s: the deadline has passed.
	rss2 := s.ReplicaSets
	for i := range rss2 {
		rss2[i].AvailableReplicas, rss2[i].StatusReplicas = rss2[i].Replicas, rss2[i].Replicas
	}
	s, err = Plan(&ro8, rss2, t0.Add(31*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got := writes(s); got != "web-x 8→0" {
		t.Errorf("t0+31s: Plan scales %s, want web-x 8→0\n%s", got, dump(s))
	}
}

func TestCase39ValidationTexts(t *testing.T) {
	m1000 := routed(10, setWeight(1500))
	m1000.Strategy.Canary.TrafficRouting.MaxTrafficWeight = i32(1000)
	basicWith := func(f func(c *Canary)) *Rollout[tmpl] {
		ro := basic(10, 10, nil, nil)
		f(ro.Strategy.Canary)
		return ro
	}
	bg := &Rollout[tmpl]{Replicas: i32(1), Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "a", PreviewService: "p", ScaleDownDelayRevisionLimit: i32(11)}}}
	tests := []struct {
		name string
		ro   *Rollout[tmpl]
		want string
	}{
		{"maxSurge 0", basic(10, 10, ioi(0), ioi(0)), "spec.strategy.maxSurge: Invalid value: 0: MaxSurge and MaxUnavailable both can not be zero"},
		{"maxSurge 0%", basic(10, 10, ios("0%"), ioi(0)), `spec.strategy.maxSurge: Invalid value: "0%": MaxSurge and MaxUnavailable both can not be zero`},
		{"maxSurge abc", basic(10, 10, ios("abc"), ioi(0)), `spec.strategy.maxSurge: Invalid value: "abc": MaxSurge and MaxUnavailable both can not be zero`},
		{"setWeight 101", basic(10, 101, nil, nil), "spec.strategy.steps[0].setWeight: Invalid value: 101: SetWeight needs to be between 0 and 100"},
		{"setWeight 1500 with M 1000", m1000, "spec.strategy.steps[0].setWeight: Invalid value: 1500: SetWeight needs to be between 0 and 1000"},
		{"pause abc", basicWith(func(c *Canary) { c.Steps = []CanaryStep{pauseFor("abc")} }), "spec.strategy.steps[0].pause.duration: Invalid value: -1: Duration needs to be greater than 0"},
		{"setCanaryScale without trafficRouting", basicWith(func(c *Canary) { c.Steps = []CanaryStep{{SetCanaryScale: &SetCanaryScale{Replicas: i32(1)}}} }),
			"spec.strategy.trafficRouting: Required value: SetCanaryScale requires TrafficRouting to be set"},
		{"basic scaleDownDelaySeconds", basicWith(func(c *Canary) { c.ScaleDownDelaySeconds = i32(60) }),
			"spec.strategy.scaleDownDelaySeconds: Invalid value: 60: Canary scaleDownDelaySeconds can only be used with traffic routing"},
		{"basic dynamicStableScale", basicWith(func(c *Canary) { c.DynamicStableScale = true }),
			"spec.strategy.dynamicStableScale: Invalid value: true: Canary dynamicStableScale can only be used with traffic routing"},
		{"blue-green limit 11", bg, "spec.strategy.scaleDownDelayRevisionLimit: Invalid value: 11: This rollout's revision history limit can not be smaller than the rollout's scale down limit"},
	}
	for _, tt := range tests {
		list := Validate(tt.ro)
		if len(list) != 1 {
			t.Errorf("%s: Validate = %v, want one error %q", tt.name, list, tt.want)
			continue
		}
		if got := list[0].Error(); got != tt.want {
			t.Errorf("%s: Validate =\n %s\nwant\n %s", tt.name, got, tt.want)
		}
	}
	if list := Validate(basicWith(func(c *Canary) { c.Steps = []CanaryStep{pauseFor("0")} })); len(list) != 0 {
		t.Errorf("pause 0 is accepted by Argo; Validate = %v", list)
	}
}

func TestCase40DurationsAndDelays(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int32
	}{{"30", 30}, {"1h", 3600}, {"1.5s", 1}, {"500ms", 0}, {"abc", -1}, {"-5", -5}} {
		if got := DurationSeconds(RolloutPause{Duration: ios(tt.in)}); got != tt.want {
			t.Errorf("DurationSeconds(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if got := DurationSeconds(RolloutPause{Duration: ioi(45)}); got != 45 {
		t.Errorf("DurationSeconds(45) = %d, want 45", got)
	}
	bg := &Rollout[tmpl]{Strategy: Strategy{BlueGreen: &BlueGreen{AbortScaleDownDelaySeconds: i32(0)}}}
	tests := []struct {
		name     string
		ro       *Rollout[tmpl]
		delay    time.Duration
		abort    *time.Duration
		abortSet bool
	}{
		{"basic canary", basic(10, 10, nil, nil), 0, durp(0), false},
		{"traffic-routed canary", routed(10), 30 * time.Second, durp(30 * time.Second), false},
		{"blue-green abort 0", bg, 30 * time.Second, nil, true},
	}
	for _, tt := range tests {
		d := ScaleDownDelayOrDefault(tt.ro)
		a, set := AbortScaleDownDelayOrDefault(tt.ro)
		if d != tt.delay || !ptrEqual(a, tt.abort) || set != tt.abortSet {
			t.Errorf("%s: delays = %v, %v (set %v); want %v, %v (set %v)", tt.name, d, a, set, tt.delay, tt.abort, tt.abortSet)
		}
	}
	if ScaleDownRevisionLimit(basic(1, 1, nil, nil)) != math.MaxInt32 {
		t.Error("ScaleDownRevisionLimit default is not unlimited")
	}
}

func durp(d time.Duration) *time.Duration { return &d }

var _ = intorpercent.FromInt
