package kruiserollouts

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	kruisebeta "github.com/openkruise/kruise-api/apps/v1beta1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// StableRevisionLabel is the Deployment label in which kruise-rollout
// keeps the stable revision (the pod-template-hash of the old pods) of
// a Deployment it releases.
const StableRevisionLabel = "rollouts.kruise.io/stable-revision"

// replicas returns *p, or 1 (the API server's default) when p is nil.
// kruise-rollout's GetReplicas (pkg/util/parse_utils.go) dereferences
// the pointer; objects read from the API server always have it.
func replicas(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// CloneSet returns an apps.kruise.io/v1alpha1 CloneSet as a release
// reads it: spec.replicas (nil is 1), spec.updateStrategy's partition,
// paused, maxSurge and maxUnavailable as written, and status.replicas,
// readyReplicas, updatedReplicas, updatedReadyReplicas, updateRevision
// and currentRevision (the stable revision).
// Upstream: ParseWorkload and ParseWorkloadStatus, pkg/util/parse_utils.go.
// The error reports a nil cs.
func CloneSet(cs *kruise.CloneSet) (batchrelease.Workload, error) {
	if cs == nil {
		return batchrelease.Workload{}, &field.Error{Prefix: "kruiserollouts", Field: "cloneSet", Detail: "must not be nil", Err: field.ErrRequired}
	}
	u := &cs.Spec.UpdateStrategy
	return batchrelease.Workload{
		Kind:               batchrelease.CloneSet,
		Name:               cs.Name,
		Generation:         cs.Generation,
		ObservedGeneration: cs.Status.ObservedGeneration,
		Replicas:           replicas(cs.Spec.Replicas),
		Partition:          intOrString(u.Partition),
		Paused:             u.Paused,
		MaxSurge:           intOrString(u.MaxSurge),
		MaxUnavailable:     intOrString(u.MaxUnavailable),
		Status: batchrelease.WorkloadStatus{
			Replicas:             cs.Status.Replicas,
			ReadyReplicas:        cs.Status.ReadyReplicas,
			UpdatedReplicas:      cs.Status.UpdatedReplicas,
			UpdatedReadyReplicas: cs.Status.UpdatedReadyReplicas,
			UpdateRevision:       cs.Status.UpdateRevision,
			StableRevision:       cs.Status.CurrentRevision,
		},
	}, nil
}

// StatefulSet returns an apps/v1 StatefulSet as a release reads it:
// spec.replicas (nil is 1), spec.updateStrategy.rollingUpdate.partition
// (nil when absent) and status.replicas, readyReplicas,
// updatedReplicas, updateRevision and currentRevision. A native
// StatefulSet has no updatedReadyReplicas: kruise-rollout counts them
// from the pods, which Pods does.
// Upstream: ParseWorkloadStatus and the StatefulSet partition-style
// controller's BuildController.
// The error reports a nil s.
func StatefulSet(s *appsv1.StatefulSet) (batchrelease.Workload, error) {
	if s == nil {
		return batchrelease.Workload{}, &field.Error{Prefix: "kruiserollouts", Field: "statefulSet", Detail: "must not be nil", Err: field.ErrRequired}
	}
	w := batchrelease.Workload{
		Kind:               batchrelease.StatefulSet,
		Name:               s.Name,
		Generation:         s.Generation,
		ObservedGeneration: s.Status.ObservedGeneration,
		Replicas:           replicas(s.Spec.Replicas),
		Status: batchrelease.WorkloadStatus{
			Replicas:        s.Status.Replicas,
			ReadyReplicas:   s.Status.ReadyReplicas,
			UpdatedReplicas: s.Status.UpdatedReplicas,
			UpdateRevision:  s.Status.UpdateRevision,
			StableRevision:  s.Status.CurrentRevision,
		},
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		w.Partition = intPtr(ru.Partition)
		w.MaxUnavailable = intOrString(ru.MaxUnavailable)
	}
	return w, nil
}

// AdvancedStatefulSet returns an apps.kruise.io/v1beta1 StatefulSet
// (OpenKruise's Advanced StatefulSet) as a release reads it: as
// StatefulSet does, plus spec.updateStrategy.rollingUpdate.paused and
// unorderedUpdate (set when the field is present). kruise-rollout v0.6.3
// does not read its status.updatedReadyReplicas either: it counts them
// from the pods, which Pods does.
// The error reports a nil s.
func AdvancedStatefulSet(s *kruisebeta.StatefulSet) (batchrelease.Workload, error) {
	if s == nil {
		return batchrelease.Workload{}, &field.Error{Prefix: "kruiserollouts", Field: "statefulSet", Detail: "must not be nil", Err: field.ErrRequired}
	}
	w := batchrelease.Workload{
		Kind:               batchrelease.AdvancedStatefulSet,
		Name:               s.Name,
		Generation:         s.Generation,
		ObservedGeneration: s.Status.ObservedGeneration,
		Replicas:           replicas(s.Spec.Replicas),
		Status: batchrelease.WorkloadStatus{
			Replicas:        s.Status.Replicas,
			ReadyReplicas:   s.Status.ReadyReplicas,
			UpdatedReplicas: s.Status.UpdatedReplicas,
			UpdateRevision:  s.Status.UpdateRevision,
			StableRevision:  s.Status.CurrentRevision,
		},
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		w.Partition = intPtr(ru.Partition)
		w.MaxUnavailable = intOrString(ru.MaxUnavailable)
		w.Paused = ru.Paused
		w.UnorderedUpdate = ru.UnorderedUpdate != nil
	}
	return w, nil
}

// Deployment returns an apps/v1 Deployment as a release reads it:
// spec.replicas (nil is 1); the partition, paused and rollingUpdate of
// the rollouts.kruise.io/deployment-strategy annotation when the
// Deployment carries one (else spec.strategy.rollingUpdate's maxSurge
// and maxUnavailable, and no partition); status.replicas,
// readyReplicas and updatedReplicas; updatedReadyReplicas from the
// rollouts.kruise.io/deployment-extra-status annotation; and the stable
// revision from the rollouts.kruise.io/stable-revision label.
// Upstream: the Deployment partition-style controller's getWorkloadInfo
// and GetDeploymentStrategy (pkg/util/workloads_utils.go).
//
// kruise-rollout ignores an annotation that is not valid JSON; here it
// is an error (a *field.Error wrapping field.ErrSyntax naming the
// annotation), as is a nil d.
func Deployment(d *appsv1.Deployment) (batchrelease.Workload, error) {
	if d == nil {
		return batchrelease.Workload{}, &field.Error{Prefix: "kruiserollouts", Field: "deployment", Detail: "must not be nil", Err: field.ErrRequired}
	}
	w := batchrelease.Workload{
		Kind:               batchrelease.Deployment,
		Name:               d.Name,
		Generation:         d.Generation,
		ObservedGeneration: d.Status.ObservedGeneration,
		Replicas:           replicas(d.Spec.Replicas),
		Status: batchrelease.WorkloadStatus{
			Replicas:        d.Status.Replicas,
			ReadyReplicas:   d.Status.ReadyReplicas,
			UpdatedReplicas: d.Status.UpdatedReplicas,
			StableRevision:  d.Labels[StableRevisionLabel],
		},
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		w.MaxSurge = intOrString(ru.MaxSurge)
		w.MaxUnavailable = intOrString(ru.MaxUnavailable)
	}
	prefix := fmt.Sprintf("kruiserollouts: invalid Deployment %q", d.Name)
	if text := d.Annotations[DeploymentStrategyAnnotation]; text != "" {
		var s DeploymentStrategy
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			return batchrelease.Workload{}, annotationError(prefix, DeploymentStrategyAnnotation, err)
		}
		p := s.Partition
		w.Partition = intOrString(&p)
		w.Paused = s.Paused
		if s.RollingUpdate != nil {
			w.MaxSurge = intOrString(s.RollingUpdate.MaxSurge)
			w.MaxUnavailable = intOrString(s.RollingUpdate.MaxUnavailable)
		}
	}
	if text := d.Annotations[DeploymentExtraStatusAnnotation]; text != "" {
		var s DeploymentExtraStatus
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			return batchrelease.Workload{}, annotationError(prefix, DeploymentExtraStatusAnnotation, err)
		}
		w.Status.UpdatedReadyReplicas = s.UpdatedReadyReplicas
	}
	return w, nil
}

