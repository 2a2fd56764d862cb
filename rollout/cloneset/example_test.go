package cloneset_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func ExampleDefaultMaxUnavailable() {
	v := cloneset.DefaultMaxUnavailable()
	fmt.Println(v.IsString, v.Str)
	// Output: true 20%
}

func ExampleCalculatePartitionReplicas() {
	for _, tc := range []struct {
		partition intorpercent.IntOrString
		replicas  int32
	}{
		{intorpercent.FromString("60%"), 17},
		{intorpercent.FromString("99%"), 9},    // kept below replicas: one pod is updated
		{intorpercent.FromString("100%"), 9},   // the literal "100%" keeps every pod
		{intorpercent.FromString("100.0%"), 9}, // any other text for 100% does not
		{intorpercent.FromString("0.01%"), 9},  // rounded up: one pod is kept
		{intorpercent.FromInt(12), 10},         // counts are clamped
	} {
		p, err := cloneset.CalculatePartitionReplicas(&tc.partition, tc.replicas)
		text := tc.partition.Str
		if !tc.partition.IsString {
			text = fmt.Sprint(tc.partition.Int)
		}
		fmt.Printf("%-6s of %2d replicas keeps %2d old pods (err %v)\n", text, tc.replicas, p, err)
	}
	_, err := cloneset.CalculatePartitionReplicas(&intorpercent.IntOrString{IsString: true, Str: "60"}, 10)
	fmt.Println(err)
	// Output:
	// 60%    of 17 replicas keeps 11 old pods (err <nil>)
	// 99%    of  9 replicas keeps  8 old pods (err <nil>)
	// 100%   of  9 replicas keeps  9 old pods (err <nil>)
	// 100.0% of  9 replicas keeps  8 old pods (err <nil>)
	// 0.01%  of  9 replicas keeps  1 old pods (err <nil>)
	// 12     of 10 replicas keeps 10 old pods (err <nil>)
	// cloneset: spec.updateStrategy.partition: "60": invalid type: string is not a percentage
}

func ExampleIsPodActive() {
	running := cloneset.Pod{Name: "web-abcde", Phase: cloneset.PodRunning}
	terminating := cloneset.Pod{Name: "web-fghij", Phase: cloneset.PodRunning, Terminating: true}
	done := cloneset.Pod{Name: "web-klmno", Phase: cloneset.PodSucceeded}
	fmt.Println(cloneset.IsPodActive(&running), cloneset.IsPodActive(&terminating), cloneset.IsPodActive(&done))
	// Output: true false false
}

func ExampleIsPodUpdateReady() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	p := cloneset.Pod{Name: "web-abcde", Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-10 * time.Second), Lifecycle: cloneset.PreparingNormal}
	fmt.Println(cloneset.IsPodUpdateReady(&p, 0, now))  // what status.readyReplicas counts
	fmt.Println(cloneset.IsPodUpdateReady(&p, 10, now)) // exactly 10 s is not more than 10 s
	fmt.Println(cloneset.IsPodUpdateReady(&p, 9, now))
	// Output:
	// true
	// false
	// true
}

func ExampleIsPodAvailable() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	p := cloneset.Pod{Name: "web-abcde", Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-time.Minute), Lifecycle: cloneset.PreparingNormal}
	fmt.Println(cloneset.IsPodAvailable(&p, 0, now)) // ready, but still PreparingNormal
	p.Lifecycle = cloneset.Normal
	fmt.Println(cloneset.IsPodAvailable(&p, 0, now))
	// Output:
	// false
	// true
}

func ExampleIsPodAtRevision() {
	p := cloneset.Pod{Name: "demo-x2k9p", Revision: "788944f45"} // labelled under the CloneSetShortHash gate
	fmt.Println(cloneset.IsPodAtRevision(&p, "demo-788944f45"))
	fmt.Println(cloneset.IsPodAtRevision(&p, "demo-5b54ff9d4d"))
	// Output:
	// true
	// false
}

