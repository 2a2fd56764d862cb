package rollout_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

func ExampleFenceposts() {
	surge, unavailable, _ := rollout.Fenceposts(intorpercent.Percent(25), intorpercent.Percent(25), 10)
	fmt.Println("25%/25% of 10:", surge, unavailable)
	surge, unavailable, _ = rollout.Fenceposts(intorpercent.Percent(25), intorpercent.Percent(25), 1)
	fmt.Println("25%/25% of 1:", surge, unavailable)
	// Both zero: maxUnavailable becomes 1 so the rollout can move.
	surge, unavailable, _ = rollout.Fenceposts(intorpercent.Int(0), intorpercent.Percent(1), 10)
	fmt.Println("0/1% of 10:", surge, unavailable)
	// Output:
	// 25%/25% of 10: 3 2
	// 25%/25% of 1: 1 0
	// 0/1% of 10: 0 1
}

func ExampleMaxSurge() {
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10} // nil bounds: the 25% defaults
	fmt.Println(rollout.MaxSurge(d))
	d.Strategy = rollout.Recreate
	fmt.Println(rollout.MaxSurge(d))
	// Output:
	// 3
	// 0
}

func ExampleMaxUnavailable() {
	ten := intorpercent.Int(10)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 5, MaxUnavailable: &ten}
	fmt.Println(rollout.MaxUnavailable(d)) // clamped to R
	// Output: 5
}

func ExampleMinAvailable() {
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10}
	fmt.Println(rollout.MinAvailable(d))
	// Output: 8
}

func ExampleDefaultMaxSurge() {
	fmt.Println(rollout.DefaultMaxSurge(), rollout.DefaultMaxUnavailable())
	// Output: 25% 25%
}

func ExampleDefaultMaxUnavailable() {
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 4}
	fmt.Println(rollout.DefaultMaxUnavailable(), "of 4 is", rollout.MaxUnavailable(d))
	// Output: 25% of 4 is 1
}

func ExampleDeployment_ProgressDeadline() {
	d := &rollout.Deployment[revision.Template[string]]{}
	fmt.Println(d.ProgressDeadline())
	none := rollout.NoLimit
	d.ProgressDeadlineSeconds = &none
	fmt.Println(d.ProgressDeadline())
	// Output:
	// 10m0s true
	// 0s false
}

func ExampleDeployment_HistoryLimit() {
	d := &rollout.Deployment[revision.Template[string]]{}
	fmt.Println(d.HistoryLimit())
	// Output: 10 true
}

func ExampleValidate() {
	over := intorpercent.Percent(120)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 3, MaxUnavailable: &over}
	fmt.Println(rollout.Validate(d))
	zero, zeroPct := intorpercent.Int(0), intorpercent.Percent(0)
	d = &rollout.Deployment[revision.Template[string]]{Replicas: 3, MaxSurge: &zero, MaxUnavailable: &zeroPct}
	fmt.Println(rollout.Validate(d))
	d = &rollout.Deployment[revision.Template[string]]{Replicas: -1, Strategy: "Canary"}
	fmt.Println(rollout.Validate(d))
	// Output:
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0
	// [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.strategy: Unsupported value: {"Type":"Canary","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"]
}

func ExampleValidateReplicaSet() {
	rs := &rollout.ReplicaSet[revision.Template[string]]{Replicas: 3, StatusReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 3}
	fmt.Println(rollout.ValidateReplicaSet(rs))
	// Output: status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas
}

// Plan reports an invalid object with Validate's errors, prefixed with
// the object; errors.As finds each *field.Error.
func ExamplePlan_invalid() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	_, err := rollout.Plan(&rollout.Deployment[revision.Template[string]]{Name: "web", Replicas: -2}, nil, start)
	var fe *field.Error
	fmt.Println(errors.As(err, &fe), errors.Is(err, field.ErrInvalid), errors.Is(err, field.ErrNegative))
	fmt.Println(fe.Field, "|", fe.Prefix)
	fmt.Println(err)
	// Output:
	// true true true
	// spec.replicas | rollout: invalid Deployment "web"
	// rollout: invalid Deployment "web": spec.replicas: Invalid value: -2: must be greater than or equal to 0
}

