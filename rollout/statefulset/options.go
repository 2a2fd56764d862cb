package statefulset

import "strconv"

// Gates are the kube-controller-manager feature gates that change the
// StatefulSet math. The zero value is v1.36's default: every gate read
// here is off.
//
// The other gates of v1.36 that touch StatefulSets need no field:
// StatefulSetStartOrdinal and StatefulSetAutoDeletePVC are GA (always
// on); StaleControllerConsistencyStatefulSet only delays a sync until
// the informer has caught up; StatefulSetSemanticRevisionComparison
// (beta, on) reuses the latest revision when re-applying it and
// re-defaulting gives equal bytes, which needs the API server's
// defaulting: callers get the same effect by passing revision Data
// encoded by the same codec as the template (see [RevisionData]).
type Gates struct {
	// MaxUnavailableStatefulSet is the MaxUnavailableStatefulSet gate
	// (beta since v1.35, off by default in v1.36). When on, a rolling
	// update deletes up to maxUnavailable outdated pods per sync, less
	// the slots already unavailable (see [UpdateStep]); when off, one pod
	// per sync and spec.updateStrategy.rollingUpdate.maxUnavailable is
	// ignored.
	MaxUnavailableStatefulSet bool `json:"maxUnavailableStatefulSet,omitempty"`
}

// BudgetPolicy says how the update step spends maxUnavailable when
// Gates.MaxUnavailableStatefulSet is on.
type BudgetPolicy uint8

// The budget policies.
const (
	// BudgetUpstream is v1.36: every unavailable slot counts against
	// the budget, outdated broken pods included, so under Parallel a
	// set whose old pods are broken never starts its update
	// (kubernetes/kubernetes#137409).
	BudgetUpstream BudgetPolicy = iota
	// BudgetReplaceUnavailableFirst is the fix of
	// kubernetes/kubernetes#137409 (PR #137666, v1.37), for Parallel
	// only: outdated pods at or above the partition that are already
	// unavailable (and not terminating) are deleted first, outside the
	// budget, then the budget is spent as upstream on the rest. Under
	// OrderedReady it changes nothing (no slot is unavailable when the
	// update step runs).
	BudgetReplaceUnavailableFirst
)

// String returns the policy's name, e.g. "BudgetUpstream".
func (p BudgetPolicy) String() string {
	switch p {
	case BudgetUpstream:
		return "BudgetUpstream"
	case BudgetReplaceUnavailableFirst:
		return "BudgetReplaceUnavailableFirst"
	}
	return "BudgetPolicy(" + strconv.Itoa(int(p)) + ")"
}

// CurrentReplicasPolicy says how status.currentReplicas is written.
type CurrentReplicasPolicy uint8

// The currentReplicas policies.
const (
	// CurrentReplicasUpstream is v1.36: every update deletion of the
	// sync decrements the count, whatever the deleted pod's revision, so
	// deleting pods at a third revision drives it negative; the API
	// server then rejects the status (the sync errors after the pods
	// were deleted). Closed PR kubernetes/kubernetes#75498 proposed
	// counting only pods at the current revision.
	CurrentReplicasUpstream CurrentReplicasPolicy = iota
	// CurrentReplicasCountCurrentOnly decrements the count only for
	// deleted pods it counted: pods at the current revision that
	// existed before the sync (the fix of #75498), so it is never
	// negative and the status is always accepted.
	CurrentReplicasCountCurrentOnly
)

// String returns the policy's name, e.g. "CurrentReplicasUpstream".
func (p CurrentReplicasPolicy) String() string {
	switch p {
	case CurrentReplicasUpstream:
		return "CurrentReplicasUpstream"
	case CurrentReplicasCountCurrentOnly:
		return "CurrentReplicasCountCurrentOnly"
	}
	return "CurrentReplicasPolicy(" + strconv.Itoa(int(p)) + ")"
}

// ZeroReplicasPolicy says whether a set scaled to zero completes its
// rolling update.
type ZeroReplicasPolicy uint8

// The zero-replicas policies.
const (
	// ZeroReplicasCompletes is v1.36: with spec.replicas 0 and no pods
	// left, every count equals 0 = replicas, so the rolling update
	// "completes": currentRevision becomes the update revision, and
	// scaling up again creates pods at the new revision even below the
	// partition (kubernetes/kubernetes#121534).
	ZeroReplicasCompletes ZeroReplicasPolicy = iota
	// ZeroReplicasKeepsCurrent does not complete a rolling update while
	// spec.replicas is 0 and the partition is above 0, so pods below the
	// partition come back at the current revision after a scale-up, as
	// the reporter of #121534 expected.
	ZeroReplicasKeepsCurrent
)

// String returns the policy's name, e.g. "ZeroReplicasCompletes".
func (p ZeroReplicasPolicy) String() string {
	switch p {
	case ZeroReplicasCompletes:
		return "ZeroReplicasCompletes"
	case ZeroReplicasKeepsCurrent:
		return "ZeroReplicasKeepsCurrent"
	}
	return "ZeroReplicasPolicy(" + strconv.Itoa(int(p)) + ")"
}

// Options holds the controller's gates and the named deviations from
// kube-controller-manager v1.36 this package offers. The zero value is
// v1.36's default configuration and behaviour.
type Options struct {
	// Gates are the controller's feature gates.
	Gates Gates `json:"gates"`
	// Budget says how the gate-on update step spends maxUnavailable.
	Budget BudgetPolicy `json:"budget,omitempty"`
	// CurrentReplicas says how update deletions change
	// status.currentReplicas.
	CurrentReplicas CurrentReplicasPolicy `json:"currentReplicas,omitempty"`
	// ZeroReplicas says whether scaling to zero completes an update.
	ZeroReplicas ZeroReplicasPolicy `json:"zeroReplicas,omitempty"`
}
