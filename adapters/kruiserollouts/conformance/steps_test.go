package conformance

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	rolloutsv1alpha1 "github.com/openkruise/rollouts/api/v1alpha1"
	"github.com/openkruise/rollouts/api/v1beta1"
	batchcontext "github.com/openkruise/rollouts/pkg/controller/batchrelease/context"
	"github.com/openkruise/rollouts/pkg/controller/batchrelease/control"
	deploymentctl "github.com/openkruise/rollouts/pkg/controller/deployment"
	deploymentutil "github.com/openkruise/rollouts/pkg/controller/deployment/util"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// Differential properties of the step functions: each draws inputs, calls
// kruise-rollout v0.6.3's function and package batchrelease's, and fails
// on any difference that is not one of the documented ones (each checked
// against a model of both sides, and counted in the table -v prints).

// malformed are int-or-percent texts the strict reader handles in its
// own ways: rejected ("", "5", "abc", "2.5%", "%"), or read by Atoi
// ("+5%", "-5%", "05%"), or beyond int32 ("2147483648%", and one whose
// product with a large total exceeds 2^53).
var malformed = []string{"", "5", "abc", "2.5%", "%", "+5%", "-5%", "05%", "2147483648%", "99999999999%", "100 %", "1e2%"}

// genValue draws an int-or-percent as a manifest may hold it: mostly
// counts and percents near the useful range, sometimes any int32 or a
// malformed text.
func genValue(t *rapid.T, label string) intstr.IntOrString {
	switch rapid.IntRange(0, 9).Draw(t, label+".shape") {
	case 0, 1, 2:
		return intstr.FromInt(rapid.IntRange(-5, 120).Draw(t, label+".int"))
	case 3:
		return intstr.FromInt(int(rapid.Int32().Draw(t, label+".int32")))
	case 4:
		return intstr.FromString(rapid.SampledFrom(malformed).Draw(t, label+".malformed"))
	case 5:
		return intstr.FromString(strconv.Itoa(int(rapid.Int32().Draw(t, label+".pct32"))) + "%")
	default:
		return intstr.FromString(strconv.Itoa(rapid.IntRange(-5, 250).Draw(t, label+".pct")) + "%")
	}
}

// genReplicas draws a workload's replicas: mostly up to 1,000, sometimes
// any non-negative int32.
func genReplicas(t *rapid.T, label string) int32 {
	if rapid.IntRange(0, 9).Draw(t, label+".big") == 0 {
		return rapid.Int32Range(0, math.MaxInt32).Draw(t, label+".int32")
	}
	return rapid.Int32Range(0, 1000).Draw(t, label)
}

func lib(v intstr.IntOrString) intorpercent.IntOrString { return *convertIntOrString(&v) }

func TestCalculateBatchReplicasMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(t, "batches")
		up := &v1beta1.BatchRelease{}
		rel := &batchrelease.Release{}
		for k := 0; k < n; k++ {
			v := genValue(t, "canaryReplicas")
			up.Spec.ReleasePlan.Batches = append(up.Spec.ReleasePlan.Batches, v1beta1.ReleaseBatch{CanaryReplicas: v})
			rel.Batches = append(rel.Batches, batchrelease.Batch{CanaryReplicas: lib(v)})
		}
		r := genReplicas(t, "replicas")
		i := rapid.IntRange(0, n-1).Draw(t, "currentBatch")
		want := control.CalculateBatchReplicas(up, int(r), i)
		got, err := batchrelease.BatchReplicas(rel, r, int32(i))
		if err != nil || int(got) != want {
			t.Fatalf("BatchReplicas(%v, %d, %d) = %d, %v; CalculateBatchReplicas %d", rel.Batches[i].CanaryReplicas, r, i, got, err, want)
		}
		count("CalculateBatchReplicas", "agree")
	})
}

