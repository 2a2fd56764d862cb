package kubeapps

import (
	"errors"
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// DaemonSetKind is the kind a DaemonSet's pods and revisions name in
// their controller owner reference.
var DaemonSetKind = appsv1.SchemeGroupVersion.WithKind("DaemonSet")

// DaemonSet converts d into the DaemonSet the daemonset package reads:
// name, namespace, UID, generation, deletion, spec (selector, template,
// updateStrategy, minReadySeconds, revisionHistoryLimit), the template
// generation from the deprecated.daemonset.template.generation
// annotation, and the status. The template and the selector's label map
// are shared with d; pointers are copied.
//
// maxUnavailable and maxSurge are kept as written; daemonset.Validate
// (and so daemonset.Plan) reports a value the API server would refuse,
// so the conversion itself cannot fail. A template-generation annotation
// that does not parse as a decimal int64 reads as absent, as the
// controller's sync treats it.
// Upstream: apps/v1 DaemonSet with SetDefaults_DaemonSet
// (pkg/apis/apps/v1/defaults.go) and GetTemplateGeneration
// (pkg/controller/daemon/util/daemonset_util.go).
func DaemonSet(d *appsv1.DaemonSet) daemonset.DaemonSet[Template] {
	out := daemonset.DaemonSet[Template]{
		Name:                 d.Name,
		Namespace:            d.Namespace,
		UID:                  string(d.UID),
		Generation:           d.Generation,
		Deleting:             d.DeletionTimestamp != nil,
		Selector:             Selector(d.Spec.Selector),
		Template:             d.Spec.Template,
		UpdateStrategy:       daemonset.UpdateStrategy{Type: daemonset.UpdateStrategyType(d.Spec.UpdateStrategy.Type)},
		MinReadySeconds:      d.Spec.MinReadySeconds,
		RevisionHistoryLimit: clonePtr(d.Spec.RevisionHistoryLimit),
		Status:               DaemonSetStatus(&d.Status),
	}
	if ru := d.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.UpdateStrategy.RollingUpdate = &daemonset.RollingUpdateParams{}
		if ru.MaxUnavailable != nil {
			w := written(ru.MaxUnavailable)
			out.UpdateStrategy.RollingUpdate.MaxUnavailable = &w
		}
		if ru.MaxSurge != nil {
			w := written(ru.MaxSurge)
			out.UpdateStrategy.RollingUpdate.MaxSurge = &w
		}
	}
	if s, ok := d.Annotations[daemonset.TemplateGenerationAnnotation]; ok {
		if g, err := strconv.ParseInt(s, 10, 64); err == nil {
			out.TemplateGeneration = &g
		}
	}
	return out
}

// DaemonSetStatus converts a DaemonSet's status: the node counts,
// observedGeneration and collisionCount (copied, not shared). Conditions
// are not read: the controller does not maintain them.
func DaemonSetStatus(s *appsv1.DaemonSetStatus) daemonset.Status {
	return daemonset.Status{
		ObservedGeneration:     s.ObservedGeneration,
		CurrentNumberScheduled: s.CurrentNumberScheduled,
		NumberMisscheduled:     s.NumberMisscheduled,
		DesiredNumberScheduled: s.DesiredNumberScheduled,
		NumberReady:            s.NumberReady,
		UpdatedNumberScheduled: s.UpdatedNumberScheduled,
		NumberAvailable:        s.NumberAvailable,
		NumberUnavailable:      s.NumberUnavailable,
		CollisionCount:         clonePtr(s.CollisionCount),
	}
}

// DaemonSetStatusObject converts a status back to apps/v1, as the
// controller writes it (no conditions).
func DaemonSetStatusObject(s *daemonset.Status) appsv1.DaemonSetStatus {
	return appsv1.DaemonSetStatus{
		ObservedGeneration:     s.ObservedGeneration,
		CurrentNumberScheduled: s.CurrentNumberScheduled,
		NumberMisscheduled:     s.NumberMisscheduled,
		DesiredNumberScheduled: s.DesiredNumberScheduled,
		NumberReady:            s.NumberReady,
		UpdatedNumberScheduled: s.UpdatedNumberScheduled,
		NumberAvailable:        s.NumberAvailable,
		NumberUnavailable:      s.NumberUnavailable,
		CollisionCount:         clonePtr(s.CollisionCount),
	}
}

