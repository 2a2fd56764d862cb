package cloneset

import "slices"

// podHooked reports whether p is held by hook h: it carries one of h's
// finalizers, or one of h's labels with the hook's value. As in kruise, a
// label is compared by its value alone, so a handler label with the value
// "" holds every pod that lacks the label. A nil hook holds no pod.
// Upstream: lifecycle.IsPodHooked.
func podHooked(h *LifecycleHook, p *Pod) bool {
	if h == nil {
		return false
	}
	for _, f := range h.FinalizersHandler {
		if slices.Contains(p.Finalizers, f) {
			return true
		}
	}
	for k, v := range h.LabelsHandler {
		if p.Labels[k] == v {
			return true
		}
	}
	return false
}

// podAllHooked reports whether p carries every finalizer and every label
// (with its value, "" matching an absent label) of h. A nil hook is never
// all-hooked; a hook with no handlers is all-hooked by every pod.
// Upstream: lifecycle.IsPodAllHooked.
func podAllHooked(h *LifecycleHook, p *Pod) bool {
	if h == nil {
		return false
	}
	for _, f := range h.FinalizersHandler {
		if !slices.Contains(p.Finalizers, f) {
			return false
		}
	}
	for k, v := range h.LabelsHandler {
		if p.Labels[k] != v {
			return false
		}
	}
	return true
}

// inPlaceUpdateCompleted reports whether an in-place update of p has
// finished as kruise checks it: no update is waiting for its grace period,
// and either no update was ever recorded or the recorded one is Done.
// Upstream: inplaceupdate.DefaultCheckInPlaceUpdateCompleted.
func inPlaceUpdateCompleted(p *Pod) bool {
	if p.InPlaceUpdateGrace != nil {
		return false
	}
	return p.InPlaceUpdate == nil || p.InPlaceUpdate.Done
}

// RefreshLifecycle returns the lifecycle state the bookkeeping at the start
// of kruise's update step moves p to, and whether it moves: the lifecycle
// state machine's automatic edges. lc is the CloneSet's spec.lifecycle
// (nil for none) and updateRevision the update revision's name.
//
//   - PreparingNormal to Normal: without a preNormal hook, once the pod is
//     scheduled (NodeName set); with one, once the pod carries all of its
//     labels and finalizers.
//   - PreparingUpdate, when the pod is already at updateRevision (its
//     update was rolled back while it waited, kruise issue #1156), and
//     Updating, once its in-place update has completed (no grace period
//     pending, InPlaceUpdate nil or Done): to Updated when lc is set and
//     the pod is not all-hooked by the inPlaceUpdate hook (a nil hook
//     never is), else to Normal.
//   - Updated to Normal when lc is nil, has no inPlaceUpdate hook, or the
//     pod carries all of that hook's labels and finalizers again.
//
// Every other state stays: Normal, "" and PreparingDelete move only when
// the update or scale step acts on the pod (to PreparingUpdate, Updating
// or PreparingDelete; see [Update] and [Scale]). A nil p does not move.
// Upstream: sync.realControl.refreshPodState.
func RefreshLifecycle(lc *Lifecycle, p *Pod, updateRevision string) (LifecycleState, bool) {
	if p == nil {
		return "", false
	}
	var to LifecycleState
	switch p.Lifecycle {
	case PreparingNormal:
		var normal bool
		if lc == nil || lc.PreNormal == nil {
			normal = p.NodeName != ""
		} else {
			normal = podAllHooked(lc.PreNormal, p)
		}
		if normal {
			to = Normal
		}
	case PreparingUpdate:
		if IsPodAtRevision(p, updateRevision) {
			to = afterInPlaceUpdate(lc, p)
		}
	case Updating:
		if inPlaceUpdateCompleted(p) {
			to = afterInPlaceUpdate(lc, p)
		}
	case Updated:
		if lc == nil || lc.InPlaceUpdate == nil || podAllHooked(lc.InPlaceUpdate, p) {
			to = Normal
		}
	}
	if to == "" || to == p.Lifecycle {
		return p.Lifecycle, false
	}
	return to, true
}

// afterInPlaceUpdate is the state a pod reaches when its in-place update
// is over: Updated while a lifecycle is set and the inPlaceUpdate hook is
// not all back on the pod, else Normal.
func afterInPlaceUpdate(lc *Lifecycle, p *Pod) LifecycleState {
	var hook *LifecycleHook
	if lc != nil {
		hook = lc.InPlaceUpdate
	}
	if lc != nil && !podAllHooked(hook, p) {
		return Updated
	}
	return Normal
}