func ExampleIsSpecifiedDelete() {
	p := cloneset.Pod{Name: "demo-x2k9p"}
	fmt.Println(cloneset.IsSpecifiedDelete(&p, nil))
	fmt.Println(cloneset.IsSpecifiedDelete(&p, []string{"demo-x2k9p"}))
	// Output:
	// false
	// true
}

func ExampleParseDeletionCost() {
	for _, v := range []string{"-100", "5", "+3", "007", ""} {
		cost, ok := cloneset.ParseDeletionCost(v)
		fmt.Printf("%q -> %d %v\n", v, cost, ok)
	}
	// Output:
	// "-100" -> -100 true
	// "5" -> 5 true
	// "+3" -> 0 false
	// "007" -> 0 false
	// "" -> 0 false
}

func ExampleClassifyPod() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	cs := &cloneset.CloneSet[struct{}]{Name: "demo", Replicas: 3, MinReadySeconds: 30}
	pods := []cloneset.Pod{
		{Name: "a", Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-time.Minute), Lifecycle: cloneset.Normal},
		{Name: "b", Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-time.Second), Lifecycle: cloneset.Normal},
		{Name: "c", Phase: cloneset.PodPending, SpecifiedDelete: true},
		{Name: "d", Phase: cloneset.PodRunning, Lifecycle: cloneset.PreparingDelete},
		{Name: "e", Phase: cloneset.PodRunning, Terminating: true},
	}
	for i := range pods {
		fmt.Println(pods[i].Name, cloneset.ClassifyPod(cs, &pods[i], now))
	}
	// Output:
	// a Available
	// b Unavailable
	// c ToDelete
	// d PreDeleting
	// e Inactive
}

func ExamplePodClass_String() {
	fmt.Println(cloneset.PreDeleting)
	// Output: PreDeleting
}

func ExampleCalculateDiffs() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	// A 10-replica CloneSet in its second batch: partition 60% keeps 6 pods
	// on the current revision; maxSurge 1 lets one extra pod be created.
	cs := &cloneset.CloneSet[struct{}]{
		Name:     "web",
		Replicas: 10,
		UpdateStrategy: cloneset.UpdateStrategy{
			Partition: &intorpercent.IntOrString{IsString: true, Str: "60%"},
			MaxSurge:  &intorpercent.IntOrString{Int: 1},
		},
	}
	var pods []cloneset.Pod
	for i := range 10 {
		rev := "web-old"
		if i < 2 {
			rev = "web-new" // the first batch is done
		}
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("web-%d", i), Revision: rev, Phase: cloneset.PodRunning, NodeName: "n1",
			Ready: true, ReadySince: now.Add(-time.Minute), Lifecycle: cloneset.Normal})
	}
	d, err := cloneset.CalculateDiffs(cs, pods, cloneset.Revisions{Current: "web-old", Update: "web-new"}, now, cloneset.ForScale, cloneset.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("partition", d.Resolved.Partition, "maxSurge", d.Resolved.MaxSurge, "maxUnavailable", d.Resolved.MaxUnavailable)
	fmt.Println("scale up", d.ScaleUpNum, "limit", d.ScaleUpLimit, "at the current revision", d.ScaleUpNumOldRevision, "surge", d.UseSurge)
	fmt.Println("update", d.UpdateNum, "budget", d.UpdateMaxUnavailable)
	// Output:
	// partition 6 maxSurge 1 maxUnavailable 2
	// scale up 1 limit 1 at the current revision 0 surge 1
	// update 2 budget 2
}

func ExampleResolve() {
	cs := &cloneset.CloneSet[struct{}]{
		Replicas: 5,
		UpdateStrategy: cloneset.UpdateStrategy{
			MaxUnavailable: &intorpercent.IntOrString{IsString: true, Str: "33.3%"}, // passes kruise's webhook
		},
	}
	r, err := cloneset.Resolve(cs)
	fmt.Println(r.MaxUnavailable, err)
	for _, w := range r.Warnings {
		fmt.Println(w)
	}
	// Output:
	// 0 <nil>
	// cloneset: spec.updateStrategy.maxUnavailable: "33.3%": strconv.Atoi: parsing "33.3": invalid syntax
}

