package conformance

import (
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	replicasetutil "github.com/argoproj/argo-rollouts/utils/replicaset"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// The benchmarks in this file time rollout/argo's replica functions
// against the Argo Rollouts v1.10.1 functions they follow, side by side
// in one process, on the same inputs. Each pair is one benchmark with
// the sub-benchmarks "upstream" and "rolloutmath" (go test runs each
// sub-benchmark -count times in a row, so the load of the machine may
// differ between the sides; BenchmarkInterleaved alternates them within
// each iteration instead). Both sides start from the same plain description
// of a canary (benchCase) and build, inside the timed loop, what a caller
// of that side must hold: for Argo a *v1alpha1.Rollout and
// *appsv1.ReplicaSets (labels and revision annotations included, as Argo
// reads them), for rolloutmath an argo.Rollout and argo.ReplicaSets.
// BenchmarkPrebuilt times the calls alone, on inputs built before the
// loop. TestBenchPairsAgree checks that both sides of every pair give the
// same answer on every input, so each pair times the same work.

// benchIOS is a maxSurge or maxUnavailable as written: a number or a
// string.
type benchIOS struct {
	isString bool
	str      string
	n        int32
}

func num(n int32) *benchIOS        { return &benchIOS{n: n} }
func text(s string) *benchIOS      { return &benchIOS{isString: true, str: s} }
func ptr32(n int32) *int32         { return &n }
func weights(c, s int32) *[2]int32 { return &[2]int32{c, s} }

// benchRS is one ReplicaSet of a benchCase.
type benchRS struct {
	hash                    string
	revision                int64
	replicas, actual, ready int32
	available               int32
}

// benchCase is a canary Rollout and its ReplicaSets, as plain values.
// rss[0] is the new ReplicaSet; rss[stable] is the stable one (no stable
// when stable < 0; the new one when stable == 0); the others are older.
// A step weight below 0 is a pause step.
type benchCase struct {
	name                     string
	replicas                 *int32
	maxSurge, maxUnavailable *benchIOS
	steps                    []int32
	stepIndex                *int32
	traffic, dynamic, abort  bool
	maxTrafficWeight         *int32
	rss                      []benchRS
	stable                   int
	weights                  *[2]int32 // canary, stable; nil when none
}

// benchCases cover basic and traffic-routed canaries, integer, percent
// and default fenceposts, the first rollout (no stable), a stable that is
// the new ReplicaSet, older ReplicaSets still holding pods, an abort,
// the end of the steps, dynamicStableScale, a maxTrafficWeight, a
// maxUnavailable above the replicas and 0 replicas.
var benchCases = []benchCase{
	{name: "basic-first-step", replicas: ptr32(10), maxSurge: num(1), maxUnavailable: num(1),
		steps: []int32{10, -1, 50, -1}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 2, 0, 0, 0, 0}, {"58f7c9d6b4", 1, 10, 10, 10, 10}}, stable: 1},
	{name: "basic-defaults-older", replicas: ptr32(10),
		steps: []int32{20, 40, 60, 80}, stepIndex: ptr32(2),
		rss: []benchRS{{"6c8d7f9b5d", 3, 4, 4, 4, 4}, {"58f7c9d6b4", 2, 8, 8, 8, 8}, {"7b9c5d4f8c", 1, 1, 1, 1, 1}}, stable: 1},
	{name: "basic-zero-percents", replicas: ptr32(5), maxSurge: text("0%"), maxUnavailable: text("0%"),
		steps: []int32{33}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 2, 0, 0, 0, 0}, {"58f7c9d6b4", 1, 5, 5, 5, 5}}, stable: 1},
	{name: "basic-steps-done", replicas: ptr32(10), maxSurge: text("20%"), maxUnavailable: num(0),
		steps: []int32{30, 60, -1}, stepIndex: ptr32(3),
		rss: []benchRS{{"6c8d7f9b5d", 2, 6, 6, 6, 5}, {"58f7c9d6b4", 1, 4, 4, 4, 4}}, stable: 1},
	{name: "basic-abort", replicas: ptr32(12), maxSurge: text("25%"), maxUnavailable: text("10%"), abort: true,
		steps: []int32{25, -1, 75}, stepIndex: ptr32(1),
		rss: []benchRS{{"6c8d7f9b5d", 2, 3, 3, 3, 3}, {"58f7c9d6b4", 1, 9, 9, 9, 9}}, stable: 1},
	{name: "basic-no-stable", replicas: ptr32(3),
		steps: []int32{50}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 1, 0, 0, 0, 0}}, stable: -1},
	{name: "basic-stable-is-new", replicas: ptr32(4), maxSurge: num(2),
		steps: []int32{50}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 2, 4, 4, 4, 4}, {"58f7c9d6b4", 1, 1, 1, 1, 0}}, stable: 0},
	{name: "basic-default-replicas", maxSurge: text("1"),
		steps: []int32{90}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 2, 0, 0, 0, 0}, {"58f7c9d6b4", 1, 1, 1, 1, 1}}, stable: 1},
	{name: "basic-unavailable-above-replicas", replicas: ptr32(2), maxSurge: num(1), maxUnavailable: num(5),
		steps: []int32{50}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 2, 0, 0, 0, 0}, {"58f7c9d6b4", 1, 2, 2, 2, 2}}, stable: 1},
	{name: "basic-zero-replicas", replicas: ptr32(0),
		steps: []int32{50}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 2, 0, 0, 0, 0}, {"58f7c9d6b4", 1, 1, 1, 1, 1}}, stable: 1},
	{name: "basic-at-step", replicas: ptr32(10), maxSurge: num(1), maxUnavailable: num(0),
		steps: []int32{50, -1}, stepIndex: ptr32(1),
		rss: []benchRS{{"6c8d7f9b5d", 2, 5, 5, 5, 5}, {"58f7c9d6b4", 1, 5, 5, 5, 5}, {"7b9c5d4f8c", 0, 0, 0, 0, 0}}, stable: 1},
	{name: "traffic-at-step", replicas: ptr32(10), traffic: true,
		steps: []int32{25, -1}, stepIndex: ptr32(1), weights: weights(25, 75),
		rss: []benchRS{{"6c8d7f9b5d", 2, 3, 3, 3, 3}, {"58f7c9d6b4", 1, 10, 10, 10, 10}}, stable: 1},
	{name: "traffic-step", replicas: ptr32(10), traffic: true,
		steps: []int32{5, -1, 25, 50}, stepIndex: ptr32(2), weights: weights(5, 95),
		rss: []benchRS{{"6c8d7f9b5d", 2, 1, 1, 1, 1}, {"58f7c9d6b4", 1, 10, 10, 10, 10}}, stable: 1},
	{name: "traffic-dynamic", replicas: ptr32(10), traffic: true, dynamic: true,
		steps: []int32{30, 60}, stepIndex: ptr32(1), weights: weights(30, 70),
		rss: []benchRS{{"6c8d7f9b5d", 2, 3, 3, 3, 3}, {"58f7c9d6b4", 1, 10, 10, 10, 10}}, stable: 1},
	{name: "traffic-dynamic-abort", replicas: ptr32(10), traffic: true, dynamic: true, abort: true,
		steps: []int32{30, 60}, stepIndex: ptr32(1), weights: weights(60, 40),
		rss: []benchRS{{"6c8d7f9b5d", 2, 6, 6, 6, 6}, {"58f7c9d6b4", 1, 4, 4, 4, 4}}, stable: 1},
	{name: "traffic-max-weight", replicas: ptr32(8), traffic: true, maxTrafficWeight: ptr32(1000),
		steps: []int32{250, 500}, stepIndex: ptr32(0),
		rss: []benchRS{{"6c8d7f9b5d", 2, 0, 0, 0, 0}, {"58f7c9d6b4", 1, 8, 8, 8, 8}, {"7b9c5d4f8c", 0, 2, 2, 2, 2}}, stable: 1},
	{name: "traffic-older-percents", replicas: ptr32(20), traffic: true, maxSurge: text("20%"), maxUnavailable: text("5%"),
		steps: []int32{10, -1, 100}, stepIndex: ptr32(2), weights: weights(10, 90),
		rss: []benchRS{{"6c8d7f9b5d", 3, 2, 2, 2, 2}, {"58f7c9d6b4", 2, 20, 20, 20, 20}, {"7b9c5d4f8c", 1, 1, 1, 1, 0}}, stable: 1},
}

