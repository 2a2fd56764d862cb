package rollout

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// badCount draws a count that is often negative.
func badCount(t *rapid.T, label string) int32 { return rapid.Int32Range(-3, 12).Draw(t, label) }

// drawBadDeployment draws a deployment whose counters, strategy, bounds
// and selector may each break a rule.
func drawBadDeployment(t *rapid.T) *Deployment[tmpl] {
	if rapid.IntRange(0, 20).Draw(t, "nilDeployment") == 0 {
		return nil
	}
	d := dep(badCount(t, "replicas"), nil, nil)
	d.Generation = int64(badCount(t, "generation"))
	d.MinReadySeconds = badCount(t, "minReadySeconds")
	d.Strategy = rapid.SampledFrom([]StrategyType{"", RollingUpdate, Recreate, "BlueGreen"}).Draw(t, "strategy")
	value := func(label string) *intorpercent.Value {
		switch rapid.IntRange(0, 2).Draw(t, label+"Kind") {
		case 0:
			return nil
		case 1:
			v := intorpercent.Int(badCount(t, label))
			return &v
		}
		v := intorpercent.Percent(rapid.Int32Range(-10, 150).Draw(t, label))
		return &v
	}
	d.MaxSurge, d.MaxUnavailable = value("maxSurge"), value("maxUnavailable")
	if rapid.Bool().Draw(t, "setDeadline") {
		pds := badCount(t, "progressDeadlineSeconds")
		d.ProgressDeadlineSeconds = &pds
	}
	if rapid.Bool().Draw(t, "badSelector") {
		d.Selector = &ownership.Selector{MatchExpressions: []ownership.Requirement{{Key: "app", Operator: "Gt"}}}
	}
	s := &d.Status
	s.ObservedGeneration = int64(badCount(t, "observedGeneration"))
	s.Replicas = badCount(t, "statusReplicas")
	s.UpdatedReplicas = badCount(t, "updatedReplicas")
	s.ReadyReplicas = badCount(t, "readyReplicas")
	s.AvailableReplicas = badCount(t, "availableReplicas")
	s.UnavailableReplicas = badCount(t, "unavailableReplicas")
	return d
}

// drawBadReplicaSets draws ReplicaSets whose counters may be negative or
// inconsistent and whose names may repeat.
func drawBadReplicaSets(t *rapid.T) []ReplicaSet[tmpl] {
	n := rapid.IntRange(0, 4).Draw(t, "n")
	rss := make([]ReplicaSet[tmpl], n)
	for i := range rss {
		name := rapid.SampledFrom([]string{"web-a", "web-b", "web-c", "web-d"}).Draw(t, "name")
		rss[i] = rs(name, i, badCount(t, "rsReplicas"), badCount(t, "rsAvailable"))
		rss[i].ReadyReplicas = badCount(t, "rsReady")
		rss[i].Generation = int64(badCount(t, "rsGeneration"))
	}
	return rss
}

// checkFieldError fails unless err (from call) unwraps to field.ErrInvalid
// and to a *field.Error naming a field.
func checkFieldError(t *rapid.T, call string, err error) {
	if !errors.Is(err, field.ErrInvalid) {
		t.Fatalf("%s error %v does not wrap field.ErrInvalid", call, err)
	}
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Field == "" {
		t.Fatalf("%s error %v: errors.As found %#v, want a *field.Error with a Field", call, err, fe)
	}
}

func TestEveryBadInputErrorIsAFieldError(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawBadDeployment(t)
		rss := drawBadReplicaSets(t)
		if err := Validate(d); err != nil {
			checkFieldError(t, "Validate", err)
		}
		for i := range rss {
			if err := ValidateReplicaSet(&rss[i]); err != nil {
				checkFieldError(t, "ValidateReplicaSet", err)
			}
		}
		if _, err := Plan(d, rss, t0); err != nil && !errors.Is(err, ErrCounterOverflow) {
			checkFieldError(t, "Plan", err)
		}
	})
}
