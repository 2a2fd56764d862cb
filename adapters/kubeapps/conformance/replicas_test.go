package conformance

import (
	"math"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// oneTemplate is the template pool of tests where templates do not matter.
var oneTemplate = []corev1.PodTemplateSpec{{}}

// newReplicasModels returns NewRSNewReplicas for the new ReplicaSet of
// size spec among ReplicaSets whose sizes are sizes, both ways: in int64
// with a saturated maxSurge and ceiling (the library's contract) and in wrapping int32
// (upstream), and whether some step overflowed int32.
func newReplicasModels(d *appsv1.Deployment, sizes []int32, spec int32) (sat, wrap int32, overflow bool) {
	r := *d.Spec.Replicas
	if d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return r, r, false
	}
	ms := d.Spec.Strategy.RollingUpdate.MaxSurge
	exactSurge := scaled(ms, r, true)
	surge := int64(sat32(exactSurge))
	allowed := min(int64(r)+surge, math.MaxInt32) // the ceiling saturates too
	var total int64
	var totalW int32
	for _, n := range sizes {
		total += int64(n)
		totalW += n
	}
	overflow = !fits32(exactSurge) || !fits32(int64(r)+exactSurge) || !fits32(total) || !fits32(allowed-total)
	if total >= allowed {
		sat = spec
	} else {
		sat = sat32(int64(spec) + min(allowed-total, int64(r)-int64(spec)))
	}
	maxTotalW := r + int32(upstreamScaled(ms, r, true))
	if totalW >= maxTotalW {
		wrap = spec
	} else {
		wrap = spec + min(maxTotalW-totalW, r-spec)
	}
	return sat, wrap, overflow
}

func TestNewReplicasMatchesNewRSNewReplicas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Draw(t, "deployment")
		rss := replicaSets(oneTemplate, 5).Draw(t, "replicaSets")
		newRS := rapid.IntRange(-1, len(rss)-1).Draw(t, "newRS")
		ours := convert(t, d)
		got, err := rollout.NewReplicas(&ours, kubeapps.ReplicaSets(rss), newRS)
		if err != nil {
			t.Fatalf("NewReplicas: %v", err)
		}
		// Upstream's creation path passes the old ReplicaSets plus a fresh
		// new one of size 0; its rolling path passes them all.
		all := append([]*appsv1.ReplicaSet(nil), rss...)
		var n *appsv1.ReplicaSet
		if newRS >= 0 {
			n = rss[newRS]
		} else {
			zero := int32(0)
			n = &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: &zero}}
			all = append(all, n)
		}
		up, err := deploymentutil.NewRSNewReplicas(d, all, n)
		if err != nil {
			t.Fatalf("NewRSNewReplicas: %v", err)
		}
		var sizes []int32
		for _, rs := range all {
			sizes = append(sizes, *rs.Spec.Replicas)
		}
		sat, wrap, overflow := newReplicasModels(d, sizes, *n.Spec.Replicas)
		switch {
		case got == up:
			count("NewRSNewReplicas", "agree")
		case overflow && got == sat && up == wrap:
			count("NewRSNewReplicas", overflowClass)
		default:
			t.Fatalf("NewReplicas = %d, upstream %d (saturated model %d, wrapped model %d, overflow %v)", got, up, sat, wrap, overflow)
		}
	})
}

// proportionInputs converts what GetReplicaSetProportion reads.
func proportionInputs(t *rapid.T, d *appsv1.Deployment, rs *appsv1.ReplicaSet) (proportion.Deployment, proportion.ReplicaSet) {
	ours := convert(t, d)
	pd := proportion.Deployment{
		Replicas:       ours.Replicas,
		MaxSurge:       rollout.MaxSurge(&ours),
		StatusReplicas: ours.Status.Replicas,
		RollingUpdate:  ours.Strategy != rollout.Recreate,
	}
	prs := proportion.ReplicaSet{
		Name:              rs.Name,
		CreationTime:      rs.CreationTimestamp.Time,
		Replicas:          *rs.Spec.Replicas,
		AvailableReplicas: rs.Status.AvailableReplicas,
		DesiredReplicas:   rs.Annotations["deployment.kubernetes.io/desired-replicas"],
		MaxReplicas:       rs.Annotations["deployment.kubernetes.io/max-replicas"],
	}
	return pd, prs
}

// strictReplicas is upstream's max-replicas reader: ParseUint(s, 10, 32)
// and at most MaxInt32.
func strictReplicas(s string) (int64, bool) {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int64(n), true
}

