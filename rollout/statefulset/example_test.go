package statefulset_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// Template is the examples' pod template type: any type encoding/json
// encodes as the API server stores the template.
type Template struct {
	Image string `json:"image"`
}

// revisionOf returns the ControllerRevision the controller records for
// a set "web" whose template is t, numbered n.
func revisionOf(t Template, n int64) statefulset.ControllerRevision {
	b, _ := json.Marshal(t)
	data, _ := statefulset.RevisionData(b)
	hash := statefulset.HashRevision(data, 0)
	return statefulset.ControllerRevision{Name: statefulset.RevisionName("web", hash), Number: n, Hash: hash, Data: data}
}

// readyPod is a pod Running and Ready for an hour at revision rev.
func readyPod(name, rev string, now time.Time) statefulset.Pod {
	return statefulset.Pod{Name: name, Revision: rev, PodNameLabel: name, Phase: statefulset.PodRunning,
		Ready: true, ReadySince: now.Add(-time.Hour)}
}

// A three-pod StatefulSet whose image changed: the sync deletes the pod
// with the highest ordinal, the first step of the rolling update.
func ExamplePlan() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	old, cur := revisionOf(Template{Image: "nginx:1.25"}, 1), revisionOf(Template{Image: "nginx:1.26"}, 2)
	set := statefulset.StatefulSet[Template]{Name: "web", Generation: 2, Replicas: 3, Template: Template{Image: "nginx:1.26"},
		Status: statefulset.Status{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, CurrentReplicas: 3, UpdatedReplicas: 3,
			CurrentRevision: old.Name, UpdateRevision: old.Name}}
	pods := []statefulset.Pod{readyPod("web-0", old.Name, now), readyPod("web-1", old.Name, now), readyPod("web-2", old.Name, now)}
	sync, err := statefulset.Plan(&set, pods, []statefulset.ControllerRevision{old, cur}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range sync.Actions {
		fmt.Printf("%s: %s\n", a.Kind, a.Reason)
	}
	fmt.Println(sync.Reason)
	// Output:
	// DeletePod: pod web-2 is at the current revision web-d4f78f95f, not the update revision web-6c8db85f9d: deleted for the update (one pod per sync: the MaxUnavailableStatefulSet gate is off)
	// WriteStatus: status: replicas 3, ready 3, available 3, current 2 at web-d4f78f95f, updated 0 at web-6c8db85f9d
	// deleted 1 pod, wrote the status
}

// With the MaxUnavailableStatefulSet gate on, a Parallel set deletes up
// to maxUnavailable outdated pods at once; with the gate off (v1.36's
// default) it deletes one.
func ExamplePlanWith() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	old := revisionOf(Template{Image: "nginx:1.25"}, 1)
	mu := intorpercent.FromString("40%")
	set := statefulset.StatefulSet[Template]{Name: "web", Generation: 2, Replicas: 5, Template: Template{Image: "nginx:1.26"},
		PodManagementPolicy: statefulset.Parallel,
		UpdateStrategy:      statefulset.UpdateStrategy{RollingUpdate: &statefulset.RollingUpdateStrategy{MaxUnavailable: &mu}},
		Status:              statefulset.Status{ObservedGeneration: 1, CurrentRevision: old.Name, UpdateRevision: old.Name}}
	var pods []statefulset.Pod
	for _, name := range []string{"web-0", "web-1", "web-2", "web-3", "web-4"} {
		pods = append(pods, readyPod(name, old.Name, now))
	}
	for _, gate := range []bool{false, true} {
		opts := statefulset.Options{Gates: statefulset.Gates{MaxUnavailableStatefulSet: gate}}
		sync, err := statefulset.PlanWith(&set, pods, []statefulset.ControllerRevision{old}, now, opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("gate %v: %s\n", gate, sync.Reason)
	}
	// Output:
	// gate false: created the update revision, deleted 1 pod, wrote the status
	// gate true: created the update revision, deleted 2 pods, wrote the status; update waits: maxUnavailable is used up
}

// A Planner reuses its memory from sync to sync; Explain writes the
// reasons only when asked.
func ExamplePlanner() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	rev := revisionOf(Template{Image: "nginx:1.26"}, 1)
	set := statefulset.StatefulSet[Template]{Name: "web", Generation: 1, Replicas: 2, Template: Template{Image: "nginx:1.26"}}
	var p statefulset.Planner[Template]
	sync, err := p.Plan(&set, nil, []statefulset.ControllerRevision{rev}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d actions, reason %q\n", len(sync.Actions), sync.Reason)
	fmt.Println(p.Explain().Reason)
	// Output:
	// 2 actions, reason ""
	// created 1 pod, wrote the status; stopped (OrderedReady): pod web-0 was just created; OrderedReady waits for it
}

