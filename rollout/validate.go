package rollout

import (
	"encoding/json"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// invalidObject returns the errors Validate or ValidateReplicaSet found
// in the object kind ("Deployment" or "ReplicaSet") named name, as Plan and
// Simulate report them: each *field.Error carries the prefix
// `rollout: invalid Deployment "web"`, which the list prints once:
//
//	rollout: invalid Deployment "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0
func invalidObject(kind, name string, errs field.ErrorList) error {
	return errs.WithPrefix("rollout: invalid " + kind + " " + strconv.Quote(name))
}

const nonNegative = "must be greater than or equal to 0"

func nonNegativeField(list field.ErrorList, v int64, path string) field.ErrorList {
	if v < 0 {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: path, Value: strconv.FormatInt(v, 10), Detail: nonNegative, Err: field.ErrNegative})
	}
	return list
}

func greaterThanReplicas(list field.ErrorList, v, replicas int32, path string) field.ErrorList {
	if v > replicas {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: path, Value: strconv.FormatInt(int64(v), 10), Detail: "cannot be greater than status.replicas"})
	}
	return list
}

// Validate checks d as the API server checks a Deployment's spec and
// status, in the API server's order, and returns nil or an
// field.ErrorList whose text is the API server's:
//
//	spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%
//
// Metadata rule: generation >= 0. Spec rules: replicas >= 0; for RollingUpdate (or "") the rolling-update
// rules of intorpercent.ValidateRollingUpdate on the defaulted values; for
// Recreate, MaxSurge and MaxUnavailable must be nil (the API server forbids
// rollingUpdate); any other strategy is unsupported; minReadySeconds >= 0;
// revisionHistoryLimit >= 0; progressDeadlineSeconds (default 600) >= 0
// and > minReadySeconds. Status rules: every counter >= 0 (terminating and
// collisionCount when set); updated, ready and available <=
// status.replicas; available <= ready. Upstream: ValidateDeploymentSpec,
// ValidateDeploymentStrategy, ValidateRollingUpdateDeployment and
// ValidateDeploymentStatus, after ValidateObjectMeta's generation rule. A
// nil d is reported as a Required error.
func Validate[T any](d *Deployment[T]) error {
	return validate(d).ToError()
}

func validate[T any](d *Deployment[T]) field.ErrorList {
	if d == nil {
		return field.ErrorList{{Type: field.TypeRequired, Field: "deployment", Err: field.ErrRequired}}
	}
	if deploymentCountersValid(d) && strategyValid(d) {
		return nil
	}
	var list field.ErrorList
	list = nonNegativeField(list, d.Generation, "metadata.generation")
	list = nonNegativeField(list, int64(d.Replicas), "spec.replicas")
	switch d.Strategy {
	case "", RollingUpdate:
		surge, unavailable := d.rollingValues()
		list = append(list, intorpercent.ValidateRollingUpdate(unavailable, surge, "spec.strategy.rollingUpdate")...)
	case Recreate:
		if d.MaxSurge != nil || d.MaxUnavailable != nil {
			list = append(list, &field.Error{Type: field.TypeForbidden, Field: "spec.strategy.rollingUpdate", Detail: "may not be specified when strategy `type` is 'Recreate'"})
		}
	default:
		list = append(list, &field.Error{Type: field.TypeNotSupported, Field: "spec.strategy", Value: strategyText(d), Detail: `supported values: "Recreate", "RollingUpdate"`, Err: field.ErrUnsupported})
	}
	list = nonNegativeField(list, int64(d.MinReadySeconds), "spec.minReadySeconds")
	if d.RevisionHistoryLimit != nil {
		list = nonNegativeField(list, int64(*d.RevisionHistoryLimit), "spec.revisionHistoryLimit")
	}
	pds := DefaultProgressDeadlineSeconds
	if d.ProgressDeadlineSeconds != nil {
		pds = *d.ProgressDeadlineSeconds
	}
	list = nonNegativeField(list, int64(pds), "spec.progressDeadlineSeconds")
	if pds <= d.MinReadySeconds {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: "spec.progressDeadlineSeconds", Value: strconv.FormatInt(int64(pds), 10), Detail: "must be greater than minReadySeconds"})
	}

	s := &d.Status
	list = nonNegativeField(list, s.ObservedGeneration, "status.observedGeneration")
	list = nonNegativeField(list, int64(s.Replicas), "status.replicas")
	list = nonNegativeField(list, int64(s.UpdatedReplicas), "status.updatedReplicas")
	list = nonNegativeField(list, int64(s.ReadyReplicas), "status.readyReplicas")
	list = nonNegativeField(list, int64(s.AvailableReplicas), "status.availableReplicas")
	list = nonNegativeField(list, int64(s.UnavailableReplicas), "status.unavailableReplicas")
	if s.TerminatingReplicas != nil {
		list = nonNegativeField(list, int64(*s.TerminatingReplicas), "status.terminatingReplicas")
	}
	if s.CollisionCount != nil {
		list = nonNegativeField(list, int64(*s.CollisionCount), "status.collisionCount")
	}
	list = greaterThanReplicas(list, s.UpdatedReplicas, s.Replicas, "status.updatedReplicas")
	list = greaterThanReplicas(list, s.ReadyReplicas, s.Replicas, "status.readyReplicas")
	list = greaterThanReplicas(list, s.AvailableReplicas, s.Replicas, "status.availableReplicas")
	if s.AvailableReplicas > s.ReadyReplicas {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: "status.availableReplicas", Value: strconv.FormatInt(int64(s.AvailableReplicas), 10), Detail: "cannot be greater than readyReplicas"})
	}
	return list
}