// DaemonSetPod converts a pod as the DaemonSet controller reads it:
// name; the node it is for (spec.nodeName, or while that is empty the
// single value of the first metadata.name "In" matchFields requirement of
// its required node affinity, which the controller writes into the pods
// it creates; "" when neither gives a node, and the controller then
// ignores the pod); the controller-revision-hash and
// pod-template-generation labels; status.phase; the Ready condition
// (status True, and its lastTransitionTime); whether a deletion
// timestamp is set; and the creation time.
// Upstream: GetTargetNodeName (pkg/controller/daemon/util/daemonset_util.go),
// getNodesToDaemonPods (pkg/controller/daemon/daemon_controller.go) and
// podutil.IsPodReady (pkg/api/v1/pod/util.go).
func DaemonSetPod(p *corev1.Pod) daemonset.Pod {
	out := daemonset.Pod{
		Name:               p.Name,
		Node:               p.Spec.NodeName,
		Unscheduled:        p.Spec.NodeName == "",
		Hash:               p.Labels[daemonset.HashLabel],
		TemplateGeneration: p.Labels[daemonset.TemplateGenerationLabel],
		Phase:              daemonset.PodPhase(p.Status.Phase),
		Terminating:        p.DeletionTimestamp != nil,
		Created:            p.CreationTimestamp.Time,
	}
	if out.Node == "" {
		out.Node = affinityNode(p.Spec.Affinity)
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

// affinityNode returns the node an unscheduled daemon pod is for: the
// value of the first metadata.name In requirement among the matchFields
// of its required node-affinity terms, or "" when there is none or it
// does not hold exactly one value.
func affinityNode(a *corev1.Affinity) string {
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, req := range term.MatchFields {
			if req.Key == metav1.ObjectNameField && req.Operator == corev1.NodeSelectorOpIn {
				if len(req.Values) != 1 {
					return ""
				}
				return req.Values[0]
			}
		}
	}
	return ""
}

// DaemonSetPods converts every pod of pods, in order, skipping nil
// entries.
func DaemonSetPods(pods []*corev1.Pod) []daemonset.Pod {
	out := make([]daemonset.Pod, 0, len(pods))
	for _, p := range pods {
		if p != nil {
			out = append(out, DaemonSetPod(p))
		}
	}
	return out
}

// DaemonSetRevisions converts ControllerRevisions: name, revision
// number, the controller-revision-hash label and data.raw (shared). nil
// entries are skipped.
func DaemonSetRevisions(revs []*appsv1.ControllerRevision) []daemonset.ControllerRevision {
	out := make([]daemonset.ControllerRevision, 0, len(revs))
	for _, r := range revs {
		if r != nil {
			out = append(out, daemonset.ControllerRevision{
				Name: r.Name, Hash: r.Labels[daemonset.HashLabel], Number: r.Revision, Data: r.Data.Raw,
			})
		}
	}
	return out
}

// DaemonSetRevisionData returns the bytes the DaemonSet controller records
// in the ControllerRevision of d's spec.template (daemonset.RevisionData
// of the template), and compares with a revision's data.raw to find the
// current one. Errors: a nil d, or a template that does not encode.
// Upstream: getPatch, pkg/controller/daemon/update.go.
func DaemonSetRevisionData(d *appsv1.DaemonSet) ([]byte, error) {
	if d == nil {
		return nil, fmt.Errorf("kubeapps: nil DaemonSet")
	}
	return daemonset.RevisionData(&d.Spec.Template)
}

// DaemonSetRevisionObject returns the ControllerRevision the controller
// creates for d from rev (a revision a sync writes): named rev.Name in
// d's namespace, labelled with d's template labels plus the
// controller-revision-hash label holding rev.Hash, annotated with d's
// annotations, owned by d as its controller, with rev's number and data.
// Upstream: snapshot, pkg/controller/daemon/update.go.
func DaemonSetRevisionObject(d *appsv1.DaemonSet, rev *daemonset.ControllerRevision) *appsv1.ControllerRevision {
	labels := make(map[string]string, len(d.Spec.Template.Labels)+1)
	for k, v := range d.Spec.Template.Labels {
		labels[k] = v
	}
	labels[daemonset.HashLabel] = rev.Hash
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name:            rev.Name,
			Namespace:       d.Namespace,
			Labels:          labels,
			Annotations:     cloneMap(d.Annotations),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, DaemonSetKind)},
		},
		Data:     runtime.RawExtension{Raw: append([]byte(nil), rev.Data...)},
		Revision: rev.Number,
	}
}

