package conformance

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// stsSteadyWorld is a StatefulSet of n replicas on the realistic
// template, settled: every pod Running, Ready and at the one revision,
// the status up to date. A sync of it writes nothing, so the same sync
// can be timed again and again.
func stsSteadyWorld(tb testing.TB, n int) *stsObjects {
	tmpl := realisticTemplate()
	isController := true
	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: stsName, Namespace: traceNamespace, UID: stsUID, Generation: 1},
		Spec: appsv1.StatefulSetSpec{
			Replicas:             ptr32(int32(n)),
			Selector:             &metav1.LabelSelector{MatchLabels: tmpl.Labels},
			Template:             tmpl,
			ServiceName:          stsName,
			PodManagementPolicy:  appsv1.OrderedReadyPodManagement,
			UpdateStrategy:       appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr32(0)}},
			RevisionHistoryLimit: ptr32(10),
		},
	}
	data, err := kubeapps.StatefulSetRevisionData(set)
	if err != nil {
		tb.Fatal(err)
	}
	hash := statefulset.HashRevision(data, 0)
	name := statefulset.RevisionName(stsName, hash)
	rev := kubeapps.StatefulSetRevisionObject(set, &statefulset.ControllerRevision{Name: name, Number: 1, Hash: hash, Data: data})
	rev.UID, rev.CreationTimestamp = "uid-rev-0", metav1.Time{Time: traceStart}
	set.Status = appsv1.StatefulSetStatus{ObservedGeneration: 1, Replicas: int32(n), ReadyReplicas: int32(n), AvailableReplicas: int32(n),
		CurrentReplicas: int32(n), UpdatedReplicas: int32(n), CurrentRevision: name, UpdateRevision: name, CollisionCount: ptr32(0)}
	obj := &stsObjects{set: set, pods: make(map[string]*corev1.Pod, n), revs: map[string]*appsv1.ControllerRevision{name: rev}}
	for i := 0; i < n; i++ {
		podName := stsName + "-" + strconv.Itoa(i)
		labels := map[string]string{appsv1.StatefulSetRevisionLabel: name, appsv1.StatefulSetPodNameLabel: podName, appsv1.PodIndexLabel: strconv.Itoa(i)}
		for k, v := range tmpl.Labels {
			labels[k] = v
		}
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: podName, Namespace: traceNamespace, UID: types.UID(fmt.Sprint("uid-pod-", i)), Labels: labels,
				CreationTimestamp: metav1.Time{Time: traceStart},
				OwnerReferences:   []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: stsName, UID: stsUID, Controller: &isController}}},
			Spec: tmpl.Spec,
		}
		p.Status.Phase = corev1.PodRunning
		setReady(p, true, traceStart)
		obj.pods[podName] = p
	}
	return obj
}

// BenchmarkStatefulSetSync times one steady-state sync of a StatefulSet
// of 10, 1,000 and 100,000 pods, side by side: the real
// StatefulSetController's sync (stores already filled, as between two
// events), PlanWith on pre-converted inputs, a reusable Planner on
// pre-converted inputs, and a Planner converting the apps/v1 objects with
// the kubeapps functions inside the loop, as a controller would. Before
// timing, one sync of each side must agree and write nothing.
//
//	go -C adapters/kubeapps/conformance test -run '^$' -bench BenchmarkStatefulSetSync -benchmem
func BenchmarkStatefulSetSync(b *testing.B) {
	live := liveStatefulSetController()
	for _, n := range []int{10, 1000, 100000} {
		obj := stsSteadyWorld(b, n)
		res := live.syncOnce(obj, traceStart, false)
		if res.err != nil || len(stsWrites(res.actions, res.failed)) > 0 {
			b.Fatalf("%d pods: the steady world is not steady upstream: %v %v", n, res.err, stsWrites(res.actions, res.failed))
		}
		setObj := obj.set
		podObjs, revObjs := obj.sortedPods(), obj.sortedRevisions()
		set := kubeapps.StatefulSet(setObj)
		pods, revs := kubeapps.StatefulSetPods(podObjs), kubeapps.StatefulSetRevisions(revObjs)
		sync, err := statefulset.Plan(&set, pods, revs, traceStart)
		if err != nil || len(sync.Actions) > 0 {
			b.Fatalf("%d pods: Plan is not steady: %v %+v", n, err, sync.Actions)
		}
		b.Run(fmt.Sprintf("pods=%d/upstream", n), func(b *testing.B) {
			b.ReportAllocs()
			live.client.ClearActions()
			for b.Loop() {
				if err := upstreamStatefulSetSync(live.ssc, context.Background(), stsKey); err != nil {
					b.Fatal(err)
				}
			}
			if ws := stsWrites(live.client.Actions(), make([]bool, len(live.client.Actions()))); len(ws) > 0 {
				b.Fatalf("the timed syncs wrote %v", ws)
			}
		})
		b.Run(fmt.Sprintf("pods=%d/Plan", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := statefulset.Plan(&set, pods, revs, traceStart)
				if err != nil {
					b.Fatal(err)
				}
				sink = s
			}
		})
		b.Run(fmt.Sprintf("pods=%d/Planner", n), func(b *testing.B) {
			b.ReportAllocs()
			var p statefulset.Planner[kubeapps.Template]
			for b.Loop() {
				s, err := p.Plan(&set, pods, revs, traceStart)
				if err != nil {
					b.Fatal(err)
				}
				sink = s
			}
		})
		b.Run(fmt.Sprintf("pods=%d/Planner, adapt in the loop", n), func(b *testing.B) {
			b.ReportAllocs()
			var p statefulset.Planner[kubeapps.Template]
			for b.Loop() {
				set := kubeapps.StatefulSet(setObj)
				s, err := p.Plan(&set, kubeapps.StatefulSetPods(podObjs), kubeapps.StatefulSetRevisions(revObjs), traceStart)
				if err != nil {
					b.Fatal(err)
				}
				sink = s
			}
		})
	}
}