// ValidateReplicaSet checks the counters of rs as the API server checks a
// ReplicaSet's metadata, spec and status, and returns nil or an
// field.ErrorList in the API server's words: metadata.generation,
// spec.replicas, spec.minReadySeconds (when set), status.replicas,
// readyReplicas, availableReplicas, terminatingReplicas (when set) and
// observedGeneration >= 0; ready and available <= status.replicas;
// available <= ready.
// Upstream: ValidateObjectMeta's generation rule, ValidateReplicaSetSpec
// and ValidateReplicaSetStatus (the counter rules; selectors and
// templates are not checked). A nil rs is reported as a Required error.
func ValidateReplicaSet[T any](rs *ReplicaSet[T]) error {
	return validateReplicaSet(rs).ToError()
}

func validateReplicaSet[T any](rs *ReplicaSet[T]) field.ErrorList {
	if rs != nil && replicaSetCountersValid(rs) {
		return nil
	}
	if rs == nil {
		return field.ErrorList{{Type: field.TypeRequired, Field: "replicaSet", Err: field.ErrRequired}}
	}
	var list field.ErrorList
	list = nonNegativeField(list, rs.Generation, "metadata.generation")
	list = nonNegativeField(list, int64(rs.Replicas), "spec.replicas")
	if rs.MinReadySeconds != nil {
		list = nonNegativeField(list, int64(*rs.MinReadySeconds), "spec.minReadySeconds")
	}
	list = nonNegativeField(list, int64(rs.StatusReplicas), "status.replicas")
	list = nonNegativeField(list, int64(rs.ReadyReplicas), "status.readyReplicas")
	list = nonNegativeField(list, int64(rs.AvailableReplicas), "status.availableReplicas")
	list = nonNegativeField(list, rs.ObservedGeneration, "status.observedGeneration")
	if rs.TerminatingReplicas != nil {
		list = nonNegativeField(list, int64(*rs.TerminatingReplicas), "status.terminatingReplicas")
	}
	list = greaterThanReplicas(list, rs.ReadyReplicas, rs.StatusReplicas, "status.readyReplicas")
	list = greaterThanReplicas(list, rs.AvailableReplicas, rs.StatusReplicas, "status.availableReplicas")
	if rs.AvailableReplicas > rs.ReadyReplicas {
		list = append(list, &field.Error{Type: field.TypeInvalid, Field: "status.availableReplicas", Value: strconv.FormatInt(int64(rs.AvailableReplicas), 10), Detail: "cannot be greater than readyReplicas"})
	}
	return list
}

