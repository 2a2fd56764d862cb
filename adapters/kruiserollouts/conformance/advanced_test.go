package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"testing"
	"time"
	"unsafe"

	rolloutsv1alpha1 "github.com/openkruise/rollouts/api/v1alpha1"
	deploymentctl "github.com/openkruise/rollouts/pkg/controller/deployment"
	deploymentutil "github.com/openkruise/rollouts/pkg/controller/deployment/util"
	rolloutsutil "github.com/openkruise/rollouts/pkg/util"
	"github.com/openkruise/rollouts/pkg/webhook/util/configuration"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"pgregory.net/rapid"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// The advanced Deployment controller's round: ReconcileDeployment.Reconcile
// (the reconciler kruise-rollout's manager runs), with its Deployment and
// MutatingWebhookConfiguration on a controller-runtime fake client and its
// controller factory (listers over indexers holding the Deployment and its
// ReplicaSets, a client-go fake clientset, a fake event recorder) set by
// reflection, since the reconciler is otherwise built only by a manager.
// One Reconcile is one syncDeployment: a rolling round (rolloutRolling),
// or a scaling one (sync) when the strategy is paused or a ReplicaSet's
// desired-replicas annotation is not R. The ReplicaSets it leaves in the
// clientset (sizes, the desired-replicas and max-replicas annotations, a
// created new ReplicaSet) are compared with batchrelease's
// SyncAdvancedDeployment on the same state. The walk then makes every
// pod available and runs the next reconcile, up to 6 reconciles.

// newReconciler returns the advanced Deployment reconciler over d and
// rss, and the clientset it writes to.
func newReconciler(t tb, d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (*deploymentctl.ReconcileDeployment, *k8sfake.Clientset) {
	t.Helper()
	mwc := &admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: configuration.MutatingWebhookConfigurationName}}
	r := &deploymentctl.ReconcileDeployment{Client: fake.NewClientBuilder().WithScheme(scheme).WithObjects(d.DeepCopy(), mwc).Build()}

	objs := []runtime.Object{d.DeepCopy()}
	dIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	rsIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	if err := dIndexer.Add(d.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	for _, rs := range rss {
		objs = append(objs, rs.DeepCopy())
		if err := rsIndexer.Add(rs.DeepCopy()); err != nil {
			t.Fatal(err)
		}
	}
	kube := k8sfake.NewSimpleClientset(objs...)

	// r.controllerFactory = &controllerFactory{client, eventRecorder, dLister, rsLister}
	fv := reflect.ValueOf(r).Elem().FieldByName("controllerFactory")
	factory := reflect.New(fv.Type().Elem())
	set := func(v reflect.Value, name string, x any) {
		f := v.Elem().FieldByName(name)
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(x))
	}
	set(factory, "client", kube)
	set(factory, "eventRecorder", record.NewFakeRecorder(1000))
	set(factory, "dLister", appslisters.NewDeploymentLister(dIndexer))
	set(factory, "rsLister", appslisters.NewReplicaSetLister(rsIndexer))
	reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem().Set(factory)
	return r, kube
}

// advancedState is one state of a Deployment under the advanced
// controller: the Deployment and its ReplicaSets, upstream's objects.
type advancedState struct {
	d   *appsv1.Deployment
	rss []*appsv1.ReplicaSet
}

var advancedTemplate = corev1.PodTemplateSpec{
	ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
	Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "demo:v9"}}},
}

