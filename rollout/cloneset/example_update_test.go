package cloneset_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func ExampleRevisionData() {
	// The template of CloneSet "demo" as kruise's codec encodes it (a
	// corev1.PodTemplateSpec passed through encoding/json; apimachinery
	// v0.32, which kruise v1.9.1 uses, writes the zero creationTimestamp as
	// null).
	template := `{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`
	data, err := cloneset.RevisionData([]byte(template))
	fmt.Println(string(data), err)
	// Output:
	// {"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.25","name":"main","resources":{}}]}}}} <nil>
}

func ExampleHashRevision() {
	data, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`))
	fmt.Println(cloneset.HashRevision(data, 0))
	fmt.Println(cloneset.HashRevision(data, 1)) // after one name clash
	// Output:
	// 788944f45
	// 788944f44
}

func ExampleRevisionName() {
	data, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`))
	fmt.Println(cloneset.RevisionName("demo", cloneset.HashRevision(data, 0)))
	// Output: demo-788944f45
}

func ExampleNewRevision() {
	// Any template type works; a json.RawMessage is hashed byte for byte.
	r, err := cloneset.NewRevision("demo", json.RawMessage(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`), 1, 0)
	fmt.Println(r.Name, r.Number, err)
	fmt.Println(string(r.Data))
	// Output:
	// demo-788944f45 1 <nil>
	// {"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"image":"nginx:1.25","name":"main","resources":{}}]}}}}
}

func ExampleActiveRevisions() {
	v1, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`))
	v2, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`))
	history := []cloneset.ControllerRevision{{Name: "demo-788944f45", Number: 1, Data: v1}}

	// A new image: a new revision.
	r, _ := cloneset.ActiveRevisions("demo", history, v2, "demo-788944f45", 0)
	fmt.Println(r.Action, r.Update.Name, r.Update.Number, "current", r.Current)

	// Back to nginx:1.25: the old revision is renumbered and keeps its name.
	history = append(history, r.Update)
	r, _ = cloneset.ActiveRevisions("demo", history, v1, "demo-5b54ff9d4d", 0)
	fmt.Println(r.Action, r.Update.Name, r.Update.Number, "current", r.Current)
	// Output:
	// CreateRevision demo-5b54ff9d4d 2 current demo-788944f45
	// Renumber demo-788944f45 3 current demo-5b54ff9d4d
}

func ExampleUpdateRevisionAction_String() {
	fmt.Println(cloneset.ReuseLatest, cloneset.Renumber, cloneset.CreateRevision)
	// Output: ReuseLatest Renumber CreateRevision
}

func ExampleCurrentRevisionAfter() {
	// 3 replicas, all 3 pods at the update revision (one still Pending):
	// the current revision advances without waiting for readiness.
	fmt.Println(cloneset.CurrentRevisionAfter("demo-788944f45", "demo-5b54ff9d4d", 3, 3, 3))
	// During a surge, 4 pods at the update revision for 3 replicas: not yet.
	fmt.Println(cloneset.CurrentRevisionAfter("demo-788944f45", "demo-5b54ff9d4d", 3, 4, 4))
	// Output:
	// demo-5b54ff9d4d
	// demo-788944f45
}

func ExampleSortRevisions() {
	revs := []cloneset.ControllerRevision{
		{Name: "demo-c", Number: 3},
		{Name: "demo-b", Number: 1, CreatedUnixNano: 20},
		{Name: "demo-a", Number: 1, CreatedUnixNano: 10},
	}
	order, err := cloneset.SortRevisions(revs)
	for _, i := range order {
		fmt.Print(revs[i].Name, " ")
	}
	fmt.Println(err)
	// Output: demo-a demo-b demo-c <nil>
}

func ExampleHistoryToDelete() {
	var revs []cloneset.ControllerRevision
	for n := int64(1); n <= 6; n++ {
		revs = append(revs, cloneset.ControllerRevision{Name: fmt.Sprintf("demo-%d", n), Number: n})
	}
	limit := int32(2)
	// Current 5, update 6, a pod still on 2: non-live {1, 3, 4}, keep 2.
	pods := []cloneset.Pod{{Name: "demo-x2k9p", Revision: "demo-2", Phase: cloneset.PodRunning}}
	del, err := cloneset.HistoryToDelete(revs, "demo-5", "demo-6", pods, &limit)
	for _, i := range del {
		fmt.Println("delete", revs[i].Name)
	}
	fmt.Println(err)
	// Output:
	// delete demo-1
	// <nil>
}

func ExampleCalculateInPlaceUpdate() {
	v125, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`))
	v126, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo","tier":"web"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`))
	withEnv, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","env":[{"name":"MODE","value":"fast"}],"resources":{}}]}}`))

	u, _ := cloneset.CalculateInPlaceUpdate(v125, v126)
	fmt.Println(u.Possible, u.Images, u.Metadata)
	u, _ = cloneset.CalculateInPlaceUpdate(v125, withEnv)
	fmt.Println(u.Possible, u.Blockers)
	// Output:
	// true map[main:nginx:1.26] true
	// false [add /spec/containers/0/env]
}