func ExampleDiffsFor_String() {
	fmt.Println(cloneset.ForScale, cloneset.ForUpdate)
	// Output: ForScale ForUpdate
}

func ExampleBudgetPolicy_String() {
	fmt.Println(cloneset.BudgetKruise, cloneset.BudgetClampAtZero)
	// Output: BudgetKruise BudgetClampAtZero
}

// A field kruise cannot read is a *field.Error naming the field, with
// the value as written and kruise's reader's words.
func ExampleCalculatePartitionReplicas_errors() {
	_, err := cloneset.CalculatePartitionReplicas(&intorpercent.IntOrString{IsString: true, Str: "25"}, 10)
	var fe *field.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Field, fe.Value)
		fmt.Println(fe.Detail)
		fmt.Println(fe.Error())
	}
	fmt.Println(errors.Is(err, field.ErrInvalid), errors.Is(err, field.ErrSyntax))
	_, err = cloneset.CalculatePartitionReplicas(nil, -1)
	fmt.Println(err, errors.Is(err, field.ErrNegative))
	// Output:
	// spec.updateStrategy.partition "25"
	// invalid type: string is not a percentage
	// cloneset: spec.updateStrategy.partition: "25": invalid type: string is not a percentage
	// true true
	// cloneset: replicas: -1: must not be negative true
}

// Bad input is a *field.Error naming the field.
func ExampleCalculateDiffs_errors() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	pods := []cloneset.Pod{{Name: "web-0"}, {Name: "web-0"}}
	_, err := cloneset.CalculateDiffs(&cloneset.CloneSet[struct{}]{Replicas: 2}, pods, cloneset.Revisions{Update: "web-new"}, now, cloneset.ForScale, cloneset.Options{})
	var ie *field.Error
	fmt.Println(errors.As(err, &ie), errors.Is(err, field.ErrInvalid))
	fmt.Println(err)
	// Output:
	// true true
	// cloneset: pods[1].name: duplicate name "web-0"
}

func ExampleDeletionOrder() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ready := func(name, node, cost string, created time.Duration) cloneset.Pod {
		return cloneset.Pod{Name: name, NodeName: node, Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-time.Hour),
			CreationTime: now.Add(-created), Lifecycle: cloneset.Normal, DeletionCost: cost}
	}
	pods := []cloneset.Pod{
		ready("web-a", "n1", "5", 3*time.Hour),  // expensive to delete
		ready("web-b", "n2", "-1", 3*time.Hour), // cheap to delete
		ready("web-c", "n3", "", 3*time.Hour),
		ready("web-f", "n4", "+3", time.Hour),                                            // "+3" is not a valid cost: 0; newest
		{Name: "web-e", Phase: cloneset.PodPending, Lifecycle: cloneset.PreparingNormal}, // not scheduled
		ready("web-g", "n1", "5", 2*time.Hour),                                           // shares n1 with web-a
	}
	order, err := cloneset.DeletionOrder(pods, 0, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, i := range order {
		fmt.Print(pods[i].Name, " ")
	}
	fmt.Println()
	// Output: web-e web-b web-f web-c web-g web-a
}

func ExampleScale() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	// 7 replicas, partition 3, 5 pods all on the old revision: two pods are
	// missing, and since 5 old pods already cover the partition, both are
	// created at the update revision.
	cs := &cloneset.CloneSet[struct{}]{Name: "web", Replicas: 7, UpdateStrategy: cloneset.UpdateStrategy{
		Partition: &intorpercent.IntOrString{Int: 3},
	}}
	var pods []cloneset.Pod
	for i := range 5 {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("web-%d", i), Revision: "web-old", Phase: cloneset.PodRunning,
			NodeName: fmt.Sprintf("n%d", i), Ready: true, ReadySince: now.Add(-time.Hour),
			CreationTime: now.Add(-time.Duration(10-i) * time.Hour), Lifecycle: cloneset.Normal})
	}
	d, err := cloneset.Scale(cs, pods, cloneset.Revisions{Current: "web-old", Update: "web-new"}, now, cloneset.Options{})
	fmt.Println(d.Branch, d.Modified, d.CreateCurrent, d.CreateUpdate, err)

	// Scaled down to 3: the newest pods go first.
	cs.Replicas = 3
	d, err = cloneset.Scale(cs, pods, cloneset.Revisions{Current: "web-old", Update: "web-new"}, now, cloneset.Options{})
	fmt.Println(d.Branch, d.Delete, err)
	// Output:
	// ScaleOut true 0 2 <nil>
	// ScaleIn [web-4 web-3] <nil>
}