// annotationError reports an annotation whose JSON does not decode.
func annotationError(prefix, key string, err error) error {
	return &field.Error{
		Prefix: prefix,
		Field:  "metadata.annotations[" + strconv.Quote(key) + "]",
		Detail: "not the JSON kruise-rollout writes: " + err.Error(),
		Err:    field.ErrSyntax,
	}
}

// Pods sets, on w, what a release reads from the workload's pods (those
// the workload owns; the caller selects them): Status.Pods counts the
// pods listed (terminating ones included; completed ones, in phase
// Succeeded or Failed, are skipped as kruise-rollout's ListOwnedPods
// skips them), the non-terminating pods
// carrying rollouts.kruise.io/rollout-id = rolloutID (which the batch
// readiness check compares with the planned updated pods) and the
// non-terminating pods at the update revision carrying
// rollouts.kruise.io/no-need-update = rolloutID (a rollback in batches);
// for StatefulSets of either kind it also sets
// Status.UpdatedReadyReplicas as kruise-rollout counts it:
// non-terminating pods at the update revision (pod-template-hash or
// controller-revision-hash a suffix of it) whose Ready condition is
// True.
// Upstream: batchLabelSatisfied (pkg/controller/batchrelease/context),
// countAndUpdateNoNeedUpdateReplicas (control/partitionstyle), the
// StatefulSet partition-style controller's BuildController, and
// ListOwnedPods and IsConsistentWithRevision (pkg/util/pod_utils.go).
//
// kruise-rollout lists the pods only when the release has a rolloutID
// (and, for a StatefulSet, to count its updated ready pods), so call
// Pods with the release's rolloutID; with rolloutID "" the label counts
// are 0 and the label check is skipped anyway. With no pods w.Status.Pods
// stays nil. The error, a *field.Error wrapping field.ErrRequired,
// reports a nil pod; more pods than an int32 counts wrap field.ErrRange.
func Pods(w *batchrelease.Workload, pods []*corev1.Pod, rolloutID string) error {
	counts, ready, err := countPods(pods, rolloutID, w.Status.UpdateRevision)
	if err != nil {
		return err
	}
	if counts.Listed == 0 {
		return nil
	}
	w.Status.Pods = &counts
	if w.Kind == batchrelease.StatefulSet || w.Kind == batchrelease.AdvancedStatefulSet {
		w.Status.UpdatedReadyReplicas = ready
	}
	return nil
}

