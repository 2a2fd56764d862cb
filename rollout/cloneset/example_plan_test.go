package cloneset_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func ExamplePlan() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	// CloneSet demo's template as kruise's codec encodes it. Plan hashes a
	// json.RawMessage byte for byte, so the revision names are kruise's.
	v125 := json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`)
	r1, _ := cloneset.NewRevision("demo", v125, 1, 0)
	// 10 pods at rest on nginx:1.25.
	var pods []cloneset.Pod
	for i := range 10 {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%d", i), Revision: r1.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-time.Hour), Lifecycle: cloneset.Normal})
	}
	// kubectl set image, with partition 60% and maxSurge 1.
	partition, surge := intorpercent.FromString("60%"), intorpercent.FromInt(1)
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 2, Replicas: 10,
		Template:       json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`),
		UpdateStrategy: cloneset.UpdateStrategy{Partition: &partition, MaxSurge: &surge}}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name

	s, err := cloneset.Plan(cs, pods, []cloneset.ControllerRevision{r1}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range s.Actions {
		fmt.Println(strings.Join(strings.Fields(fmt.Sprint(a.Kind, " ", a.Pod, " ", a.Revision)), " "))
	}
	// The CreatePod action stands for its Count pods; CreatedPods names them.
	for p, err := range s.CreatedPods() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("new pod", p.Name, p.Revision)
	}
	fmt.Println(s.Reason)
	// Output:
	// WriteRevision demo-5b54ff9d4d
	// CreatePod demo-5b54ff9d4d
	// WriteStatus
	// new pod demo-xcvbh demo-5b54ff9d4d
	// created revision demo-5b54ff9d4d (number 2) for the new template; created 1 pod, 1 at the update revision: 11 pods wanted (10 replicas + surge 1), 10 exist; kept 6 pods on the old revision: partition 60% of 10 rounds up to 6
}

func ExamplePlanWith() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	v125 := json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`)
	v126 := json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`)
	r1, _ := cloneset.NewRevision("demo", v125, 1, 0)
	r2, _ := cloneset.NewRevision("demo", v126, 2, 0)
	// A rollout to nginx:1.26 went all the way: 4 pods at r2.
	var pods []cloneset.Pod
	for i := range 4 {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%d", i), Revision: r2.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-time.Hour), Lifecycle: cloneset.Normal})
	}
	// Now the partition goes back up to 50% while the current revision is
	// still nginx:1.25.
	partition := intorpercent.FromString("50%")
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 2, Replicas: 4, Template: v126,
		UpdateStrategy: cloneset.UpdateStrategy{Partition: &partition}}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r2.Name
	revs := []cloneset.ControllerRevision{r1, r2}

	kruise, _ := cloneset.Plan(cs, pods, revs, now)
	fmt.Println("default:", kruise.Update.Diffs.UpdateNum)
	gate := cloneset.Options{Gates: cloneset.Gates{PartitionRollback: true}}
	rollback, _ := cloneset.PlanWith(cs, pods, revs, now, gate)
	fmt.Println("CloneSetPartitionRollback:", rollback.Update.Diffs.UpdateNum, "->", rollback.Update.Target)
	// Output:
	// default: 0
	// CloneSetPartitionRollback: -2 -> demo-788944f45
}

func ExampleSimulate() {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	v125 := json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`)
	r1, _ := cloneset.NewRevision("demo", v125, 1, 0)
	// 5 pods at rest on nginx:1.25, in place where possible, every pod
	// kept by the partition.
	var pods []cloneset.Pod
	for i := range 5 {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%d", i), Revision: r1.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: start.Add(-time.Hour), CreationTime: start.Add(-time.Hour), Lifecycle: cloneset.Normal})
	}
	all := intorpercent.FromString("100%")
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 1, Replicas: 5, Template: v125,
		UpdateStrategy: cloneset.UpdateStrategy{Type: cloneset.InPlaceIfPossible, Partition: &all}}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
	cfg := cloneset.Config[json.RawMessage]{
		Start:        start,
		ReadyDelay:   20 * time.Second,
		InPlaceDelay: 5 * time.Second,
		Events: []cloneset.Event[json.RawMessage]{{Sync: 1, Kind: cloneset.SetTemplate,
			Template: json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`)}},
		// A progressive-delivery tool's batches.
		Partitions: []intorpercent.IntOrString{intorpercent.FromString("60%"), intorpercent.FromInt(0)},
	}
	tr, err := cloneset.Simulate(cs, pods, []cloneset.ControllerRevision{r1}, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		fmt.Printf("%d partition %d: updated %d, available %d\n", s.Sync, s.Partition, s.Status.UpdatedReplicas, s.Status.AvailableReplicas)
	}
	fmt.Println(tr.Outcome)
	// Output:
	// 1 partition 5: updated 0, available 5
	// 2 partition 3: updated 0, available 5
	// 3 partition 3: updated 1, available 4
	// 4 partition 3: updated 1, available 5
	// 5 partition 3: updated 2, available 4
	// 6 partition 3: updated 2, available 5
	// 7 partition 0: updated 2, available 5
	// 8 partition 0: updated 3, available 4
	// 9 partition 0: updated 3, available 5
	// 10 partition 0: updated 4, available 4
	// 11 partition 0: updated 4, available 5
	// 12 partition 0: updated 5, available 4
	// 13 partition 0: updated 5, available 5
	// Complete
}

