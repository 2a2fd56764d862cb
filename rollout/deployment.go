package rollout

import (
	"math"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
	"github.com/rolloutmath/rolloutmath/revision"
)

// ReplicaSet is one ReplicaSet as the library reads it; see
// [revision.ReplicaSet] for its fields. rollout reads the counters
// (Replicas, StatusReplicas, ReadyReplicas, AvailableReplicas,
// TerminatingReplicas), the desired-replicas, max-replicas and revision
// annotations, the creation time and name (for oldest-first order), the
// template (to find the new ReplicaSet) and the new ReplicaSet's
// MinReadySeconds (to keep it equal to the deployment's). Zero values: a
// nil MinReadySeconds means not known, assumed equal to the deployment's;
// a nil TerminatingReplicas means "not reported" (a synced ReplicaSet
// without it makes the deployment's count unknown), ObservedGeneration 0
// means never synced by the ReplicaSet controller, a zero CreationTime
// sorts oldest, and missing annotations mean revision 0 and no desired/max
// replicas.
type ReplicaSet[T any] = revision.ReplicaSet[T]

// StrategyType is spec.strategy.type. The zero value "" means
// RollingUpdate, the apps/v1 default.
type StrategyType string

// The deployment strategies apps/v1 supports.
const (
	// RollingUpdate replaces pods gradually, keeping at most maxSurge extra
	// pods and at most maxUnavailable missing ones.
	RollingUpdate StrategyType = "RollingUpdate"
	// Recreate stops every old pod before it starts the new ones.
	Recreate StrategyType = "Recreate"
)

// The apps/v1 defaults that a nil field of Deployment stands for.
const (
	// DefaultProgressDeadlineSeconds is spec.progressDeadlineSeconds when nil.
	DefaultProgressDeadlineSeconds int32 = 600
	// DefaultRevisionHistoryLimit is spec.revisionHistoryLimit when nil.
	DefaultRevisionHistoryLimit int32 = 10
	// NoLimit, as progressDeadlineSeconds or revisionHistoryLimit, turns the
	// deadline or the history cleanup off, as upstream reads math.MaxInt32.
	NoLimit int32 = math.MaxInt32
)

// DefaultMaxSurge and DefaultMaxUnavailable are the apps/v1 defaults (25%)
// that a nil Deployment.MaxSurge or Deployment.MaxUnavailable stands for.
func DefaultMaxSurge() intorpercent.Value { return intorpercent.Percent(25) }

// DefaultMaxUnavailable is the apps/v1 default maxUnavailable, 25%.
func DefaultMaxUnavailable() intorpercent.Value { return intorpercent.Percent(25) }

