package daemonset

import "strconv"

// UnavailableOldPolicy says how a rolling update without surge treats old
// pods that are not available.
type UnavailableOldPolicy uint8

// The policies for unavailable old pods.
const (
	// ReplaceOutsideBudget is upstream's behaviour: every unavailable old
	// pod is deleted at once, whatever maxUnavailable says, so that a
	// broken node does not block the rollout. A second broken update
	// rolled out over a first one can then take every node's pod down at
	// once (kubernetes issue #123232; also #111073).
	ReplaceOutsideBudget UnavailableOldPolicy = iota
	// ReplaceWithinBudget deletes unavailable old pods first but only
	// within maxUnavailable: they count against the budget like available
	// ones, so that no more than maxUnavailable nodes are without an
	// available pod because of the rollout (the behaviour the reporter of
	// kubernetes issue #123232 expected). A rollout whose new pods never
	// become available then stops after maxUnavailable nodes.
	ReplaceWithinBudget
)

// String returns the policy's name, e.g. "ReplaceWithinBudget".
func (p UnavailableOldPolicy) String() string {
	switch p {
	case ReplaceOutsideBudget:
		return "ReplaceOutsideBudget"
	case ReplaceWithinBudget:
		return "ReplaceWithinBudget"
	}
	return "UnavailableOldPolicy(" + strconv.Itoa(int(p)) + ")"
}

// Options holds the named deviations from kube-controller-manager v1.36
// this package offers. The zero value is upstream's behaviour.
type Options struct {
	// UnavailableOldPods says whether unavailable old pods are replaced
	// outside maxUnavailable (upstream) or within it.
	UnavailableOldPods UnavailableOldPolicy `json:"unavailableOldPods,omitempty"`
}