func ExampleInPlaceUpdate_String() {
	v125, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`))
	v126, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`))
	u, _ := cloneset.CalculateInPlaceUpdate(v125, v126)
	fmt.Println(u)
	// Output: in place: images main=nginx:1.26
}

func ExampleUpdateCandidates() {
	pods := []cloneset.Pod{
		{Name: "demo-a", Revision: "demo-788944f45", Phase: cloneset.PodRunning},
		{Name: "demo-b", Revision: "demo-5b54ff9d4d", Phase: cloneset.PodRunning},
		{Name: "demo-c", Revision: "demo-788944f45", Phase: cloneset.PodRunning, Lifecycle: cloneset.PreparingDelete},
		{Name: "demo-d", Revision: "demo-788944f45", Phase: cloneset.PodRunning},
	}
	// Two pods to move to the update revision demo-5b54ff9d4d.
	fmt.Println(cloneset.UpdateCandidates(pods, "demo-5b54ff9d4d", 2))
	// A rollback (updateNum < 0) moves pods at the update revision back.
	fmt.Println(cloneset.UpdateCandidates(pods, "demo-5b54ff9d4d", -1))
	// Output:
	// [0 3]
	// [1]
}

func ExampleSortUpdateIndexes() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	running := func(name, zone string, readyFor time.Duration) cloneset.Pod {
		return cloneset.Pod{Name: name, Revision: "demo-788944f45", Labels: map[string]string{"zone": zone},
			Phase: cloneset.PodRunning, NodeName: "node-" + zone, Ready: true, ReadySince: now.Add(-readyFor),
			CreationTime: now.Add(-time.Hour)}
	}
	pods := []cloneset.Pod{
		running("demo-a", "a", 50*time.Minute),
		running("demo-b", "a", 40*time.Minute),
		running("demo-c", "b", 30*time.Minute),
		running("demo-d", "b", 20*time.Minute),
		running("demo-e", "a", 10*time.Minute),
	}
	pods[0].Ready = false

	order, _ := cloneset.SortUpdateIndexes(cloneset.UpdateStrategy{}, pods, []int{0, 1, 2, 3, 4}, cloneset.UpdateOrderOptions{})
	fmt.Println("by readiness:", order)

	// Zone b first, by weight.
	weighted := cloneset.UpdateStrategy{PriorityStrategy: &cloneset.PriorityStrategy{WeightPriority: []cloneset.WeightTerm{
		{Weight: 10, MatchSelector: cloneset.LabelSelector{MatchLabels: map[string]string{"zone": "b"}}},
	}}}
	order, _ = cloneset.SortUpdateIndexes(weighted, pods, []int{0, 1, 2, 3, 4}, cloneset.UpdateOrderOptions{})
	fmt.Println("zone b first:", order)

	// Zone b spread through the order.
	scattered := cloneset.UpdateStrategy{ScatterStrategy: []cloneset.ScatterTerm{{Key: "zone", Value: "b"}}}
	order, _ = cloneset.SortUpdateIndexes(scattered, pods, []int{0, 1, 2, 3, 4}, cloneset.UpdateOrderOptions{})
	fmt.Println("zone b scattered:", order)
	// Output:
	// by readiness: [0 4 3 2 1]
	// zone b first: [3 2 0 4 1]
	// zone b scattered: [3 0 4 1 2]
}

func ExampleNoKeyOrder_String() {
	fmt.Println(cloneset.NoKeyFirst, cloneset.NoKeyLast)
	// Output: NoKeyFirst NoKeyLast
}

func ExampleScatterGrouping_String() {
	fmt.Println(cloneset.ScatterRound, cloneset.ScatterFloor)
	// Output: ScatterRound ScatterFloor
}

