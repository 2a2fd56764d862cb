package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// template is the pod template type this program hands to the library.
type template = cluster.Template

// deployment returns the Deployment cfg describes, with the new template
// (the first container running cfg.toImage).
func (cfg *config) deployment() rollout.Deployment[template] {
	d := rollout.Deployment[template]{
		Name:                    cfg.name,
		Generation:              1,
		Replicas:                cfg.replicas,
		Strategy:                rollout.StrategyType(cfg.strategy),
		MaxSurge:                cfg.maxSurge,
		MaxUnavailable:          cfg.maxUnavailable,
		MinReadySeconds:         cfg.minReadySeconds,
		Paused:                  cfg.paused,
		ProgressDeadlineSeconds: cfg.progressDeadlineSeconds,
		RevisionHistoryLimit:    cfg.revisionHistoryLimit,
		Template:                cfg.template(cfg.toImage),
	}
	return d
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
	if err := rollout.Validate(&d); err != nil {
		return fmt.Errorf("The Deployment %q is invalid: %v", d.Name, err)
	}
	for _, e := range cfg.scales {
		d.Replicas = e.replicas
		if err := rollout.Validate(&d); err != nil {
			return fmt.Errorf("The Deployment %q is invalid (-scale %d@%d): %v", d.Name, e.replicas, e.at, err)
		}
	}
	return nil
}
