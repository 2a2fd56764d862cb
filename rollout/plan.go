package rollout

import (
	"errors"
	"time"
)

// Plan returns what one sync of kube-controller-manager's Deployment
// controller does to d and its ReplicaSets rss at time now, with the
// default Options. See PlanWith, also for the errors: an invalid d or
// ReplicaSet, or a d.Template that does not equal a copy of itself (a NaN
// float or a non-nil func in it).
//
// Ownership: Plan treats every ReplicaSet of rss as the deployment's own
// and never checks labels or owner references. Callers decide ownership
// first, as the controller does before it syncs: ownership.ClaimAll on
// the ReplicaSets of the namespace gives the owned set to pass (and the
// adoptions and releases to write); a ReplicaSet whose labels no longer
// match is released there and is not Plan's to touch. A deployment whose
// Selector selects everything is not rolled out (PathSelectingAll).
func Plan[T any](d *Deployment[T], rss []ReplicaSet[T], now time.Time) (Sync[T], error) {
	return PlanWith(d, rss, now, Options{})
}

// PlanWith returns what one sync does, in upstream's order: a deployment
// being deleted only gets its status; then the paused conditions are
// checked; a paused deployment is only scaled proportionally and cleaned
// up; a pending rollback restores the template; a scaling event scales
// proportionally; otherwise a Recreate or RollingUpdate step runs: create
// the new ReplicaSet if needed, scale it up (at most one direction of
// scaling per sync), else scale old ReplicaSets down, clean up history
// when the (previously written) status is complete, and write the status
// and conditions.
//
// As upstream, the status written in a sync that scaled is computed from
// the ReplicaSets as they were before that sync's own scaling (it is
// corrected by the next sync). rss and d are never modified. The new
// ReplicaSet is the oldest whose template equals d's, ignoring the
// pod-template-hash label (revision.FindNew).
//
// The answer does not depend on the order of rss: like upstream, which
// sorts the ReplicaSets it lists oldest first before anything else, Plan
// works on them oldest first (creation time, then name) and visits them
// in the orders upstream derives from that one. So a rollback to a
// revision two ReplicaSets share restores the older one, Recreate and
// the rolling update scale old ReplicaSets down oldest first, and history
// cleanup starts its sort from upstream's order (which matters when a
// revision does not parse, as the comparison is then not a strict order).
//
// A new ReplicaSet whose revision annotation does not parse is not
// updated for its annotations, as upstream's SetNewReplicaSetAnnotations
// gives up on it; but upstream has by then copied the deployment's
// annotations onto its in-memory copy, so a write of that ReplicaSet later
// in the same sync (a scale) carries them, and Plan's does too.
//
// Errors: every bad input is a *field.Error (or a field.ErrorList of
// them) wrapping field.ErrInvalid, so errors.Is and errors.As work. A d or
// ReplicaSet the API server would reject is reported with Validate's (or
// ValidateReplicaSet's) errors, each prefixed with the object:
//
//	rollout: invalid Deployment "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// two ReplicaSets with the same name give an error wrapping
// field.ErrDuplicate, worded as proportion words it:
//
//	rollout: rss[3].Name: "web-1" duplicates rss[1].Name
//
// A d.Template that does not equal a copy of itself (revision.EqualsItself:
// it holds a NaN float or a non-nil func where EqualIgnoreHash compares
// field by field) is a Forbidden error on spec.template: no ReplicaSet would ever match
// it, so a controller following Plan would create a new ReplicaSet every
// other sync. Upstream cannot meet this (its templates come from JSON,
// which holds neither). Fix the template, or give the value's type an
// Equal method that accepts it. The check runs only when no ReplicaSet
// matches the template, the one case where such a template makes a
// difference, so a steady-state sync does not pay for it.
//
// A sync that would raise status.collisionCount or a metadata.generation
// past the top of its range gives an error wrapping ErrCounterOverflow
// (upstream wraps it negative and the API server rejects the write). The
// Sync is then zero. Upstream: syncDeployment and the functions it calls.
func PlanWith[T any](d *Deployment[T], rss []ReplicaSet[T], now time.Time, opts Options) (Sync[T], error) {
	p := &Planner[T]{Options: opts}
	p.p.fresh = true
	s, err := p.plan(d, rss, now, "")
	if err != nil {
		return Sync[T]{}, err
	}
	p.Explain()
	return *s, nil
}

// ErrCounterOverflow is wrapped by the error Plan and Simulate return when
// the sync would raise a counter that is already at the top of its
// range: status.collisionCount at math.MaxInt32 when the new ReplicaSet's
// name collides again, or metadata.generation at math.MaxInt64 of the
// deployment (the update that ends a rollback) or of a ReplicaSet whose
// spec.replicas or (the new ReplicaSet's) spec.minReadySeconds changes. Upstream's arithmetic wraps the counter to its
// minimum and the API server rejects the write (a negative
// collisionCount, or a generation that is decremented), so the controller
// retries the same sync forever and never gets past it. Plan returns this
// error, with a zero Sync, rather than a write that Validate rejects; a
// caller can only reset the counter (recreate the object) or remove the
// colliding ReplicaSet.
//
// The error is not a field.Error and does not wrap field.ErrInvalid: the
// input is valid (the API server accepted it); it is the sync's write
// that cannot be made.
var ErrCounterOverflow = errors.New("counter overflow")
