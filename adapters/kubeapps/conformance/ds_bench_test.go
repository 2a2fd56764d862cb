package conformance

import (
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// dsSteadyWorld is a DaemonSet on the realistic template over n plain
// Linux nodes, settled: one pod per node, Running, Ready and at the one
// revision, and the status as upstream's sync writes it. A sync of it
// writes nothing, so the same sync can be timed again and again.
func dsSteadyWorld(tb testing.TB, c *dsLive, n int) *dsObjects {
	tmpl := realisticTemplate()
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: dsName, Namespace: traceNamespace, UID: dsUID, Generation: 1,
			CreationTimestamp: metav1.Time{Time: traceStart},
			Annotations:       map[string]string{appsv1.DeprecatedTemplateGeneration: "1"}},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: tmpl.Labels},
			Template: tmpl,
		},
	}
	appsv1defaults.SetObjectDefaults_DaemonSet(ds)
	data, err := kubeapps.DaemonSetRevisionData(ds)
	if err != nil {
		tb.Fatal(err)
	}
	lib := kubeapps.DaemonSet(ds)
	hash := daemonset.Hash(&lib.Template, nil)
	name := daemonset.RevisionName(dsName, hash)
	rev := kubeapps.DaemonSetRevisionObject(ds, &daemonset.ControllerRevision{Name: name, Number: 1, Hash: hash, Data: data})
	rev.UID, rev.CreationTimestamp = "uid-rev-0", metav1.Time{Time: traceStart}
	obj := &dsObjects{ds: ds, nodes: make(map[string]*corev1.Node, n), pods: make(map[string]*corev1.Pod, n),
		revs: map[string]*appsv1.ControllerRevision{name: rev}, uids: n}
	isController := true
	for i := 0; i < n; i++ {
		node := fmt.Sprintf("node-%05d", i)
		obj.nodes[node] = &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node, Labels: map[string]string{"kubernetes.io/os": "linux"}}}
		labels := map[string]string{daemonset.HashLabel: hash, daemonset.TemplateGenerationLabel: "1"}
		for k, v := range tmpl.Labels {
			labels[k] = v
		}
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%05d", dsName, i), Namespace: traceNamespace,
				UID: types.UID(fmt.Sprint("uid-pod-", i)), Labels: labels, CreationTimestamp: metav1.Time{Time: traceStart},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: dsName, UID: dsUID, Controller: &isController}}},
			Spec: tmpl.Spec,
		}
		p.Spec.NodeName = node
		p.Status.Phase = corev1.PodRunning
		setPodReady(p, true, traceStart)
		obj.pods[p.Name] = p
	}
	// One sync of upstream writes the status; the world after it is the
	// steady one.
	res := c.syncOnce(obj, traceStart)
	if res.err != nil {
		tb.Fatalf("%d nodes: the first sync: %v", n, res.err)
	}
	for _, w := range dsUpstreamWrites(res.actions, res.failed) {
		if w.kind != "update daemonsets" {
			tb.Fatalf("%d nodes: the settled world is not settled upstream: %+v", n, w)
		}
	}
	return res.after
}

// BenchmarkDaemonSetSync times one steady-state sync of a DaemonSet over
// 10, 1,000 and 10,000 nodes, side by side on the same inputs: the real
// DaemonSetsController's sync (stores already filled, as between two
// events); PlanWith with the apps/v1 objects converted by the kubeapps
// functions inside the loop, as a caller holding apps/v1 objects pays;
// and a reusable Planner on pre-converted inputs (the steady state of a
// controller that keeps its converted objects). Before timing, one sync
// of each side must write nothing.
//
//	go -C adapters/kubeapps/conformance test -run '^$' -bench BenchmarkDaemonSetSync -benchmem
func BenchmarkDaemonSetSync(b *testing.B) {
	live := liveDaemonSetsController()
	for _, n := range []int{10, 1000, 10000} {
		obj := dsSteadyWorld(b, live, n)
		res := live.syncOnce(obj, traceStart)
		if ws := dsUpstreamWrites(res.actions, res.failed); res.err != nil || len(ws) > 0 {
			b.Fatalf("%d nodes: the steady world is not steady upstream: %v %+v", n, res.err, ws)
		}
		dsObj := obj.ds
		nodeObjs, podObjs, revObjs := sortedValues(obj.nodes), sortedValues(obj.pods), sortedValues(obj.revs)
		ds := kubeapps.DaemonSet(dsObj)
		nodes, err := kubeapps.DaemonSetNodes(dsObj, nodeObjs)
		if err != nil {
			b.Fatal(err)
		}
		pods, revs := kubeapps.DaemonSetPods(podObjs), kubeapps.DaemonSetRevisions(revObjs)
		sync, err := daemonset.Plan(&ds, nodes, pods, revs, traceStart)
		if err != nil || len(sync.Actions) > 0 {
			b.Fatalf("%d nodes: Plan is not steady: %v %+v", n, err, sync.Actions)
		}
		b.Run(fmt.Sprintf("nodes=%d/upstream", n), func(b *testing.B) {
			b.ReportAllocs()
			live.client.ClearActions()
			for b.Loop() {
				if err := live.sync(b.Context(), dsKey); err != nil {
					b.Fatal(err)
				}
			}
			acts := live.client.Actions()
			if ws := dsUpstreamWrites(acts, make([]bool, len(acts))); len(ws) > 0 {
				b.Fatalf("the timed syncs wrote %+v", ws)
			}
		})
		b.Run(fmt.Sprintf("nodes=%d/PlanWith, adapt in the loop", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ds := kubeapps.DaemonSet(dsObj)
				nodes, err := kubeapps.DaemonSetNodes(dsObj, nodeObjs)
				if err != nil {
					b.Fatal(err)
				}
				s, err := daemonset.PlanWith(&ds, nodes, kubeapps.DaemonSetPods(podObjs), kubeapps.DaemonSetRevisions(revObjs), traceStart, daemonset.Options{})
				if err != nil {
					b.Fatal(err)
				}
				sink = s
			}
		})
		b.Run(fmt.Sprintf("nodes=%d/Planner", n), func(b *testing.B) {
			b.ReportAllocs()
			var p daemonset.Planner[kubeapps.Template]
			for b.Loop() {
				s, err := p.Plan(&ds, nodes, pods, revs, traceStart)
				if err != nil {
					b.Fatal(err)
				}
				sink = s
			}
		})
	}
}