// Five pods updated with partition steps 4, 2, 0, OrderedReady, pods
// ready 15 s after creation.
func ExampleSimulate() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	old := revisionOf(Template{Image: "nginx:1.25"}, 1)
	set := statefulset.StatefulSet[Template]{Name: "web", Generation: 1, Replicas: 5, Template: Template{Image: "nginx:1.25"},
		UpdateStrategy: statefulset.UpdateStrategy{RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: 5}},
		Status: statefulset.Status{ObservedGeneration: 1, Replicas: 5, ReadyReplicas: 5, AvailableReplicas: 5, CurrentReplicas: 5, UpdatedReplicas: 5,
			CurrentRevision: old.Name, UpdateRevision: old.Name}}
	var pods []statefulset.Pod
	for _, name := range []string{"web-0", "web-1", "web-2", "web-3", "web-4"} {
		pods = append(pods, readyPod(name, old.Name, start))
	}
	tr, err := statefulset.Simulate(&set, pods, []statefulset.ControllerRevision{old}, statefulset.Config[Template]{
		Start: start, ReadyDelay: 15 * time.Second, TerminationDelay: 5 * time.Second,
		Events:     []statefulset.Event[Template]{{Sync: 1, Kind: statefulset.SetTemplate, Template: Template{Image: "nginx:1.26"}}},
		Partitions: []int32{4, 2, 0},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		if len(s.Events) > 0 {
			fmt.Println("sync", s.Sync, s.Events)
		}
	}
	fmt.Println(tr.Outcome, "after", tr.Syncs, "syncs")
	// Output:
	// sync 1 [template changed]
	// sync 2 [partition 5 -> 4 (next step)]
	// sync 6 [partition 4 -> 2 (next step)]
	// sync 13 [partition 2 -> 0 (next step)]
	// Complete after 20 syncs
}

// Validate speaks the API server's words.
func ExampleValidate() {
	mu := intorpercent.FromString("101%")
	set := statefulset.StatefulSet[Template]{Name: "web", Replicas: 3,
		UpdateStrategy: statefulset.UpdateStrategy{RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: -1, MaxUnavailable: &mu}}}
	for _, err := range statefulset.Validate(&set) {
		fmt.Println(err)
	}
	// Output:
	// spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0
	// spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%
}

// ValidateStatus is the check a status write passes: upstream's
// negative currentReplicas does not.
func ExampleValidateStatus() {
	fmt.Println(statefulset.ValidateStatus(&statefulset.Status{Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, CurrentReplicas: -1}))
	// Output:
	// status.currentReplicas: Invalid value: -1: must be greater than or equal to 0
}

func ExampleParseOrdinal() {
	for _, name := range []string{"web-3", "web-db-12", "web", "web-99999999999"} {
		parent, ord := statefulset.ParseOrdinal(name)
		fmt.Printf("%s: %q %d\n", name, parent, ord)
	}
	// Output:
	// web-3: "web" 3
	// web-db-12: "web-db" 12
	// web: "" -1
	// web-99999999999: "web" -1
}

func ExamplePodName() {
	fmt.Println(statefulset.PodName("web", 7))
	// Output:
	// web-7
}

// Slots run from spec.ordinals.start for spec.replicas ordinals.
func ExampleEndOrdinal() {
	set := statefulset.StatefulSet[Template]{Name: "web", Replicas: 3, Ordinals: statefulset.Ordinals{Start: 5}}
	fmt.Println(statefulset.StartOrdinal(&set), statefulset.EndOrdinal(&set))
	// Output:
	// 5 7
}

func ExampleStartOrdinal() {
	set := statefulset.StatefulSet[Template]{Name: "web", Replicas: 3, Ordinals: statefulset.Ordinals{Start: 5}}
	fmt.Println(statefulset.StartOrdinal(&set))
	// Output:
	// 5
}

// Available needs minReadySeconds of readiness; the phase is not read.
func ExampleIsAvailable() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := statefulset.Pod{Name: "web-0", Phase: statefulset.PodRunning, Ready: true, ReadySince: now.Add(-10 * time.Second)}
	fmt.Println(statefulset.IsAvailable(&p, 0, now), statefulset.IsAvailable(&p, 10, now), statefulset.IsAvailable(&p, 30, now))
	// Output:
	// true true false
}

