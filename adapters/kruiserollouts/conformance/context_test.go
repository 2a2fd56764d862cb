package conformance

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	kruiseappsv1alpha1 "github.com/openkruise/kruise-api/apps/v1alpha1"
	kruiseappsv1beta1 "github.com/openkruise/kruise-api/apps/v1beta1"
	"github.com/openkruise/rollouts/api/v1beta1"
	batchcontext "github.com/openkruise/rollouts/pkg/controller/batchrelease/context"
	bgcloneset "github.com/openkruise/rollouts/pkg/controller/batchrelease/control/bluegreenstyle/cloneset"
	bgdeployment "github.com/openkruise/rollouts/pkg/controller/batchrelease/control/bluegreenstyle/deployment"
	canarydeployment "github.com/openkruise/rollouts/pkg/controller/batchrelease/control/canarystyle/deployment"
	"github.com/openkruise/rollouts/pkg/controller/batchrelease/control/partitionstyle"
	"github.com/openkruise/rollouts/pkg/controller/batchrelease/control/partitionstyle/cloneset"
	"github.com/openkruise/rollouts/pkg/controller/batchrelease/control/partitionstyle/deployment"
	"github.com/openkruise/rollouts/pkg/controller/batchrelease/control/partitionstyle/statefulset"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"pgregory.net/rapid"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// The partition-style controllers' CalculateBatchContext, driven as the
// executor drives them: NewController on a controller-runtime fake client
// that holds the workload and its pods, BuildController (which reads the
// workload and, for StatefulSets, counts its updated ready pods from the
// pods), then CalculateBatchContext(release). The library side reads the
// same objects through the adapter (the BatchRelease as JSON, the
// workload, its owned pods) and calls batchrelease's batch context of
// that style; every field of the two contexts is compared, and then
// their IsBatchReady, message included.

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, kruiseappsv1alpha1.AddToScheme, kruiseappsv1beta1.AddToScheme, v1beta1.AddToScheme} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

const (
	workloadUID = types.UID("workload-uid")
	updateRev   = "demo-7c9d8f6b5"
	stableRev   = "demo-5b8c7d9f4"
)

// genRelease draws an upstream BatchRelease for a workload of replicas
// pods: 1 to 4 batches, a current batch among them, a rollout ID or
// none, a failure threshold or none, and (rollback in batches)
// noNeedUpdateReplicas nil or up to replicas + 2.
func genRelease(t *rapid.T, ref v1beta1.ObjectRef, replicas int32) *v1beta1.BatchRelease {
	br := &v1beta1.BatchRelease{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1beta1", Kind: "BatchRelease"},
		ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "release-uid"},
	}
	br.Spec.WorkloadRef = ref
	n := rapid.IntRange(1, 4).Draw(t, "batches")
	for k := 0; k < n; k++ {
		br.Spec.ReleasePlan.Batches = append(br.Spec.ReleasePlan.Batches, v1beta1.ReleaseBatch{CanaryReplicas: genValue(t, "canaryReplicas")})
	}
	br.Spec.ReleasePlan.RolloutID = rapid.SampledFrom([]string{"", "v1"}).Draw(t, "rolloutID")
	br.Spec.ReleasePlan.RollingStyle = v1beta1.PartitionRollingStyle
	if rapid.Bool().Draw(t, "threshold") {
		v := genValue(t, "failureThreshold")
		br.Spec.ReleasePlan.FailureThreshold = &v
	}
	br.Status.CanaryStatus.CurrentBatch = int32(rapid.IntRange(0, n-1).Draw(t, "currentBatch"))
	br.Status.CanaryStatus.CurrentBatchState = v1beta1.VerifyingBatchState
	if rapid.Bool().Draw(t, "noNeedUpdate") {
		v := rapid.Int32Range(0, replicas+2).Draw(t, "noNeedUpdateReplicas")
		br.Status.CanaryStatus.NoNeedUpdateReplicas = &v
	}
	br.Status.UpdateRevision = updateRev
	return br
}

