package kruiseapps

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	appspub "github.com/openkruise/kruise-api/apps/pub"
	kruise "github.com/openkruise/kruise-api/apps/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// Pod converts p into the Pod the cloneset package reads: name, the
// controller-revision-hash label (Revision), labels, finalizers, phase,
// node, the Ready condition and its lastTransitionTime, the creation
// time, the highest restart counts of regular and sidecar containers, the
// deletion-cost annotation, the lifecycle state label, the
// specified-delete label, the deletion timestamp, the
// InPlaceUpdateReady condition and the in-place update state and grace
// annotations (kruise's older annotation keys without the
// "apps.kruise.io/" prefix are read when the new ones are absent, as
// kruise does). Labels and finalizers are shared with p.
//
// InPlaceUpdate.Done is computed from the container statuses as kruise's
// default completion check does: no next container batch is pending, and
// every container recorded in lastContainerStatuses reports a new imageID
// or runs the image its spec names (an image without a tag counts as
// ":latest"). Kruise first accepts a pod whose runtime-container-meta
// annotation shows every container at its spec's hash; that shortcut,
// which needs kruise-daemon's hashes, is not modelled, so a pod it
// accepts with an unchanged imageID reads as not done here.
//
// Errors (the result is then the zero value): a nil pod, and an in-place
// update state or grace annotation that is not the JSON kruise writes.
// Upstream: the pod fields kruise's clonesetutils, lifecycle and
// inplaceupdate packages read.
func Pod(p *corev1.Pod) (cloneset.Pod, error) {
	if p == nil {
		return cloneset.Pod{}, fmt.Errorf("kruiseapps: nil Pod")
	}
	out := cloneset.Pod{
		Name:            p.Name,
		Revision:        p.Labels[cloneset.RevisionLabel],
		Labels:          p.Labels,
		Finalizers:      p.Finalizers,
		Phase:           cloneset.PodPhase(p.Status.Phase),
		NodeName:        p.Spec.NodeName,
		CreationTime:    p.CreationTimestamp.Time,
		Lifecycle:       cloneset.LifecycleState(p.Labels[cloneset.LifecycleStateLabel]),
		Terminating:     p.DeletionTimestamp != nil,
		DeletionCost:    p.Annotations[cloneset.DeletionCostAnnotation],
		SpecifiedDelete: hasKey(p.Labels, cloneset.SpecifiedDeleteLabel),
	}
	for _, c := range p.Status.Conditions {
		switch c.Type {
		case corev1.PodReady:
			if c.Status == corev1.ConditionTrue {
				out.Ready, out.ReadySince = true, c.LastTransitionTime.Time
			}
		case appspub.InPlaceUpdateReady:
			out.InPlaceUpdateReady = cloneset.ConditionStatus(c.Status)
		}
	}
	for _, s := range p.Status.ContainerStatuses {
		out.Restarts = max(out.Restarts, s.RestartCount)
	}
	sidecars := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars[c.Name] = true
		}
	}
	for _, s := range p.Status.InitContainerStatuses {
		if sidecars[s.Name] {
			out.SidecarRestarts = max(out.SidecarRestarts, s.RestartCount)
		}
	}
	if text, ok := appspub.GetInPlaceUpdateState(p); ok {
		var st appspub.InPlaceUpdateState
		if err := json.Unmarshal([]byte(text), &st); err != nil {
			return cloneset.Pod{}, fmt.Errorf("kruiseapps: pod %s: annotation %s: %v", p.Name, appspub.InPlaceUpdateStateKey, err)
		}
		out.InPlaceUpdate = &cloneset.InPlaceUpdateState{Revision: st.Revision, UpdateTime: st.UpdateTimestamp.Time, Done: inPlaceUpdateDone(p, &st)}
	}
	if text, ok := appspub.GetInPlaceUpdateGrace(p); ok && text != "" {
		var spec struct {
			Revision     string `json:"revision"`
			GraceSeconds int32  `json:"graceSeconds"`
		}
		if err := json.Unmarshal([]byte(text), &spec); err != nil {
			return cloneset.Pod{}, fmt.Errorf("kruiseapps: pod %s: annotation %s: %v", p.Name, appspub.InPlaceUpdateGraceKey, err)
		}
		out.InPlaceUpdateGrace = &cloneset.InPlaceUpdateGrace{Revision: spec.Revision, GraceSeconds: spec.GraceSeconds}
	}
	return out, nil
}

// inPlaceUpdateDone is kruise's default completion check without the
// runtime-container-meta shortcut: see Pod.
func inPlaceUpdateDone(p *corev1.Pod, st *appspub.InPlaceUpdateState) bool {
	if len(st.NextContainerImages) > 0 || len(st.NextContainerRefMetadata) > 0 || len(st.NextContainerResources) > 0 {
		return false
	}
	images := make(map[string]string, len(p.Spec.Containers))
	for _, c := range p.Spec.Containers {
		images[c.Name] = c.Image
		if !strings.Contains(c.Image, ":") {
			images[c.Name] = c.Image + ":latest"
		}
	}
	pending := make(map[string]bool, len(st.LastContainerStatuses))
	for name := range st.LastContainerStatuses {
		pending[name] = true
	}
	for _, s := range p.Status.ContainerStatuses {
		old, ok := st.LastContainerStatuses[s.Name]
		if !ok {
			continue
		}
		if old.ImageID == s.ImageID && images[s.Name] != s.Image {
			return false
		}
		delete(pending, s.Name)
	}
	return len(pending) == 0
}

// hasKey reports whether m has key k.
func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// Pods converts every pod of pods with Pod, in order, skipping nil
// entries. The first error is returned with the index of its pod, and
// the result is then nil. Duplicate names are left for the cloneset
// functions to reject.
func Pods(pods []*corev1.Pod) ([]cloneset.Pod, error) {
	out := make([]cloneset.Pod, 0, len(pods))
	for i, p := range pods {
		if p == nil {
			continue
		}
		c, err := Pod(p)
		if err != nil {
			return nil, fmt.Errorf("pods[%d]: %w", i, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Owned returns the pods of pods that cs controls: those in cs's
// namespace whose controller owner reference has cs's UID (or, when cs
// has no UID, as in a manifest, is a CloneSet named cs.Name), and
// orphans in its namespace whose labels match cs's selector, which kruise
// adopts. Pods controlled by another object, and nil entries, are left
// out. The result is sorted by name; the pods are shared, not copied.
// Upstream: the ClaimPods call of kruise's reconcile.
func Owned(cs *kruise.CloneSet, pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	sel, err := metav1.LabelSelectorAsSelector(cs.Spec.Selector)
	for _, p := range pods {
		if p == nil || p.Namespace != cs.Namespace {
			continue
		}
		ref := metav1.GetControllerOf(p)
		switch {
		case ref == nil:
			if err == nil && cs.Spec.Selector != nil && !sel.Empty() && sel.Matches(labels.Set(p.Labels)) {
				out = append(out, p)
			}
		case cs.UID != "" && ref.UID == cs.UID,
			cs.UID == "" && ref.Kind == "CloneSet" && ref.Name == cs.Name:
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	return out
}
