package argo

import (
	"encoding/json"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// prefixed gives err the Rollout's name, as every error of Plan does.
func prefixed(name string, err error) error {
	if fe, ok := err.(*field.Error); ok {
		c := *fe
		c.Prefix = "argo: invalid Rollout " + strconv.Quote(name)
		return &c
	}
	return err
}

// checkInput rejects what Plan cannot plan: a nil Rollout, a spec
// Validate rejects, and bad input of our own rules (a traffic weight
// maximum that is not positive, a negative previewReplicaCount or
// setCanaryScale.replicas, steps that do not encode, ReplicaSets with an
// empty or duplicate name or hash, or negative counts).
func checkInput[T any](ro *Rollout[T], rss []ReplicaSet[T]) error {
	if ro == nil {
		return &field.Error{Prefix: "argo", Field: "rollout", Detail: "must not be nil", Err: field.ErrRequired}
	}
	if list := Validate(ro); len(list) > 0 {
		return list.WithPrefix("argo: invalid Rollout " + strconv.Quote(ro.Name)).ToError()
	}
	own := func(path, value, detail string, kind error) error {
		return &field.Error{Prefix: "argo: invalid Rollout " + strconv.Quote(ro.Name), Field: path, Value: value, Detail: detail, Err: kind}
	}
	if c := ro.Strategy.Canary; c != nil {
		if tr := c.TrafficRouting; tr != nil && tr.MaxTrafficWeight != nil && *tr.MaxTrafficWeight <= 0 {
			return own("spec.strategy.canary.trafficRouting.maxTrafficWeight", strconv.Itoa(int(*tr.MaxTrafficWeight)), "must be positive", field.ErrRange)
		}
		for i, s := range c.Steps {
			if s.SetCanaryScale != nil && s.SetCanaryScale.Replicas != nil && *s.SetCanaryScale.Replicas < 0 {
				return own("spec.strategy.canary.steps["+strconv.Itoa(i)+"].setCanaryScale.replicas", strconv.Itoa(int(*s.SetCanaryScale.Replicas)), "must not be negative", field.ErrNegative)
			}
		}
		for i, s := range c.Steps {
			for _, raw := range [...]json.RawMessage{s.Experiment, s.Analysis, s.SetHeaderRoute, s.SetMirrorRoute, s.Plugin} {
				if raw != nil && !json.Valid(raw) {
					return own("spec.strategy.canary.steps["+strconv.Itoa(i)+"]", "", "holds text that is not JSON", field.ErrSyntax)
				}
			}
		}
	}
	if b := ro.Strategy.BlueGreen; b != nil && b.PreviewReplicaCount != nil && *b.PreviewReplicaCount < 0 {
		return own("spec.strategy.blueGreen.previewReplicaCount", strconv.Itoa(int(*b.PreviewReplicaCount)), "must not be negative", field.ErrNegative)
	}
	for i := range rss {
		rs := &rss[i]
		path := "replicaSets[" + strconv.Itoa(i) + "]"
		if rs.Name == "" {
			return &field.Error{Prefix: "argo", Field: path + ".name", Detail: "must not be empty", Err: field.ErrRequired}
		}
		if rs.PodTemplateHash == "" {
			return &field.Error{Prefix: "argo", Field: path + ".podTemplateHash", Detail: "must not be empty", Err: field.ErrRequired}
		}
		for _, c := range [...]struct {
			name string
			v    int32
		}{{"replicas", rs.Replicas}, {"statusReplicas", rs.StatusReplicas}, {"readyReplicas", rs.ReadyReplicas}, {"availableReplicas", rs.AvailableReplicas}} {
			if c.v < 0 {
				return &field.Error{Prefix: "argo", Field: path + "." + c.name, Value: strconv.Itoa(int(c.v)), Detail: "must not be negative", Err: field.ErrNegative}
			}
		}
		if rs.DesiredReplicas != nil && *rs.DesiredReplicas < 0 {
			return &field.Error{Prefix: "argo", Field: path + ".desiredReplicas", Value: strconv.Itoa(int(*rs.DesiredReplicas)), Detail: "must not be negative", Err: field.ErrNegative}
		}
		for j := range i {
			if rss[j].Name == rs.Name {
				return &field.Error{Prefix: "argo", Field: path + ".name", Detail: "duplicate name " + strconv.Quote(rs.Name), Err: field.ErrDuplicate}
			}
			if rss[j].PodTemplateHash == rs.PodTemplateHash {
				return &field.Error{Prefix: "argo", Field: path + ".podTemplateHash", Detail: "duplicate hash " + strconv.Quote(rs.PodTemplateHash), Err: field.ErrDuplicate}
			}
		}
	}
	return nil
}
