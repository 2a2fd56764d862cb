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
	return enumString("SurgePolicy", surgePolicyNames[:], uint8(p))
}

// MarshalText returns p's name, as String does. A value without a
// name is an error.
func (p SurgePolicy) MarshalText() ([]byte, error) {
	return marshalEnum("SurgePolicy", surgePolicyNames[:], uint8(p))
}

// UnmarshalText sets *p to the value named text, as MarshalText writes
// it; an unknown name is an error naming the type and quoting the text.
func (p *SurgePolicy) UnmarshalText(text []byte) error {
	v, err := unmarshalEnum("SurgePolicy", surgePolicyNames[:], text)
	if err != nil {
		return err
	}
	*p = SurgePolicy(v)
	return nil
}

// ResizePolicy says what a resize does to an active ReplicaSet that the
// proportional split leaves alone.
type ResizePolicy uint8

const (
	// ResizeUpstream is upstream's behaviour (the default): its
	// desired-replicas annotation is not refreshed. When a resize makes R
	// equal the size of the only active ReplicaSet while its annotation
	// still holds the old R (for example R 2 -> 1 with maxSurge 0 after the
	// first old pod went and the new ReplicaSet is still at 0), every later
	// sync is a scaling event with nothing to resize and the rollout never
	// resumes; the same happens to Recreate with two active ReplicaSets.
	// Simulate reports it as OutcomeStalled.
	ResizeUpstream ResizePolicy = iota
	// ResizeRefreshesAnnotations writes desired-replicas and max-replicas
	// on every active ReplicaSet whose desired-replicas differs from R, so
	// the next sync is no longer a scaling event and the rollout resumes.
	ResizeRefreshesAnnotations
)

// String returns the policy's name.
func (p ResizePolicy) String() string {
	return enumString("ResizePolicy", resizePolicyNames[:], uint8(p))
}

// MarshalText returns p's name, as String does. A value without a
// name is an error.
func (p ResizePolicy) MarshalText() ([]byte, error) {
	return marshalEnum("ResizePolicy", resizePolicyNames[:], uint8(p))
}

// UnmarshalText sets *p to the value named text, as MarshalText writes
// it; an unknown name is an error naming the type and quoting the text.
func (p *ResizePolicy) UnmarshalText(text []byte) error {
	v, err := unmarshalEnum("ResizePolicy", resizePolicyNames[:], text)
	if err != nil {
		return err
	}
	*p = ResizePolicy(v)
	return nil
}

// Options changes how Plan and Simulate decide. The zero value is
// upstream's behaviour.
type Options struct {
	// Surge says whether terminating pods count against maxSurge.
	Surge SurgePolicy
	// Proportion is the proportional split on a resize mid-rollout:
	// proportion.Upstream (the default) or proportion.Conserving.
	Proportion proportion.Mode
	// Resize says whether a resize refreshes stale desired-replicas
	// annotations that upstream leaves behind.
	Resize ResizePolicy
	// Cleanup is how history cleanup treats old ReplicaSets that still have
	// pods: revision.CleanupUpstream (the default) skips them without
	// replacement, so more than revisionHistoryLimit can remain;
	// revision.CleanupSubstitute examines newer ones instead.
	Cleanup revision.CleanupMode
}
