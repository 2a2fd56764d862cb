package cloneset

import "strconv"

// Gates are the kruise feature gates and manager flags that change the
// rollout math. The zero value is kruise v1.9.1's default: every gate
// off. They are kruise's own configuration, not deviations from it.
type Gates struct {
	// PartitionRollback is the CloneSetPartitionRollback gate (alpha, off
	// by default). When on and the current and update revisions differ,
	// raising the partition rolls updated pods back to the current
	// revision (a negative Diffs.UpdateNum). When off, a raised partition
	// leaves updated pods alone.
	PartitionRollback bool `json:"partitionRollback,omitempty"`
	// PreparingUpdateAsUpdate is the PreparingUpdateAsUpdate gate (alpha,
	// off by default). When on, the scale step counts a pod in
	// PreparingUpdate as already at the update revision; the update step
	// never does.
	PreparingUpdateAsUpdate bool `json:"preparingUpdateAsUpdate,omitempty"`
	// ScalingExcludePreparingDelete is the manager flag
	// --cloneset-scaling-exclude-preparing-delete (off by default): when
	// on, scaling does not count pods in PreparingDelete as present, so
	// replacements are created while they wait for their preDelete hook.
	// A CloneSet labelled ExcludePreparingDeleteLabel="true" gets the same
	// behaviour whatever the flag says.
	ScalingExcludePreparingDelete bool `json:"scalingExcludePreparingDelete,omitempty"`
}

// BudgetPolicy says how the update budget (Diffs.UpdateMaxUnavailable)
// is computed when pods are missing.
type BudgetPolicy uint8

// The budget policies.
const (
	// BudgetKruise is kruise v1.9.1's budget, maxUnavailable + pods -
	// replicas, which is negative when more than maxUnavailable pods are
	// missing (docs/cloneset.md#s1-negative-update-budget).
	BudgetKruise BudgetPolicy = iota
	// BudgetClampAtZero clamps the budget at 0, as kruise PR #2385
	// (open; #2384 closed) proposes so that the budget is never reported
	// negative. Note that kruise's limitUpdateIndexes stops as soon as
	// the unavailable count reaches the budget, so a budget of 0 still
	// lets no pod be updated: the clamp changes the number, not which
	// pods are updated.
	BudgetClampAtZero
)

// String returns the policy's name, e.g. "BudgetClampAtZero".
func (p BudgetPolicy) String() string {
	switch p {
	case BudgetKruise:
		return "BudgetKruise"
	case BudgetClampAtZero:
		return "BudgetClampAtZero"
	}
	return "BudgetPolicy(" + strconv.Itoa(int(p)) + ")"
}

// ReadyLimitPolicy says which pods Diffs.DeleteReadyLimit limits when
// the scale step deletes pods.
type ReadyLimitPolicy uint8

// The ready-limit policies.
const (
	// ReadyLimitKruise is kruise v1.9.1: the limit applies to every pod
	// that is available at minReadySeconds 0 (ready, lifecycle Normal),
	// although the limit itself counts pods not yet ready for
	// minReadySeconds as unavailable. With a long minReadySeconds a
	// scale-in then deletes nothing
	// (docs/cloneset.md#s6-ready-but-not-available-delete; kruise issue
	// #1478, closed as won't fix).
	ReadyLimitKruise ReadyLimitPolicy = iota
	// ReadyLimitAvailableOnly applies the limit only to pods available at
	// minReadySeconds, the pods the limit counts as available; pods not
	// yet available are deleted freely, as the Deployment controller
	// does, which is what the reporter of kruise #1478 expected.
	ReadyLimitAvailableOnly
)

// String returns the policy's name, e.g. "ReadyLimitAvailableOnly".
func (p ReadyLimitPolicy) String() string {
	switch p {
	case ReadyLimitKruise:
		return "ReadyLimitKruise"
	case ReadyLimitAvailableOnly:
		return "ReadyLimitAvailableOnly"
	}
	return "ReadyLimitPolicy(" + strconv.Itoa(int(p)) + ")"
}

// Options holds kruise's configuration (Gates) and the named deviations
// from kruise v1.9.1 this package offers. The zero value is kruise's
// default configuration and behaviour.
type Options struct {
	// Gates are kruise's feature gates and flags.
	Gates Gates `json:"gates"`
	// UpdateBudget says whether the update budget may be negative.
	UpdateBudget BudgetPolicy `json:"updateBudget,omitempty"`
	// ReadyLimit says which pods the scale step's ready limit applies to.
	ReadyLimit ReadyLimitPolicy `json:"readyLimit,omitempty"`
	// UpdateOrder holds the deviations in the order pods are updated:
	// where orderPriority puts pods without its keys, and how scatter
	// sizes its groups. The zero value is kruise's order.
	UpdateOrder UpdateOrderOptions `json:"updateOrder"`
}
