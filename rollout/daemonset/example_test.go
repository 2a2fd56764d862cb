package daemonset_test

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// template is the examples' pod template type: labels and an image.
type template = revision.Template[map[string]string]

func image(tag string) template {
	return template{Labels: map[string]string{"app": "agent"}, Spec: map[string]string{"image": "agent:" + tag}}
}

// cluster returns a DaemonSet "agent" updated from agent:1 to agent:2 and
// n nodes, each running a ready agent:1 pod, with the revision of agent:1.
func cluster(n int, mu, ms *intorpercent.IntOrString) (*daemonset.DaemonSet[template], []daemonset.Node, []daemonset.Pod, []daemonset.ControllerRevision) {
	start := time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)
	old := image("1")
	oldHash := daemonset.Hash(&old, nil)
	data, _ := daemonset.RevisionData(&old)
	revs := []daemonset.ControllerRevision{{Name: daemonset.RevisionName("agent", oldHash), Hash: oldHash, Number: 1, Data: data}}
	ds := &daemonset.DaemonSet[template]{
		Name: "agent", Generation: 2,
		Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "agent"}},
		Template: image("2"),
		UpdateStrategy: daemonset.UpdateStrategy{RollingUpdate: &daemonset.RollingUpdateParams{
			MaxUnavailable: mu, MaxSurge: ms}},
		Status: daemonset.Status{ObservedGeneration: 1, DesiredNumberScheduled: int32(n), CurrentNumberScheduled: int32(n),
			NumberReady: int32(n), UpdatedNumberScheduled: int32(n), NumberAvailable: int32(n)},
	}
	var nodes []daemonset.Node
	var pods []daemonset.Pod
	for k := range n {
		name := fmt.Sprintf("node-%d", k)
		nodes = append(nodes, daemonset.Node{Name: name, ShouldRun: true, ShouldContinueRunning: true})
		pods = append(pods, daemonset.Pod{Name: fmt.Sprintf("agent-%d", k), Node: name, Hash: oldHash,
			Phase: daemonset.PodRunning, Ready: true, ReadySince: start, Created: start})
	}
	return ds, nodes, pods, revs
}

func ptr(v intorpercent.IntOrString) *intorpercent.IntOrString { return &v }

// show prints one action: its kind and what it acts on.
func show(a daemonset.Action) {
	switch {
	case a.Pod != "" && a.Node != "":
		fmt.Println(a.Kind, a.Pod, "on", a.Node)
	case a.Revision != "":
		fmt.Println(a.Kind, a.Revision)
	default:
		fmt.Println(a.Kind)
	}
}