func genAdvancedState(t *rapid.T) advancedState {
	r := rapid.Int32Range(0, 20).Draw(t, "replicas")
	strategy := rolloutsv1alpha1.DeploymentStrategy{RollingStyle: rolloutsv1alpha1.PartitionRollingStyle, Paused: rapid.IntRange(0, 9).Draw(t, "paused") == 0}
	if rapid.Bool().Draw(t, "partitionPercent") {
		strategy.Partition = intstr.FromString(strconv.Itoa(rapid.IntRange(0, 100).Draw(t, "partitionPct")) + "%")
	} else {
		strategy.Partition = intstr.FromInt(rapid.IntRange(0, int(r)+2).Draw(t, "partitionInt"))
	}
	if rapid.IntRange(0, 5).Draw(t, "noRollingUpdate") > 0 {
		strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		fp := func(label string) *intstr.IntOrString {
			switch rapid.IntRange(0, 3).Draw(t, label) {
			case 0:
				return nil
			case 1:
				v := intstr.FromInt(rapid.IntRange(0, 4).Draw(t, label+".int"))
				return &v
			default:
				v := intstr.FromString(rapid.SampledFrom([]string{"0%", "10%", "25%", "50%", "100%"}).Draw(t, label+".pct"))
				return &v
			}
		}
		strategy.RollingUpdate.MaxSurge, strategy.RollingUpdate.MaxUnavailable = fp("maxSurge"), fp("maxUnavailable")
	}
	js, _ := json.Marshal(strategy)
	d := &appsv1.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: workloadUID, Generation: 3, Annotations: map[string]string{
			rolloutsutil.BatchReleaseControlAnnotation:    `{"uid":"release-uid"}`,
			rolloutsv1alpha1.DeploymentStrategyAnnotation: string(js),
		}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &r, Paused: true, Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			Template: advancedTemplate,
		},
	}
	surge := deploymentutil.MaxSurge(d, &strategy)
	base := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	rs := func(name, image, hash string, revision int) *appsv1.ReplicaSet {
		tpl := *advancedTemplate.DeepCopy()
		tpl.Spec.Containers[0].Image = image
		tpl.Labels = map[string]string{"app": "demo", appsv1.DefaultDeploymentUniqueLabelKey: hash}
		size := rapid.Int32Range(0, r+2).Draw(t, name+".replicas")
		avail := rapid.Int32Range(0, size).Draw(t, name+".available")
		ready := rapid.Int32Range(avail, size).Draw(t, name+".ready")
		x := &appsv1.ReplicaSet{
			TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name + "-uid"), Labels: tpl.Labels,
				CreationTimestamp: metav1.NewTime(base.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, name+".created")) * time.Hour)),
				Annotations:       map[string]string{},
				OwnerReferences:   []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}},
			Spec:   appsv1.ReplicaSetSpec{Replicas: &size, Selector: &metav1.LabelSelector{MatchLabels: tpl.Labels}, Template: tpl},
			Status: appsv1.ReplicaSetStatus{Replicas: size, ReadyReplicas: ready, AvailableReplicas: avail, FullyLabeledReplicas: size},
		}
		if revision > 0 {
			x.Annotations[deploymentutil.RevisionAnnotation] = strconv.Itoa(revision)
		}
		switch rapid.IntRange(0, 9).Draw(t, name+".desired") {
		case 0:
		case 1:
			x.Annotations[deploymentutil.ReplicasAnnotation] = strconv.Itoa(int(rapid.Int32Range(0, 22).Draw(t, name+".desiredValue")))
			// At least 1: getReplicaSetFraction divides by it (its comment:
			// never 0 there; the controller writes R + surge when it
			// scales a ReplicaSet, and a ReplicaSet of R 0 has no pods).
			x.Annotations[deploymentutil.MaxReplicasAnnotation] = strconv.Itoa(int(rapid.Int32Range(1, 25).Draw(t, name+".maxValue")))
		default:
			x.Annotations[deploymentutil.ReplicasAnnotation] = strconv.Itoa(int(r))
			x.Annotations[deploymentutil.MaxReplicasAnnotation] = strconv.Itoa(int(r + surge))
		}
		return x
	}
	var rss []*appsv1.ReplicaSet
	revs := rapid.Permutation([]int{1, 2, 3}).Draw(t, "revisions")
	for i := rapid.IntRange(0, 3).Draw(t, "olds") - 1; i >= 0; i-- {
		rev := revs[i]
		if rapid.IntRange(0, 9).Draw(t, "noRevision") == 0 {
			rev = 0
		}
		rss = append(rss, rs(fmt.Sprintf("demo-old%d", i), fmt.Sprintf("demo:v%d", i), fmt.Sprintf("old%d", i), rev))
	}
	newName := "demo-" + rolloutsutil.ComputeHash(&advancedTemplate, nil)
	if rapid.IntRange(0, 9).Draw(t, "newExists") > 2 {
		n := rs(newName, "demo:v9", rolloutsutil.ComputeHash(&advancedTemplate, nil), 4)
		rss = append(rss, n)
	}
	var status int32
	for _, x := range rss {
		status += x.Status.Replicas
	}
	d.Status.Replicas = status
	return advancedState{d: d, rss: rss}
}