// casesWhere returns the bench cases with traffic routing (traffic) or
// without.
func casesWhere(traffic bool) []benchCase {
	var out []benchCase
	for _, c := range benchCases {
		if c.traffic == traffic {
			out = append(out, c)
		}
	}
	return out
}

// upstreamInputs are the arguments Argo's functions take.
type upstreamInputs struct {
	ro              *v1alpha1.Rollout
	newRS, stableRS *appsv1.ReplicaSet
	older, all      []*appsv1.ReplicaSet
	weights         *v1alpha1.TrafficWeights
}

func upstreamIOS(v *benchIOS) *intstr.IntOrString {
	if v == nil {
		return nil
	}
	if v.isString {
		x := intstr.FromString(v.str)
		return &x
	}
	x := intstr.FromInt32(v.n)
	return &x
}

// upstreamRollout builds the *v1alpha1.Rollout of c.
func upstreamRollout(c *benchCase) *v1alpha1.Rollout {
	canary := &v1alpha1.CanaryStrategy{
		MaxSurge:           upstreamIOS(c.maxSurge),
		MaxUnavailable:     upstreamIOS(c.maxUnavailable),
		DynamicStableScale: c.dynamic,
		Steps:              make([]v1alpha1.CanaryStep, len(c.steps)),
	}
	for i, w := range c.steps {
		if w < 0 {
			canary.Steps[i].Pause = &v1alpha1.RolloutPause{}
		} else {
			canary.Steps[i].SetWeight = ptr32(w)
		}
	}
	if c.traffic {
		canary.TrafficRouting = &v1alpha1.RolloutTrafficRouting{
			Nginx:            &v1alpha1.NginxTrafficRouting{StableIngress: "web"},
			MaxTrafficWeight: c.maxTrafficWeight,
		}
	}
	ro := &v1alpha1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: v1alpha1.RolloutSpec{
			Replicas: c.replicas,
			Strategy: v1alpha1.RolloutStrategy{Canary: canary},
		},
		Status: v1alpha1.RolloutStatus{
			Abort:            c.abort,
			CurrentStepIndex: c.stepIndex,
			CurrentPodHash:   c.rss[0].hash,
		},
	}
	if c.stable >= 0 {
		ro.Status.StableRS = c.rss[c.stable].hash
	}
	return ro
}