// deploymentCountersValid reports, in a few comparisons, that validate
// finds nothing wrong with d's counters (every rule but the strategy's).
func deploymentCountersValid[T any](d *Deployment[T]) bool {
	pds := DefaultProgressDeadlineSeconds
	if d.ProgressDeadlineSeconds != nil {
		pds = *d.ProgressDeadlineSeconds
	}
	s := &d.Status
	return d.Generation >= 0 && d.Replicas >= 0 && d.MinReadySeconds >= 0 &&
		(d.RevisionHistoryLimit == nil || *d.RevisionHistoryLimit >= 0) && pds >= 0 && pds > d.MinReadySeconds &&
		s.ObservedGeneration >= 0 && s.Replicas >= 0 && s.UpdatedReplicas >= 0 && s.ReadyReplicas >= 0 &&
		s.AvailableReplicas >= 0 && s.UnavailableReplicas >= 0 &&
		(s.TerminatingReplicas == nil || *s.TerminatingReplicas >= 0) && (s.CollisionCount == nil || *s.CollisionCount >= 0) &&
		s.UpdatedReplicas <= s.Replicas && s.ReadyReplicas <= s.Replicas && s.AvailableReplicas <= s.Replicas &&
		s.AvailableReplicas <= s.ReadyReplicas
}

// strategyValid reports that validate finds nothing wrong with d's
// strategy.
func strategyValid[T any](d *Deployment[T]) bool {
	switch d.Strategy {
	case "", RollingUpdate:
		surge, unavailable := d.rollingValues()
		return len(intorpercent.ValidateRollingUpdate(unavailable, surge, "spec.strategy.rollingUpdate")) == 0
	case Recreate:
		return d.MaxSurge == nil && d.MaxUnavailable == nil
	}
	return false
}

// replicaSetCountersValid reports, in a few comparisons, that
// validateReplicaSet finds nothing wrong with rs: every rule it checks
// holds. A false leads to the full check, which says what is wrong.
func replicaSetCountersValid[T any](rs *ReplicaSet[T]) bool {
	return rs.Generation >= 0 && rs.Replicas >= 0 && (rs.MinReadySeconds == nil || *rs.MinReadySeconds >= 0) &&
		rs.StatusReplicas >= 0 && rs.ReadyReplicas >= 0 && rs.AvailableReplicas >= 0 && rs.ObservedGeneration >= 0 &&
		(rs.TerminatingReplicas == nil || *rs.TerminatingReplicas >= 0) &&
		rs.ReadyReplicas <= rs.StatusReplicas && rs.AvailableReplicas <= rs.StatusReplicas && rs.AvailableReplicas <= rs.ReadyReplicas
}

// strategyText renders d's strategy as the API server renders an
// unsupported one in its error: the JSON of its internal type, which has
// no JSON tags, so {"Type":"BlueGreen","RollingUpdate":null}, with a
// missing bound of a present rollingUpdate rendered as 0.
func strategyText[T any](d *Deployment[T]) string {
	type rollingUpdate struct{ MaxUnavailable, MaxSurge intorpercent.Value }
	out := struct {
		Type          string
		RollingUpdate *rollingUpdate
	}{Type: string(d.Strategy)}
	if d.MaxSurge != nil || d.MaxUnavailable != nil {
		out.RollingUpdate = &rollingUpdate{}
		if d.MaxUnavailable != nil {
			out.RollingUpdate.MaxUnavailable = *d.MaxUnavailable
		}
		if d.MaxSurge != nil {
			out.RollingUpdate.MaxSurge = *d.MaxSurge
		}
	}
	b, err := json.Marshal(out)
	if err != nil { // unreachable: every field marshals
		return strconv.Quote(string(d.Strategy))
	}
	return string(b)
}