// genOwnedPods draws the workload's pods: owned by it (or by nothing),
// at the update or the stable revision (by controller-revision-hash or
// pod-template-hash), ready or not, labelled with the rollout ID (or
// another) or not, terminating or completed sometimes.
func genOwnedPods(t *rapid.T, owner metav1.OwnerReference, replicas int32) []*corev1.Pod {
	n := rapid.IntRange(0, int(min(replicas, 12))+2).Draw(t, "pods")
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("demo-%d", i), Namespace: "default", Labels: map[string]string{"app": "demo"}}}
		if rapid.IntRange(0, 5).Draw(t, "orphan") > 0 {
			p.OwnerReferences = []metav1.OwnerReference{owner}
		}
		rev := rapid.SampledFrom([]string{updateRev, stableRev}).Draw(t, "revision")
		if rapid.Bool().Draw(t, "byTemplateHash") {
			p.Labels[appsv1.DefaultDeploymentUniqueLabelKey] = rev[len("demo-"):]
		} else {
			p.Labels[appsv1.ControllerRevisionHashLabelKey] = rev
		}
		switch rapid.IntRange(0, 3).Draw(t, "rolloutIDLabel") {
		case 1, 2:
			p.Labels[kruiserollouts.RolloutIDLabel] = "v1"
		case 3:
			p.Labels[kruiserollouts.RolloutIDLabel] = "v0"
		}
		if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
			now := metav1.Now()
			p.DeletionTimestamp = &now
			p.Finalizers = []string{"example.com/hold"}
		}
		p.Status.Phase = rapid.SampledFrom([]corev1.PodPhase{corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodPending, corev1.PodSucceeded, corev1.PodFailed}).Draw(t, "phase")
		status := corev1.ConditionFalse
		if rapid.Bool().Draw(t, "ready") {
			status = corev1.ConditionTrue
		}
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
		pods[i] = p
	}
	return pods
}

// owned returns the pods a caller of the adapter selects: those whose
// controller owner reference has the workload's UID.
func owned(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range pods {
		if ref := metav1.GetControllerOf(p); ref != nil && ref.UID == workloadUID {
			out = append(out, p)
		}
	}
	return out
}

// libRelease reads the upstream BatchRelease as the adapter reads it
// from the API server: JSON, Read, ConvertBatchRelease.
func libRelease(t *rapid.T, br *v1beta1.BatchRelease) batchrelease.Release {
	objs := readOne(t, br)
	rel, err := kruiserollouts.ConvertBatchRelease(objs.BatchReleases[0])
	if err != nil {
		t.Fatalf("ConvertBatchRelease: %v", err)
	}
	return rel
}

// upstreamContext builds the controller on a fake client holding objs
// and returns its batch context for br.
func upstreamContext(t *rapid.T, newController func(client.Client, types.NamespacedName, schema.GroupVersionKind) partitionstyle.Interface,
	gvk schema.GroupVersionKind, br *v1beta1.BatchRelease, objs ...client.Object) *batchcontext.BatchContext {
	cli := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
	ctrl, err := newController(cli, types.NamespacedName{Namespace: "default", Name: "demo"}, gvk).BuildController()
	if err != nil {
		t.Fatalf("BuildController: %v", err)
	}
	c, err := ctrl.CalculateBatchContext(br)
	if err != nil {
		t.Fatalf("CalculateBatchContext: %v", err)
	}
	return c
}