// toUpstream builds what a caller of Argo's functions must hold for c.
func toUpstream(c *benchCase) upstreamInputs {
	ro := upstreamRollout(c)
	in := upstreamInputs{ro: ro, all: make([]*appsv1.ReplicaSet, len(c.rss))}
	for i, r := range c.rss {
		in.all[i] = &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{
				Name:        "web-" + r.hash,
				Namespace:   "default",
				Labels:      map[string]string{v1alpha1.DefaultRolloutUniqueLabelKey: r.hash},
				Annotations: map[string]string{"rollout.argoproj.io/revision": strconv.FormatInt(r.revision, 10)},
			},
			Spec:   appsv1.ReplicaSetSpec{Replicas: ptr32(r.replicas)},
			Status: appsv1.ReplicaSetStatus{Replicas: r.actual, ReadyReplicas: r.ready, AvailableReplicas: r.available},
		}
	}
	in.newRS = in.all[0]
	if c.stable >= 0 {
		in.stableRS = in.all[c.stable]
	}
	for i, rs := range in.all {
		if i != 0 && i != c.stable {
			in.older = append(in.older, rs)
		}
	}
	if c.weights != nil {
		in.weights = &v1alpha1.TrafficWeights{
			Canary: v1alpha1.WeightDestination{Weight: c.weights[0], PodTemplateHash: c.rss[0].hash},
			Stable: v1alpha1.WeightDestination{Weight: c.weights[1], PodTemplateHash: ro.Status.StableRS},
		}
	}
	return in
}

// benchTemplate is the pod template type of the rolloutmath side: the
// functions timed here never read the template.
type benchTemplate struct{}

// ourInputs are the arguments rollout/argo's functions take.
type ourInputs struct {
	ro              *argo.Rollout[benchTemplate]
	newRS, stableRS *argo.ReplicaSet[benchTemplate]
	older, all      []*argo.ReplicaSet[benchTemplate]
	weights         *argo.Weights
	// surge, unavailable and replicas are ResolveFenceposts's
	// arguments, for the Fenceposts pair only.
	surge, unavailable intorpercent.IntOrString
	replicas           int32
}