// daemonTolerations are the tolerations the controller adds to every
// daemon pod (the last only with hostNetwork).
// Upstream: AddOrUpdateDaemonPodTolerations,
// pkg/controller/daemon/util/daemonset_util.go.
var daemonTolerations = []corev1.Toleration{
	{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeDiskPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeMemoryPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodePIDPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeNetworkUnavailable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
}

// ErrNodeAffinity is DaemonSetNode's error for a template with a
// required node affinity, which the simple predicate does not evaluate.
var ErrNodeAffinity = errors.New("kubeapps: DaemonSetNode does not evaluate spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution; build the daemonset.Node from the scheduler's answer")

// DaemonSetNode answers the scheduling predicates for d's daemon pod on
// node, as a daemonset.Node, with a simple predicate that reads only:
//
//   - spec.template.spec.nodeName: when set to another node, the pod
//     neither should run nor may stay;
//   - spec.template.spec.nodeSelector: every pair must be among the
//     node's labels, or the pod neither should run nor may stay;
//   - the node's NoSchedule and NoExecute taints against the template's
//     tolerations plus the ones the controller adds to every daemon pod
//     (not-ready and unreachable NoExecute; disk-, memory- and
//     PID-pressure and unschedulable NoSchedule; network-unavailable
//     NoSchedule with hostNetwork): an untolerated NoExecute taint gives
//     neither, an untolerated NoSchedule taint alone gives ShouldRun
//     false and ShouldContinueRunning true. PreferNoSchedule taints do
//     not count. Tolerations with the Gt and Lt operators tolerate
//     nothing, as with the TaintTolerationComparisonOperators feature
//     gate off (its default in v1.36).
//
// For those inputs it is the controller's NodeShouldRunDaemonPod. A
// template with a required node affinity is not evaluated: the result is
// the zero Node and ErrNodeAffinity; such callers build the
// daemonset.Node from the scheduler's own answer. Node conditions,
// resources and spec.unschedulable are not read (the controller does not
// read them either).
// Upstream: NodeShouldRunDaemonPod and predicates,
// pkg/controller/daemon/daemon_controller.go.
func DaemonSetNode(d *appsv1.DaemonSet, node *corev1.Node) (daemonset.Node, error) {
	spec := &d.Spec.Template.Spec
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		return daemonset.Node{}, ErrNodeAffinity
	}
	out := daemonset.Node{Name: node.Name}
	if spec.NodeName != "" && spec.NodeName != node.Name {
		return out, nil
	}
	for k, v := range spec.NodeSelector {
		if w, ok := node.Labels[k]; !ok || w != v {
			return out, nil
		}
	}
	noSchedule, noExecute := false, false
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		if t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		if tolerated(spec, t) {
			continue
		}
		if t.Effect == corev1.TaintEffectNoExecute {
			noExecute = true
		} else {
			noSchedule = true
		}
	}
	out.ShouldRun = !noSchedule && !noExecute
	out.ShouldContinueRunning = !noExecute
	return out, nil
}

// tolerated reports whether the daemon pod of spec tolerates t.
func tolerated(spec *corev1.PodSpec, t *corev1.Taint) bool {
	for i := range spec.Tolerations {
		if spec.Tolerations[i].ToleratesTaint(klog.Background(), t, false) {
			return true
		}
	}
	n := len(daemonTolerations)
	if !spec.HostNetwork {
		n-- // network-unavailable is added only with hostNetwork
	}
	for i := range daemonTolerations[:n] {
		if daemonTolerations[i].ToleratesTaint(klog.Background(), t, false) {
			return true
		}
	}
	return false
}

// DaemonSetNodes answers DaemonSetNode for every node of nodes, in
// order, skipping nil entries. The error is the first DaemonSetNode
// returned; the result is then nil.
func DaemonSetNodes(d *appsv1.DaemonSet, nodes []*corev1.Node) ([]daemonset.Node, error) {
	out := make([]daemonset.Node, 0, len(nodes))
	for _, n := range nodes {
		if n == nil {
			continue
		}
		dn, err := DaemonSetNode(d, n)
		if err != nil {
			return nil, err
		}
		out = append(out, dn)
	}
	return out, nil
}