// countPods counts pods as Pods describes, and the ready ones at
// revision.
func countPods(pods []*corev1.Pod, rolloutID, revision string) (batchrelease.PodCounts, int32, error) {
	if int64(len(pods)) > math.MaxInt32 {
		return batchrelease.PodCounts{}, 0, &field.Error{Prefix: "kruiserollouts", Field: "pods", Value: strconv.Itoa(len(pods)), Detail: "more pods than an int32 counts", Err: field.ErrRange}
	}
	var c batchrelease.PodCounts
	var ready int32
	for i, p := range pods {
		if p == nil {
			return batchrelease.PodCounts{}, 0, &field.Error{Prefix: "kruiserollouts", Field: fmt.Sprintf("pods[%d]", i), Detail: "must not be nil", Err: field.ErrRequired}
		}
		if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		c.Listed++
		if p.DeletionTimestamp != nil {
			continue
		}
		if rolloutID != "" && p.Labels[RolloutIDLabel] == rolloutID {
			c.RolloutIDLabeled++
		}
		if !atRevision(p.Labels, revision) {
			continue
		}
		if rolloutID != "" && p.Labels[NoNeedUpdateLabel] == rolloutID {
			c.NoNeedUpdate++
		}
		if podReady(p) {
			ready++
		}
	}
	return c, ready, nil
}

// ControlInfoAnnotation is the workload annotation in which a
// BatchRelease records that it controls the workload (its controller
// owner reference, as JSON).
const ControlInfoAnnotation = "batchrelease.rollouts.kruise.io/control-info"

// ControlledBy reports whether br controls the workload obj, as
// kruise-rollout decides it: obj's controller owner reference, or the
// owner reference in its batchrelease.rollouts.kruise.io/control-info
// annotation, has br's UID. Set batchrelease.Workload.Controlled from it.
// Upstream: IsControlledByBatchRelease, control/util.go.
func ControlledBy(obj metav1.Object, br *BatchRelease) bool {
	if obj == nil || br == nil {
		return false
	}
	if owner := metav1.GetControllerOfNoCopy(obj); owner != nil && owner.UID == br.UID {
		return true
	}
	if info := obj.GetAnnotations()[ControlInfoAnnotation]; info != "" {
		var ref metav1.OwnerReference
		if err := json.Unmarshal([]byte(info), &ref); err == nil && ref.UID == br.UID {
			return true
		}
	}
	return false
}

// CanaryDeploymentLabel is the label kruise-rollout's Canary style puts
// on the extra canary Deployment, whose value is the stable Deployment's
// name.
const CanaryDeploymentLabel = "rollouts.kruise.io/canary-deployment"

