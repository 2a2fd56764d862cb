package rollout

import (
	"github.com/rolloutmath/rolloutmath/proportion"
	"github.com/rolloutmath/rolloutmath/revision"
)

// SurgePolicy says whether terminating pods count against maxSurge.
type SurgePolicy uint8

const (
	// SurgeIgnoresTerminating is upstream's behaviour (the default): only
	// spec.replicas count against R + maxSurge, so pods still terminating
	// after a scale-down can push the real pod count above it
	// (kubernetes/kubernetes#37955, #95498, #99513).
	SurgeIgnoresTerminating SurgePolicy = iota
	// SurgeCountsTerminating counts every ReplicaSet's terminating pods
	// against R + maxSurge, as KEP-5882's TerminationComplete proposes (not
	// in v1.36): the new ReplicaSet grows only into room not taken by
	// terminating pods, and a proportional scale-up or Recreate's start of
	// the new ReplicaSet waits, as Recreate waits for old pods, until the
	// terminating pods no longer push the total above the limit. During a
	// rolling update without scale events, spec.replicas plus terminating
	// pods then never exceed R + maxSurge once they are within it.
	SurgeCountsTerminating
)

// String returns the policy's name.
func (p SurgePolicy) String() string {
	switch p {
	case SurgeIgnoresTerminating:
		return "SurgeIgnoresTerminating"
	case SurgeCountsTerminating:
		return "SurgeCountsTerminating"
	}
	return "SurgePolicy(" + itoa(int64(p)) + ")"
}

// Options changes how Plan and Simulate decide. The zero value is
// upstream's behaviour.
type Options struct {
	// Surge says whether terminating pods count against maxSurge.
	Surge SurgePolicy
	// Proportion is the proportional split on a resize mid-rollout:
	// proportion.Upstream (the default) or proportion.Conserving.
	Proportion proportion.Mode
	// Cleanup is how history cleanup treats old ReplicaSets that still have
	// pods: revision.CleanupUpstream (the default) skips them without
	// replacement, so more than revisionHistoryLimit can remain;
	// revision.CleanupSubstitute examines newer ones instead.
	Cleanup revision.CleanupMode
}
