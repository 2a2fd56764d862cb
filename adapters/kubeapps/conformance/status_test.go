package conformance

import (
	"context"
	"math"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// near draws a counter equal or close to r, or anything.
func near(t *rapid.T, label string, r int32) int32 {
	return rapid.OneOf(
		rapid.Just(r),
		rapid.Just(max(r-1, 0)),
		rapid.Just(min(r, math.MaxInt32-1)+1),
		count32(),
	).Draw(t, label)
}

// status draws a Deployment status whose counters are often R or close.
func status(t *rapid.T, label string, r int32, generation int64) appsv1.DeploymentStatus {
	return appsv1.DeploymentStatus{
		ObservedGeneration: rapid.Int64Range(max(generation-1, 0), generation+1).Draw(t, label+".observedGeneration"),
		Replicas:           near(t, label+".replicas", r),
		UpdatedReplicas:    near(t, label+".updatedReplicas", r),
		ReadyReplicas:      near(t, label+".readyReplicas", r),
		AvailableReplicas:  near(t, label+".availableReplicas", r),
	}
}

func TestCompleteMatchesDeploymentComplete(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Draw(t, "deployment")
		s := status(t, "newStatus", *d.Spec.Replicas, d.Generation)
		ours, os := convert(t, d), kubeapps.Status(&s)
		got, up := rollout.Complete(&ours, &os), deploymentutil.DeploymentComplete(d, &s)
		if got != up {
			t.Fatalf("Complete = %v, upstream %v (R %d, status %+v)", got, up, *d.Spec.Replicas, s)
		}
		count("DeploymentComplete", "agree")
	})
}

func TestProgressingMatchesDeploymentProgressing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Draw(t, "deployment")
		r := *d.Spec.Replicas
		d.Status = status(t, "oldStatus", r, d.Generation)
		s := status(t, "newStatus", r, d.Generation)
		ours, os := convert(t, d), kubeapps.Status(&s)
		got, up := rollout.Progressing(&ours, &os), deploymentutil.DeploymentProgressing(d, &s)
		if got != up {
			t.Fatalf("Progressing = %v, upstream %v (old %+v, new %+v)", got, up, d.Status, s)
		}
		count("DeploymentProgressing", "agree")
	})
}

// TestTimedOutMatchesDeploymentTimedOut compares at the present time,
// because upstream reads the clock: generated LastUpdateTimes stay at
// least two seconds away from the deadline, so the instants at which the
// two functions read the time cannot fall on different sides of it. The
// exact boundary (not timed out at the deadline itself) is covered by
// the rollout package's own tests.
func TestTimedOutMatchesDeploymentTimedOut(t *testing.T) {
	reasons := []string{rollout.ReasonNewReplicaSetAvailable, rollout.ReasonProgressDeadlineExceeded,
		rollout.ReasonReplicaSetUpdated, rollout.ReasonFoundNewReplicaSet, rollout.ReasonDeploymentResumed}
	rapid.Check(t, func(t *rapid.T) {
		d := deployment().Draw(t, "deployment")
		pds := rapid.OneOf(rapid.Int32Range(0, 1000), rapid.Just(int32(600)), rapid.Just(int32(math.MaxInt32)),
			rapid.Int32Range(math.MaxInt32-10, math.MaxInt32-1)).Draw(t, "progressDeadlineSeconds")
		d.Spec.ProgressDeadlineSeconds = &pds
		undefaulted := d
		if pds == 600 && rapid.Bool().Draw(t, "nilDeadline") {
			// nil is the API default, 600 s, for the library.
			undefaulted = d.DeepCopy()
			undefaulted.Spec.ProgressDeadlineSeconds = nil
		}
		now := time.Now()
		var s appsv1.DeploymentStatus
		if rapid.IntRange(0, 5).Draw(t, "noCondition") > 0 {
			offset := rapid.Int64Range(2, 4000).Draw(t, "secondsFromDeadline")
			if rapid.Bool().Draw(t, "beforeDeadline") {
				offset = -offset
			}
			// LastUpdateTime + pds = now + offset.
			last := now.Add(time.Duration(offset)*time.Second - time.Duration(pds)*time.Second)
			last = last.In(rapid.SampledFrom(zones).Draw(t, "zone"))
			s.Conditions = []appsv1.DeploymentCondition{
				{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: rollout.ReasonMinimumReplicasAvailable},
				{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue,
					Reason:         rapid.SampledFrom(reasons).Draw(t, "reason"),
					LastUpdateTime: metav1.NewTime(last)},
			}
		}
		ours, os := convert(t, undefaulted), kubeapps.Status(&s)
		got := rollout.TimedOut(&ours, &os, now)
		up := deploymentutil.DeploymentTimedOut(context.Background(), d, &s)
		if got != up {
			t.Fatalf("TimedOut = %v, upstream %v (deadline %d s, status %+v)", got, up, pds, s)
		}
		count("DeploymentTimedOut", "agree")
	})
}