func ourIOS(v *benchIOS) *intorpercent.IntOrString {
	if v == nil {
		return nil
	}
	if v.isString {
		x := intorpercent.FromString(v.str)
		return &x
	}
	x := intorpercent.FromInt(v.n)
	return &x
}

// ourRollout builds the argo.Rollout of c.
func ourRollout(c *benchCase) *argo.Rollout[benchTemplate] {
	canary := &argo.Canary{
		MaxSurge:           ourIOS(c.maxSurge),
		MaxUnavailable:     ourIOS(c.maxUnavailable),
		DynamicStableScale: c.dynamic,
		Steps:              make([]argo.CanaryStep, len(c.steps)),
	}
	for i, w := range c.steps {
		if w < 0 {
			canary.Steps[i].Pause = &argo.RolloutPause{}
		} else {
			canary.Steps[i].SetWeight = ptr32(w)
		}
	}
	if c.traffic {
		canary.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}, MaxTrafficWeight: c.maxTrafficWeight}
	}
	ro := &argo.Rollout[benchTemplate]{
		Name:      "web",
		Namespace: "default",
		Replicas:  c.replicas,
		Strategy:  argo.Strategy{Canary: canary},
		Status: argo.Status{
			Abort:            c.abort,
			CurrentStepIndex: c.stepIndex,
			CurrentPodHash:   c.rss[0].hash,
		},
	}
	if c.stable >= 0 {
		ro.Status.StableRS = c.rss[c.stable].hash
	}
	return ro
}

// toOurs builds what a caller of rollout/argo's functions must hold for c.
func toOurs(c *benchCase) ourInputs {
	ro := ourRollout(c)
	in := ourInputs{ro: ro, all: make([]*argo.ReplicaSet[benchTemplate], len(c.rss))}
	for i, r := range c.rss {
		in.all[i] = &argo.ReplicaSet[benchTemplate]{
			Name:              "web-" + r.hash,
			PodTemplateHash:   r.hash,
			Revision:          r.revision,
			Replicas:          r.replicas,
			StatusReplicas:    r.actual,
			ReadyReplicas:     r.ready,
			AvailableReplicas: r.available,
		}
	}
	in.newRS = in.all[0]
	if c.stable >= 0 {
		in.stableRS = in.all[c.stable]
	}
	for i, rs := range in.all {
		if i != 0 && i != c.stable {
			in.older = append(in.older, rs)
		}
	}
	if c.weights != nil {
		in.weights = &argo.Weights{
			Canary: argo.WeightDestination{Weight: c.weights[0], PodTemplateHash: c.rss[0].hash},
			Stable: argo.WeightDestination{Weight: c.weights[1], PodTemplateHash: ro.Status.StableRS},
		}
	}
	return in
}

// The calls of each pair on one case's inputs, built beforehand. Each
// returns its answer as two int32s (a bool as 0/1) so a test can compare
// them and a benchmark can keep them.

func upstreamBasic(in upstreamInputs) (int32, int32) {
	return replicasetutil.CalculateReplicaCountsForBasicCanary(in.ro, in.newRS, in.stableRS, in.older)
}

func oursBasic(in ourInputs) (int32, int32) {
	return argo.BasicCanaryCounts(in.ro, in.newRS, in.stableRS, in.older)
}

func upstreamTraffic(in upstreamInputs) (int32, int32) {
	return replicasetutil.CalculateReplicaCountsForTrafficRoutedCanary(in.ro, in.newRS, in.stableRS, in.weights)
}

func oursTraffic(in ourInputs) (int32, int32) {
	return argo.TrafficRoutedCanaryCounts(in.ro, in.newRS, in.stableRS, in.weights)
}

func upstreamSetWeight(in upstreamInputs) (int32, int32) {
	return replicasetutil.GetCurrentSetWeight(in.ro), 0
}

func oursSetWeight(in ourInputs) (int32, int32) {
	return argo.CurrentSetWeight(in.ro), 0
}

// upstreamNewReplicas returns NewRSNewReplicas's count, and 1 as the
// second value if it returned an error.
func upstreamNewReplicas(in upstreamInputs) (int32, int32) {
	n, err := replicasetutil.NewRSNewReplicas(in.ro, in.all, in.newRS, in.weights)
	if err != nil {
		return n, 1
	}
	return n, 0
}

