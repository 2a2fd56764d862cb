package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// template is the pod template type this program hands to the library.
type template = cluster.Template

// deployment returns the Deployment cfg describes, with the new template
// (the first container running cfg.toImage). An invalid maxSurge or
// maxUnavailable text stands in as intOrPercent.value says.
func (cfg *config) deployment() rollout.Deployment[template] {
	d := rollout.Deployment[template]{
		Name:                    cfg.name,
		Generation:              1,
		Replicas:                cfg.replicas,
		Strategy:                rollout.StrategyType(cfg.strategy),
		MaxSurge:                valuePtr(cfg.maxSurge),
		MaxUnavailable:          valuePtr(cfg.maxUnavailable),
		MinReadySeconds:         cfg.minReadySeconds,
		Paused:                  cfg.paused,
		ProgressDeadlineSeconds: cfg.progressDeadlineSeconds,
		RevisionHistoryLimit:    cfg.revisionHistoryLimit,
		Template:                cfg.template(cfg.toImage),
	}
	return d
}

// valuePtr returns a pointer to p's value, or nil for nil.
func valuePtr(p *intOrPercent) *intorpercent.Value {
	if p == nil {
		return nil
	}
	v := p.value()
	return &v
}

// template returns the pod template of cfg with the first container
// running image.
func (cfg *config) template(image string) template {
	containers := slices.Clone(cfg.containers)
	containers[0].Image = image
	return template{Labels: maps.Clone(cfg.labels), Spec: cluster.PodSpec{Containers: containers}}
}

// validate checks the Deployment cfg describes as the API server would,
// and words a rejection as kubectl prints it:
//
//	The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
func (cfg *config) validate() error {
	d := cfg.deployment()
	if errs := cfg.errors(&d); len(errs) > 0 {
		return fmt.Errorf("The Deployment %q is invalid: %v", d.Name, errs)
	}
	for _, e := range cfg.scales {
		d.Replicas = e.replicas
		if errs := cfg.errors(&d); len(errs) > 0 {
			return fmt.Errorf("The Deployment %q is invalid (-scale %d@%d): %v", d.Name, e.replicas, e.at, errs)
		}
	}
	return nil
}

// errors returns what the API server finds wrong with d, the Deployment
// cfg describes: rollout.Validate's errors, with the rolling-update
// bounds checked as written instead, by
// intorpercent.ValidateRollingUpdateIntOrString, so that a malformed
// maxSurge or maxUnavailable text is reported in the API server's words.
// The API server checks the bounds only for a rolling update, right after
// spec.replicas; for Recreate it forbids the fields whatever they hold,
// and an unknown strategy is all it reports.
func (cfg *config) errors(d *rollout.Deployment[template]) field.ErrorList {
	var errs field.ErrorList
	if err := rollout.Validate(d); err != nil {
		if !errors.As(err, &errs) {
			return field.ErrorList{{Type: field.TypeInvalid, Field: "spec", Detail: err.Error()}}
		}
	}
	if d.Strategy != rollout.RollingUpdate && d.Strategy != "" {
		return errs
	}
	const path = "spec.strategy.rollingUpdate"
	bounds := intorpercent.ValidateRollingUpdateIntOrString(written(cfg.maxUnavailable, rollout.DefaultMaxUnavailable()),
		written(cfg.maxSurge, rollout.DefaultMaxSurge()), path)
	var out field.ErrorList
	for _, e := range errs {
		if e.Field == path+".maxUnavailable" || e.Field == path+".maxSurge" {
			continue // the stand-ins' errors; bounds has the real ones
		}
		if e.Field != "spec.replicas" {
			out, bounds = append(out, bounds...), nil
		}
		out = append(out, e)
	}
	return append(out, bounds...)
}