func ExamplePlan() {
	ds, nodes, pods, revs := cluster(10, ptr(intorpercent.FromString("25%")), nil)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	sync, err := daemonset.Plan(ds, nodes, pods, revs, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range sync.Actions {
		show(a)
	}
	fmt.Println(sync.Reason)
	// Output:
	// WriteRevision agent-66878b59c9
	// DeletePod agent-0 on node-0
	// DeletePod agent-1 on node-1
	// DeletePod agent-2 on node-2
	// WriteStatus
	// created revision agent-66878b59c9 (number 2) for the new template; rolling update deleted 3 pods (maxUnavailable 3 of 10 nodes, 0 unavailable); desired 10, current 10, ready 10, up-to-date 0, available 10
}

func ExamplePlanWith() {
	// Two old pods are broken; maxUnavailable is 1. Upstream replaces both
	// at once (outside the budget); ReplaceWithinBudget only one.
	ds, nodes, pods, revs := cluster(4, ptr(intorpercent.FromInt(1)), nil)
	pods[0].Ready, pods[1].Ready = false, false
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, opts := range []daemonset.Options{{}, {UnavailableOldPods: daemonset.ReplaceWithinBudget}} {
		sync, err := daemonset.PlanWith(ds, nodes, pods, revs, now, opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(opts.UnavailableOldPods, sync.RollingUpdate.Delete)
	}
	// Output:
	// ReplaceOutsideBudget [agent-0 agent-1]
	// ReplaceWithinBudget [agent-0]
}

func ExamplePlanner() {
	ds, nodes, pods, revs := cluster(3, nil, ptr(intorpercent.FromInt(1)))
	ds.UpdateStrategy.RollingUpdate.MaxUnavailable = ptr(intorpercent.FromInt(0))
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var p daemonset.Planner[template]
	sync, err := p.Plan(ds, nodes, pods, revs, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d actions, reason %q\n", len(sync.Actions), sync.Reason)
	sync = p.Explain()
	for _, a := range sync.Actions {
		fmt.Println(a.Kind, "-", a.Reason)
	}
	// Output:
	// 3 actions, reason ""
	// WriteRevision - created revision agent-66878b59c9 (number 2) for the new template
	// CreatePod - surge within maxSurge 1 of 3 nodes: new pod agent-792mr created beside the old pod on node node-0
	// WriteStatus - status changed or the observed generation was behind
}

func ExampleSimulate() {
	ds, nodes, pods, revs := cluster(5, ptr(intorpercent.FromInt(2)), nil)
	cfg := daemonset.Config[template]{
		Start:            time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Interval:         10 * time.Second,
		ReadyDelay:       15 * time.Second,
		TerminationDelay: 5 * time.Second,
	}
	tr, err := daemonset.Simulate(ds, nodes, pods, revs, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, st := range tr.Steps {
		fmt.Printf("sync %d: desired %d ready %d up-to-date %d available %d\n", st.Sync,
			st.Status.DesiredNumberScheduled, st.Status.NumberReady, st.Status.UpdatedNumberScheduled, st.Status.NumberAvailable)
	}
	fmt.Println(tr.Outcome, "after", tr.Syncs, "syncs")
	// Output:
	// sync 1: desired 5 ready 5 up-to-date 0 available 5
	// sync 2: desired 5 ready 3 up-to-date 0 available 3
	// sync 3: desired 5 ready 3 up-to-date 2 available 3
	// sync 4: desired 5 ready 5 up-to-date 2 available 5
	// sync 5: desired 5 ready 3 up-to-date 2 available 3
	// sync 6: desired 5 ready 3 up-to-date 4 available 3
	// sync 7: desired 5 ready 5 up-to-date 4 available 5
	// sync 8: desired 5 ready 4 up-to-date 4 available 4
	// sync 9: desired 5 ready 4 up-to-date 5 available 4
	// sync 10: desired 5 ready 5 up-to-date 5 available 5
	// OutcomeComplete after 11 syncs
}

func ExampleValidate() {
	ds, _, _, _ := cluster(3, ptr(intorpercent.FromString("50%")), ptr(intorpercent.FromString("10%")))
	for _, e := range daemonset.Validate(ds) {
		fmt.Println(e)
	}
	// Output:
	// spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero
}

func ExampleValidateUpdateStrategy() {
	for _, e := range daemonset.ValidateUpdateStrategy(&daemonset.UpdateStrategy{Type: "Foo"}) {
		fmt.Println(e)
	}
	// OnDelete does not look at rollingUpdate.
	bad := intorpercent.FromInt(-1)
	fmt.Println(len(daemonset.ValidateUpdateStrategy(&daemonset.UpdateStrategy{Type: daemonset.OnDelete,
		RollingUpdate: &daemonset.RollingUpdateParams{MaxUnavailable: &bad}})))
	// Output:
	// spec.updateStrategy: Unsupported value: {"Type":"Foo","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"
	// 0
}

func ExampleValidateRollingUpdate() {
	for _, e := range daemonset.ValidateRollingUpdate(intorpercent.FromString("abc"), intorpercent.FromInt(0)) {
		fmt.Println(e)
	}
	// Output:
	// spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')
	// spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0
}

func ExampleValidateStatus() {
	st := daemonset.Status{DesiredNumberScheduled: 3, NumberReady: -1}
	fmt.Println(daemonset.ValidateStatus(&st))
	// Output:
	// status.numberReady: Invalid value: -1: must be greater than or equal to 0
}

func ExampleBudgets() {
	ds, nodes, _, _ := cluster(10, ptr(intorpercent.FromString("25%")), nil)
	b, _ := daemonset.Budgets(ds, nodes)
	fmt.Printf("%+v\n", b)
	// Both zero becomes maxUnavailable 1.
	ds.UpdateStrategy.RollingUpdate.MaxUnavailable = ptr(intorpercent.FromInt(0))
	b, _ = daemonset.Budgets(ds, nodes)
	fmt.Printf("%+v\n", b)
	// Output:
	// {Desired:10 MaxUnavailable:3 MaxSurge:0}
	// {Desired:10 MaxUnavailable:1 MaxSurge:0}
}

func ExampleUnavailableCount() {
	ds, _, _, _ := cluster(0, ptr(intorpercent.FromString("10%")), nil)
	n, _ := daemonset.UnavailableCount(ds, 5)
	fmt.Println(n) // 10% of 5 rounds up
	// Output:
	// 1
}

func ExampleSurgeCount() {
	ds, _, _, _ := cluster(0, ptr(intorpercent.FromInt(0)), ptr(intorpercent.FromString("30%")))
	n, _ := daemonset.SurgeCount(ds, 5)
	fmt.Println(n, daemonset.AllowsSurge(ds))
	// Output:
	// 2 true
}

func ExampleAllowsSurge() {
	ds, _, _, _ := cluster(0, ptr(intorpercent.FromInt(1)), nil)
	fmt.Println(daemonset.AllowsSurge(ds))
	ds.UpdateStrategy.RollingUpdate = &daemonset.RollingUpdateParams{MaxUnavailable: ptr(intorpercent.FromInt(0)), MaxSurge: ptr(intorpercent.FromString("1%"))}
	fmt.Println(daemonset.AllowsSurge(ds))
	// Output:
	// false
	// true
}

func ExampleIsPodAvailable() {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	p := daemonset.Pod{Name: "agent-0", Ready: true, ReadySince: now.Add(-60 * time.Second)}
	fmt.Println(daemonset.IsPodReady(&p), daemonset.IsPodAvailable(&p, 60, now), daemonset.IsPodAvailable(&p, 61, now))
	// Output:
	// true true false
}

func ExampleIsPodReady() {
	p := daemonset.Pod{Name: "agent-0", Phase: daemonset.PodPending, Ready: true}
	fmt.Println(daemonset.IsPodReady(&p)) // the phase is not consulted
	// Output:
	// true
}

func ExampleIsPodUpdated() {
	gen := int64(1)
	// An old-hash pod whose generation label matches counts as updated.
	p := daemonset.Pod{Name: "agent-0", Hash: "old", TemplateGeneration: "1"}
	fmt.Println(daemonset.IsPodUpdated(&p, "new", &gen), daemonset.IsPodUpdated(&p, "new", nil))
	// Output:
	// true false
}

func ExampleComparePods() {
	t := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a := daemonset.Pod{Name: "a", Created: t}
	b := daemonset.Pod{Name: "b", Created: t.Add(-time.Hour), Unscheduled: true}
	fmt.Println(daemonset.ComparePods(&a, &b)) // scheduled first, though newer
	// Output:
	// -1
}

func ExamplePodsShouldBeOnNode() {
	ds, _, _, _ := cluster(0, ptr(intorpercent.FromInt(1)), nil)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	node := daemonset.Node{Name: "node-0", ShouldRun: true, ShouldContinueRunning: true}
	pods := []daemonset.Pod{
		{Name: "agent-new", Node: "node-0", Phase: daemonset.PodRunning, Created: now.Add(-time.Minute)},
		{Name: "agent-old", Node: "node-0", Phase: daemonset.PodRunning, Created: now.Add(-time.Hour)},
	}
	create, del := daemonset.PodsShouldBeOnNode(ds, node, pods, "hash", now)
	fmt.Println(create, del)
	// Output:
	// false [agent-new]
}

func ExampleManage() {
	ds, nodes, pods, _ := cluster(3, ptr(intorpercent.FromInt(1)), nil)
	nodes = append(nodes, daemonset.Node{Name: "node-new", ShouldRun: true, ShouldContinueRunning: true})
	nodes[0].ShouldRun, nodes[0].ShouldContinueRunning = false, false // a NoExecute taint
	d, _ := daemonset.Manage(ds, nodes, pods, "hash", time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	fmt.Printf("create on %v, delete %v\n", d.Create, d.Delete)
	// Output:
	// create on [node-new], delete [agent-0]
}

func ExampleFindUpdatedPodsOnNode() {
	pods := []daemonset.Pod{{Name: "old", Hash: "h1"}, {Name: "new", Hash: "h2"}}
	fmt.Println(daemonset.FindUpdatedPodsOnNode(pods, "h2", nil))
	pods = append(pods, daemonset.Pod{Name: "old-2", Hash: "h1"})
	fmt.Println(daemonset.FindUpdatedPodsOnNode(pods, "h2", nil))
	// Output:
	// 1 0 true
	// -1 -1 false
}

func ExampleRollingUpdateStep() {
	ds, nodes, pods, _ := cluster(5, ptr(intorpercent.FromInt(0)), ptr(intorpercent.FromInt(2)))
	d, _ := daemonset.RollingUpdateStep(ds, nodes, pods, "new-hash", time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), daemonset.Options{})
	fmt.Printf("create on %v, delete %v, surging %d\n", d.Create, d.Delete, d.Surge)
	// Output:
	// create on [node-0 node-1], delete [], surging 0
}

func ExampleCalculateStatus() {
	ds, nodes, pods, _ := cluster(3, ptr(intorpercent.FromInt(1)), nil)
	nodes[2].ShouldRun = false // a NoSchedule taint: the pod may stay
	st, _ := daemonset.CalculateStatus(ds, nodes, pods, "new-hash", time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	fmt.Printf("desired %d current %d misscheduled %d ready %d updated %d\n",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberMisscheduled, st.NumberReady, st.UpdatedNumberScheduled)
	// Output:
	// desired 2 current 2 misscheduled 1 ready 2 updated 0
}

func ExampleRevisionData() {
	t := image("2")
	data, _ := daemonset.RevisionData(&t)
	fmt.Println(string(data))
	// Output:
	// {"spec":{"template":{"$patch":"replace","Annotations":null,"Labels":{"app":"agent"},"Spec":{"image":"agent:2"}}}}
}

func ExampleHash() {
	t := image("2")
	zero := int32(0)
	fmt.Println(daemonset.Hash(&t, nil), daemonset.Hash(&t, &zero))
	// Output:
	// 66878b59c9 c884468c5
}

func ExampleRevisionName() {
	fmt.Println(daemonset.RevisionName("agent", "66878b59c9"))
	// Output:
	// agent-66878b59c9
}

func ExampleConstructHistory() {
	t := image("2")
	data, _ := daemonset.RevisionData(&t)
	revs := []daemonset.ControllerRevision{
		{Name: "agent-a", Hash: "a", Number: 1, Data: data}, // the template, rolled back to
		{Name: "agent-b", Hash: "b", Number: 2, Data: []byte(`{}`)},
	}
	h, _ := daemonset.ConstructHistory("agent", revs, data, daemonset.Hash(&t, nil))
	fmt.Println(h.Step, h.Current.Name, h.Current.Number, h.Old)
	// Output:
	// HistoryRenumber agent-a 3 [1]
}

func ExampleHistoryToDelete() {
	revs := []daemonset.ControllerRevision{
		{Name: "agent-a", Hash: "a", Number: 1}, {Name: "agent-b", Hash: "b", Number: 2},
		{Name: "agent-c", Hash: "c", Number: 3}, {Name: "agent-d", Hash: "d", Number: 4},
	}
	pods := []daemonset.Pod{{Name: "agent-0", Node: "node-0", Hash: "a"}, {Name: "agent-1", Node: "node-1", Hash: "c"}}
	limit := int32(2)
	// Four old revisions, two of them live: both others go.
	fmt.Println(daemonset.HistoryToDelete(revs, []int{0, 1, 2, 3}, pods, &limit))
	// Output:
	// [1 3]
}