func ExampleNewReplicas() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10}
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 0, StatusReplicas: 0, ReadyReplicas: 0, AvailableReplicas: 0},
	}
	n, _ := rollout.NewReplicas(d, rss, 1)
	fmt.Println("first step:", n) // 13 allowed, 10 exist
	rss = []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 8, StatusReplicas: 8, ReadyReplicas: 8, AvailableReplicas: 8},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 3, StatusReplicas: 3, ReadyReplicas: 0, AvailableReplicas: 0},
	}
	n, _ = rollout.NewReplicas(d, rss, 1)
	fmt.Println("second step:", n) // 13 allowed, 11 exist
	// Output:
	// first step: 3
	// second step: 5
}

func ExampleNewReplicas_errors() {
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 3, Strategy: "Canary"}
	_, err := rollout.NewReplicas(d, nil, -1)
	fmt.Println(err, errors.Is(err, field.ErrUnsupported))
	_, err = rollout.NewReplicas(&rollout.Deployment[revision.Template[string]]{Replicas: 3}, nil, 0)
	fmt.Println(err, errors.Is(err, field.ErrIndex))
	// Output:
	// deployment type Canary isn't supported true
	// rollout: newRS: 0 is out of range [-1, 0) true
}

func ExampleReconcileNew() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 5}
	rss := []rollout.ReplicaSet[revision.Template[string]]{ // too large after a scale-down
		{Name: "new", CreationTime: start, Replicas: 8, StatusReplicas: 8, ReadyReplicas: 8, AvailableReplicas: 8},
	}
	n, _ := rollout.ReconcileNew(d, rss, 0)
	fmt.Println(n)
	// Output: 5
}

func ExampleMaxScaledDown() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10}
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 3, StatusReplicas: 3, ReadyReplicas: 0, AvailableReplicas: 0},
	}
	fmt.Println(rollout.MaxScaledDown(d, rss, 1)) // 13 pods - 8 must stay - 3 new unavailable
	// Output: 2
}

func ExampleCleanupUnhealthy() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 10, StatusReplicas: 10, ReadyReplicas: 7, AvailableReplicas: 7},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 3, StatusReplicas: 3, ReadyReplicas: 0, AvailableReplicas: 0},
	}
	sizes := []int32{10, 3}
	n, err := rollout.CleanupUnhealthy(rss, 1, 2, sizes)
	fmt.Println(n, err, sizes)
	// Output: 2 <nil> [8 3]
}

func ExampleStaleStatusError_Error() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	rss := []rollout.ReplicaSet[revision.Template[string]]{ // scaled to 3, status still shows 5
		{Name: "old", CreationTime: start, Replicas: 3, StatusReplicas: 5, ReadyReplicas: 5, AvailableReplicas: 5},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 3, StatusReplicas: 3, ReadyReplicas: 0, AvailableReplicas: 0},
	}
	_, err := rollout.CleanupUnhealthy(rss, 1, 2, []int32{3, 3})
	fmt.Println(err)
	fmt.Println(errors.Is(err, rollout.ErrStaleStatus))
	// Output:
	// when cleaning up unhealthy replicas, got invalid request to scale down old 3 -> 5
	// true
}

func ExampleScaleDownOld() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10}
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "oldest", CreationTime: start, Replicas: 4, StatusReplicas: 4, ReadyReplicas: 4, AvailableReplicas: 4},
		{Name: "older", CreationTime: start.Add(3 * time.Minute), Replicas: 4, StatusReplicas: 4, ReadyReplicas: 4, AvailableReplicas: 4},
		{Name: "new", CreationTime: start.Add(6 * time.Minute), Replicas: 5, StatusReplicas: 5, ReadyReplicas: 3, AvailableReplicas: 3},
	}
	sizes := []int32{4, 4, 5}
	n, _ := rollout.ScaleDownOld(d, rss, 2, sizes) // 11 available, 8 must stay
	fmt.Println(n, sizes)
	// Output: 3 [1 4 5]
}