// libAdvanced reads the state as batchrelease's advanced Deployment.
func libAdvanced(t tb, s advancedState) (*batchrelease.AdvancedDeployment, []batchrelease.ReplicaSet) {
	t.Helper()
	w, err := kruiserollouts.Deployment(s.d)
	if err != nil {
		t.Fatal(err)
	}
	var st kruiserollouts.DeploymentStrategy
	if err := json.Unmarshal([]byte(s.d.Annotations[kruiserollouts.DeploymentStrategyAnnotation]), &st); err != nil {
		t.Fatal(err)
	}
	strategy := batchrelease.DeploymentStrategy{RollingStyle: batchrelease.Partition, Paused: w.Paused, Partition: *w.Partition}
	if st.RollingUpdate != nil {
		strategy.RollingUpdate = &batchrelease.RollingUpdate{MaxSurge: w.MaxSurge, MaxUnavailable: w.MaxUnavailable}
	}
	d := &batchrelease.AdvancedDeployment{
		Name: s.d.Name, Replicas: w.Replicas, Strategy: strategy,
		NewReplicaSet:  "demo-" + rolloutsutil.ComputeHash(&advancedTemplate, nil),
		StatusReplicas: s.d.Status.Replicas,
	}
	var rss []batchrelease.ReplicaSet
	for _, x := range s.rss {
		rss = append(rss, batchrelease.ReplicaSet{
			Name: x.Name, Revision: x.Annotations[deploymentutil.RevisionAnnotation], CreationTime: x.CreationTimestamp.Time,
			Replicas: *x.Spec.Replicas, StatusReplicas: x.Status.Replicas, ReadyReplicas: x.Status.ReadyReplicas, AvailableReplicas: x.Status.AvailableReplicas,
			DesiredReplicas: annotationInt(x, deploymentutil.ReplicasAnnotation), MaxReplicas: annotationInt(x, deploymentutil.MaxReplicasAnnotation),
		})
	}
	return d, rss
}

func annotationInt(rs *appsv1.ReplicaSet, key string) *int32 {
	v, ok := rs.Annotations[key]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil
	}
	m := int32(n)
	return &m
}

// upstreamRound runs one Reconcile and returns the ReplicaSets the
// clientset holds after it, by name.
func upstreamRound(t tb, s advancedState) map[string]*appsv1.ReplicaSet {
	t.Helper()
	r, kube := newReconciler(t, s.d, s.rss)
	if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "demo"}}); err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
	list, err := kube.AppsV1().ReplicaSets("default").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*appsv1.ReplicaSet{}
	for i := range list.Items {
		out[list.Items[i].Name] = &list.Items[i]
	}
	return out
}

func describe(rss []batchrelease.ReplicaSet) string {
	var parts []string
	for _, x := range rss {
		parts = append(parts, fmt.Sprintf("%s=%d", x.Name, x.Replicas))
	}
	sort.Strings(parts)
	return fmt.Sprint(parts)
}

func TestAdvancedDeploymentRoundsMatchUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genAdvancedState(t)
		now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
		for round := 0; round < 6; round++ {
			d, rss := libAdvanced(t, s)
			got, err := batchrelease.SyncAdvancedDeployment(d, rss, now)
			if err != nil {
				t.Fatalf("SyncAdvancedDeployment: %v", err)
			}
			up := upstreamRound(t, s)
			if len(up) != len(got.ReplicaSets) {
				t.Fatalf("round %d: upstream has %d ReplicaSets, library %d (%s)", round, len(up), len(got.ReplicaSets), describe(got.ReplicaSets))
			}
			for _, x := range got.ReplicaSets {
				u, ok := up[x.Name]
				if !ok {
					t.Fatalf("round %d: library's ReplicaSet %s not upstream's", round, x.Name)
				}
				if *u.Spec.Replicas != x.Replicas {
					t.Fatalf("round %d: %s: upstream spec.replicas %d, library %d (library: %s, rolling %v, writes %+v)", round, x.Name, *u.Spec.Replicas, x.Replicas, describe(got.ReplicaSets), got.Rolling, got.Writes)
				}
				same(t, fmt.Sprintf("round %d: %s desired-replicas", round, x.Name), x.DesiredReplicas, annotationInt(u, deploymentutil.ReplicasAnnotation))
				same(t, fmt.Sprintf("round %d: %s max-replicas", round, x.Name), x.MaxReplicas, annotationInt(u, deploymentutil.MaxReplicasAnnotation))
			}
			kind := "scaling round (sync)"
			if got.Rolling {
				kind = "rolling round (rolloutRolling)"
			}
			if len(got.Writes) == 0 {
				kind = "round without a write"
			}
			count("advanced Deployment Reconcile: "+kind, "agree")
			if len(got.Writes) == 0 {
				return
			}
			// Next state: upstream's ReplicaSets, every pod available.
			next := advancedState{d: s.d.DeepCopy()}
			var status int32
			for _, x := range s.rss {
				if _, ok := up[x.Name]; !ok {
					t.Fatalf("ReplicaSet %s disappeared", x.Name)
				}
			}
			names := make([]string, 0, len(up))
			for n := range up {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				x := up[n].DeepCopy()
				x.Status.Replicas, x.Status.ReadyReplicas, x.Status.AvailableReplicas = *x.Spec.Replicas, *x.Spec.Replicas, *x.Spec.Replicas
				if x.CreationTimestamp.IsZero() {
					x.CreationTimestamp = metav1.NewTime(now)
				}
				status += x.Status.Replicas
				next.rss = append(next.rss, x)
			}
			next.d.Status.Replicas = status
			s = next
			now = now.Add(time.Minute)
		}
	})
}