func TestParseIntegerAsPercentageIfPossibleMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var stable, all int32
		if rapid.IntRange(0, 9).Draw(t, "big") == 0 {
			all = rapid.Int32Range(1, math.MaxInt32).Draw(t, "all32")
			stable = rapid.Int32Range(-1, all).Draw(t, "stable32")
		} else {
			all = rapid.Int32Range(0, 10000).Draw(t, "all")
			stable = rapid.Int32Range(-2, all+2).Draw(t, "stable")
		}
		batch := rapid.SampledFrom([]intstr.IntOrString{
			intstr.FromString("100%"), intstr.FromString("50%"), intstr.FromString("1%"), intstr.FromInt(3), intstr.FromString("abc"),
		}).Draw(t, "batch")
		want := control.ParseIntegerAsPercentageIfPossible(stable, all, &batch)
		got := batchrelease.PercentPartition(stable, all, lib(batch))
		if 0 < stable && stable < all && int64(stable)*100 > math.MaxInt32 {
			// Documented difference: upstream computes stable*100 in
			// int32, which wraps; the library computes it in int64. Both
			// sides checked against their models.
			upModel := modelPercentPartition(int64(int32(stable*100)), all, batch)
			libModel := modelPercentPartition(int64(stable)*100, all, batch)
			if want.String() != upModel || got.String() != libModel {
				t.Fatalf("(%d, %d): upstream %s (model %s), library %s (model %s)", stable, all, want.String(), upModel, got.String(), libModel)
			}
			class := "agree"
			if want.String() != got.String() {
				class = "int32 product wraps upstream (stable > 21,474,836)"
			}
			count("ParseIntegerAsPercentageIfPossible", class)
			return
		}
		if want.Type == intstr.String && got.IsString && want.StrVal == got.Str {
			count("ParseIntegerAsPercentageIfPossible", "agree")
			return
		}
		t.Fatalf("PercentPartition(%d, %d, %v) = %v; upstream %v", stable, all, batch.String(), got, want.String())
	})
}

// modelPercentPartition is ParseIntegerAsPercentageIfPossible for
// 0 < stable < all, given the product stable*100 as each side computes
// it: p = product / all (truncated); "1%" when ceil(p*all/100) <= 0 and
// the batch is not "100%"; else "p%".
func modelPercentPartition(product int64, all int32, batch intstr.IntOrString) string {
	p := product / int64(all)
	restored := math.Ceil(float64(p) * float64(all) / 100)
	if restored <= 0 && batch.StrVal != "100%" {
		return "1%"
	}
	return fmt.Sprintf("%d%%", p)
}

func TestIsCurrentMoreThanOrEqualToDesiredMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cur, des := genValue(t, "current"), genValue(t, "desired")
		want := control.IsCurrentMoreThanOrEqualToDesired(cur, des)
		got := batchrelease.IsCurrentMoreThanOrEqualToDesired(lib(cur), lib(des))
		if got != want {
			t.Fatalf("IsCurrentMoreThanOrEqualToDesired(%s, %s) = %v; upstream %v", cur.String(), des.String(), got, want)
		}
		count("IsCurrentMoreThanOrEqualToDesired", "agree")
	})
}

func deploymentOf(replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "default"}, Spec: appsv1.DeploymentSpec{Replicas: &replicas}}
}

func TestNewRSReplicasLimitMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genValue(t, "partition")
		r := genReplicas(t, "replicas")
		if rapid.IntRange(0, 19).Draw(t, "negative") == 0 {
			r = rapid.Int32Range(math.MinInt32, -1).Draw(t, "negativeReplicas")
		}
		want := deploymentutil.NewRSReplicasLimit(p, deploymentOf(r))
		got := batchrelease.NewRSReplicasLimit(lib(p), r)
		if got != want {
			t.Fatalf("NewRSReplicasLimit(%s, %d) = %d; upstream %d", p.String(), r, got, want)
		}
		count("NewRSReplicasLimit", "agree")
	})
}