func ExampleLimitUpdateIndexes() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ready := func(name string) cloneset.Pod {
		return cloneset.Pod{Name: name, Revision: "demo-788944f45", Phase: cloneset.PodRunning, NodeName: "n1",
			Ready: true, ReadySince: now.Add(-time.Hour)}
	}
	pods := []cloneset.Pod{ready("demo-a"), ready("demo-b"), ready("demo-c"), ready("demo-d"), ready("demo-e")}
	pods[3].Ready = false // demo-d is not ready

	cs := &cloneset.CloneSet[struct{}]{Replicas: 5} // maxUnavailable 20% of 5 = 1
	revs := cloneset.Revisions{Current: "demo-788944f45", Update: "demo-5b54ff9d4d"}
	d, _ := cloneset.CalculateDiffs(cs, pods, revs, now, cloneset.ForUpdate, cloneset.Options{})
	order, _ := cloneset.SortUpdateIndexes(cs.UpdateStrategy, pods, cloneset.UpdateCandidates(pods, revs.Update, d.UpdateNum), cloneset.UpdateOrderOptions{})
	fmt.Println("updateNum", d.UpdateNum, "budget", d.UpdateMaxUnavailable, "order", order)
	// demo-d is already unavailable: updating it costs nothing more, and the
	// budget of 1 is then used up.
	fmt.Println(cloneset.LimitUpdateIndexes(pods, order, d.UpdateNum, d.UpdateMaxUnavailable, revs.Update, cs.MinReadySeconds, now))
	// Output:
	// updateNum 5 budget 1 order [3 0 1 2 4]
	// [3]
}

func ExampleUpdate() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	v125, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25","resources":{}}]}}`))
	v126, _ := cloneset.RevisionData([]byte(`{"metadata":{"creationTimestamp":null,"labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"nginx:1.26","resources":{}}]}}`))
	revisions := []cloneset.ControllerRevision{
		{Name: "demo-788944f45", Number: 1, Data: v125},
		{Name: "demo-5b54ff9d4d", Number: 2, Data: v126},
	}
	var pods []cloneset.Pod
	for _, name := range []string{"demo-a", "demo-b", "demo-c", "demo-d", "demo-e"} {
		pods = append(pods, cloneset.Pod{Name: name, Revision: "demo-788944f45", Phase: cloneset.PodRunning,
			NodeName: "n1", Ready: true, ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-2 * time.Hour),
			Lifecycle: cloneset.Normal})
	}
	// 5 replicas, in place where possible, maxUnavailable 40% (2 pods).
	cs := &cloneset.CloneSet[struct{}]{Name: "demo", Replicas: 5, UpdateStrategy: cloneset.UpdateStrategy{
		Type: cloneset.InPlaceIfPossible, MaxUnavailable: &intorpercent.IntOrString{IsString: true, Str: "40%"}}}
	revs := cloneset.Revisions{Current: "demo-788944f45", Update: "demo-5b54ff9d4d"}

	d, err := cloneset.Update(cs, pods, revisions, revs, now, cloneset.Options{})
	fmt.Println(d.Branch, "updateNum", d.Diffs.UpdateNum, "chosen", d.Chosen, err)
	for _, a := range d.Actions {
		fmt.Println(a.Kind, a.Pod, a.To, "-", a.Reason)
	}
	// Output:
	// UpdatePods updateNum 5 chosen [demo-a demo-b] <nil>
	// UpdatePodInPlace demo-a Updating - update budget 2: pod demo-a updated in place to demo-5b54ff9d4d (in place: images main=nginx:1.26)
	// UpdatePodInPlace demo-b Updating - update budget 2: pod demo-b updated in place to demo-5b54ff9d4d (in place: images main=nginx:1.26)
}

func ExampleRefreshLifecycle() {
	pod := cloneset.Pod{Name: "demo-a", Revision: "demo-5b54ff9d4d", Lifecycle: cloneset.PreparingNormal}
	fmt.Println(cloneset.RefreshLifecycle(nil, &pod, "demo-5b54ff9d4d")) // not scheduled yet
	pod.NodeName = "node-1"
	fmt.Println(cloneset.RefreshLifecycle(nil, &pod, "demo-5b54ff9d4d"))

	// After an in-place update, a CloneSet with an inPlaceUpdate hook keeps
	// the pod in Updated until the hook's label is back on it.
	lc := &cloneset.Lifecycle{InPlaceUpdate: &cloneset.LifecycleHook{LabelsHandler: map[string]string{"example.com/drain": "true"}}}
	pod.Lifecycle = cloneset.Updating
	pod.InPlaceUpdate = &cloneset.InPlaceUpdateState{Revision: "demo-5b54ff9d4d", Done: true}
	fmt.Println(cloneset.RefreshLifecycle(lc, &pod, "demo-5b54ff9d4d"))
	// Output:
	// PreparingNormal false
	// Normal true
	// Updated true
}

func ExampleUpdateBranch_String() {
	fmt.Println(cloneset.UpdateRefreshed, cloneset.UpdatePods, cloneset.UpdateFailed)
	// Output: UpdateRefreshed UpdatePods UpdateFailed
}