func ExampleReconcileOld() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10}
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 3, StatusReplicas: 3, ReadyReplicas: 0, AvailableReplicas: 0},
	}
	sizes := []int32{10, 3}
	n, _ := rollout.ReconcileOld(d, rss, 1, sizes)
	fmt.Println(n, sizes)
	// Output: 2 [8 3]
}

func ExampleIsSaturated() {
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 3}
	rs := &rollout.ReplicaSet[revision.Template[string]]{Replicas: 3, AvailableReplicas: 3,
		Annotations: map[string]string{revision.DesiredReplicasAnnotation: "3"}}
	fmt.Println(rollout.IsSaturated(d, rs))
	rs.AvailableReplicas = 2
	fmt.Println(rollout.IsSaturated(d, rs))
	// Output:
	// true
	// false
}

func ExampleCalculateStatus() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10}
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 8, StatusReplicas: 8, ReadyReplicas: 8, AvailableReplicas: 8},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 5, StatusReplicas: 5, ReadyReplicas: 3, AvailableReplicas: 3},
	}
	s := rollout.CalculateStatus(d, rss, 1, start)
	fmt.Printf("replicas %d updated %d available %d unavailable %d\n", s.Replicas, s.UpdatedReplicas, s.AvailableReplicas, s.UnavailableReplicas)
	c, _ := rollout.FindCondition(s.Conditions, rollout.DeploymentAvailable)
	fmt.Println(c.Status, c.Reason)
	// Output:
	// replicas 13 updated 5 available 11 unavailable 2
	// True MinimumReplicasAvailable
}

func ExampleTerminatingReplicas() {
	two, zero := int32(2), int32(0)
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{TerminatingReplicas: &two, ObservedGeneration: 1},
		{TerminatingReplicas: &zero, ObservedGeneration: 1},
		{}, // never synced: counts as 0
	}
	fmt.Println(*rollout.TerminatingReplicas(rss))
	rss = append(rss, rollout.ReplicaSet[revision.Template[string]]{ObservedGeneration: 1}) // synced, not reported
	fmt.Println(rollout.TerminatingReplicas(rss) == nil)
	// Output:
	// 2
	// true
}

func ExampleComplete() {
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 5, Generation: 1}
	s := &rollout.Status{ObservedGeneration: 1, Replicas: 5, UpdatedReplicas: 5, AvailableReplicas: 4}
	fmt.Println(rollout.Complete(d, s))
	s.AvailableReplicas = 5
	fmt.Println(rollout.Complete(d, s))
	// Output:
	// false
	// true
}

func ExampleProgressing() {
	d := &rollout.Deployment[revision.Template[string]]{Status: rollout.Status{Replicas: 10, UpdatedReplicas: 4, ReadyReplicas: 7, AvailableReplicas: 7}}
	fmt.Println(rollout.Progressing(d, &rollout.Status{Replicas: 8, UpdatedReplicas: 8, ReadyReplicas: 5, AvailableReplicas: 5}))
	fmt.Println(rollout.Progressing(d, &d.Status))
	// Output:
	// true
	// false
}

func ExampleTimedOut() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ten := int32(10)
	d := &rollout.Deployment[revision.Template[string]]{ProgressDeadlineSeconds: &ten}
	s := &rollout.Status{Conditions: []rollout.Condition{
		rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "", start),
	}}
	fmt.Println(rollout.TimedOut(d, s, start.Add(10*time.Second))) // at the deadline: not yet
	fmt.Println(rollout.TimedOut(d, s, start.Add(11*time.Second)))
	// Output:
	// false
	// true
}

func ExampleNewCondition() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c := rollout.NewCondition(rollout.DeploymentAvailable, rollout.ConditionTrue, rollout.ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", start)
	fmt.Println(c.Type, c.Status, c.Reason, c.LastTransitionTime.Format(time.RFC3339))
	// Output: Available True MinimumReplicasAvailable 2026-01-01T12:00:00Z
}

func ExampleFindCondition() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	conds := []rollout.Condition{rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue, rollout.ReasonNewReplicaSetAvailable, "", start)}
	c, ok := rollout.FindCondition(conds, rollout.DeploymentProgressing)
	fmt.Println(c.Reason, ok)
	_, ok = rollout.FindCondition(conds, rollout.DeploymentReplicaFailure)
	fmt.Println(ok)
	// Output:
	// NewReplicaSetAvailable true
	// false
}