func oursNewReplicas(in ourInputs) (int32, int32) {
	return argo.NewReplicas(in.ro, in.all, in.newRS, in.weights), 0
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func upstreamAtDesired(in upstreamInputs) (int32, int32) {
	return b2i(replicasetutil.AtDesiredReplicaCountsForCanary(in.ro, in.newRS, in.stableRS, in.older, in.weights)), 0
}

func oursAtDesired(in ourInputs) (int32, int32) {
	return b2i(argo.AtDesiredReplicaCountsForCanary(in.ro, in.newRS, in.stableRS, in.older, in.weights)), 0
}

// upstreamFenceposts is what Argo's callers get for a canary: MaxSurge
// and MaxUnavailable of the Rollout.
func upstreamFenceposts(in upstreamInputs) (int32, int32) {
	return replicasetutil.MaxSurge(in.ro), replicasetutil.MaxUnavailable(in.ro)
}

// fencepostInputs is what a caller of ResolveFenceposts holds: the two
// fields, with the defaults applied ("25" each, argo.DefaultMaxSurge and
// DefaultMaxUnavailable), and the replicas. It needs no Rollout, so none
// is built.
func fencepostInputs(c *benchCase) ourInputs {
	in := ourInputs{
		surge:       intorpercent.FromString(argo.DefaultMaxSurge),
		unavailable: intorpercent.FromString(argo.DefaultMaxUnavailable),
		replicas:    argo.ReplicasOrDefault(c.replicas),
	}
	if v := ourIOS(c.maxSurge); v != nil {
		in.surge = *v
	}
	if v := ourIOS(c.maxUnavailable); v != nil {
		in.unavailable = *v
	}
	return in
}

// oursFenceposts gets Argo's answer from ResolveFenceposts: as Argo's
// MaxUnavailable does, it caps maxUnavailable at replicas (0 for 0
// replicas). A string that does not parse would give an error where Argo
// gives zeros; every bench input parses, and an error is returned as
// -1, -1 so that TestBenchPairsAgree would see it.
func oursFenceposts(in ourInputs) (int32, int32) {
	s, u, err := argo.ResolveFenceposts(&in.surge, &in.unavailable, in.replicas)
	if err != nil {
		return -1, -1
	}
	return s, min(u, in.replicas)
}

// upstreamRolloutOnly and ourRolloutOnly build the Rollout alone, for
// the functions that read no ReplicaSet.
func upstreamRolloutOnly(c *benchCase) upstreamInputs { return upstreamInputs{ro: upstreamRollout(c)} }
func ourRolloutOnly(c *benchCase) ourInputs           { return ourInputs{ro: ourRollout(c)} }

// benchPair is one of Argo's functions and its rolloutmath counterpart:
// for each side, how its caller builds the inputs from a benchCase and
// the call itself.
type benchPair struct {
	name    string
	cases   []benchCase
	upBuild func(*benchCase) upstreamInputs
	upCall  func(upstreamInputs) (int32, int32)
	rmBuild func(*benchCase) ourInputs
	rmCall  func(ourInputs) (int32, int32)
}

// upstream and ours build c's inputs for their side and call it.
func (p benchPair) upstream(c *benchCase) (int32, int32) { return p.upCall(p.upBuild(c)) }
func (p benchPair) ours(c *benchCase) (int32, int32)     { return p.rmCall(p.rmBuild(c)) }

var benchPairs = []benchPair{
	{"BasicCanaryCounts", casesWhere(false), toUpstream, upstreamBasic, toOurs, oursBasic},
	{"TrafficRoutedCanaryCounts", casesWhere(true), toUpstream, upstreamTraffic, toOurs, oursTraffic},
	{"CurrentSetWeight", benchCases, upstreamRolloutOnly, upstreamSetWeight, ourRolloutOnly, oursSetWeight},
	{"NewReplicas", benchCases, toUpstream, upstreamNewReplicas, toOurs, oursNewReplicas},
	{"AtDesiredReplicaCountsForCanary", benchCases, toUpstream, upstreamAtDesired, toOurs, oursAtDesired},
	{"Fenceposts", benchCases, upstreamRolloutOnly, upstreamFenceposts, fencepostInputs, oursFenceposts},
}

// TestBenchPairsAgree checks that both sides of every benchmarked pair
// give the same answer on every bench input, and that the inputs do not
// all give one answer (a pair timed on a single answer would measure one
// path only).
func TestBenchPairsAgree(t *testing.T) {
	for _, p := range benchPairs {
		t.Run(p.name, func(t *testing.T) {
			if len(p.cases) < 4 {
				t.Fatalf("%d bench cases, want at least 4", len(p.cases))
			}
			answers := map[[2]int32]bool{}
			for i := range p.cases {
				c := &p.cases[i]
				ua, ub := p.upstream(c)
				oa, ob := p.ours(c)
				if ua != oa || ub != ob {
					t.Errorf("%s: Argo (%d, %d), rolloutmath (%d, %d)", c.name, ua, ub, oa, ob)
				}
				answers[[2]int32{ua, ub}] = true
			}
			if len(answers) < 2 {
				t.Errorf("every bench case gives %v: the inputs exercise one answer only", answers)
			}
		})
	}
}

// benchSink keeps the benchmarks' answers alive.
var benchSink int32

// runPair times both sides of p, cycling through its cases inside the
// loop, the inputs' construction included.
func runPair(b *testing.B, p benchPair) {
	side := func(f func(*benchCase) (int32, int32)) func(*testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			var sink int32
			for i := 0; b.Loop(); i++ {
				x, y := f(&p.cases[i%len(p.cases)])
				sink += x + y
			}
			benchSink += sink
		}
	}
	b.Run("upstream", side(p.upstream))
	b.Run("rolloutmath", side(p.ours))
}