// genRSSizes draws spec.replicas of up to n ReplicaSets: mostly small,
// sometimes large enough for int32 sums to wrap.
func genRSSizes(t *rapid.T, label string, n int) []int32 {
	big := rapid.IntRange(0, 9).Draw(t, label+".big") == 0
	sizes := make([]int32, rapid.IntRange(0, n).Draw(t, label+".count"))
	for i := range sizes {
		if big {
			sizes[i] = rapid.Int32Range(0, math.MaxInt32).Draw(t, label)
		} else {
			sizes[i] = rapid.Int32Range(0, 1000).Draw(t, label)
		}
	}
	return sizes
}

func upstreamRS(name string, size int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: appsv1.ReplicaSetSpec{Replicas: &size}}
}

// wraps reports whether adding the sizes in int32, in order, wraps.
func wraps(sizes ...int32) bool {
	var s32 int32
	var s64 int64
	for _, v := range sizes {
		s32 += v
		s64 += int64(v)
		if int64(s32) != s64 {
			return true
		}
	}
	return false
}

func TestScaleDownLimitForOldMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := genRSSizes(t, "old", 4)
		newSize := rapid.Int32Range(0, 1000).Draw(t, "new")
		r := genReplicas(t, "replicas")
		p := genValue(t, "partition")
		var upOld []*appsv1.ReplicaSet
		var libOld []batchrelease.ReplicaSet
		for i, s := range old {
			upOld = append(upOld, upstreamRS(fmt.Sprintf("old-%d", i), s))
			libOld = append(libOld, batchrelease.ReplicaSet{Name: fmt.Sprintf("old-%d", i), Replicas: s})
		}
		want := deploymentctl.ScaleDownLimitForOld(upOld, upstreamRS("new", newSize), deploymentOf(r), p)
		got := batchrelease.ScaleDownLimitForOld(libOld, batchrelease.ReplicaSet{Name: "new", Replicas: newSize}, r, lib(p))

		// Model of both sides: Σ old - (R - max(limit, new)), upstream in
		// int32 (wrapping), the library in int64.
		desiredNew := max(int64(batchrelease.NewRSReplicasLimit(lib(p), r)), int64(newSize))
		var sum32 int32
		var sum64 int64
		for _, s := range old {
			sum32 += s
			sum64 += int64(s)
		}
		upModel := sum32 - (r - int32(desiredNew))
		libModel := sum64 - (int64(r) - desiredNew)
		if want != upModel || got != libModel {
			t.Fatalf("ScaleDownLimitForOld(old %v, new %d, R %d, %s): upstream %d (model %d), library %d (model %d)", old, newSize, r, p.String(), want, upModel, got, libModel)
		}
		class := "agree"
		if int64(want) != got {
			if !wraps(old...) && int64(upModel) == libModel {
				t.Fatalf("difference without an int32 wrap: upstream %d, library %d", want, got)
			}
			class = "int32 sum wraps upstream"
		}
		count("ScaleDownLimitForOld", class)
	})
}

// genStrategy draws the advanced Deployment strategy annotation's fields
// the new-ReplicaSet rule reads.
func genStrategy(t *rapid.T) (*rolloutsv1alpha1.DeploymentStrategy, batchrelease.DeploymentStrategy) {
	up := &rolloutsv1alpha1.DeploymentStrategy{RollingStyle: rolloutsv1alpha1.PartitionRollingStyle, Partition: genValue(t, "partition")}
	lb := batchrelease.DeploymentStrategy{RollingStyle: batchrelease.Partition, Partition: lib(up.Partition)}
	if rapid.IntRange(0, 4).Draw(t, "noRollingUpdate") > 0 {
		up.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		lb.RollingUpdate = &batchrelease.RollingUpdate{}
		if rapid.Bool().Draw(t, "maxSurge") {
			v := genValue(t, "maxSurge")
			up.RollingUpdate.MaxSurge = &v
			lb.RollingUpdate.MaxSurge = convertIntOrString(&v)
		}
		if rapid.Bool().Draw(t, "maxUnavailable") {
			v := genValue(t, "maxUnavailable")
			up.RollingUpdate.MaxUnavailable = &v
			lb.RollingUpdate.MaxUnavailable = convertIntOrString(&v)
		}
	}
	return up, lb
}

func TestNewRSNewReplicasMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genReplicas(t, "replicas")
		old := genRSSizes(t, "old", 3)
		newSize := rapid.Int32Range(0, max(r, 0)).Draw(t, "new")
		if rapid.IntRange(0, 9).Draw(t, "newAboveR") == 0 {
			newSize = rapid.Int32Range(0, math.MaxInt32).Draw(t, "new32")
		}
		upStrategy, libStrategy := genStrategy(t)
		upNew := upstreamRS("new", newSize)
		libNew := batchrelease.ReplicaSet{Name: "new", Replicas: newSize}
		upAll := []*appsv1.ReplicaSet{upNew}
		libAll := []batchrelease.ReplicaSet{libNew}
		for i, s := range old {
			upAll = append(upAll, upstreamRS(fmt.Sprintf("old-%d", i), s))
			libAll = append(libAll, batchrelease.ReplicaSet{Name: fmt.Sprintf("old-%d", i), Replicas: s})
		}
		want, err := deploymentutil.NewRSNewReplicas(deploymentOf(r), upAll, upNew, upStrategy)
		if err != nil {
			t.Fatalf("upstream error %v", err)
		}
		got := batchrelease.NewRSNewReplicas(r, libAll, libNew, libStrategy)
		if got == want {
			count("NewRSNewReplicas (advanced Deployment)", "agree")
			return
		}
		// Documented difference: upstream sums the ReplicaSets (and
		// R + maxSurge) in int32, which wraps; the library in int64.
		// Both sides checked against their models.
		upModel, libModel := modelNewRSNewReplicas(r, append([]int32{newSize}, old...), newSize, libStrategy, true),
			modelNewRSNewReplicas(r, append([]int32{newSize}, old...), newSize, libStrategy, false)
		surge := batchrelease.MaxSurge(r, &libStrategy)
		if want != upModel || got != libModel || !(wraps(append([]int32{newSize}, old...)...) || wraps(r, surge)) {
			t.Fatalf("NewRSNewReplicas(R %d, new %d, old %v, partition %s) = %d (model %d); upstream %d (model %d)",
				r, newSize, old, upStrategy.Partition.String(), got, libModel, want, upModel)
		}
		count("NewRSNewReplicas (advanced Deployment)", "int32 sum wraps upstream")
	})
}

// modelNewRSNewReplicas is the new-ReplicaSet rule of the advanced
// Deployment controller with its sums in int32 (wrapping, as upstream)
// or int64 (as the library).
func modelNewRSNewReplicas(r int32, all []int32, newSize int32, s batchrelease.DeploymentStrategy, wrap32 bool) int32 {
	var total int64
	var total32 int32
	for _, v := range all {
		total += int64(v)
		total32 += v
	}
	surge := batchrelease.MaxSurge(r, &s)
	maxTotal := int64(r) + int64(surge)
	if wrap32 {
		total = int64(total32)
		maxTotal = int64(r + surge)
	}
	if total <= int64(newSize) {
		return r
	}
	limit := batchrelease.NewRSReplicasLimit(s.Partition, r)
	if newSize >= limit || total >= maxTotal {
		return newSize
	}
	up := min(maxTotal-total, int64(r)-int64(newSize))
	if wrap32 {
		up = int64(int32(min(int(int32(maxTotal-total)), int(r-newSize))))
		return min(newSize+int32(up), limit)
	}
	return int32(min(int64(newSize)+up, int64(limit)))
}

func TestIsBatchReadyMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		desired := rapid.Int32Range(0, 50).Draw(t, "desired")
		updated := rapid.Int32Range(0, 60).Draw(t, "updated")
		ready := rapid.Int32Range(0, updated).Draw(t, "updatedReady")
		planned := rapid.Int32Range(0, 50).Draw(t, "planned")
		if rapid.IntRange(0, 19).Draw(t, "big") == 0 {
			desired, updated, ready, planned = rapid.Int32().Draw(t, "desired32"), rapid.Int32().Draw(t, "updated32"),
				rapid.Int32().Draw(t, "ready32"), rapid.Int32().Draw(t, "planned32")
		}
		var threshold *intstr.IntOrString
		if rapid.Bool().Draw(t, "threshold") {
			v := genValue(t, "failureThreshold")
			threshold = &v
		}
		rolloutID := rapid.SampledFrom([]string{"", "v1"}).Draw(t, "rolloutID")
		pods := genPods(t, "v1")

		// Upstream's context holds the pods ListOwnedPods returned: the
		// completed ones are not among them.
		var listed []*corev1.Pod
		for _, p := range pods {
			if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				listed = append(listed, p)
			}
		}
		up := &batchcontext.BatchContext{
			RolloutID: rolloutID, UpdatedReplicas: updated, UpdatedReadyReplicas: ready,
			PlannedUpdatedReplicas: planned, DesiredUpdatedReplicas: desired, FailureThreshold: threshold, Pods: listed,
		}
		w := batchrelease.Workload{}
		if err := kruiserollouts.Pods(&w, pods, rolloutID); err != nil {
			t.Fatal(err)
		}
		c := &batchrelease.BatchContext{
			RolloutID: rolloutID, UpdatedReplicas: updated, UpdatedReadyReplicas: ready,
			PlannedUpdatedReplicas: planned, DesiredUpdatedReplicas: desired, FailureThreshold: convertIntOrString(threshold),
			Pods: w.Status.Pods,
		}
		sameReadiness(t, up, c)
		count("BatchContext.IsBatchReady", "agree")
	})
}

// sameReadiness compares upstream's IsBatchReady (nil or an error) with
// the library's Readiness and its message, full text.
func sameReadiness(t *rapid.T, up *batchcontext.BatchContext, c *batchrelease.BatchContext) {
	t.Helper()
	err := up.IsBatchReady()
	r := c.IsBatchReady()
	switch {
	case err == nil && r == batchrelease.BatchReady:
	case err != nil && r != batchrelease.BatchReady && err.Error() == r.Message(c):
	default:
		t.Fatalf("IsBatchReady: library %v %q; upstream %v", r, r.Message(c), err)
	}
}

// genPods draws the pods of a workload as the batch readiness check
// reads them: some carry the rollout-id label (of this release or
// another), some are terminating, some completed, some have a controller
// owner.
func genPods(t *rapid.T, rolloutID string) []*corev1.Pod {
	n := rapid.IntRange(0, 8).Draw(t, "pods")
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Namespace: "default", Labels: map[string]string{"app": "demo"}}}
		switch rapid.IntRange(0, 3).Draw(t, "label") {
		case 1, 2:
			p.Labels[kruiserollouts.RolloutIDLabel] = rolloutID
		case 3:
			p.Labels[kruiserollouts.RolloutIDLabel] = "other"
		}
		if rapid.IntRange(0, 4).Draw(t, "terminating") == 0 {
			now := metav1.Now()
			p.DeletionTimestamp = &now
			p.Finalizers = []string{"example.com/hold"}
		}
		p.Status.Phase = rapid.SampledFrom([]corev1.PodPhase{corev1.PodRunning, corev1.PodRunning, corev1.PodPending, corev1.PodSucceeded, corev1.PodFailed}).Draw(t, "phase")
		pods[i] = p
	}
	return pods
}
