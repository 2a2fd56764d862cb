package conformance

import (
	"errors"
	"math"
	"strconv"
	"testing"

	kruiseutil "github.com/openkruise/kruise/pkg/util"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// anyIntOrPercent draws an int-or-percent from a wide range: every form
// intOrPercent draws, plus large counts and percentages, fractions,
// exponents, signs and junk.
func anyIntOrPercent(t *rapid.T, label string) *intstr.IntOrString {
	switch rapid.IntRange(0, 5).Draw(t, label+"Width") {
	case 0:
		v := intstr.FromInt32(rapid.Int32().Draw(t, label+"Int"))
		return &v
	case 1:
		f := rapid.Float64Range(-5, 200).Draw(t, label+"Float")
		v := intstr.FromString(strconv.FormatFloat(f, 'f', rapid.IntRange(-1, 4).Draw(t, label+"Prec"), 64) + "%")
		return &v
	case 2:
		v := intstr.FromString(strconv.FormatInt(rapid.Int64().Draw(t, label+"Big"), 10) + rapid.SampledFrom([]string{"%", "", "%%"}).Draw(t, label+"Suffix"))
		return &v
	case 3:
		v := intstr.FromString(rapid.StringMatching(`[-+]?[0-9]{0,4}(\.[0-9]{0,3})?(e[0-9])?%?`).Draw(t, label+"Text"))
		return &v
	}
	return intOrPercent(t, label)
}

// replicaCount draws spec.replicas: small, medium, or near MaxInt32.
func replicaCount(t *rapid.T) int32 {
	return rapid.OneOf(rapid.Int32Range(0, 12), rapid.Int32Range(0, 5000), rapid.Int32Range(math.MaxInt32-100, math.MaxInt32)).Draw(t, "replicas")
}

// TestCalculatePartitionReplicasMatchesKruise compares the partition with
// kruise's util.CalculatePartitionReplicas, error or value, and the error
// text kruise logs with the one our ValueError wraps.
func TestCalculatePartitionReplicasMatchesKruise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := anyIntOrPercent(t, "partition")
		r := replicaCount(t)
		want, wantErr := kruiseutil.CalculatePartitionReplicas(p, &r)
		got, err := cloneset.CalculatePartitionReplicas(ourIOS(p), r)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("CalculatePartitionReplicas(%v, %d): error %v, kruise's %v", p, r, err, wantErr)
		}
		if err != nil {
			var ve *field.Error
			if !errors.As(err, &ve) || ve.Detail != wantErr.Error() {
				t.Fatalf("CalculatePartitionReplicas(%v, %d): error %v, kruise says %q", p, r, err, wantErr)
			}
			count("util.CalculatePartitionReplicas", "agree")
			return
		}
		if int(got) != want {
			t.Fatalf("CalculatePartitionReplicas(%v, %d) = %d, kruise %d", p, r, got, want)
		}
		count("util.CalculatePartitionReplicas", "agree")
	})
}

// TestResolveMatchesKruisesReaders compares Resolve's maxSurge,
// maxUnavailable and scaleStrategy.maxUnavailable with apimachinery's
// legacy intstr.GetValueFromIntOrPercent as calculateDiffsWithExpectation
// calls it (defaults, rounding, the paused rule, errors read as 0), and
// its partition with kruise's fractional GetScaledValueFromIntOrPercent
// through CalculatePartitionReplicas.
func TestResolveMatchesKruisesReaders(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := replicaCount(t)
		surge, unavail, scaleUnavail := anyIntOrPercent(t, "maxSurge"), anyIntOrPercent(t, "maxUnavailable"), anyIntOrPercent(t, "scaleMaxUnavailable")
		paused := rapid.Bool().Draw(t, "paused")
		cs := &cloneset.CloneSet[struct{}]{Name: "demo", Replicas: r}
		cs.UpdateStrategy.MaxSurge, cs.UpdateStrategy.MaxUnavailable, cs.UpdateStrategy.Paused = ourIOS(surge), ourIOS(unavail), paused
		cs.ScaleStrategy.MaxUnavailable = ourIOS(scaleUnavail)
		got, err := cloneset.Resolve(cs)
		if err != nil {
			t.Fatalf("Resolve: %v", err)
		}

		// kruise's preamble, called function by function.
		replicas := int(r)
		var maxSurge int
		if surge != nil {
			maxSurge, _ = intstr.GetValueFromIntOrPercent(surge, replicas, true)
			if paused {
				maxSurge = 0
			}
		}
		maxUnavailable, _ := intstr.GetValueFromIntOrPercent(intstr.ValueOrDefault(unavail, intstr.FromString("20%")), replicas, maxSurge == 0)
		scaleMax, _ := intstr.GetValueFromIntOrPercent(intstr.ValueOrDefault(scaleUnavail, intstr.FromInt(math.MaxInt32)), replicas, true)
		if got.MaxSurge != int64(maxSurge) || got.MaxUnavailable != int64(maxUnavailable) || got.ScaleMaxUnavailable != int64(scaleMax) {
			t.Fatalf("Resolve(R=%d surge=%v unavailable=%v scale=%v paused=%v) = surge %d unavailable %d scale %d, kruise %d %d %d",
				r, surge, unavail, scaleUnavail, paused, got.MaxSurge, got.MaxUnavailable, got.ScaleMaxUnavailable, maxSurge, maxUnavailable, scaleMax)
		}
		count("intstr.GetValueFromIntOrPercent (maxSurge, maxUnavailable, scale maxUnavailable)", "agree")

		// The fractional reader, rounding up, is what the partition uses.
		p := anyIntOrPercent(t, "partition")
		want, werr := kruiseutil.GetScaledValueFromIntOrPercent(p, replicas, true)
		cs.UpdateStrategy.Partition = ourIOS(p)
		got2, err := cloneset.Resolve(cs)
		if err != nil {
			t.Fatalf("Resolve: %v", err)
		}
		kp, _ := kruiseutil.CalculatePartitionReplicas(p, &r)
		if werr != nil {
			kp = 0 // the controller logs and uses 0
		}
		if int(got2.Partition) != kp {
			t.Fatalf("Resolve(partition %v of %d).Partition = %d, kruise %d (scaled %d, %v)", p, r, got2.Partition, kp, want, werr)
		}
		count("util.GetScaledValueFromIntOrPercent (partition, via Resolve)", "agree")
	})
}