func ExampleIsRunningAndReady() {
	p := statefulset.Pod{Name: "web-0", Phase: statefulset.PodPending, Ready: true}
	fmt.Println(statefulset.IsRunningAndReady(&p))
	// Output:
	// false
}

// An empty slot (nil) and a terminating pod are unavailable.
func ExampleIsUnavailable() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := statefulset.Pod{Name: "web-0", Phase: statefulset.PodRunning, Ready: true, Terminating: true}
	fmt.Println(statefulset.IsUnavailable(nil, 0, now), statefulset.IsUnavailable(&p, 0, now))
	// Output:
	// true true
}

// OrderedReady stops at a pod that is not ready; Parallel goes on.
func ExampleProcessReplica() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := statefulset.Pod{Name: "web-1", PodNameLabel: "web-1", Phase: statefulset.PodRunning}
	fmt.Printf("%+v\n", statefulset.ProcessReplica(&p, statefulset.OrderedReady, 0, now))
	fmt.Printf("%+v\n", statefulset.ProcessReplica(&p, statefulset.Parallel, 0, now))
	fmt.Printf("%+v\n", statefulset.ProcessReplica(nil, statefulset.OrderedReady, 0, now))
	// Output:
	// {Delete:false Create:false UpdateIdentity:false Stop:BlockNotReady}
	// {Delete:false Create:false UpdateIdentity:false Stop:Blocker(0)}
	// {Delete:false Create:true UpdateIdentity:false Stop:BlockCreated}
}

// An unhealthy condemned pod is deleted under OrderedReady only when it
// is the first unavailable pod.
func ExampleProcessCondemned() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	p := statefulset.Pod{Name: "web-4", Phase: statefulset.PodRunning}
	fmt.Printf("%+v\n", statefulset.ProcessCondemned(&p, false, statefulset.OrderedReady, 0, now))
	fmt.Printf("%+v\n", statefulset.ProcessCondemned(&p, true, statefulset.OrderedReady, 0, now))
	// Output:
	// {Delete:false Stop:BlockNotReady}
	// {Delete:true Stop:BlockDeleted}
}

func ExampleMaxUnavailable() {
	for _, v := range []intorpercent.IntOrString{intorpercent.FromString("10%"), intorpercent.FromString("40%"), intorpercent.FromInt(3)} {
		n, err := statefulset.MaxUnavailable(&v, 5)
		fmt.Println(v.String(), n, err)
	}
	n, _ := statefulset.MaxUnavailable(nil, 5)
	fmt.Println("nil", n)
	// Output:
	// 10% 1 <nil>
	// 40% 2 <nil>
	// 3 3 <nil>
	// nil 1
}

// Below the partition a recreated pod comes back at the current
// revision; with start 2 the partition counts from ordinal 2.
func ExampleNewPodRevision() {
	s := statefulset.UpdateStrategy{RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: 1}}
	for _, ord := range []int64{2, 3} {
		fmt.Println(ord, statefulset.NewPodRevision(s, ord, 2, 0, "web-old", "web-new"))
	}
	onDelete := statefulset.UpdateStrategy{Type: statefulset.OnDelete}
	fmt.Println("OnDelete", statefulset.NewPodRevision(onDelete, 0, 0, 3, "web-old", "web-new"))
	// Output:
	// 2 web-old
	// 3 web-new
	// OnDelete web-new
}

// Gate on, maxUnavailable 2, one slot already unavailable: one more
// outdated pod is deleted, from the top.
func ExampleUpdateStep() {
	slots := []statefulset.Slot{{Outdated: true}, {Outdated: true, Unavailable: true}, {Outdated: true}, {Outdated: true}}
	d := statefulset.UpdateStep(slots, 0, true, 2, true, statefulset.BudgetUpstream, nil)
	fmt.Println(d.Delete, d.Unavailable, d.Stop)
	d = statefulset.UpdateStep(slots, 0, false, 0, true, statefulset.BudgetUpstream, nil)
	fmt.Println(d.Delete, d.Stop)
	// Output:
	// [3] 1 BlockBudget
	// [3] BlockDeleted
}

