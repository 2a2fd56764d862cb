package conformance

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	kruiserevision "github.com/openkruise/kruise/pkg/controller/cloneset/revision"
	clonesetsync "github.com/openkruise/kruise/pkg/controller/cloneset/sync"
	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// benchState is a CloneSet of n replicas in the middle of an in-place
// rollout (InPlaceIfPossible, images only, maxUnavailable 20%): half the
// pods at the new revision, every pod Running, Ready for an hour and in
// lifecycle Normal, spread over 10 nodes. The scale step has nothing to
// do; the update step updates 20% of the replicas in place.
func benchState(b *testing.B, n int) *state {
	now := time.Now().Truncate(time.Second)
	replicas := int32(n)
	unavailable := intstr.FromString("20%")
	cs := &appsv1alpha1.CloneSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bench%d", n), Namespace: "default", UID: types.UID(fmt.Sprintf("uid-bench%d", n)), Generation: 2},
		Spec: appsv1alpha1.CloneSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			UpdateStrategy: appsv1alpha1.CloneSetUpdateStrategy{
				Type:           appsv1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType,
				MaxUnavailable: &unavailable,
			},
		},
	}
	rc := kruiserevision.NewRevisionControl()
	cs.Spec.Template = validTemplate()
	cur, err := rc.NewRevision(cs, 1, new(int32))
	if err != nil {
		b.Fatal(err)
	}
	cs.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
	upd, err := rc.NewRevision(cs, 2, new(int32))
	if err != nil {
		b.Fatal(err)
	}
	s := &state{cs: cs, current: cur, update: upd, revisions: []*apps.ControllerRevision{cur, upd}, now: now}
	for i := 0; i < n; i++ {
		rev := cur.Name
		if i%2 == 1 {
			rev = upd.Name
		}
		s.pods = append(s.pods, &corev1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("%s-%05d", cs.Name, i), Namespace: "default", UID: types.UID(fmt.Sprint("pod", i)),
				CreationTimestamp: metav1.NewTime(at(now, -7200+i)),
				Labels:            map[string]string{"app": "demo", apps.ControllerRevisionHashLabelKey: rev, apps.DefaultDeploymentUniqueLabelKey: shortHash(rev), "lifecycle.apps.kruise.io/state": "Normal"},
			},
			Spec: corev1.PodSpec{NodeName: fmt.Sprintf("node-%d", i%10), Containers: []corev1.Container{{Name: "app", Image: "nginx:1.25"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at(now, -3600))},
			}},
		})
	}
	return s
}

// fakeClientFor builds the fake client kruise's side runs against,
// holding deep copies of s's pods, and adds the time spent building it
// and in every call kruise makes through it to *spent.
func fakeClientFor(s *state, spent *time.Duration) client.Client {
	start := time.Now()
	defer func() { *spent += time.Since(start) }()
	objs := make([]client.Object, len(s.pods))
	for i, p := range s.pods {
		objs[i] = p.DeepCopy()
	}
	timed := func(f func() error) error {
		t0 := time.Now()
		err := f()
		*spent += time.Since(t0)
		return err
	}
	return fake.NewClientBuilder().WithScheme(kruiseScheme).WithObjects(objs...).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			return timed(func() error { return c.Get(ctx, key, obj, opts...) })
		},
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			return timed(func() error { return c.Create(ctx, obj, opts...) })
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			return timed(func() error { return c.Delete(ctx, obj, opts...) })
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			return timed(func() error { return c.Update(ctx, obj, opts...) })
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			return timed(func() error { return c.Patch(ctx, obj, patch, opts...) })
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			return timed(func() error { return c.SubResource(sub).Update(ctx, obj, opts...) })
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			return timed(func() error { return c.SubResource(sub).Patch(ctx, obj, patch, opts...) })
		},
	}).Build()
}

// BenchmarkReconcile times one reconcile's decisions on the same states,
// side by side in one run:
//
//   - rolloutmath: cloneset.Scale, Update and CalculateStatus (the status
//     too, which kruise computes in a separate step not timed here), on
//     converted inputs;
//   - rolloutmath-plan: cloneset.Plan, the whole reconcile (revisions,
//     scale, update, status, history), converting the CloneSet, pods and
//     revisions from the API objects inside the timed loop;
//   - kruise: a fresh fake client holding the pods, then sync.Scale and
//     sync.Update, which write through that client (in-place updates of
//     20% of the pods). The metric client-% is the share of that time
//     spent building the fake client and inside its methods: what a real
//     controller spends in its cache and API calls instead.
//
// Run the sub-benchmarks with -count to interleave them.
func BenchmarkReconcile(b *testing.B) {
	for _, n := range []int{100, 1000} {
		s := benchState(b, n)
		ocs := ourCloneSet(s.cs)
		opods := ourPods(s.pods)
		orevs := []cloneset.ControllerRevision{ourRevision(s.current), ourRevision(s.update)}
		revs := cloneset.Revisions{Current: s.current.Name, Update: s.update.Name}

		b.Run(fmt.Sprintf("pods=%d/rolloutmath", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sd, err := cloneset.Scale(ocs, opods, revs, s.now, cloneset.Options{})
				if err != nil || sd.Modified {
					b.Fatalf("Scale: %+v %v", sd, err)
				}
				ud, err := cloneset.Update(ocs, opods, orevs, revs, s.now, cloneset.Options{})
				if err != nil || len(ud.Chosen) != n/5 {
					b.Fatalf("Update chose %d pods, want %d (%v)", len(ud.Chosen), n/5, err)
				}
				if _, err := cloneset.CalculateStatus(ocs, opods, revs, s.now); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("pods=%d/rolloutmath-plan", n), func(b *testing.B) {
			// The whole reconcile as cloneset.Plan, with the conversion a
			// caller makes from its cached objects inside the timed loop,
			// as kruise's side copies its pods inside its loop.
			b.ReportAllocs()
			for b.Loop() {
				pods := ourPods(s.pods)
				revisions := []cloneset.ControllerRevision{ourRevision(s.current), ourRevision(s.update)}
				sync, err := cloneset.Plan(ourCloneSet(s.cs), pods, revisions, s.now)
				if err != nil || sync.Update == nil || len(sync.Update.Chosen) != n/5 {
					b.Fatalf("Plan: %v", err)
				}
			}
		})
		b.Run(fmt.Sprintf("pods=%d/kruise", n), func(b *testing.B) {
			b.ReportAllocs()
			var spent time.Duration
			start := time.Now()
			for b.Loop() {
				ctrl := clonesetsync.New(fakeClientFor(s, &spent), &record.FakeRecorder{})
				pods := make([]*corev1.Pod, len(s.pods))
				for i, p := range s.pods {
					pods[i] = p.DeepCopy()
				}
				modified, err := ctrl.Scale(s.cs, s.cs, s.current.Name, s.update.Name, pods, nil)
				if err != nil || modified {
					b.Fatalf("kruise Scale: %v %v", modified, err)
				}
				if err := ctrl.Update(s.cs, s.current, s.update, s.revisions, pods, nil); err != nil {
					b.Fatalf("kruise Update: %v", err)
				}
			}
			b.ReportMetric(100*float64(spent)/float64(time.Since(start)), "client-%")
		})
	}
}