func ExampleSetCondition() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	conds := []rollout.Condition{rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "progressing", start)}
	later := start.Add(time.Minute)
	// Same status, new reason: replaced, the transition time is kept.
	conds = rollout.SetCondition(conds, rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue, rollout.ReasonNewReplicaSetAvailable, "done", later))
	c := conds[0]
	fmt.Println(c.Reason, c.LastUpdateTime.Format("15:04"), c.LastTransitionTime.Format("15:04"))
	// Same status and reason: nothing changes, not even the message.
	conds = rollout.SetCondition(conds, rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue, rollout.ReasonNewReplicaSetAvailable, "again", later.Add(time.Hour)))
	fmt.Println(conds[0].Message)
	// Output:
	// NewReplicaSetAvailable 12:01 12:00
	// done
}

func ExampleRemoveCondition() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	conds := []rollout.Condition{
		rollout.NewCondition(rollout.DeploymentAvailable, rollout.ConditionTrue, rollout.ReasonMinimumReplicasAvailable, "", start),
		rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "", start),
	}
	fmt.Println(len(rollout.RemoveCondition(conds, rollout.DeploymentProgressing)), len(conds))
	// Output: 1 2
}

func ExampleRolloutStatus() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Replicas: 10, Generation: 2,
		Status: rollout.Status{ObservedGeneration: 2, Replicas: 13, UpdatedReplicas: 5, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 5, StatusReplicas: 5, ReadyReplicas: 5, AvailableReplicas: 5},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 8, StatusReplicas: 8, ReadyReplicas: 5, AvailableReplicas: 5},
	}
	rss[1].Name = "nginx-7c5b8d"
	s := rollout.RolloutStatus(d, rss, 1, start)
	c, _ := rollout.FindCondition(s.Conditions, rollout.DeploymentProgressing)
	fmt.Println(c.Status, c.Reason, c.Message)
	// Output: True ReplicaSetUpdated ReplicaSet "nginx-7c5b8d" is progressing.
}

func ExampleRequeue() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Replicas: 10, Status: rollout.Status{Conditions: []rollout.Condition{
		rollout.NewCondition(rollout.DeploymentProgressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "", start),
	}}}
	stuck := &rollout.Status{Replicas: 10, UpdatedReplicas: 5, AvailableReplicas: 8}
	fmt.Println(rollout.Requeue(d, stuck, start.Add(570*time.Second))) // 30 s left, plus a second
	// Output: 31s true
}

func ExamplePausedConditions() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d := &rollout.Deployment[revision.Template[string]]{Paused: true}
	conds, changed := rollout.PausedConditions(d, start)
	fmt.Println(changed, conds[0].Status, conds[0].Reason, conds[0].Message)
	// Output: true Unknown DeploymentPaused Deployment is paused
}

func ExamplePlan() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	s, err := rollout.Plan(d, rss, start)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Path)
	for _, a := range s.Actions {
		fmt.Printf("%s %s %d -> %d\n", a.Kind, a.ReplicaSet, a.From, a.To)
	}
	fmt.Println("deployment revision", s.Deployment.Annotations[revision.RevisionAnnotation])
	// Output:
	// RollingUpdate
	// CreateReplicaSet nginx-5dcbf9fdb7 0 -> 3
	// ScaleReplicaSet nginx-6d4cf56db6 10 -> 8
	// deployment revision 2
}

func ExamplePlanWith() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Old pods still terminating hold back the new ReplicaSet when
	// terminating pods count against maxSurge.
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	three := int32(3)
	rss[0].Replicas, rss[0].StatusReplicas, rss[0].ReadyReplicas, rss[0].AvailableReplicas = 8, 8, 8, 8
	rss[0].TerminatingReplicas = &three
	for _, surge := range []rollout.SurgePolicy{rollout.SurgeIgnoresTerminating, rollout.SurgeCountsTerminating} {
		s, _ := rollout.PlanWith(d, rss, start, rollout.Options{Surge: surge})
		fmt.Printf("%v: new ReplicaSet at %d\n", surge, s.ReplicaSets[s.NewReplicaSet].Replicas)
	}
	// Output:
	// SurgeIgnoresTerminating: new ReplicaSet at 5
	// SurgeCountsTerminating: new ReplicaSet at 2
}