// sameContext compares every field of the two batch contexts, then
// their readiness.
func sameContext(t *rapid.T, up *batchcontext.BatchContext, c *batchrelease.BatchContext) {
	t.Helper()
	same(t, "RolloutID", c.RolloutID, up.RolloutID)
	same(t, "CurrentBatch", c.CurrentBatch, up.CurrentBatch)
	same(t, "Replicas", c.Replicas, up.Replicas)
	same(t, "UpdatedReplicas", c.UpdatedReplicas, up.UpdatedReplicas)
	same(t, "UpdatedReadyReplicas", c.UpdatedReadyReplicas, up.UpdatedReadyReplicas)
	same(t, "NoNeedUpdatedReplicas", c.NoNeedUpdatedReplicas, up.NoNeedUpdatedReplicas)
	same(t, "PlannedUpdatedReplicas", c.PlannedUpdatedReplicas, up.PlannedUpdatedReplicas)
	same(t, "DesiredUpdatedReplicas", c.DesiredUpdatedReplicas, up.DesiredUpdatedReplicas)
	same(t, "CurrentPartition", c.CurrentPartition, lib(up.CurrentPartition))
	same(t, "DesiredPartition", c.DesiredPartition, lib(up.DesiredPartition))
	same(t, "FailureThreshold", c.FailureThreshold, convertIntOrString(up.FailureThreshold))
	same(t, "CurrentSurge", c.CurrentSurge, lib(up.CurrentSurge))
	same(t, "DesiredSurge", c.DesiredSurge, lib(up.DesiredSurge))
	var listed, labelled int32
	if c.Pods != nil {
		listed, labelled = c.Pods.Listed, c.Pods.RolloutIDLabeled
	}
	var upLabelled int32
	for _, p := range up.Pods {
		if p.DeletionTimestamp.IsZero() && up.RolloutID != "" && p.Labels[kruiserollouts.RolloutIDLabel] == up.RolloutID {
			upLabelled++
		}
	}
	// The pods matter only to the label check, which a release without
	// a rollout ID skips; the StatefulSet controller lists them anyway
	// (to count updated ready pods), the library keeps none then.
	if up.RolloutID != "" {
		same(t, "pods listed", listed, int32(len(up.Pods)))
		same(t, "pods labelled with the rollout ID", labelled, upLabelled)
	}
	sameReadiness(t, up, c)
}

func TestCloneSetCalculateBatchContextMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 200).Draw(t, "replicas")
		cs := &kruiseappsv1alpha1.CloneSet{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
			ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: workloadUID, Generation: 2},
			Spec: kruiseappsv1alpha1.CloneSetSpec{
				Replicas: &r,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			},
			Status: kruiseappsv1alpha1.CloneSetStatus{
				ObservedGeneration: 2,
				Replicas:           r,
				UpdatedReplicas:    rapid.Int32Range(0, r).Draw(t, "updated"),
				UpdateRevision:     updateRev,
				CurrentRevision:    stableRev,
			},
		}
		cs.Status.UpdatedReadyReplicas = rapid.Int32Range(0, cs.Status.UpdatedReplicas).Draw(t, "updatedReady")
		if rapid.Bool().Draw(t, "partition") {
			p := genValue(t, "currentPartition")
			cs.Spec.UpdateStrategy.Partition = &p
		}
		owner := *metav1.NewControllerRef(cs, kruiseappsv1alpha1.SchemeGroupVersion.WithKind("CloneSet"))
		pods := genOwnedPods(t, owner, r)
		br := genRelease(t, v1beta1.ObjectRef{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "demo"}, r)

		objs := []client.Object{cs.DeepCopy()}
		for _, p := range pods {
			objs = append(objs, p.DeepCopy())
		}
		up := upstreamContext(t, cloneset.NewController, kruiseappsv1alpha1.SchemeGroupVersion.WithKind("CloneSet"), br, objs...)

		rel := libRelease(t, br)
		w, err := kruiserollouts.CloneSet(cs)
		if err != nil {
			t.Fatal(err)
		}
		if err := kruiserollouts.Pods(&w, owned(pods), rel.RolloutID); err != nil {
			t.Fatal(err)
		}
		c, err := batchrelease.CloneSetBatchContext(&rel, &w)
		if err != nil {
			t.Fatalf("CloneSetBatchContext: %v", err)
		}
		sameContext(t, up, &c)
		count("CloneSet partition style CalculateBatchContext (fake client)", "agree")
	})
}

func TestStatefulSetCalculateBatchContextMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 200).Draw(t, "replicas")
		advanced := rapid.Bool().Draw(t, "advanced")
		var partition *int32
		if rapid.Bool().Draw(t, "partition") {
			v := rapid.Int32Range(0, r+3).Draw(t, "currentPartition")
			partition = &v
		}
		updated := rapid.Int32Range(0, r).Draw(t, "updated")
		var obj client.Object
		var gvk schema.GroupVersionKind
		var w batchrelease.Workload
		var err error
		ref := v1beta1.ObjectRef{Name: "demo", Kind: "StatefulSet"}
		if advanced {
			s := &kruiseappsv1beta1.StatefulSet{
				TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet"},
				ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: workloadUID},
				Spec:       kruiseappsv1beta1.StatefulSetSpec{Replicas: &r, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}}},
				Status: kruiseappsv1beta1.StatefulSetStatus{Replicas: r, UpdatedReplicas: updated, UpdateRevision: updateRev, CurrentRevision: stableRev,
					// Not read by kruise-rollout v0.6.3 (it counts from pods).
					UpdatedReadyReplicas: updated},
			}
			if partition != nil || rapid.Bool().Draw(t, "rollingUpdate") {
				s.Spec.UpdateStrategy.RollingUpdate = &kruiseappsv1beta1.RollingUpdateStatefulSetStrategy{Partition: partition}
				if rapid.Bool().Draw(t, "unordered") {
					s.Spec.UpdateStrategy.RollingUpdate.UnorderedUpdate = &kruiseappsv1beta1.UnorderedUpdateStrategy{}
				}
			}
			obj, gvk = s, kruiseappsv1beta1.SchemeGroupVersion.WithKind("StatefulSet")
			ref.APIVersion = rapid.SampledFrom([]string{"apps.kruise.io/v1beta1", "apps.kruise.io/v1alpha1"}).Draw(t, "apiVersion")
			w, err = kruiserollouts.AdvancedStatefulSet(s)
		} else {
			s := &appsv1.StatefulSet{
				TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
				ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: workloadUID},
				Spec:       appsv1.StatefulSetSpec{Replicas: &r, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}}},
				Status:     appsv1.StatefulSetStatus{Replicas: r, UpdatedReplicas: updated, UpdateRevision: updateRev, CurrentRevision: stableRev},
			}
			if partition != nil {
				s.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: partition}
			}
			obj, gvk = s, appsv1.SchemeGroupVersion.WithKind("StatefulSet")
			ref.APIVersion = "apps/v1"
			w, err = kruiserollouts.StatefulSet(s)
		}
		if err != nil {
			t.Fatal(err)
		}
		owner := *metav1.NewControllerRef(obj, gvk)
		pods := genOwnedPods(t, owner, r)
		br := genRelease(t, ref, r)
		objs := []client.Object{obj.DeepCopyObject().(client.Object)}
		for _, p := range pods {
			objs = append(objs, p.DeepCopy())
		}
		up := upstreamContext(t, statefulset.NewController, gvk, br, objs...)

		rel := libRelease(t, br)
		if err := kruiserollouts.Pods(&w, owned(pods), rel.RolloutID); err != nil {
			t.Fatal(err)
		}
		c, err := batchrelease.StatefulSetBatchContext(&rel, &w)
		if err != nil {
			t.Fatalf("StatefulSetBatchContext: %v", err)
		}
		sameContext(t, up, &c)
		name := "StatefulSet partition style CalculateBatchContext (fake client, apps/v1)"
		if advanced {
			name = "StatefulSet partition style CalculateBatchContext (fake client, Advanced StatefulSet)"
		}
		count(name, "agree")
	})
}

func TestDeploymentCalculateBatchContextMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 200).Draw(t, "replicas")
		d := &appsv1.Deployment{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: workloadUID, Annotations: map[string]string{}},
			Spec:       appsv1.DeploymentSpec{Replicas: &r, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}}},
			Status:     appsv1.DeploymentStatus{Replicas: r, UpdatedReplicas: rapid.Int32Range(0, r).Draw(t, "updated")},
		}
		if rapid.Bool().Draw(t, "strategy") {
			s := v1beta1.DeploymentStrategy{RollingStyle: v1beta1.PartitionRollingStyle, Partition: genValue(t, "currentPartition"), Paused: rapid.Bool().Draw(t, "paused")}
			js, _ := json.Marshal(s)
			d.Annotations[kruiserollouts.DeploymentStrategyAnnotation] = string(js)
		}
		if rapid.Bool().Draw(t, "extraStatus") {
			js, _ := json.Marshal(v1beta1.DeploymentExtraStatus{UpdatedReadyReplicas: rapid.Int32Range(0, d.Status.UpdatedReplicas).Draw(t, "updatedReady")})
			d.Annotations[kruiserollouts.DeploymentExtraStatusAnnotation] = string(js)
		}
		owner := *metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))
		pods := genOwnedPods(t, owner, r)
		br := genRelease(t, v1beta1.ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "demo"}, r)
		objs := []client.Object{d.DeepCopy()}
		for _, p := range pods {
			objs = append(objs, p.DeepCopy())
		}
		up := upstreamContext(t, deployment.NewController, appsv1.SchemeGroupVersion.WithKind("Deployment"), br, objs...)

		rel := libRelease(t, br)
		w, err := kruiserollouts.Deployment(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := kruiserollouts.Pods(&w, owned(pods), rel.RolloutID); err != nil {
			t.Fatal(err)
		}
		c, err := batchrelease.DeploymentBatchContext(&rel, &w)
		if err != nil {
			t.Fatalf("DeploymentBatchContext: %v", err)
		}
		sameContext(t, up, &c)
		count("Deployment partition style CalculateBatchContext (fake client)", "agree")
	})
}

// TestCloneSetBlueGreenCalculateBatchContextMatchesUpstream drives the
// blue-green controller for CloneSets the same way: its batch is a surge
// (maxSurge, where an int 1 is the marker Initialize writes and counts
// as 0), it carries no failure threshold and no pods.
func TestCloneSetBlueGreenCalculateBatchContextMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 200).Draw(t, "replicas")
		cs := &kruiseappsv1alpha1.CloneSet{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
			ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: workloadUID, Generation: 2},
			Spec: kruiseappsv1alpha1.CloneSetSpec{
				Replicas: &r,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
			},
			Status: kruiseappsv1alpha1.CloneSetStatus{
				ObservedGeneration: 2, Replicas: r, UpdateRevision: updateRev, CurrentRevision: stableRev,
				UpdatedReplicas: rapid.Int32Range(0, r+5).Draw(t, "updated"),
			},
		}
		cs.Status.UpdatedReadyReplicas = rapid.Int32Range(0, cs.Status.UpdatedReplicas).Draw(t, "updatedReady")
		switch rapid.IntRange(0, 3).Draw(t, "maxSurge") {
		case 1:
			one := intstr.FromInt(1)
			cs.Spec.UpdateStrategy.MaxSurge = &one
		case 2, 3:
			v := genValue(t, "currentSurge")
			cs.Spec.UpdateStrategy.MaxSurge = &v
		}
		owner := *metav1.NewControllerRef(cs, kruiseappsv1alpha1.SchemeGroupVersion.WithKind("CloneSet"))
		pods := genOwnedPods(t, owner, r)
		br := genRelease(t, v1beta1.ObjectRef{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "demo"}, r)
		br.Spec.ReleasePlan.RollingStyle = v1beta1.BlueGreenRollingStyle

		objs := []client.Object{cs.DeepCopy()}
		for _, p := range pods {
			objs = append(objs, p.DeepCopy())
		}
		cli := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
		ctrl, err := bgcloneset.NewController(cli, types.NamespacedName{Namespace: "default", Name: "demo"}, kruiseappsv1alpha1.SchemeGroupVersion.WithKind("CloneSet")).BuildController()
		if err != nil {
			t.Fatalf("BuildController: %v", err)
		}
		up, err := ctrl.CalculateBatchContext(br)
		if err != nil {
			t.Fatalf("CalculateBatchContext: %v", err)
		}

		rel := libRelease(t, br)
		w, err := kruiserollouts.CloneSet(cs)
		if err != nil {
			t.Fatal(err)
		}
		if err := kruiserollouts.Pods(&w, owned(pods), rel.RolloutID); err != nil {
			t.Fatal(err)
		}
		c, err := batchrelease.BlueGreenBatchContext(&rel, &w)
		if err != nil {
			t.Fatalf("BlueGreenBatchContext: %v", err)
		}
		sameContext(t, up, &c)
		count("CloneSet blue-green style CalculateBatchContext (fake client)", "agree")
	})
}

