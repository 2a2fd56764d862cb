package conformance

import (
	"math"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// The documented difference on int32 overflow: where upstream's int32
// arithmetic wraps, the library saturates (docs/deployment.md#numbers; the doc
// comments of Fenceposts, MaxSurge, NewReplicas, proportion.Fraction...).
const overflowClass = "int32 overflow: ours saturates, upstream wraps"

// toValue converts a generated IntOrString (nil is Int 0, as upstream's
// ResolveFenceposts reads it).
func toValue(t *rapid.T, v *intstr.IntOrString) intorpercent.Value {
	if v == nil {
		return intorpercent.Int(0)
	}
	if v.Type == intstr.Int {
		return intorpercent.Int(v.IntVal)
	}
	out, err := intorpercent.Parse(v.StrVal)
	if err != nil || !out.IsPercent() {
		t.Fatalf("generated %q is not a percentage the library reads: %v", v.StrVal, err)
	}
	return out
}

// scaled is GetScaledValueFromIntOrPercent in exact arithmetic: an Int as
// is, a percentage p of total rounded up or down, without overflow.
// Generated percentages are >= 0, so p*total < 2^62.
func scaled(v *intstr.IntOrString, total int32, up bool) int64 {
	if v == nil {
		return 0
	}
	if v.Type == intstr.Int {
		return int64(v.IntVal)
	}
	p, _ := strconv.ParseInt(strings.TrimSuffix(v.StrVal, "%"), 10, 64)
	n := p * int64(total)
	if up {
		return (n + 99) / 100
	}
	return n / 100
}

// upstreamScaled is upstream's float64 formula, before its int32
// conversion: multiply, divide, then ceil or floor.
func upstreamScaled(v *intstr.IntOrString, total int32, up bool) int64 {
	if v == nil {
		return 0
	}
	if v.Type == intstr.Int {
		return int64(v.IntVal)
	}
	p, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	f := float64(p) * float64(total) / 100
	if up {
		return int64(math.Ceil(f))
	}
	return int64(math.Floor(f))
}

func fits32(n int64) bool { return n >= math.MinInt32 && n <= math.MaxInt32 }

func sat32(n int64) int32 { return int32(max(min(n, math.MaxInt32), math.MinInt32)) }

// fenceposts returns the fenceposts of surge and unavailable for desired
// both ways: saturated (the library's contract) and wrapped (upstream's
// float formula and int32 conversion), and whether either overflowed.
func fenceposts(surge, unavailable *intstr.IntOrString, desired int32) (sat, wrap [2]int32, overflow bool) {
	s, u := scaled(surge, desired, true), scaled(unavailable, desired, false)
	overflow = !fits32(s) || !fits32(u)
	sat = [2]int32{sat32(s), sat32(u)}
	if sat == [2]int32{0, 0} {
		sat[1] = 1
	}
	ws, wu := upstreamScaled(surge, desired, true), upstreamScaled(unavailable, desired, false)
	if ws == 0 && wu == 0 {
		wu = 1
	}
	wrap = [2]int32{int32(ws), int32(wu)}
	return sat, wrap, overflow
}

func TestFencepostsMatchesResolveFenceposts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var surge, unavailable *intstr.IntOrString
		if rapid.IntRange(0, 5).Draw(t, "surgeNil") > 0 {
			v := intOrPercent().Draw(t, "maxSurge")
			surge = &v
		}
		if rapid.IntRange(0, 5).Draw(t, "unavailableNil") > 0 {
			v := intOrPercent().Draw(t, "maxUnavailable")
			unavailable = &v
		}
		desired := count32().Draw(t, "desired")
		us, uu, uerr := deploymentutil.ResolveFenceposts(surge, unavailable, desired)
		os, ou, oerr := rollout.Fenceposts(toValue(t, surge), toValue(t, unavailable), desired)
		if uerr != nil || oerr != nil {
			t.Fatalf("errors: upstream %v, ours %v", uerr, oerr)
		}
		sat, wrap, overflow := fenceposts(surge, unavailable, desired)
		switch {
		case us == os && uu == ou:
			count("ResolveFenceposts", "agree")
		case overflow && [2]int32{os, ou} == sat && [2]int32{us, uu} == wrap:
			count("ResolveFenceposts", overflowClass)
		default:
			t.Fatalf("Fenceposts(%v, %v, %d) = (%d, %d), upstream (%d, %d); saturated model %v, wrapped model %v",
				surge, unavailable, desired, os, ou, us, uu, sat, wrap)
		}
	})
}