func benchPairNamed(b *testing.B, name string) {
	for _, p := range benchPairs {
		if p.name == name {
			runPair(b, p)
			return
		}
	}
	b.Fatalf("no bench pair %q", name)
}

// BenchmarkBasicCanaryCounts: CalculateReplicaCountsForBasicCanary
// (utils/replicaset/canary.go) against argo.BasicCanaryCounts.
func BenchmarkBasicCanaryCounts(b *testing.B) { benchPairNamed(b, "BasicCanaryCounts") }

// BenchmarkTrafficRoutedCanaryCounts:
// CalculateReplicaCountsForTrafficRoutedCanary against
// argo.TrafficRoutedCanaryCounts.
func BenchmarkTrafficRoutedCanaryCounts(b *testing.B) {
	benchPairNamed(b, "TrafficRoutedCanaryCounts")
}

// BenchmarkCurrentSetWeight: GetCurrentSetWeight against
// argo.CurrentSetWeight.
func BenchmarkCurrentSetWeight(b *testing.B) { benchPairNamed(b, "CurrentSetWeight") }

// BenchmarkNewReplicas: NewRSNewReplicas (utils/replicaset/replicaset.go)
// against argo.NewReplicas.
func BenchmarkNewReplicas(b *testing.B) { benchPairNamed(b, "NewReplicas") }

// BenchmarkAtDesiredReplicaCountsForCanary: AtDesiredReplicaCountsForCanary
// against argo.AtDesiredReplicaCountsForCanary.
func BenchmarkAtDesiredReplicaCountsForCanary(b *testing.B) {
	benchPairNamed(b, "AtDesiredReplicaCountsForCanary")
}

// BenchmarkFenceposts: MaxSurge and MaxUnavailable
// (utils/replicaset/replicaset.go) against argo.ResolveFenceposts.
func BenchmarkFenceposts(b *testing.B) { benchPairNamed(b, "Fenceposts") }

// BenchmarkInterleaved times both sides of every pair alternately inside
// one benchmark, so that the machine's load falls on both alike: each
// iteration runs a batch of upstream and a batch of rolloutmath (which
// goes first alternates), a batch being as many passes over the pair's
// cases as take about 50 µs (at least one). The figures are per call
// (one case), medians over the iterations: up-ns/op and rm-ns/op, and x,
// the median of the iterations' ratios of upstream's time to
// rolloutmath's. up-B/op, rm-B/op, up-allocs/op and rm-allocs/op are
// measured apart from the timing, per call. Garbage collection is off
// while the batches run and is done between iterations, outside the
// timing, every 32 MiB or so of garbage, so that one side's garbage is
// not collected during the other side's batch; these times therefore
// leave out the cost of collecting, which flatters the side that
// allocates more (upstream). The benchmark's own ns/op, B/op and
// allocs/op are those of one iteration, both batches and the collections
// included, and mean little.
func BenchmarkInterleaved(b *testing.B) {
	for _, p := range benchPairs {
		b.Run(p.name, func(b *testing.B) { interleaved(b, p) })
	}
}