// Deployment is an apps/v1 Deployment as the rollout math reads it, with
// the pod template of type T. Every field's zero value is the apps/v1
// default, except Replicas (see there); Validate rejects what the API
// server would reject.
type Deployment[T any] struct {
	// Name is metadata.name; it names new ReplicaSets and appears in
	// condition messages.
	Name string `json:"name"`
	// Generation is metadata.generation. The API server increments it on
	// every spec change; status.observedGeneration catches up with it.
	Generation int64 `json:"generation"`
	// Deleting says metadata.deletionTimestamp is set: the controller then
	// only updates the status.
	Deleting bool `json:"deleting,omitempty"`
	// Annotations is metadata.annotations (the revision annotation, and
	// annotations copied to new ReplicaSets). nil means none.
	Annotations map[string]string `json:"annotations,omitempty"`

	// Replicas is spec.replicas after defaulting. Zero means zero pods: the
	// apps/v1 default of 1 applies only when the field is absent from the
	// object, so a caller decoding a manifest without it fills in 1.
	// Negative values are rejected by Validate.
	Replicas int32 `json:"replicas"`
	// Strategy is spec.strategy.type; "" means RollingUpdate.
	Strategy StrategyType `json:"strategy,omitempty"`
	// MaxSurge is spec.strategy.rollingUpdate.maxSurge; nil means the
	// apps/v1 default 25%. Must be nil for Recreate.
	MaxSurge *intorpercent.Value `json:"maxSurge,omitempty"`
	// MaxUnavailable is spec.strategy.rollingUpdate.maxUnavailable; nil
	// means the apps/v1 default 25%. Must be nil for Recreate.
	MaxUnavailable *intorpercent.Value `json:"maxUnavailable,omitempty"`
	// MinReadySeconds is spec.minReadySeconds: how long a ready pod must
	// stay ready before it counts as available. Zero means at once.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// Paused is spec.paused.
	Paused bool `json:"paused,omitempty"`
	// ProgressDeadlineSeconds is spec.progressDeadlineSeconds; nil means
	// the apps/v1 default 600, NoLimit (math.MaxInt32) means no deadline.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
	// RevisionHistoryLimit is spec.revisionHistoryLimit; nil means the
	// apps/v1 default 10, NoLimit (math.MaxInt32) means keep everything.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// Selector is spec.selector. nil means not given: Plan then takes the
	// ReplicaSets it is passed as the deployment's own, as it always did
	// (note that a nil ownership.Selector selects nothing; here nil only
	// means absent). A non-nil selector with nil MatchLabels and nil
	// MatchExpressions selects every pod: Plan then takes PathSelectingAll
	// and only writes status.observedGeneration, as upstream does (a
	// non-nil but empty map or slice does not count, as upstream compares
	// with reflect.DeepEqual). Plan still validates the rest of the
	// Deployment first (upstream validates nothing and would write the
	// generation of an invalid one); the ReplicaSets are not read on that
	// path. An invalid selector makes Plan fail (a *field.Error on
	// spec.selector, where upstream's sync fails listing ReplicaSets).
	// Plan does not match ReplicaSets against it: run ownership.ClaimAll
	// first and pass the owned ReplicaSets.
	Selector *ownership.Selector `json:"selector,omitempty"`
	// Template is spec.template, without the pod-template-hash label.
	Template T `json:"template"`
	// RollbackTo is a pending rollback: the revision to return to, 0 for
	// the previous one. nil means none, unless Annotations holds the
	// deprecated.deployment.rollback.to annotation with an integer, which
	// is how upstream receives it (other values are ignored, as upstream
	// ignores them). Plan clears both once the rollback is handled.
	RollbackTo *int64 `json:"rollbackTo,omitempty"`

	// Status is the deployment's status as last written.
	Status Status `json:"status"`
}

