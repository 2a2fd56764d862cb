package conformance

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	"github.com/openkruise/kruise/pkg/util/inplaceupdate"
	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// This file turns kruise's objects into the library's structs, field by
// field, as a caller would. It stays small and test-only; the public
// adapters live in the adapters/kruiseapps module.

// ourIOS converts an IntOrString; nil stays nil.
func ourIOS(v *intstr.IntOrString) *intorpercent.IntOrString {
	if v == nil {
		return nil
	}
	if v.Type == intstr.String {
		return &intorpercent.IntOrString{IsString: true, Str: v.StrVal}
	}
	return &intorpercent.IntOrString{Int: v.IntVal}
}

// ourHook converts one lifecycle hook; nil stays nil.
func ourHook(h *appspub.LifecycleHook) *cloneset.LifecycleHook {
	if h == nil {
		return nil
	}
	return &cloneset.LifecycleHook{LabelsHandler: h.LabelsHandler, FinalizersHandler: h.FinalizersHandler, MarkPodNotReady: h.MarkPodNotReady}
}

// ourCloneSet converts a kruise CloneSet. The template is not carried:
// the decisions compared here never look inside it (revisions carry the
// template bytes instead). A nil spec.replicas becomes 1, the webhook's
// default.
func ourCloneSet(cs *appsv1alpha1.CloneSet) *cloneset.CloneSet[struct{}] {
	r := int32(1)
	if cs.Spec.Replicas != nil {
		r = *cs.Spec.Replicas
	}
	us := cs.Spec.UpdateStrategy
	out := &cloneset.CloneSet[struct{}]{
		Name:                    cs.Name,
		Generation:              cs.Generation,
		Deleting:                cs.DeletionTimestamp != nil,
		Labels:                  cs.Labels,
		Replicas:                r,
		MinReadySeconds:         cs.Spec.MinReadySeconds,
		RevisionHistoryLimit:    cs.Spec.RevisionHistoryLimit,
		ProgressDeadlineSeconds: cs.Spec.ProgressDeadlineSeconds,
		UpdateStrategy: cloneset.UpdateStrategy{
			Type:           cloneset.UpdateStrategyType(us.Type),
			Partition:      ourIOS(us.Partition),
			MaxUnavailable: ourIOS(us.MaxUnavailable),
			MaxSurge:       ourIOS(us.MaxSurge),
			Paused:         us.Paused,
		},
		ScaleStrategy: cloneset.ScaleStrategy{
			PodsToDelete:   cs.Spec.ScaleStrategy.PodsToDelete,
			MaxUnavailable: ourIOS(cs.Spec.ScaleStrategy.MaxUnavailable),
		},
	}
	if us.InPlaceUpdateStrategy != nil {
		out.UpdateStrategy.InPlaceGracePeriodSeconds = us.InPlaceUpdateStrategy.GracePeriodSeconds
	}
	if ps := us.PriorityStrategy; ps != nil {
		p := &cloneset.PriorityStrategy{}
		for _, w := range ps.WeightPriority {
			p.WeightPriority = append(p.WeightPriority, cloneset.WeightTerm{Weight: w.Weight, MatchSelector: ourSelector(w.MatchSelector)})
		}
		for _, o := range ps.OrderPriority {
			p.OrderPriority = append(p.OrderPriority, cloneset.OrderTerm{OrderedKey: o.OrderedKey})
		}
		out.UpdateStrategy.PriorityStrategy = p
	}
	for _, t := range us.ScatterStrategy {
		out.UpdateStrategy.ScatterStrategy = append(out.UpdateStrategy.ScatterStrategy, cloneset.ScatterTerm{Key: t.Key, Value: t.Value})
	}
	if lc := cs.Spec.Lifecycle; lc != nil {
		out.Lifecycle = &cloneset.Lifecycle{PreDelete: ourHook(lc.PreDelete), InPlaceUpdate: ourHook(lc.InPlaceUpdate), PreNormal: ourHook(lc.PreNormal)}
	}
	return out
}