func ExampleTrace_String() {
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Replicas: 2,
		Template: json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`)}
	tr, _ := cloneset.Simulate(cs, nil, nil, cloneset.Config[json.RawMessage]{})
	fmt.Println(tr.String())
	// Output:
	// reconcile 1 (+10s): desired 2 updated 0 updatedReady 0 ready 0 total 0 | created revision demo-788944f45 (number 1) for the new template; created 2 pods, 2 at the update revision: 2 pods wanted (2 replicas + surge 0), 0 exist
	// reconcile 2 (+20s): desired 2 updated 2 updatedReady 2 ready 2 total 2 | lifecycle: 2 pods PreparingNormal -> Normal
	// reconcile 3 (+30s): desired 2 updated 2 updatedReady 2 ready 2 total 2 | rollout complete: 2 of 2 pods at demo-788944f45 and available
	// Complete after 4 reconciles
}

func ExampleStep_String() {
	s := cloneset.Step{Sync: 3, Elapsed: 30 * time.Second, Replicas: 10, Reason: "kept 8 pods on the old revision: partition 80% of 10 rounds up to 8",
		Status: cloneset.Status{Replicas: 11, UpdatedReplicas: 3, UpdatedReadyReplicas: 2, ReadyReplicas: 10}}
	fmt.Println(s)
	// Output:
	// reconcile 3 (+30s): desired 10 updated 3 updatedReady 2 ready 10 total 11 | kept 8 pods on the old revision: partition 80% of 10 rounds up to 8
}

func ExampleActionKind_String() {
	fmt.Println(cloneset.CreatePod, cloneset.UpdatePodInPlace, cloneset.RecreatePod, cloneset.ApplyHeldPodUpdate, cloneset.ActionKind(99))
	// Output: CreatePod UpdatePodInPlace RecreatePod ApplyHeldPodUpdate ActionKind(99)
}

func ExampleActionKind_MarshalText() {
	b, _ := json.Marshal(cloneset.Action{Kind: cloneset.DeletePod, Pod: "demo-x2k9p", Reason: "specified for deletion"})
	fmt.Println(string(b))
	// Output: {"kind":"DeletePod","pod":"demo-x2k9p","reason":"specified for deletion"}
}

func ExampleEventKind_String() {
	fmt.Println(cloneset.SetPartition, cloneset.DeletePods, cloneset.EventKind(0))
	// Output: SetPartition DeletePods EventKind(0)
}

func ExampleEventKind_MarshalText() {
	b, _ := cloneset.Pause.MarshalText()
	fmt.Println(string(b))
	// Output: Pause
}

func ExampleOutcome_String() {
	fmt.Println(cloneset.OutcomeComplete, cloneset.OutcomePartitioned, cloneset.OutcomeStalled)
	// Output: Complete Partitioned Stalled
}

func ExampleOutcome_MarshalText() {
	b, _ := json.Marshal(map[string]cloneset.Outcome{"outcome": cloneset.OutcomeTimedOut})
	fmt.Println(string(b))
	// Output: {"outcome":"TimedOut"}
}

func ExampleActionKind_UnmarshalText() {
	var a cloneset.Action
	err := json.Unmarshal([]byte(`{"kind":"RecreatePod","pod":"demo-x2k9p","revision":"demo-5b54ff9d4d"}`), &a)
	fmt.Println(a.Kind, a.Pod, err)
	err = json.Unmarshal([]byte(`{"kind":"TrackInPlaceUpdate"}`), &a)
	fmt.Println(err)
	// Output:
	// RecreatePod demo-x2k9p <nil>
	// cloneset: ActionKind: "TrackInPlaceUpdate": unknown name
}

func ExamplePlanner() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	r1, _ := cloneset.NewRevision("demo", json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`), 1, 0)
	var pods []cloneset.Pod // 4 pods at rest on nginx:1.25
	for i := range 4 {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%d", i), Revision: r1.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-time.Hour), Lifecycle: cloneset.Normal})
	}
	revs := []cloneset.ControllerRevision{r1}
	// kubectl set image: generation 2 has nginx:1.26.
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 2, Replicas: 4,
		Template: json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`)}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name

	// A controller's loop (without a kubelet: the pod marked for
	// recreation is deleted, then replaced): plan each sync, and explain
	// only the ones somebody reads.
	var p cloneset.Planner[json.RawMessage]
	for range 3 {
		s, err := p.Plan(cs, pods, revs, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d actions, reason %q\n", len(s.Actions), s.Reason)
		// The next sync sees the pods this one created.
		if pods, err = s.AppendCreatedPods(slices.Clip(s.Pods)); err != nil {
			fmt.Println(err)
			return
		}
		cs, revs = &s.CloneSet, s.Revisions
		now = now.Add(10 * time.Second)
	}
	fmt.Println(p.Explain().Reason)
	// Output:
	// 3 actions, reason ""
	// 1 actions, reason ""
	// 2 actions, reason ""
	// created 1 pod, 1 at the update revision: 4 pods wanted (4 replicas + surge 0), 3 exist
}

func ExamplePlanner_Explain() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	r1, _ := cloneset.NewRevision("demo", json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`), 1, 0)
	var pods []cloneset.Pod // 4 pods at rest on nginx:1.25
	for i := range 4 {
		pods = append(pods, cloneset.Pod{Name: fmt.Sprintf("demo-%d", i), Revision: r1.Name, Phase: cloneset.PodRunning, NodeName: "node-1",
			Ready: true, ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-time.Hour), Lifecycle: cloneset.Normal})
	}
	revs := []cloneset.ControllerRevision{r1}
	// kubectl set image: generation 2 has nginx:1.26.
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Generation: 2, Replicas: 4,
		Template: json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`)}
	cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name

	var p cloneset.Planner[json.RawMessage]
	s, err := p.Plan(cs, pods, revs, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", s.Actions[1].Reason)
	explained := p.Explain()
	fmt.Println(s.Actions[1].Reason) // written in place
	fmt.Println(explained.Reason)
	// Output:
	// ""
	// update budget 1: pod demo-0 marked for deletion, to be recreated at demo-5b54ff9d4d (ReCreate)
	// created revision demo-5b54ff9d4d (number 2) for the new template; marked 1 pod for recreation at demo-5b54ff9d4d (update budget 1); 3 more pods to move to demo-5b54ff9d4d, held back by the update budget 1 (maxUnavailable 1 + 4 pods - 4 replicas)
}

func ExampleSync_CreatedPods() {
	// A CloneSet of MaxInt32 replicas and no pods: Plan writes one
	// CreatePod action with the count, in microseconds, and the names
	// are made as they are read.
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Replicas: math.MaxInt32, Template: json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`)}
	s, err := cloneset.Plan(cs, nil, nil, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	a := s.Actions[1]
	fmt.Println(a.Kind, a.Count, a.Revision)
	n := 0
	for p, err := range s.CreatedPods() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(p.Name, p.Phase, p.Lifecycle, p.CreationTime.Format(time.TimeOnly))
		if n++; n == 3 {
			break
		}
	}
	// Output:
	// CreatePod 2147483647 demo-788944f45
	// demo-xcvbh Pending PreparingNormal 12:00:00
	// demo-nwrfc Pending PreparingNormal 12:00:00
	// demo-k724q Pending PreparingNormal 12:00:00
}

func ExampleSync_AppendCreatedPods() {
	cs := &cloneset.CloneSet[json.RawMessage]{Name: "demo", Replicas: 3, Template: json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`)}
	s, _ := cloneset.Plan(cs, nil, nil, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	// The pods as the sync leaves them, for the next sync: s.Pods (none
	// here) and the ones it creates.
	pods, err := s.AppendCreatedPods(slices.Clip(s.Pods))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pods {
		fmt.Println(p.Name, p.Revision)
	}
	// Output:
	// demo-xcvbh demo-788944f45
	// demo-nwrfc demo-788944f45
	// demo-k724q demo-788944f45
}