func ExamplePlan_duplicateNames() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// The same ReplicaSet listed twice is refused, not scaled twice.
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	rss = append(rss, rss[0])
	_, err := rollout.Plan(d, rss, start)
	fmt.Println(err)
	fmt.Println(errors.Is(err, field.ErrInvalid), errors.Is(err, field.ErrDuplicate))
	// Output:
	// rollout: rss[1].Name: "nginx-6d4cf56db6" duplicates rss[0].Name
	// true true
}

// A settled deployment whose minReadySeconds changed from 0 to 10: the
// new ReplicaSet still has 0, so the sync rewrites it (its generation
// rises) and leaves the deployment's revision annotation for the next
// sync. A nil MinReadySeconds (not known) would skip the write.
func ExamplePlan_minReadySeconds() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available).
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	d.MinReadySeconds = 10
	zero := int32(0)
	rss[0].MinReadySeconds = &zero
	s, err := rollout.Plan(d, rss, start)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range s.Actions {
		fmt.Println(a.Kind, a.Reason)
	}
	n := s.ReplicaSets[s.NewReplicaSet]
	fmt.Println("minReadySeconds", *n.MinReadySeconds, "generation", n.Generation)
	// Output:
	// AnnotateReplicaSet set minReadySeconds of new ReplicaSet nginx-6d4cf56db6 from 0 to the deployment's 10
	// minReadySeconds 10 generation 2
}

func ExamplePlan_counterOverflow() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// A rollback ends with an update that raises metadata.generation; at
	// math.MaxInt64 that would wrap, and the API server would reject it.
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	d.Generation = math.MaxInt64
	d.RollbackTo = new(int64) // the previous revision
	_, err := rollout.Plan(d, rss, start)
	fmt.Println(errors.Is(err, rollout.ErrCounterOverflow))
	fmt.Println(err)
	// Output:
	// true
	// rollout: Deployment "nginx": metadata.generation is 9223372036854775807; the rollback's update would wrap it to -9223372036854775808, which the API server rejects: counter overflow
}