// interleaved is one pair of BenchmarkInterleaved.
func interleaved(b *testing.B, p benchPair) {
	b.ReportAllocs()
	n := len(p.cases)
	pass := func(f func(*benchCase) (int32, int32)) func() {
		return func() {
			var sink int32
			for i := range p.cases {
				x, y := f(&p.cases[i])
				sink += x + y
			}
			benchSink += sink
		}
	}
	sides := [2]func(){pass(p.upstream), pass(p.ours)}
	var batch [2]int
	var bytes, allocs [2]float64
	for s, f := range sides {
		f() // warm up
		allocs[s] = testing.AllocsPerRun(20, f)
		bytes[s] = float64(allocatedBy(f))
		t0 := time.Now()
		f()
		batch[s] = max(1, int(50*time.Microsecond/max(1, time.Since(t0))))
	}
	perIter := bytes[0]*float64(batch[0]) + bytes[1]*float64(batch[1])
	gcEvery := max(1, int((32<<20)/max(1, perIter)))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var per [2][]float64
	var ratios []float64
	iter := 0
	for b.Loop() {
		var took [2]time.Duration
		for j := range 2 {
			s := (iter + j) % 2
			t0 := time.Now()
			for range batch[s] {
				sides[s]()
			}
			took[s] = time.Since(t0)
		}
		iter++
		up := float64(took[0].Nanoseconds()) / float64(batch[0]*n)
		rm := float64(took[1].Nanoseconds()) / float64(batch[1]*n)
		per[0], per[1] = append(per[0], up), append(per[1], rm)
		ratios = append(ratios, up/rm)
		if iter%gcEvery == 0 {
			runtime.GC()
		}
	}
	// Reported after the loop: b.Loop resets the timer, which drops
	// metrics reported before it.
	for s, side := range [2]string{"up", "rm"} {
		b.ReportMetric(allocs[s]/float64(n), side+"-allocs/op")
		b.ReportMetric(bytes[s]/float64(n), side+"-B/op")
	}
	b.ReportMetric(median(per[0]), "up-ns/op")
	b.ReportMetric(median(per[1]), "rm-ns/op")
	b.ReportMetric(median(ratios), "x")
}

// allocatedBy returns the bytes f allocates in one call (the mean of 20).
func allocatedBy(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range 20 {
		f()
	}
	runtime.ReadMemStats(&m1)
	return (m1.TotalAlloc - m0.TotalAlloc) / 20
}

// median returns the median of xs (0 for none); it sorts xs.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// BenchmarkPrebuilt times the calls alone: both sides' inputs for every
// case are built once before the loop, so these figures leave out the
// conversion a caller needs (which the BenchmarkX/upstream and
// BenchmarkX/rolloutmath figures include) and show the functions' own
// cost. The pairs' functions do not modify their inputs, so reusing
// them times the same work on every call.
func BenchmarkPrebuilt(b *testing.B) {
	for _, p := range benchPairs {
		b.Run(p.name, func(b *testing.B) {
			up := make([]upstreamInputs, len(p.cases))
			rm := make([]ourInputs, len(p.cases))
			for i := range p.cases {
				up[i], rm[i] = p.upBuild(&p.cases[i]), p.rmBuild(&p.cases[i])
			}
			b.Run("upstream", func(b *testing.B) {
				b.ReportAllocs()
				var sink int32
				for i := 0; b.Loop(); i++ {
					x, y := p.upCall(up[i%len(up)])
					sink += x + y
				}
				benchSink += sink
			})
			b.Run("rolloutmath", func(b *testing.B) {
				b.ReportAllocs()
				var sink int32
				for i := 0; b.Loop(); i++ {
					x, y := p.rmCall(rm[i%len(rm)])
					sink += x + y
				}
				benchSink += sink
			})
		})
	}
}