// Terminating pods count in replicas, ready and available, not in
// current or updated.
func ExampleComputeStatus() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	pods := []statefulset.Pod{
		readyPod("web-0", "web-old", now), readyPod("web-1", "web-new", now),
		{Name: "web-2", Revision: "web-old", Phase: statefulset.PodRunning, Ready: true, Terminating: true},
	}
	s := statefulset.ComputeStatus(pods, 0, "web-old", "web-new", now)
	fmt.Println(s.Replicas, s.ReadyReplicas, s.AvailableReplicas, s.CurrentReplicas, s.UpdatedReplicas)
	// Output:
	// 3 3 3 1 1
}

// Scaling to zero completes a rolling update (kubernetes#121534).
func ExampleCompleteRollingUpdate() {
	set := statefulset.StatefulSet[Template]{Name: "web", Replicas: 0,
		UpdateStrategy: statefulset.UpdateStrategy{RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: 2}}}
	st := statefulset.Status{CurrentRevision: "web-old", UpdateRevision: "web-new"}
	statefulset.CompleteRollingUpdate(&set, &st)
	fmt.Println(st.CurrentRevision)
	// Output:
	// web-new
}

// A new collision count alone is not written.
func ExampleStatusChanged() {
	one := int32(1)
	old := statefulset.Status{ObservedGeneration: 3, Replicas: 3}
	next := old
	next.CollisionCount = &one
	fmt.Println(statefulset.StatusChanged(&old, &next))
	next.ObservedGeneration = 4
	fmt.Println(statefulset.StatusChanged(&old, &next))
	// Output:
	// false
	// true
}

func ExampleRevisionData() {
	data, err := statefulset.RevisionData([]byte(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.25","resources":{}}]}}`))
	fmt.Println(string(data), err)
	// Output:
	// {"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.25","name":"nginx","resources":{}}]}}}} <nil>
}

func ExampleHashRevision() {
	data, _ := statefulset.RevisionData([]byte(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.25","resources":{}}]}}`))
	fmt.Println(statefulset.HashRevision(data, 0), statefulset.HashRevision(data, 1))
	// Output:
	// 6bd8cfcb95 6bd8cfcb94
}

func ExampleRevisionName() {
	fmt.Println(statefulset.RevisionName("web", "6bd8cfcb95"))
	// Output:
	// web-6bd8cfcb95
}

func ExampleSortRevisions() {
	revs := []statefulset.ControllerRevision{{Name: "web-c", Number: 3}, {Name: "web-a", Number: 1}, {Name: "web-b", Number: 1}}
	order, err := statefulset.SortRevisions(revs)
	fmt.Println(order, err)
	// Output:
	// [1 2 0] <nil>
}

// Going back to an older template renumbers its revision (a rollback).
func ExampleChooseRevisions() {
	a, b := revisionOf(Template{Image: "nginx:1.25"}, 1), revisionOf(Template{Image: "nginx:1.26"}, 2)
	r, err := statefulset.ChooseRevisions("web", []statefulset.ControllerRevision{a, b}, a.Data, b.Name, 0)
	fmt.Println(r.Choice, r.Update.Name == a.Name, r.Update.Number, r.Current == b.Name, err)
	// Output:
	// Rollback true 3 true <nil>
}

// Live revisions (current, update, and those of pods) never count
// toward the limit.
func ExampleTruncateHistory() {
	revs := []statefulset.ControllerRevision{{Name: "web-a", Number: 1}, {Name: "web-b", Number: 2}, {Name: "web-c", Number: 3}, {Name: "web-d", Number: 4}}
	pods := []statefulset.Pod{{Name: "web-0", Revision: "web-a"}}
	drop, err := statefulset.TruncateHistory(revs, "web-d", "web-d", pods, 1)
	fmt.Println(drop, err)
	// Output:
	// [1] <nil>
}

// Start 5, three replicas: pods 0 to 2 are condemned (deleted from the
// top), and slots 5 to 7 hold pod web-6 only.
func ExampleSplitPods() {
	set := statefulset.StatefulSet[Template]{Name: "web", Replicas: 3, Ordinals: statefulset.Ordinals{Start: 5}}
	pods := []statefulset.Pod{{Name: "web-0"}, {Name: "web-6"}, {Name: "web-2"}, {Name: "db-5"}, {Name: "web-1"}}
	slots, condemned, err := statefulset.SplitPods(&set, pods)
	fmt.Println(slots, condemned, err)
	// Output:
	// [-1 1 -1] [2 4 0] <nil>
}