func ExampleSimulate() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available).
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	tr, err := rollout.Simulate(d, rss, rollout.Config[revision.Template[string]]{
		Start: start, Interval: 10 * time.Second, ReadyDelay: 10 * time.Second,
		Events: []rollout.Event[revision.Template[string]]{{Sync: 1, Kind: rollout.SetTemplate, Template: revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"}}},
	})
	if err != nil {
		panic(err)
	}
	for _, s := range tr.Steps {
		fmt.Printf("sync %d:", s.Sync)
		for _, r := range s.ReplicaSets {
			fmt.Printf(" %s %d/%d", r.Name, r.Desired, r.Available)
		}
		fmt.Println()
	}
	fmt.Println(tr.Outcome)
	// Output:
	// sync 1: nginx-6d4cf56db6 8/10 nginx-5dcbf9fdb7 3/0
	// sync 2: nginx-6d4cf56db6 8/8 nginx-5dcbf9fdb7 5/0
	// sync 3: nginx-6d4cf56db6 5/8 nginx-5dcbf9fdb7 5/3
	// sync 4: nginx-6d4cf56db6 5/5 nginx-5dcbf9fdb7 8/5
	// sync 5: nginx-6d4cf56db6 3/5 nginx-5dcbf9fdb7 8/5
	// sync 6: nginx-6d4cf56db6 3/3 nginx-5dcbf9fdb7 10/8
	// sync 7: nginx-6d4cf56db6 0/3 nginx-5dcbf9fdb7 10/8
	// sync 8: nginx-6d4cf56db6 0/0 nginx-5dcbf9fdb7 10/10
	// Complete
}

func ExampleTrace_String() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available).
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	d.Strategy, d.Replicas = rollout.Recreate, 2
	rss[0].Replicas, rss[0].StatusReplicas, rss[0].ReadyReplicas, rss[0].AvailableReplicas = 2, 2, 2, 2
	rss[0].Annotations[revision.DesiredReplicasAnnotation] = "2"
	rss[0].Annotations[revision.MaxReplicasAnnotation] = "2"
	tr, _ := rollout.Simulate(d, rss, rollout.Config[revision.Template[string]]{
		Start:  start,
		Events: []rollout.Event[revision.Template[string]]{{Sync: 1, Kind: rollout.SetTemplate, Template: revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:2"}}},
	})
	fmt.Println(tr.String())
	// Output:
	// sync 1 (+10s) Recreate: nginx-6d4cf56db6 0 (2/2/2) | scaled down old ReplicaSet nginx-6d4cf56db6 from 2 to 0: Recreate stops every old pod before starting new ones
	// sync 2 (+20s) Recreate: nginx-6d4cf56db6 0 (0/0/0) nginx-7c6756d746 2 (0/0/0) | created new ReplicaSet nginx-7c6756d746 (revision 2) at 2: Recreate starts all 2 pods once the old ones are gone
	// sync 3 (+30s) Recreate: nginx-6d4cf56db6 0 (0/0/0) nginx-7c6756d746 2 (2/2/2) | rollout complete: 2 of 2 pods updated and available
	// Complete after 4 syncs
}

func ExampleStep_String() {
	s := rollout.Step{Sync: 3, Elapsed: 30 * time.Second, Path: rollout.PathRollingUpdate,
		ReplicaSets: []rollout.ReplicaSetState{{Name: "web-1", Desired: 5, Current: 8, Ready: 8, Available: 8}, {Name: "web-2", New: true, Desired: 5, Current: 5, Ready: 3, Available: 3}},
		Reason:      "scaled down old ReplicaSet web-1 from 8 to 5"}
	fmt.Println(s)
	// Output: sync 3 (+30s) RollingUpdate: web-1 5 (8/8/8) web-2 5 (5/3/3) | scaled down old ReplicaSet web-1 from 8 to 5
}

func ExamplePath_String() {
	fmt.Println(rollout.PathRollingUpdate, rollout.PathScaling, rollout.PathPaused)
	// Output: RollingUpdate scaling paused
}

func ExamplePath_MarshalText() {
	b, _ := json.Marshal(struct{ Path rollout.Path }{rollout.PathRecreate})
	fmt.Println(string(b))
	// Output: {"Path":"Recreate"}
}

func ExampleActionKind_String() {
	fmt.Println(rollout.CreateReplicaSet, rollout.ScaleReplicaSet, rollout.DeleteReplicaSet)
	// Output: CreateReplicaSet ScaleReplicaSet DeleteReplicaSet
}

func ExampleActionKind_MarshalText() {
	b, _ := json.Marshal(rollout.Action{Kind: rollout.ScaleReplicaSet, ReplicaSet: "web-1", From: 8, To: 5, Reason: "..."})
	fmt.Println(string(b))
	// Output: {"kind":"ScaleReplicaSet","replicaSet":"web-1","from":8,"to":5,"reason":"..."}
}

func ExampleSurgePolicy_String() {
	fmt.Println(rollout.SurgeIgnoresTerminating, rollout.SurgeCountsTerminating)
	// Output: SurgeIgnoresTerminating SurgeCountsTerminating
}

func ExampleEventKind_String() {
	fmt.Println(rollout.SetTemplate, rollout.SetReplicas, rollout.Rollback)
	// Output: SetTemplate SetReplicas Rollback
}

func ExampleOutcome_String() {
	fmt.Println(rollout.OutcomeComplete, rollout.OutcomeTimedOut, rollout.OutcomeStalled)
	// Output: Complete TimedOut Stalled
}

func ExampleOutcome_MarshalText() {
	b, _ := json.Marshal(map[string]rollout.Outcome{"outcome": rollout.OutcomePaused})
	fmt.Println(string(b))
	// Output: {"outcome":"Paused"}
}

func ExampleStaleStatusError_Unwrap() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	rss := []rollout.ReplicaSet[revision.Template[string]]{
		{Name: "old", CreationTime: start, Replicas: 3, StatusReplicas: 5, ReadyReplicas: 5, AvailableReplicas: 5},
		{Name: "new", CreationTime: start.Add(3 * time.Minute), Replicas: 3, StatusReplicas: 3, ReadyReplicas: 0, AvailableReplicas: 0},
	}
	_, err := rollout.CleanupUnhealthy(rss, 1, 2, []int32{3, 3})
	var se *rollout.StaleStatusError
	fmt.Println(errors.As(err, &se), se.ReplicaSet, se.From, se.To)
	// Output: true old 3 5
}