func ExampleScaleBranch_String() {
	fmt.Println(cloneset.ScaleOut, cloneset.ScaleWaitForDeletion)
	// Output: ScaleOut ScaleWaitForDeletion
}

func ExampleReadyLimitPolicy_String() {
	fmt.Println(cloneset.ReadyLimitKruise, cloneset.ReadyLimitAvailableOnly)
	// Output: ReadyLimitKruise ReadyLimitAvailableOnly
}

func ExampleCalculateStatus() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	deadline := int32(600)
	cs := &cloneset.CloneSet[struct{}]{Name: "web", Generation: 2, Replicas: 3, MinReadySeconds: 10, ProgressDeadlineSeconds: &deadline}
	pods := []cloneset.Pod{
		{Name: "web-a", Revision: "web-1", Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-time.Hour), Lifecycle: cloneset.Normal},
		{Name: "web-b", Revision: "web-2", Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-time.Hour), Lifecycle: cloneset.Normal},
		{Name: "web-c", Revision: "web-2", Phase: cloneset.PodRunning, Ready: true, ReadySince: now.Add(-5 * time.Second), Lifecycle: cloneset.Normal},
	}
	u, err := cloneset.CalculateStatus(cs, pods, cloneset.Revisions{Current: "web-1", Update: "web-2"}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := u.Status
	fmt.Println("replicas", s.Replicas, "ready", s.ReadyReplicas, "available", s.AvailableReplicas, "updated", s.UpdatedReplicas, "updatedAvailable", s.UpdatedAvailableReplicas)
	fmt.Println("current", s.CurrentRevision, "update", s.UpdateRevision, "write", u.Write)
	fmt.Println(s.Conditions[0].Type, s.Conditions[0].Status, s.Conditions[0].Reason, "requeue", u.DeadlineRequeue, u.MinReadyRequeue)
	// Output:
	// replicas 3 ready 3 available 2 updated 2 updatedAvailable 1
	// current web-1 update web-2 write true
	// Progressing True CloneSetUpdated requeue 10m1s 10s
}

func ExampleStatusDiffers() {
	old := cloneset.Status{ObservedGeneration: 2, Replicas: 3}
	next := old
	next.Conditions = []cloneset.Condition{{Type: cloneset.ConditionFailedScale, Status: cloneset.ConditionTrue, Message: "quota exceeded"}}
	fmt.Println(cloneset.StatusDiffers(&old, &next)) // a new FailedScale alone is not written
	next.ReadyReplicas = 3
	fmt.Println(cloneset.StatusDiffers(&old, &next))
	// Output:
	// false
	// true
}

func ExampleValidate() {
	cs := &cloneset.CloneSet[struct{}]{Name: "web", Replicas: 5, UpdateStrategy: cloneset.UpdateStrategy{
		Type:     cloneset.InPlaceOnly,
		MaxSurge: &intorpercent.IntOrString{Int: 1},
	}}
	fmt.Println(cloneset.Validate(cs))
	cs.UpdateStrategy.MaxSurge = nil
	cs.UpdateStrategy.MaxUnavailable = &intorpercent.IntOrString{IsString: true, Str: "33.3%"} // the webhook accepts it
	fmt.Println(cloneset.Validate(cs))
	// Output:
	// spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly
	// <nil>
}