// ourPod converts a kruise-managed pod.
func ourPod(p *corev1.Pod) cloneset.Pod {
	out := cloneset.Pod{
		Name:            p.Name,
		Revision:        p.Labels[apps.ControllerRevisionHashLabelKey],
		Labels:          p.Labels,
		Finalizers:      p.Finalizers,
		Phase:           cloneset.PodPhase(p.Status.Phase),
		NodeName:        p.Spec.NodeName,
		CreationTime:    p.CreationTimestamp.Time,
		Lifecycle:       cloneset.LifecycleState(p.Labels[appspub.LifecycleStateKey]),
		SpecifiedDelete: hasKey(p.Labels, appsv1alpha1.SpecifiedDeleteKey),
		Terminating:     p.DeletionTimestamp != nil,
	}
	if v, ok := p.Annotations[cloneset.DeletionCostAnnotation]; ok {
		out.DeletionCost = v
	}
	for _, c := range p.Status.Conditions {
		switch c.Type {
		case corev1.PodReady:
			if c.Status == corev1.ConditionTrue {
				out.Ready = true
				out.ReadySince = c.LastTransitionTime.Time
			}
		case appspub.InPlaceUpdateReady:
			out.InPlaceUpdateReady = cloneset.ConditionStatus(c.Status)
		}
	}
	for _, s := range p.Status.ContainerStatuses {
		out.Restarts = max(out.Restarts, s.RestartCount)
	}
	if v, ok := p.Annotations[appspub.InPlaceUpdateStateKey]; ok {
		var st appspub.InPlaceUpdateState
		if err := json.Unmarshal([]byte(v), &st); err == nil {
			out.InPlaceUpdate = &cloneset.InPlaceUpdateState{Revision: st.Revision, UpdateTime: st.UpdateTimestamp.Time, Done: inPlaceUpdateDone(p, &st)}
		}
	}
	if v, ok := p.Annotations[appspub.InPlaceUpdateGraceKey]; ok {
		var g inplaceupdate.UpdateSpec
		if err := json.Unmarshal([]byte(v), &g); err == nil {
			out.InPlaceUpdateGrace = &cloneset.InPlaceUpdateGrace{Revision: g.Revision, GraceSeconds: g.GraceSeconds}
		}
	}
	return out
}

// inPlaceUpdateDone is the caller's reading of a pod's container
// statuses that InPlaceUpdateState.Done asks for, as kruise's default
// check reads them (no container batches, no runtime metadata): every
// container recorded before the update is listed again, and runs a new
// image ID or reports the spec's image (":latest" added to an image
// without a tag).
func inPlaceUpdateDone(p *corev1.Pod, st *appspub.InPlaceUpdateState) bool {
	if len(st.NextContainerImages) > 0 || len(st.NextContainerRefMetadata) > 0 || len(st.NextContainerResources) > 0 {
		return false
	}
	images := map[string]string{}
	for _, c := range p.Spec.Containers {
		images[c.Name] = c.Image
		if !strings.Contains(c.Image, ":") {
			images[c.Name] = c.Image + ":latest"
		}
	}
	seen := 0
	for _, cs := range p.Status.ContainerStatuses {
		old, ok := st.LastContainerStatuses[cs.Name]
		if !ok {
			continue
		}
		if old.ImageID == cs.ImageID && images[cs.Name] != cs.Image {
			return false
		}
		seen++
	}
	return seen == len(st.LastContainerStatuses)
}

// ourPods converts a list of pods, keeping the order.
func ourPods(pods []*corev1.Pod) []cloneset.Pod {
	out := make([]cloneset.Pod, len(pods))
	for i, p := range pods {
		out[i] = ourPod(p)
	}
	return out
}

// ourRevision converts a ControllerRevision.
func ourRevision(r *apps.ControllerRevision) cloneset.ControllerRevision {
	return cloneset.ControllerRevision{Name: r.Name, Number: r.Revision, CreatedUnixNano: r.CreationTimestamp.UnixNano(), Data: r.Data.Raw}
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// byName sorts pods by name in place, the list order every differential
// here hands kruise (see the README on list order).
func byName(pods []*corev1.Pod) {
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
}

// podName is the i-th generated pod's name; zero-padded so that name
// order is index order.
func podName(cs string, i int) string {
	return cs + "-" + strconv.Itoa(1000 + i)[1:]
}

// at returns now shifted by s seconds.
func at(now time.Time, s int) time.Time { return now.Add(time.Duration(s) * time.Second) }

// ourSelector converts a label selector.
func ourSelector(s metav1.LabelSelector) cloneset.LabelSelector {
	out := cloneset.LabelSelector{MatchLabels: s.MatchLabels}
	for _, e := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, cloneset.LabelSelectorRequirement{Key: e.Key, Operator: ownership.Operator(e.Operator), Values: e.Values})
	}
	return out
}