// bounds returns MaxSurge, MaxUnavailable and MinAvailable of d both
// ways, as fenceposts does.
func bounds(d *appsv1.Deployment) (sat, wrap [3]int32, overflow bool) {
	if d.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType {
		return sat, wrap, false
	}
	r := *d.Spec.Replicas
	ru := d.Spec.Strategy.RollingUpdate
	s, w, overflow := fenceposts(ru.MaxSurge, ru.MaxUnavailable, r)
	sat[0], wrap[0] = s[0], w[0]
	if r != 0 {
		sat[1], wrap[1] = min(s[1], r), min(w[1], r)
	}
	min64 := int64(r) - int64(sat[1])
	overflow = overflow || !fits32(min64) || !fits32(int64(r)-int64(wrap[1]))
	sat[2], wrap[2] = sat32(min64), r-wrap[1]
	return sat, wrap, overflow
}

func TestBoundsMatchMaxSurgeMaxUnavailableMinAvailable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Draw(t, "deployment")
		ours := convert(t, d)
		got := [3]int32{rollout.MaxSurge(&ours), rollout.MaxUnavailable(&ours), rollout.MinAvailable(&ours)}
		up := [3]int32{deploymentutil.MaxSurge(*d), deploymentutil.MaxUnavailable(*d), deploymentutil.MinAvailable(d)}
		sat, wrap, overflow := bounds(d)
		for i, fn := range []string{"MaxSurge", "MaxUnavailable", "MinAvailable"} {
			switch {
			case got[i] == up[i]:
				count(fn, "agree")
			case overflow && got[i] == sat[i] && up[i] == wrap[i]:
				count(fn, overflowClass)
			default:
				t.Fatalf("%s: ours %d, upstream %d (saturated model %d, wrapped model %d) for replicas %d, strategy %+v",
					fn, got[i], up[i], sat[i], wrap[i], *d.Spec.Replicas, d.Spec.Strategy)
			}
		}
	})
}

// TestNilBoundsAreTheAPIDefaults checks the one place where the library
// reads an apps/v1 object differently on purpose: a nil maxSurge or
// maxUnavailable means 25%, the value the API server stores for it, where
// upstream's helpers, which only ever see defaulted objects, would read
// nil as 0.
func TestNilBoundsAreTheAPIDefaults(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Filter(func(d *appsv1.Deployment) bool {
			return d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType
		}).Draw(t, "deployment")
		quarter := intstr.FromString("25%")
		nilSurge := rapid.Bool().Draw(t, "nilSurge")
		undefaulted, defaulted := d.DeepCopy(), d.DeepCopy()
		if nilSurge {
			undefaulted.Spec.Strategy.RollingUpdate.MaxSurge = nil
			defaulted.Spec.Strategy.RollingUpdate.MaxSurge = &quarter
		} else {
			undefaulted.Spec.Strategy.RollingUpdate.MaxUnavailable = nil
			defaulted.Spec.Strategy.RollingUpdate.MaxUnavailable = &quarter
		}
		ours := convert(t, undefaulted)
		got := [3]int32{rollout.MaxSurge(&ours), rollout.MaxUnavailable(&ours), rollout.MinAvailable(&ours)}
		up := [3]int32{deploymentutil.MaxSurge(*defaulted), deploymentutil.MaxUnavailable(*defaulted), deploymentutil.MinAvailable(defaulted)}
		if _, _, overflow := bounds(defaulted); !overflow && got != up {
			t.Fatalf("nil bound: ours %v, upstream on the defaulted object %v", got, up)
		}
		count("MaxSurge/MaxUnavailable (nil bound = 25%)", "agree")
	})
}