// proportionModels returns GetReplicaSetProportion both ways.
func proportionModels(d *appsv1.Deployment, rs *appsv1.ReplicaSet, toAdd, added int32) (sat, wrap int32, overflow bool) {
	spec := *rs.Spec.Replicas
	if spec == 0 || toAdd == 0 || toAdd == added {
		return 0, 0, false
	}
	bsat, bwrap, boverflow := bounds(d)
	r := *d.Spec.Replicas
	var f int64
	var fw int32
	oldMax, ok := strictReplicas(rs.Annotations["deployment.kubernetes.io/max-replicas"])
	if !ok || oldMax == 0 {
		oldMax = int64(d.Status.Replicas)
	}
	switch {
	case r == 0:
		f, fw = -int64(spec), -spec
	case oldMax == 0:
	default:
		newMax := min(int64(r)+int64(bsat[0]), math.MaxInt32)
		num := int64(spec) * newMax
		f = roundDiv(num, oldMax) - int64(spec)
		newMaxW := r + bwrap[0]
		fw = int32(math.Round(float64(spec*newMaxW)/float64(oldMax))) - spec
		overflow = boverflow || !fits32(int64(r)+int64(bwrap[0])) || !fits32(num) || !fits32(f)
	}
	allowed := int64(toAdd) - int64(added)
	allowedW := toAdd - added
	overflow = overflow || !fits32(allowed)
	if toAdd > 0 {
		return int32(min(int64(sat32(f)), allowed)), min(fw, allowedW), overflow
	}
	return int32(max(int64(sat32(f)), allowed)), max(fw, allowedW), overflow
}

// roundDiv returns n/d rounded half away from zero, as math.Round does;
// d > 0 and |n| < 2^62.
func roundDiv(n, d int64) int64 {
	if n < 0 {
		return -((-2*n + d) / (2 * d))
	}
	return (2*n + d) / (2 * d)
}

func TestOfMatchesGetReplicaSetProportion(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Draw(t, "deployment")
		rs := replicaSet("rs-0", oneTemplate).Draw(t, "replicaSet")
		toAdd := anyInt32().Draw(t, "toAdd")
		added := rapid.OneOf(rapid.Just(int32(0)), rapid.Int32Range(min(toAdd, 0), max(toAdd, 0)), anyInt32()).Draw(t, "added")
		pd, prs := proportionInputs(t, d, rs)
		got := proportion.Share(prs, pd, toAdd, added)
		up := deploymentutil.GetReplicaSetProportion(klog.Background(), rs, *d, toAdd, added)
		sat, wrap, overflow := proportionModels(d, rs, toAdd, added)
		switch {
		case got == up:
			count("GetReplicaSetProportion", "agree")
		case overflow && got == sat && up == wrap:
			count("GetReplicaSetProportion", overflowClass)
		default:
			t.Fatalf("Share(%+v, %+v, %d, %d) = %d, upstream %d (saturated model %d, wrapped model %d, overflow %v)",
				prs, pd, toAdd, added, got, up, sat, wrap, overflow)
		}
	})
}

// saturatedCandidate draws a Deployment and a ReplicaSet that is often
// the saturated new ReplicaSet, with desired-replicas annotations in the
// forms upstream's Atoi reader accepts (sign, leading zeros, values beyond
// int32 that truncate to R).
func saturatedCandidate(t *rapid.T) (*appsv1.Deployment, *appsv1.ReplicaSet) {
	d := deployment().Draw(t, "deployment")
	rs := replicaSet("rs-0", oneTemplate).Draw(t, "replicaSet")
	r := *d.Spec.Replicas
	if rapid.Bool().Draw(t, "saturated") {
		spec := r
		rs.Spec.Replicas = &spec
		rs.Status.AvailableReplicas = r
		rs.Annotations["deployment.kubernetes.io/desired-replicas"] = rapid.SampledFrom([]string{
			strconv.Itoa(int(r)), "+" + strconv.Itoa(int(r)), "0" + strconv.Itoa(int(r)),
			strconv.FormatInt(int64(r)+1<<32, 10), strconv.FormatInt(int64(r)-1<<32, 10),
		}).Draw(t, "desired")
	}
	return d, rs
}

func TestIsSaturatedMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rs := saturatedCandidate(t)
		up := deploymentutil.IsSaturated(d, rs)
		pd, prs := proportionInputs(t, d, rs)
		desired, _ := strconv.ParseInt(prs.DesiredReplicas, 10, 64)
		ours := convert(t, d)
		ors := kubeapps.ReplicaSet(rs)
		// rollout.IsSaturated is proportion.IsSaturated on the same fields;
		// both are checked, against upstream and against each other.
		for _, c := range []struct {
			name string
			got  bool
		}{
			{"IsSaturated (proportion.IsSaturated)", proportion.IsSaturated(pd, prs)},
			{"IsSaturated (rollout.IsSaturated)", rollout.IsSaturated(&ours, &ors)},
		} {
			switch {
			case c.got == up:
				count(c.name, "agree")
			case !c.got && up && !fits32(desired) && int32(desired) == *d.Spec.Replicas:
				count(c.name, "desired-replicas beyond int32: ours compares it whole, upstream truncates")
			default:
				t.Fatalf("%s = %v, upstream %v (desired %q, R %d)", c.name, c.got, up, prs.DesiredReplicas, pd.Replicas)
			}
		}
	})
}
