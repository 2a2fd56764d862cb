package batchrelease

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// The package's enums read and write their names (String's text), as the
// CRDs spell them. Their constants start at 1; the zero value is an
// absent field, written as "" and read back from "". A value without a
// name is an error when written; an unknown name is an error when read,
// naming the type and the text (a *field.Error wrapping
// field.ErrUnsupported).

// Kind is the kind of workload a release acts on.
type Kind uint8

const (
	// CloneSet is an apps.kruise.io CloneSet (partition = pods kept old).
	CloneSet Kind = iota + 1
	// StatefulSet is an apps/v1 StatefulSet (partition = lowest ordinal
	// updated; ordered update).
	StatefulSet
	// AdvancedStatefulSet is an apps.kruise.io StatefulSet, which may
	// update unordered (Workload.UnorderedUpdate).
	AdvancedStatefulSet
	// Deployment is an apps/v1 Deployment (partition = pods made new,
	// through kruise-rollout's advanced Deployment controller).
	Deployment
)

var kindNames = [...]string{"", "CloneSet", "StatefulSet", "AdvancedStatefulSet", "Deployment"}

// String returns the kind's name, "Kind(n)" for a value without one.
func (k Kind) String() string { return enumString(uint8(k), kindNames[:], "Kind") }

// MarshalText returns the kind's name, "" for the zero value.
func (k Kind) MarshalText() ([]byte, error) { return marshalEnum(uint8(k), kindNames[:], "Kind") }

// UnmarshalText sets k to the kind named text; "" is the zero value.
func (k *Kind) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, kindNames[:], "Kind")
	if err == nil {
		*k = Kind(n)
	}
	return err
}

// RollingStyle is spec.releasePlan.rollingStyle: how a release moves pods
// to the new revision. Upstream: RollingStyleType, api/v1beta1.
type RollingStyle uint8

const (
	// Partition releases through the workload's own partition (CloneSet,
	// StatefulSet) or kruise-rollout's advanced Deployment controller.
	Partition RollingStyle = iota + 1
	// Canary releases through an extra canary Deployment (Deployments
	// only; other kinds are released as Partition).
	Canary
	// BlueGreen surges new pods (maxSurge) that never replace old ones
	// until the release is finalized.
	BlueGreen
)

var styleNames = [...]string{"", "Partition", "Canary", "BlueGreen"}

// String returns the style's name, "RollingStyle(n)" for a value without one.
func (s RollingStyle) String() string { return enumString(uint8(s), styleNames[:], "RollingStyle") }

// MarshalText returns the style's name, "" for the zero value.
func (s RollingStyle) MarshalText() ([]byte, error) {
	return marshalEnum(uint8(s), styleNames[:], "RollingStyle")
}

// UnmarshalText sets s to the style named text; "" is the zero value.
func (s *RollingStyle) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, styleNames[:], "RollingStyle")
	if err == nil {
		*s = RollingStyle(n)
	}
	return err
}

// BatchState is status.canaryStatus.batchState: where the current batch
// is. Upstream: BatchReleaseBatchStateType, api/v1beta1.
type BatchState uint8

const (
	// Upgrading: the release writes the batch's partition (or surge, or
	// canary replicas) to the workload.
	Upgrading BatchState = iota + 1
	// Verifying: written; the release waits for the batch's pods.
	Verifying
	// Ready: the batch's pods are ready; the release moves on when the
	// batch partition allows.
	Ready
)

var stateNames = [...]string{"", "Upgrading", "Verifying", "Ready"}

// String returns the state's name, "BatchState(n)" for a value without one.
func (s BatchState) String() string { return enumString(uint8(s), stateNames[:], "BatchState") }

// MarshalText returns the state's name, "" for the zero value.
func (s BatchState) MarshalText() ([]byte, error) {
	return marshalEnum(uint8(s), stateNames[:], "BatchState")
}

// UnmarshalText sets s to the state named text; "" is the zero value.
func (s *BatchState) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, stateNames[:], "BatchState")
	if err == nil {
		*s = BatchState(n)
	}
	return err
}

// Phase is status.phase of a BatchRelease. Upstream: RolloutPhase,
// api/v1beta1.
type Phase uint8

const (
	// Preparing: the release initializes the workload (takes control).
	Preparing Phase = iota + 1
	// Progressing: the release moves through the batches.
	Progressing
	// Finalizing: the release hands the workload back.
	Finalizing
	// Completed: nothing is left to do.
	Completed
)

var phaseNames = [...]string{"", "Preparing", "Progressing", "Finalizing", "Completed"}

// String returns the phase's name, "Phase(n)" for a value without one.
func (p Phase) String() string { return enumString(uint8(p), phaseNames[:], "Phase") }

// MarshalText returns the phase's name, "" for the zero value.
func (p Phase) MarshalText() ([]byte, error) { return marshalEnum(uint8(p), phaseNames[:], "Phase") }

// UnmarshalText sets p to the phase named text; "" is the zero value.
func (p *Phase) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, phaseNames[:], "Phase")
	if err == nil {
		*p = Phase(n)
	}
	return err
}

// enumString is String for an enum whose names are names (names[0] is
// unused): the name, or "typ(n)" for a value without one.
func enumString(v uint8, names []string, typ string) string {
	if v > 0 && int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// marshalEnum is MarshalText: the name, "" for 0, an error otherwise.
func marshalEnum(v uint8, names []string, typ string) ([]byte, error) {
	if v == 0 {
		return []byte{}, nil
	}
	if int(v) < len(names) {
		return []byte(names[v]), nil
	}
	return nil, &field.Error{Prefix: "batchrelease", Field: typ, Value: strconv.Itoa(int(v)), Detail: "has no name", Err: field.ErrUnsupported}
}

// unmarshalEnum is UnmarshalText: "" is 0, a name its value.
func unmarshalEnum(text []byte, names []string, typ string) (uint8, error) {
	s := string(text)
	if s == "" {
		return 0, nil
	}
	for i, n := range names {
		if i > 0 && n == s {
			return uint8(i), nil
		}
	}
	return 0, &field.Error{Prefix: "batchrelease", Field: typ, Value: strconv.Quote(s), Detail: "unknown name", Err: field.ErrUnsupported}
}