// CanaryDeployment returns the extra canary Deployment of the Canary
// style (the one labelled rollouts.kruise.io/canary-deployment = the
// stable Deployment's name, not being deleted; the caller picks it) as a
// release reads it: name, generations, spec.replicas (nil is 1),
// status.replicas and availableReplicas, and, when pods are given (the
// canary Deployment's own), their counts as Pods makes them. Set
// batchrelease.Workload.Canary of the stable Deployment's workload to it.
// Upstream: the canary-style controller (control/canarystyle/deployment).
// The error reports a nil d or a nil pod.
func CanaryDeployment(d *appsv1.Deployment, pods []*corev1.Pod, rolloutID string) (*batchrelease.CanaryDeployment, error) {
	if d == nil {
		return nil, &field.Error{Prefix: "kruiserollouts", Field: "deployment", Detail: "must not be nil", Err: field.ErrRequired}
	}
	c := &batchrelease.CanaryDeployment{
		Name:               d.Name,
		Generation:         d.Generation,
		ObservedGeneration: d.Status.ObservedGeneration,
		Replicas:           replicas(d.Spec.Replicas),
		StatusReplicas:     d.Status.Replicas,
		AvailableReplicas:  d.Status.AvailableReplicas,
	}
	counts, _, err := countPods(pods, rolloutID, "")
	if err != nil {
		return nil, err
	}
	if counts.Listed > 0 {
		c.Pods = &counts
	}
	return c, nil
}

// atRevision reports whether a pod with these labels is at revision, as
// IsConsistentWithRevision decides it.
func atRevision(labels map[string]string, revision string) bool {
	if h := labels[appsv1.DefaultDeploymentUniqueLabelKey]; h != "" && strings.HasSuffix(revision, h) {
		return true
	}
	if h := labels[appsv1.ControllerRevisionHashLabelKey]; h != "" && strings.HasSuffix(revision, h) {
		return true
	}
	return false
}

// podReady reports whether the pod's Ready condition is True.
func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// intPtr converts an int32 partition to an int-or-percent; nil stays nil.
func intPtr(p *int32) *intorpercent.IntOrString {
	if p == nil {
		return nil
	}
	v := intorpercent.FromInt(*p)
	return &v
}

// NewReplicaSetReady sets, on w (a Deployment read by Deployment), the
// updated ready pods as the BlueGreen style reads them: status.readyReplicas
// of the Deployment's new ReplicaSet, the oldest (by creation, then name)
// of the ReplicaSets d controls, not being deleted, whose pod template is
// d's but for the pod-template-hash label; 0 when there is none. (The
// Partition style reads the extra-status annotation instead, which
// Deployment does.) The caller lists the ReplicaSets (those matching d's
// selector). Upstream: getUpdatedReadyReplicas,
// control/bluegreenstyle/deployment/control.go, and FindNewReplicaSet,
// pkg/controller/deployment/util/deployment_util.go.
// The error reports a nil d or a nil ReplicaSet.
func NewReplicaSetReady(w *batchrelease.Workload, d *appsv1.Deployment, rss []*appsv1.ReplicaSet) error {
	if d == nil {
		return &field.Error{Prefix: "kruiserollouts", Field: "deployment", Detail: "must not be nil", Err: field.ErrRequired}
	}
	var newest *appsv1.ReplicaSet
	for i, rs := range rss {
		if rs == nil {
			return &field.Error{Prefix: "kruiserollouts", Field: fmt.Sprintf("replicaSets[%d]", i), Detail: "must not be nil", Err: field.ErrRequired}
		}
		if rs.DeletionTimestamp != nil || !metav1.IsControlledBy(rs, d) || !equalIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			continue
		}
		if newest == nil || olderReplicaSet(rs, newest) {
			newest = rs
		}
	}
	w.Status.UpdatedReadyReplicas = 0
	if newest != nil {
		w.Status.UpdatedReadyReplicas = newest.Status.ReadyReplicas
	}
	return nil
}

// olderReplicaSet orders as ReplicaSetsByCreationTimestamp: older first,
// then by name.
func olderReplicaSet(a, b *appsv1.ReplicaSet) bool {
	if a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return a.Name < b.Name
	}
	return a.CreationTimestamp.Before(&b.CreationTimestamp)
}

// equalIgnoreHash reports whether two pod templates are equal but for
// the pod-template-hash label, as EqualIgnoreHash does.
func equalIgnoreHash(a, b *corev1.PodTemplateSpec) bool {
	ac, bc := a.DeepCopy(), b.DeepCopy()
	delete(ac.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
	delete(bc.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
	return equality.Semantic.DeepEqual(ac, bc)
}
