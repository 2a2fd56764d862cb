package daemonset

import (
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// CalculateStatus returns the status counts the controller computes over
// nodes and pods, with hash the current revision's hash. For every node
// that should run the pod: DesiredNumberScheduled++, and if the node has
// listed pods, CurrentNumberScheduled++ and, for its first pod by
// [ComparePods] only (the oldest: during a surge a node with an old and a
// new pod counts as not updated), NumberReady, NumberAvailable
// (minReadySeconds) and UpdatedNumberScheduled ([IsPodUpdated]). A
// terminating pod still counts as ready and available. A node that should
// not run the pod but has pods counts as misscheduled. NumberUnavailable
// is desired - available. Pods on nodes missing from nodes are ignored.
// ObservedGeneration and CollisionCount are ds.Status's; [Plan] sets the
// observed generation.
// Errors: bad input (see [Plan]).
// Upstream: updateDaemonSetStatus, pkg/controller/daemon/daemon_controller.go.
func CalculateStatus[T any](ds *DaemonSet[T], nodes []Node, pods []Pod, hash string, now time.Time) (Status, error) {
	if ds == nil {
		return Status{}, nilError()
	}
	var v view
	if err := v.build(nodes, pods); err != nil {
		return Status{}, err
	}
	return calculateStatus(&v, ds, hash, now), nil
}

func calculateStatus[T any](v *view, ds *DaemonSet[T], hash string, now time.Time) Status {
	st := Status{ObservedGeneration: ds.Status.ObservedGeneration, CollisionCount: ds.Status.CollisionCount}
	for k := range v.entries {
		e := &v.entries[k]
		if e.node < 0 {
			continue
		}
		scheduled := e.hi > e.lo
		if !v.nodes[e.node].ShouldRun {
			if scheduled {
				st.NumberMisscheduled++
			}
			continue
		}
		st.DesiredNumberScheduled++
		if !scheduled {
			continue
		}
		st.CurrentNumberScheduled++
		p := &v.pods[v.podOrder[e.lo]]
		if IsPodReady(p) {
			st.NumberReady++
			if IsPodAvailable(p, ds.MinReadySeconds, now) {
				st.NumberAvailable++
			}
		}
		if IsPodUpdated(p, hash, ds.TemplateGeneration) {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	return st
}

// statusChanged reports whether the controller writes status: a count
// differs, or the observed generation is behind.
// Upstream: storeDaemonSetStatus.
func statusChanged(old, st *Status, generation int64) bool {
	return old.DesiredNumberScheduled != st.DesiredNumberScheduled ||
		old.CurrentNumberScheduled != st.CurrentNumberScheduled ||
		old.NumberMisscheduled != st.NumberMisscheduled ||
		old.NumberReady != st.NumberReady ||
		old.UpdatedNumberScheduled != st.UpdatedNumberScheduled ||
		old.NumberAvailable != st.NumberAvailable ||
		old.NumberUnavailable != st.NumberUnavailable ||
		old.ObservedGeneration < generation
}

// ValidateStatus checks a status as the API server does on a status
// update: every count and the observed generation at least 0, and a set
// collisionCount at least 0, each reported as
// "status.numberReady: Invalid value: -1: must be greater than or equal to 0".
// Upstream: validateDaemonSetStatus, pkg/apis/apps/validation/validation.go.
func ValidateStatus(st *Status) field.ErrorList {
	var errs field.ErrorList
	check := func(path string, n int64) {
		if n < 0 {
			errs = append(errs, nonNegative("status."+path, n))
		}
	}
	check("currentNumberScheduled", int64(st.CurrentNumberScheduled))
	check("numberMisscheduled", int64(st.NumberMisscheduled))
	check("desiredNumberScheduled", int64(st.DesiredNumberScheduled))
	check("numberReady", int64(st.NumberReady))
	check("observedGeneration", st.ObservedGeneration)
	check("updatedNumberScheduled", int64(st.UpdatedNumberScheduled))
	check("numberAvailable", int64(st.NumberAvailable))
	check("numberUnavailable", int64(st.NumberUnavailable))
	if st.CollisionCount != nil {
		check("collisionCount", int64(*st.CollisionCount))
	}
	return errs
}