// TestDeploymentBlueGreenCalculateBatchContextMatchesUpstream drives the
// blue-green controller for Deployments: the surge from
// spec.strategy.rollingUpdate.maxSurge, the planned pods
// NewRSReplicasLimit of the batch, and the updated ready pods from the
// new ReplicaSet (kruiserollouts.NewReplicaSetReady on the library side),
// among ReplicaSets drawn owned or not, being deleted or not, at the
// Deployment's template or another, two of them possibly new.
func TestDeploymentBlueGreenCalculateBatchContextMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 200).Draw(t, "replicas")
		d := &appsv1.Deployment{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: workloadUID},
			Spec: appsv1.DeploymentSpec{Replicas: &r, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}},
				Template: advancedTemplate},
			Status: appsv1.DeploymentStatus{Replicas: r, UpdatedReplicas: rapid.Int32Range(0, r+5).Draw(t, "updated")},
		}
		switch rapid.IntRange(0, 4).Draw(t, "rollingUpdate") {
		case 0:
		case 1:
			one := intstr.FromInt(1)
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: &one}
		case 2:
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		default:
			v := genValue(t, "currentSurge")
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: &v}
		}
		owner := *metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))
		base := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
		var rss []*appsv1.ReplicaSet
		for i := rapid.IntRange(0, 4).Draw(t, "replicaSets"); i > 0; i-- {
			tpl := *advancedTemplate.DeepCopy()
			tpl.Labels = map[string]string{"app": "demo", appsv1.DefaultDeploymentUniqueLabelKey: fmt.Sprintf("h%d", i)}
			if rapid.Bool().Draw(t, "old") {
				tpl.Spec.Containers[0].Image = "demo:v1"
			}
			ready := rapid.Int32Range(0, 50).Draw(t, "ready")
			rs := &appsv1.ReplicaSet{
				TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("demo-%d", i), Namespace: "default", Labels: tpl.Labels,
					CreationTimestamp: metav1.NewTime(base.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, "created")) * time.Hour))},
				Spec:   appsv1.ReplicaSetSpec{Replicas: &ready, Template: tpl},
				Status: appsv1.ReplicaSetStatus{Replicas: ready, ReadyReplicas: ready},
			}
			if rapid.IntRange(0, 5).Draw(t, "orphan") > 0 {
				rs.OwnerReferences = []metav1.OwnerReference{owner}
			}
			if rapid.IntRange(0, 7).Draw(t, "deleting") == 0 {
				now := metav1.Now()
				rs.DeletionTimestamp = &now
				rs.Finalizers = []string{"example.com/hold"}
			}
			rss = append(rss, rs)
		}
		pods := genOwnedPods(t, owner, r)
		br := genRelease(t, v1beta1.ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "demo"}, r)
		br.Spec.ReleasePlan.RollingStyle = v1beta1.BlueGreenRollingStyle
		objs := []client.Object{d.DeepCopy()}
		for _, x := range rss {
			objs = append(objs, x.DeepCopy())
		}
		for _, p := range pods {
			objs = append(objs, p.DeepCopy())
		}
		cli := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
		ctrl, err := bgdeployment.NewController(cli, types.NamespacedName{Namespace: "default", Name: "demo"}, appsv1.SchemeGroupVersion.WithKind("Deployment")).BuildController()
		if err != nil {
			t.Fatalf("BuildController: %v", err)
		}
		up, err := ctrl.CalculateBatchContext(br)
		if err != nil {
			t.Fatalf("CalculateBatchContext: %v", err)
		}

		rel := libRelease(t, br)
		w, err := kruiserollouts.Deployment(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := kruiserollouts.NewReplicaSetReady(&w, d, rss); err != nil {
			t.Fatal(err)
		}
		if err := kruiserollouts.Pods(&w, owned(pods), rel.RolloutID); err != nil {
			t.Fatal(err)
		}
		c, err := batchrelease.BlueGreenBatchContext(&rel, &w)
		if err != nil {
			t.Fatalf("BlueGreenBatchContext: %v", err)
		}
		sameContext(t, up, &c)
		count("Deployment blue-green style CalculateBatchContext (fake client)", "agree")
	})
}

