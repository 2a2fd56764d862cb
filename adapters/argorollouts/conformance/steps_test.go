package conformance

import (
	"testing"
	"time"
	_ "unsafe" // go:linkname to Argo's unexported approximation

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	"github.com/argoproj/argo-rollouts/rollout"
	"github.com/argoproj/argo-rollouts/utils/conditions"
	"github.com/argoproj/argo-rollouts/utils/defaults"
	replicasetutil "github.com/argoproj/argo-rollouts/utils/replicaset"
	"github.com/argoproj/argo-rollouts/utils/weightutil"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/internal/tally"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// Argo's unexported functions, reached by name: they are the functions
// rollout/argo exports as SplitForWeight and TrafficWeightToReplicas.

//go:linkname approximateWeightedCanaryStableReplicaCounts github.com/argoproj/argo-rollouts/utils/replicaset.approximateWeightedCanaryStableReplicaCounts
func approximateWeightedCanaryStableReplicaCounts(specReplicas, desiredWeight, maxWeight, maxSurge int32) (int32, int32)

//go:linkname trafficWeightToReplicas github.com/argoproj/argo-rollouts/utils/replicaset.trafficWeightToReplicas
func trafficWeightToReplicas(replicas, weight, maxWeight int32) int32

var (
	getStableRS = replicasetutil.GetStableRS
	getOtherRSs = replicasetutil.GetOtherRSs
)

// agree compares one answer of Argo's function fn with ours and counts
// the case.
func agree[V comparable](t *rapid.T, s *scenario, fn string, argoGot, ours V) {
	t.Helper()
	if argoGot != ours {
		t.Fatalf("%s: Argo %v, rollout/argo %v\n%s", fn, argoGot, ours, s)
	}
	count(fn, tally.Agree)
}

func TestFencepostsMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, false)
		agree(t, s, "MaxSurge", replicasetutil.MaxSurge(s.ro), argo.MaxSurge(&s.lro))
		agree(t, s, "MaxUnavailable", replicasetutil.MaxUnavailable(s.ro), argo.MaxUnavailable(&s.lro))
	})
}

func TestDefaultsMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, false)
		ro, l := s.ro, &s.lro
		if rapid.Bool().Draw(t, "moreFields") {
			// the fields only the defaults read
			ro.Spec.RevisionHistoryLimit = optInt32(t, "revisionHistoryLimit", 0, 20)
			ro.Spec.ProgressDeadlineSeconds = optInt32(t, "progressDeadlineSeconds", 0, 900)
			if c := ro.Spec.Strategy.Canary; c != nil {
				c.ScaleDownDelaySeconds = optInt32(t, "scaleDownDelaySeconds", 0, 60)
				c.ScaleDownDelayRevisionLimit = optInt32(t, "scaleDownDelayRevisionLimit", 0, 5)
				if rapid.Bool().Draw(t, "blueGreenToo") {
					ro.Spec.Strategy.BlueGreen = &v1alpha1.BlueGreenStrategy{ScaleDownDelayRevisionLimit: optInt32(t, "bgLimit", 0, 5), ScaleDownDelaySeconds: optInt32(t, "bgDelay", 0, 60), AbortScaleDownDelaySeconds: optInt32(t, "bgAbortDelay", 0, 60)}
				}
			}
			s.lro = fromArgo(ro)
		}
		agree(t, s, "GetReplicasOrDefault", defaults.GetReplicasOrDefault(ro.Spec.Replicas), argo.ReplicasOrDefault(l.Replicas))
		agree(t, s, "GetRevisionHistoryLimitOrDefault", defaults.GetRevisionHistoryLimitOrDefault(ro), argo.RevisionHistoryLimitOrDefault(l))
		agree(t, s, "GetProgressDeadlineSecondsOrDefault", defaults.GetProgressDeadlineSecondsOrDefault(ro), argo.ProgressDeadlineSecondsOrDefault(l))
		agree(t, s, "GetMaxSurgeOrDefault", *ios(defaults.GetMaxSurgeOrDefault(ro)), argo.MaxSurgeOrDefault(l))
		agree(t, s, "GetMaxUnavailableOrDefault", *ios(defaults.GetMaxUnavailableOrDefault(ro)), argo.MaxUnavailableOrDefault(l))
		agree(t, s, "GetScaleDownDelaySecondsOrDefault", defaults.GetScaleDownDelaySecondsOrDefault(ro), argo.ScaleDownDelayOrDefault(l))
		ad, aset := defaults.GetAbortScaleDownDelaySecondsOrDefault(ro)
		od, oset := argo.AbortScaleDownDelayOrDefault(l)
		agree(t, s, "GetAbortScaleDownDelaySecondsOrDefault", durText(ad)+" "+boolText(aset), durText(od)+" "+boolText(oset))
		agree(t, s, "GetAutoPromotionEnabledOrDefault", defaults.GetAutoPromotionEnabledOrDefault(ro), argo.AutoPromotionEnabledOrDefault(l))
		agree(t, s, "GetScaleDownRevisionLimit", rollout.GetScaleDownRevisionLimit(ro), argo.ScaleDownRevisionLimit(l))
		agree(t, s, "weightutil.MaxTrafficWeight", weightutil.MaxTrafficWeight(ro), argo.MaxTrafficWeight(l))
		agree(t, s, "ComputeStepHash", conditions.ComputeStepHash(ro), argo.StepsHash(l))
	})
}

