package conformance

import (
	"testing"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	replicasetutil "github.com/argoproj/argo-rollouts/utils/replicaset"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// The sinks keep the compiler from dropping a result; sinkR is an input
// it cannot fold.
var (
	sinkA, sinkB int32
	sinkR        int32 = 10
)

// benchState is a basic canary of 10 replicas at setWeight 20 (step 0)
// with the stable at 10 and the new ReplicaSet at 0, on both sides.
func benchState(b *testing.B) (*v1alpha1.Rollout, *appsv1.ReplicaSet, *appsv1.ReplicaSet, *argo.Rollout[argorollouts.Template], *argo.ReplicaSet[argorollouts.Template], *argo.ReplicaSet[argorollouts.Template]) {
	r, w, zero, ten := int32(10), int32(20), int32(0), int32(10)
	surge := intstr.FromString("25%")
	ro := &v1alpha1.Rollout{Spec: v1alpha1.RolloutSpec{Replicas: &r, Strategy: v1alpha1.RolloutStrategy{Canary: &v1alpha1.CanaryStrategy{
		MaxSurge: &surge, Steps: []v1alpha1.CanaryStep{{SetWeight: &w}},
	}}}, Status: v1alpha1.RolloutStatus{CurrentPodHash: "h1", StableRS: "h0", CurrentStepIndex: &zero}}
	rs := func(h string, n int32) *appsv1.ReplicaSet {
		return &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: "web-" + h, Labels: map[string]string{argo.PodTemplateHashLabel: h}},
			Spec:       appsv1.ReplicaSetSpec{Replicas: &n},
			Status:     appsv1.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n},
		}
	}
	stable, newRS := rs("h0", ten), rs("h1", zero)
	l := fromArgo(ro)
	ls, err := argorollouts.ReplicaSet(stable)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := argorollouts.ReplicaSet(newRS)
	if err != nil {
		b.Fatal(err)
	}
	return ro, newRS, stable, &l, &ln, &ls
}

// BenchmarkBasicCanaryCountsOneState times Argo's
// CalculateReplicaCountsForBasicCanary and rollout/argo's
// BasicCanaryCounts on the same state: go test -run XXX -bench . .
func BenchmarkBasicCanaryCountsOneState(b *testing.B) {
	ro, newRS, stable, l, ln, ls := benchState(b)
	b.Run("argo-rollouts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkA, sinkB = replicasetutil.CalculateReplicaCountsForBasicCanary(ro, newRS, stable, nil)
		}
	})
	b.Run("rolloutmath", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkA, sinkB = argo.BasicCanaryCounts(l, ln, ls, nil)
		}
	})
}

// BenchmarkSplitForWeight times Argo's unexported
// approximateWeightedCanaryStableReplicaCounts and SplitForWeight.
func BenchmarkSplitForWeight(b *testing.B) {
	b.Run("argo-rollouts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkA, sinkB = approximateWeightedCanaryStableReplicaCounts(sinkR, 20, 100, 3)
		}
	})
	b.Run("rolloutmath", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkA, sinkB = argo.SplitForWeight(sinkR, 20, 100, 3)
		}
	})
}

// BenchmarkMaxSurge times the fencepost readers on the default "25%".
func BenchmarkMaxSurge(b *testing.B) {
	ro, _, _, l, _, _ := benchState(b)
	b.Run("argo-rollouts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkA = replicasetutil.MaxSurge(ro)
		}
	})
	b.Run("rolloutmath", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkA = argo.MaxSurge(l)
		}
	})
}