// Status is a Deployment's status. The zero value is the status of a
// Deployment the controller has never synced.
type Status struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration"`
	// Replicas counts the non-terminating pods of all ReplicaSets.
	Replicas int32 `json:"replicas"`
	// UpdatedReplicas counts the non-terminating pods of the new ReplicaSet.
	UpdatedReplicas int32 `json:"updatedReplicas"`
	// ReadyReplicas counts ready pods.
	ReadyReplicas int32 `json:"readyReplicas"`
	// AvailableReplicas counts pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas"`
	// UnavailableReplicas is the sum of all ReplicaSets' spec.replicas
	// minus AvailableReplicas, at least 0: it counts surge pods too.
	UnavailableReplicas int32 `json:"unavailableReplicas"`
	// TerminatingReplicas counts pods being deleted; nil means unknown (a
	// synced ReplicaSet did not report it).
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`
	// CollisionCount counts template-hash collisions; nil means none yet.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// Conditions are the Available, Progressing and ReplicaFailure
	// conditions, in the order they were last set.
	Conditions []Condition `json:"conditions,omitempty"`
}

// ConditionType is the type of a deployment condition.
type ConditionType string

// The deployment condition types.
const (
	DeploymentAvailable      ConditionType = "Available"
	DeploymentProgressing    ConditionType = "Progressing"
	DeploymentReplicaFailure ConditionType = "ReplicaFailure"
)

// ConditionStatus is a condition's status.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// The reasons the controller gives its conditions, spelled as upstream
// spells them.
const (
	// ReasonReplicaSetUpdated: Progressing=True, a ReplicaSet made progress.
	ReasonReplicaSetUpdated = "ReplicaSetUpdated"
	// ReasonReplicaSetCreateError: Progressing=False, creating the new
	// ReplicaSet failed. Plan models no API failures, so it never sets it.
	ReasonReplicaSetCreateError = "ReplicaSetCreateError"
	// ReasonNewReplicaSetCreated: Progressing=True, the new ReplicaSet was
	// created in this sync.
	ReasonNewReplicaSetCreated = "NewReplicaSetCreated"
	// ReasonFoundNewReplicaSet: Progressing=True, the new ReplicaSet was
	// found and no Progressing condition existed yet.
	ReasonFoundNewReplicaSet = "FoundNewReplicaSet"
	// ReasonNewReplicaSetAvailable: Progressing=True, the rollout is
	// complete.
	ReasonNewReplicaSetAvailable = "NewReplicaSetAvailable"
	// ReasonProgressDeadlineExceeded: Progressing=False, no progress within
	// progressDeadlineSeconds.
	ReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded"
	// ReasonDeploymentPaused: Progressing=Unknown, the deployment is paused.
	ReasonDeploymentPaused = "DeploymentPaused"
	// ReasonDeploymentResumed: Progressing=Unknown, the deployment was
	// resumed; the deadline counts from here.
	ReasonDeploymentResumed = "DeploymentResumed"
	// ReasonMinimumReplicasAvailable: Available=True.
	ReasonMinimumReplicasAvailable = "MinimumReplicasAvailable"
	// ReasonMinimumReplicasUnavailable: Available=False.
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// Condition is one deployment condition.
type Condition struct {
	Type               ConditionType   `json:"type"`
	Status             ConditionStatus `json:"status"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
	LastUpdateTime     time.Time       `json:"lastUpdateTime"`
	LastTransitionTime time.Time       `json:"lastTransitionTime"`
}

// strategy returns the strategy with the default applied.
func (d *Deployment[T]) strategy() StrategyType {
	if d.Strategy == "" {
		return RollingUpdate
	}
	return d.Strategy
}

// rollingValues returns maxSurge and maxUnavailable with the defaults applied.
func (d *Deployment[T]) rollingValues() (surge, unavailable intorpercent.Value) {
	surge, unavailable = DefaultMaxSurge(), DefaultMaxUnavailable()
	if d.MaxSurge != nil {
		surge = *d.MaxSurge
	}
	if d.MaxUnavailable != nil {
		unavailable = *d.MaxUnavailable
	}
	return surge, unavailable
}

// ProgressDeadline returns spec.progressDeadlineSeconds as a duration, and
// false when the deployment has no deadline (NoLimit). nil means the
// default, 600 s. Upstream: HasProgressDeadline.
func (d *Deployment[T]) ProgressDeadline() (time.Duration, bool) {
	pds := DefaultProgressDeadlineSeconds
	if d.ProgressDeadlineSeconds != nil {
		pds = *d.ProgressDeadlineSeconds
	}
	if pds == NoLimit {
		return 0, false
	}
	return time.Duration(pds) * time.Second, true
}

// HistoryLimit returns spec.revisionHistoryLimit, and false when old
// ReplicaSets are never cleaned up (NoLimit). nil means the default, 10.
// Upstream: HasRevisionHistoryLimit.
func (d *Deployment[T]) HistoryLimit() (int32, bool) {
	l := DefaultRevisionHistoryLimit
	if d.RevisionHistoryLimit != nil {
		l = *d.RevisionHistoryLimit
	}
	if l == NoLimit {
		return 0, false
	}
	return l, true
}