// TestDeploymentCanaryCalculateBatchContextMatchesUpstream drives the
// Canary style's controller: the stable Deployment and the canary
// Deployment it created (owned by the BatchRelease, labelled with the
// stable's name, at the stable's template) on the fake client,
// BuildStableController, BuildCanaryController, CalculateBatchContext;
// the library reads the stable with Deployment and the canary with
// CanaryDeployment (with the canary's pods) and calls CanaryBatchContext.
func TestDeploymentCanaryCalculateBatchContextMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.Int32Range(0, 200).Draw(t, "replicas")
		stable := &appsv1.Deployment{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default", UID: "stable-uid"},
			Spec: appsv1.DeploymentSpec{Replicas: &r, Paused: true, Template: advancedTemplate,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}}},
			Status: appsv1.DeploymentStatus{Replicas: r, UpdatedReplicas: r},
		}
		br := genRelease(t, v1beta1.ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "demo"}, r)
		br.Spec.ReleasePlan.RollingStyle = v1beta1.CanaryRollingStyle
		cr := rapid.Int32Range(0, r+2).Draw(t, "canaryReplicas")
		canary := &appsv1.Deployment{
			TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "demo-7d9c4", Namespace: "default", UID: workloadUID,
				Labels:          map[string]string{kruiserollouts.CanaryDeploymentLabel: "demo"},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(br, v1beta1.SchemeGroupVersion.WithKind("BatchRelease"))}},
			Spec: appsv1.DeploymentSpec{Replicas: &cr, Template: advancedTemplate,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "demo"}}},
			Status: appsv1.DeploymentStatus{Replicas: rapid.Int32Range(0, cr+1).Draw(t, "canaryStatusReplicas")},
		}
		canary.Status.AvailableReplicas = rapid.Int32Range(0, canary.Status.Replicas).Draw(t, "canaryAvailable")
		pods := genOwnedPods(t, *metav1.NewControllerRef(canary, appsv1.SchemeGroupVersion.WithKind("Deployment")), cr)
		objs := []client.Object{stable.DeepCopy(), canary.DeepCopy()}
		for _, p := range pods {
			objs = append(objs, p.DeepCopy())
		}
		cli := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
		ctrl := canarydeployment.NewController(cli, types.NamespacedName{Namespace: "default", Name: "demo"})
		if _, err := ctrl.BuildStableController(); err != nil {
			t.Fatalf("BuildStableController: %v", err)
		}
		if _, err := ctrl.BuildCanaryController(br); err != nil {
			t.Fatalf("BuildCanaryController: %v", err)
		}
		up, err := ctrl.CalculateBatchContext(br)
		if err != nil {
			t.Fatalf("CalculateBatchContext: %v", err)
		}

		rel := libRelease(t, br)
		w, err := kruiserollouts.Deployment(stable)
		if err != nil {
			t.Fatal(err)
		}
		if w.Canary, err = kruiserollouts.CanaryDeployment(canary, owned(pods), rel.RolloutID); err != nil {
			t.Fatal(err)
		}
		c, err := batchrelease.CanaryBatchContext(&rel, &w)
		if err != nil {
			t.Fatalf("CanaryBatchContext: %v", err)
		}
		sameContext(t, up, &c)
		count("Deployment canary style CalculateBatchContext (fake client)", "agree")
	})
}
