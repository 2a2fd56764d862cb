package kubeapps

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rolloutmath/rolloutmath/rollout/statefulset"
)

// StatefulSetKind is the kind a StatefulSet's pods and revisions name in
// their controller owner reference.
var StatefulSetKind = appsv1.SchemeGroupVersion.WithKind("StatefulSet")

// StatefulSet converts s into the StatefulSet the statefulset package
// reads: name, namespace, UID, generation, deletion, spec (replicas,
// ordinals.start, selector, podManagementPolicy, updateStrategy,
// minReadySeconds, revisionHistoryLimit, template and its labels) and
// status. The template and the selector's and template's label maps are
// shared with s; pointers are copied.
//
// Absent fields read as the apps/v1 defaults the API server fills in: a
// nil spec.replicas is 1 and a rollingUpdate block without a partition
// has partition 0. An explicit type RollingUpdate without a rollingUpdate
// block stays without one, as the API server stores it (the package's
// "RollingUpdate without a partition"). maxUnavailable is kept as
// written; Validate reports a value the API server would refuse, so the
// conversion itself cannot fail.
// Upstream: apps/v1 StatefulSet with SetDefaults_StatefulSet
// (pkg/apis/apps/v1/defaults.go).
func StatefulSet(s *appsv1.StatefulSet) statefulset.StatefulSet[Template] {
	out := statefulset.StatefulSet[Template]{
		Name:                 s.Name,
		Namespace:            s.Namespace,
		UID:                  string(s.UID),
		Generation:           s.Generation,
		Deleting:             s.DeletionTimestamp != nil,
		Replicas:             1,
		Selector:             Selector(s.Spec.Selector),
		PodManagementPolicy:  statefulset.PodManagementPolicy(s.Spec.PodManagementPolicy),
		UpdateStrategy:       statefulset.UpdateStrategy{Type: statefulset.UpdateStrategyType(s.Spec.UpdateStrategy.Type)},
		MinReadySeconds:      s.Spec.MinReadySeconds,
		RevisionHistoryLimit: clonePtr(s.Spec.RevisionHistoryLimit),
		TemplateLabels:       s.Spec.Template.Labels,
		Template:             s.Spec.Template,
		Status:               StatefulSetStatus(&s.Status),
	}
	if s.Spec.Replicas != nil {
		out.Replicas = *s.Spec.Replicas
	}
	if s.Spec.Ordinals != nil {
		out.Ordinals.Start = s.Spec.Ordinals.Start
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.UpdateStrategy.RollingUpdate = &statefulset.RollingUpdateStrategy{}
		if ru.Partition != nil {
			out.UpdateStrategy.RollingUpdate.Partition = *ru.Partition
		}
		if ru.MaxUnavailable != nil {
			w := written(ru.MaxUnavailable)
			out.UpdateStrategy.RollingUpdate.MaxUnavailable = &w
		}
	}
	return out
}

// StatefulSetStatus converts a StatefulSet's status: the counters, the
// revision names, observedGeneration and collisionCount (copied, not
// shared). Conditions are not read: the controller does not maintain
// them.
func StatefulSetStatus(s *appsv1.StatefulSetStatus) statefulset.Status {
	return statefulset.Status{
		ObservedGeneration: s.ObservedGeneration,
		Replicas:           s.Replicas,
		ReadyReplicas:      s.ReadyReplicas,
		CurrentReplicas:    s.CurrentReplicas,
		UpdatedReplicas:    s.UpdatedReplicas,
		AvailableReplicas:  s.AvailableReplicas,
		CurrentRevision:    s.CurrentRevision,
		UpdateRevision:     s.UpdateRevision,
		CollisionCount:     clonePtr(s.CollisionCount),
	}
}

// StatefulSetStatusObject converts a status back to apps/v1, as the
// controller writes it (no conditions).
func StatefulSetStatusObject(s *statefulset.Status) appsv1.StatefulSetStatus {
	return appsv1.StatefulSetStatus{
		ObservedGeneration: s.ObservedGeneration,
		Replicas:           s.Replicas,
		ReadyReplicas:      s.ReadyReplicas,
		CurrentReplicas:    s.CurrentReplicas,
		UpdatedReplicas:    s.UpdatedReplicas,
		AvailableReplicas:  s.AvailableReplicas,
		CurrentRevision:    s.CurrentRevision,
		UpdateRevision:     s.UpdateRevision,
		CollisionCount:     clonePtr(s.CollisionCount),
	}
}