func durText(d *time.Duration) string {
	if d == nil {
		return "nil"
	}
	return d.String()
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestPauseDurationSecondsMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := optIntOrString(t, "duration", -10, 100000)
		if d != nil && d.Type == 1 && rapid.Bool().Draw(t, "goDuration") {
			d.StrVal = rapid.StringMatching(`-?[0-9]{1,4}(\.[0-9]{1,3})?(ns|us|ms|s|m|h)([0-9]{1,2}(s|m))?`).Draw(t, "text")
		}
		p := v1alpha1.RolloutPause{Duration: d}
		agree(t, nil, "RolloutPause.DurationSeconds", p.DurationSeconds(), argo.DurationSeconds(argo.RolloutPause{Duration: ios(d)}))
	})
}

func TestSplitForWeightMatchesArgosApproximation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genReplicas(t, "replicas")
		m := rapid.SampledFrom([]int32{100, 100, 100, 1000, 50, 3, 1}).Draw(t, "maxWeight")
		w := rapid.Int32Range(0, m).Draw(t, "weight")
		surge := rapid.Int32Range(0, 4).Draw(t, "maxSurge")
		ac, as := approximateWeightedCanaryStableReplicaCounts(r, w, m, surge)
		oc, os := argo.SplitForWeight(r, w, m, surge)
		if ac != oc || as != os {
			t.Fatalf("approximateWeightedCanaryStableReplicaCounts(%d, %d, %d, %d) = %d/%d, SplitForWeight = %d/%d", r, w, m, surge, ac, as, oc, os)
		}
		count("approximateWeightedCanaryStableReplicaCounts", tally.Agree)
		x := rapid.Int32Range(0, m).Draw(t, "x")
		if a, o := trafficWeightToReplicas(r, x, m), argo.TrafficWeightToReplicas(r, x, m); a != o {
			t.Fatalf("trafficWeightToReplicas(%d, %d, %d) = %d, TrafficWeightToReplicas = %d", r, x, m, a, o)
		}
		count("trafficWeightToReplicas", tally.Agree)
	})
}

func TestStepWeightsMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, true)
		ro, l := s.ro, &s.lro
		astep, aidx := replicasetutil.GetCurrentCanaryStep(ro)
		ostep, oidx := argo.CurrentCanaryStep(l)
		agree(t, s, "GetCurrentCanaryStep", stepOf(ro, astep), stepOfOurs(l, ostep))
		if aidx != nil {
			agree(t, s, "GetCurrentCanaryStep index", *aidx, oidx)
		}
		agree(t, s, "GetCurrentSetWeight", replicasetutil.GetCurrentSetWeight(ro), argo.CurrentSetWeight(l))
		agree(t, s, "UseSetCanaryScale", scaleOf(ro, replicasetutil.UseSetCanaryScale(ro)), scaleOfOurs(l, argo.UseSetCanaryScale(l)))
		arep, aw := replicasetutil.GetCanaryReplicasOrWeight(ro, s.newRS, s.stable)
		orep, ow := argo.CanaryReplicasOrWeight(l, s.lrs(s.newRS), s.lrs(s.stable))
		agree(t, s, "GetCanaryReplicasOrWeight", ptrText(arep)+"/"+itoa(aw), ptrText(orep)+"/"+itoa(ow))
		agree(t, s, "GetDesiredCanaryWeight", replicasetutil.GetDesiredCanaryWeight(ro, s.newRS, s.stable), argo.DesiredCanaryWeight(l, s.lrs(s.newRS), s.lrs(s.stable)))
	})
}

func itoa(v int32) string { return ptrText(&v) }

// stepOf names a step of Argo's by its index in the steps (-1 for nil),
// stepOfOurs ours.
func stepOf(ro *v1alpha1.Rollout, st *v1alpha1.CanaryStep) int {
	if st == nil {
		return -1
	}
	for i := range ro.Spec.Strategy.Canary.Steps {
		if &ro.Spec.Strategy.Canary.Steps[i] == st {
			return i
		}
	}
	return -2
}

func stepOfOurs(ro *argo.Rollout[argorollouts.Template], st *argo.CanaryStep) int {
	if st == nil {
		return -1
	}
	for i := range ro.Strategy.Canary.Steps {
		if &ro.Strategy.Canary.Steps[i] == st {
			return i
		}
	}
	return -2
}

func scaleOf(ro *v1alpha1.Rollout, sc *v1alpha1.SetCanaryScale) int {
	if sc == nil {
		return -1
	}
	for i := range ro.Spec.Strategy.Canary.Steps {
		if ro.Spec.Strategy.Canary.Steps[i].SetCanaryScale == sc {
			return i
		}
	}
	return -2
}

func scaleOfOurs(ro *argo.Rollout[argorollouts.Template], sc *argo.SetCanaryScale) int {
	if sc == nil {
		return -1
	}
	for i := range ro.Strategy.Canary.Steps {
		if ro.Strategy.Canary.Steps[i].SetCanaryScale == sc {
			return i
		}
	}
	return -2
}

func TestReplicaSetRolesMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, false)
		lnew := s.lrs(s.newRS)
		agree(t, s, "GetStableRS", s.lrs(s.stable), argo.StableReplicaSet(&s.lro, lnew, s.lall))
		ours := argo.OtherReplicaSets(nil, lnew, s.lrs(s.stable), s.lall)
		want := s.lrss(s.others)
		if len(ours) != len(want) {
			t.Fatalf("GetOtherRSs: Argo %d, rollout/argo %d\n%s", len(want), len(ours), s)
		}
		for i := range ours {
			agree(t, s, "GetOtherRSs", want[i], ours[i])
		}
		for _, rs := range s.all {
			ignore := rapid.Bool().Draw(t, "ignoreAvailability")
			agree(t, s, "GetReplicasForScaleDown", replicasetutil.GetReplicasForScaleDown(rs, ignore), argo.ReplicasForScaleDown(s.lrs(rs), ignore))
		}
	})
}

func TestBasicCanaryCountsMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, true)
		s.ro.Spec.Strategy.Canary.TrafficRouting = nil
		s.finish(t)
		an, as := replicasetutil.CalculateReplicaCountsForBasicCanary(s.ro, s.newRS, s.stable, s.others)
		on, os := argo.BasicCanaryCounts(&s.lro, s.lrs(s.newRS), s.lrs(s.stable), s.lrss(s.others))
		agree(t, s, "CalculateReplicaCountsForBasicCanary", itoa(an)+"/"+itoa(as), itoa(on)+"/"+itoa(os))
	})
}

func TestTrafficRoutedCountsMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, true)
		if s.ro.Spec.Strategy.Canary.TrafficRouting == nil {
			s.ro.Spec.Strategy.Canary.TrafficRouting = &v1alpha1.RolloutTrafficRouting{Nginx: &v1alpha1.NginxTrafficRouting{StableIngress: "web"}}
			s.finish(t)
		}
		an, as := replicasetutil.CalculateReplicaCountsForTrafficRoutedCanary(s.ro, s.newRS, s.stable, s.weights)
		on, os := argo.TrafficRoutedCanaryCounts(&s.lro, s.lrs(s.newRS), s.lrs(s.stable), s.lweight)
		agree(t, s, "CalculateReplicaCountsForTrafficRoutedCanary", itoa(an)+"/"+itoa(as), itoa(on)+"/"+itoa(os))
		n := rapid.Int32Range(0, 20).Draw(t, "count")
		agree(t, s, "CheckMinPodsPerReplicaSet", replicasetutil.CheckMinPodsPerReplicaSet(s.ro, n), argo.CheckMinPodsPerReplicaSet(&s.lro, n))
	})
}

func TestNewReplicasMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, false)
		ensureNew(t, s)
		a, err := replicasetutil.NewRSNewReplicas(s.ro, s.all, s.newRS, s.weights)
		if err != nil {
			t.Fatalf("NewRSNewReplicas: %v\n%s", err, s)
		}
		agree(t, s, "NewRSNewReplicas", a, argo.NewReplicas(&s.lro, s.lall, s.lrs(s.newRS), s.lweight))
	})
}

func TestAtDesiredReplicaCountsMatchArgo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genScenario(t, true)
		agree(t, s, "AtDesiredReplicaCountsForCanary",
			replicasetutil.AtDesiredReplicaCountsForCanary(s.ro, s.newRS, s.stable, s.others, s.weights),
			argo.AtDesiredReplicaCountsForCanary(&s.lro, s.lrs(s.newRS), s.lrs(s.stable), s.lrss(s.others), s.lweight))
		var rs = s.newRS
		if len(s.all) > 0 && rapid.Bool().Draw(t, "anyRS") {
			rs = rapid.SampledFrom(s.all).Draw(t, "rs")
		}
		desired := rapid.Int32Range(0, 14).Draw(t, "desired")
		th := s.ro.Spec.Strategy.Canary.ReplicaProgressThreshold
		agree(t, s, "ReplicaProgressThresholdMet",
			replicasetutil.ReplicaProgressThresholdMet(th, rs, desired),
			argo.ReplicaProgressThresholdMet(s.lro.Strategy.Canary.ReplicaProgressThreshold, s.lrs(rs), desired))
	})
}

// ensureNew makes status.currentPodHash name one of the scenario's
// ReplicaSets (adding one when there is none), as it does whenever
// NewRSNewReplicas is called: the controller creates the new ReplicaSet
// first.
func ensureNew(t *rapid.T, s *scenario) {
	if s.newRS != nil {
		return
	}
	if len(s.all) == 0 {
		r := int32(0)
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{
			Name:        "web-h0",
			Namespace:   "shop",
			Labels:      map[string]string{"app": "web", argo.PodTemplateHashLabel: "h0"},
			Annotations: map[string]string{argo.RevisionAnnotation: "1"},
		}}
		rs.Spec.Replicas = &r
		s.all = append(s.all, rs)
	}
	s.newRS = rapid.SampledFrom(s.all).Draw(t, "newRS")
	s.ro.Status.CurrentPodHash = s.newRS.Labels[argo.PodTemplateHashLabel]
	if w := s.weights; w != nil {
		w.Canary.PodTemplateHash = s.ro.Status.CurrentPodHash
	}
	s.lall = nil
	s.finish(t)
}