func ExampleResizePolicy_String() {
	fmt.Println(rollout.ResizeUpstream, rollout.ResizeRefreshesAnnotations)
	// Output: ResizeUpstream ResizeRefreshesAnnotations
}

func ExamplePlanner_Plan() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// A controller's loop: one Planner, each Sync fed back as the next
	// input, the new ReplicaSet named once it is known. No pod becomes
	// available here, so the rollout stops at the limit of 13 pods.
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	var p rollout.Planner[revision.Template[string]]
	newRS := ""
	for range 3 {
		s, err := p.Plan(d, rss, start, newRS)
		if err != nil {
			panic(err)
		}
		for _, a := range s.Actions {
			fmt.Printf("%s %s %d -> %d\n", a.Kind, a.ReplicaSet, a.From, a.To)
		}
		if len(s.Actions) == 0 {
			fmt.Println("nothing to write")
		}
		d, rss, newRS = &s.Deployment, s.ReplicaSets, s.ReplicaSets[s.NewReplicaSet].Name
	}
	// Output:
	// CreateReplicaSet nginx-5dcbf9fdb7 0 -> 3
	// ScaleReplicaSet nginx-6d4cf56db6 10 -> 8
	// ScaleReplicaSet nginx-5dcbf9fdb7 3 -> 5
	// nothing to write
}

func ExamplePlanner_Explain() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// Deployment nginx, settled at nginx:1.9 (revision 1, 10 pods
	// available), after kubectl set image nginx:1.9.3.
	d := &rollout.Deployment[revision.Template[string]]{Name: "nginx", Generation: 2, Replicas: 10,
		Annotations: map[string]string{revision.RevisionAnnotation: "1"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9.3"},
		Status:      rollout.Status{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}}
	rss := []rollout.ReplicaSet[revision.Template[string]]{{Name: "nginx-6d4cf56db6", CreationTime: start.Add(-time.Hour),
		Annotations: map[string]string{revision.RevisionAnnotation: "1", revision.DesiredReplicasAnnotation: "10", revision.MaxReplicasAnnotation: "13"},
		Template:    revision.Template[string]{Labels: map[string]string{"app": "nginx"}, Spec: "nginx:1.9"},
		Replicas:    10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, Generation: 1, ObservedGeneration: 1}}
	var p rollout.Planner[revision.Template[string]]
	s, err := p.Plan(d, rss, start, "")
	if err != nil {
		panic(err)
	}
	fmt.Printf("before Explain: %q\n", s.Actions[0].Reason)
	p.Explain()
	for _, a := range s.Actions {
		fmt.Println(a.Reason)
	}
	// Output:
	// before Explain: ""
	// created new ReplicaSet nginx-5dcbf9fdb7 (revision 2) at 3: 13 pods allowed (10 + maxSurge 3), 10 in other ReplicaSets
	// scaled down old ReplicaSet nginx-6d4cf56db6 from 10 to 8: 10 pods available, at least 8 must stay available (10 - maxUnavailable 2)
}

// Enums are written by name in JSON and read back by name; an unknown
// name is an error.
func ExampleOutcome_UnmarshalText() {
	b, _ := json.Marshal(map[string]any{"outcome": rollout.OutcomeSyncLimit, "path": rollout.PathRollingUpdate})
	fmt.Println(string(b))

	var o rollout.Outcome
	fmt.Println(o.UnmarshalText([]byte("Complete")), o)
	fmt.Println(o.UnmarshalText([]byte("Done")))
	// Output:
	// {"outcome":"SyncLimit","path":"RollingUpdate"}
	// <nil> Complete
	// rollout: unknown Outcome "Done"
}