// StatefulSetPod converts a pod as the StatefulSet controller reads it:
// name, the controller-revision-hash and statefulset.kubernetes.io/pod-name
// labels, the labels (shared), the UID of the controller owner
// reference, status.phase, the Ready condition (status True, and its
// lastTransitionTime), whether a deletion timestamp is set, and the
// creation time.
// Upstream: getPodRevision, isRunningAndReady and isTerminating
// (pkg/controller/statefulset/stateful_set_utils.go) and
// podutil.IsPodReady (pkg/api/v1/pod/util.go).
func StatefulSetPod(p *corev1.Pod) statefulset.Pod {
	out := statefulset.Pod{
		Name:         p.Name,
		Revision:     p.Labels[statefulset.RevisionLabel],
		PodNameLabel: p.Labels[statefulset.PodNameLabel],
		Labels:       p.Labels,
		Phase:        statefulset.PodPhase(p.Status.Phase),
		Terminating:  p.DeletionTimestamp != nil,
		CreationTime: p.CreationTimestamp.Time,
	}
	if ref := metav1.GetControllerOfNoCopy(p); ref != nil {
		out.ControllerUID = string(ref.UID)
	}
	for i := range p.Status.Conditions {
		if c := &p.Status.Conditions[i]; c.Type == corev1.PodReady {
			out.Ready = c.Status == corev1.ConditionTrue
			out.ReadySince = c.LastTransitionTime.Time
			break
		}
	}
	return out
}

// StatefulSetPods converts every pod of pods, in order, skipping nil
// entries.
func StatefulSetPods(pods []*corev1.Pod) []statefulset.Pod {
	out := make([]statefulset.Pod, 0, len(pods))
	for _, p := range pods {
		if p != nil {
			out = append(out, StatefulSetPod(p))
		}
	}
	return out
}

// StatefulSetRevisions converts ControllerRevisions: name, revision
// number, the controller.kubernetes.io/hash label, creation time and
// data.raw (shared). nil entries are skipped.
func StatefulSetRevisions(revs []*appsv1.ControllerRevision) []statefulset.ControllerRevision {
	out := make([]statefulset.ControllerRevision, 0, len(revs))
	for _, r := range revs {
		if r == nil {
			continue
		}
		var created int64
		if !r.CreationTimestamp.IsZero() {
			created = r.CreationTimestamp.UnixNano()
		}
		out = append(out, statefulset.ControllerRevision{
			Name: r.Name, Number: r.Revision, Hash: r.Labels[statefulset.RevisionHashLabel],
			CreatedUnixNano: created, Data: r.Data.Raw,
		})
	}
	return out
}

// StatefulSetRevisionData returns the bytes the StatefulSet controller
// records in the ControllerRevision of s's spec.template:
// statefulset.RevisionData of the template encoded by encoding/json.
// For a template as the API server stores it (defaults included) they
// are the controller's bytes, and so is the revision name hashed from
// them. Errors: a nil s.
// Upstream: getPatch and newRevision,
// pkg/controller/statefulset/stateful_set_utils.go.
func StatefulSetRevisionData(s *appsv1.StatefulSet) ([]byte, error) {
	if s == nil {
		return nil, fmt.Errorf("kubeapps: nil StatefulSet")
	}
	template, err := json.Marshal(&s.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("kubeapps: encoding spec.template: %w", err)
	}
	return statefulset.RevisionData(template)
}

// StatefulSetRevisionObject returns the ControllerRevision the controller
// creates for s from rev (a revision a sync creates): named rev.Name in
// s's namespace, labelled with s's template labels plus the
// controller.kubernetes.io/hash label holding rev.Hash, annotated with
// s's annotations, owned by s as its controller, with rev's number and
// data.
// Upstream: newRevision (pkg/controller/statefulset/stateful_set_utils.go)
// and NewControllerRevision (pkg/controller/history).
func StatefulSetRevisionObject(s *appsv1.StatefulSet, rev *statefulset.ControllerRevision) *appsv1.ControllerRevision {
	labels := make(map[string]string, len(s.Spec.Template.Labels)+1)
	for k, v := range s.Spec.Template.Labels {
		labels[k] = v
	}
	labels[statefulset.RevisionHashLabel] = rev.Hash
	annotations := make(map[string]string, len(s.Annotations))
	for k, v := range s.Annotations {
		annotations[k] = v
	}
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name:            rev.Name,
			Namespace:       s.Namespace,
			Labels:          labels,
			Annotations:     annotations,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(s, StatefulSetKind)},
		},
		Data:     runtime.RawExtension{Raw: append([]byte(nil), rev.Data...)},
		Revision: rev.Number,
	}
}
