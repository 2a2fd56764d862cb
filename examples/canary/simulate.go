package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// template is the pod template as encoding/json writes a
// corev1.PodTemplateSpec with one container; its bytes give the
// ReplicaSets their pod-template hashes.
type template struct {
	Metadata struct {
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Containers []container `json:"containers"`
	} `json:"spec"`
}

type container struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

func podTemplate(name, image string) template {
	var t template
	t.Metadata.Labels = map[string]string{"app": name}
	t.Spec.Containers = []container{{Name: name, Image: image}}
	return t
}

// rollout builds the Rollout the flags describe, running image.
func rollout(cfg *config, image string) argo.Rollout[template] {
	replicas := cfg.replicas
	ro := argo.Rollout[template]{Name: cfg.name, Namespace: "default", Generation: 1, Replicas: &replicas, Template: podTemplate(cfg.name, image)}
	if cfg.blueGreen {
		b := &argo.BlueGreen{ActiveService: cfg.name + "-active", PreviewService: cfg.name + "-preview",
			PreviewReplicaCount: cfg.previewReplicas, AutoPromotionSeconds: cfg.autoPromotionSecs, MaxUnavailable: value(cfg.maxUnavailable)}
		if !cfg.autoPromotion {
			f := false
			b.AutoPromotionEnabled = &f
		}
		ro.Strategy.BlueGreen = b
		return ro
	}
	c := &argo.Canary{MaxSurge: value(cfg.maxSurge), MaxUnavailable: value(cfg.maxUnavailable), Steps: cfg.steps, DynamicStableScale: cfg.dynamicStableScale}
	if cfg.trafficRouting {
		c.TrafficRouting = &argo.TrafficRouting{Nginx: &argo.Router{}}
		c.CanaryService, c.StableService = cfg.name+"-canary", cfg.name+"-stable"
	}
	ro.Strategy.Canary = c
	return ro
}

// result is a simulated update.
type result struct {
	// before is the Rollout at rest on the old image, as the update
	// begins; trace is the update, from reconcile 1.
	before    argo.Rollout[template]
	beforeRSs []argo.ReplicaSet[template]
	trace     argo.Trace[template]
	// abortSync is the reconcile the abort was applied before, 0 if none.
	abortSync int
	// events are the scripted events of trace.
	events []argo.Event[template]
}

// simulate runs the update: first the Rollout on the old image until it
// settles, as after an earlier rollout, then the new image just before
// reconcile 1, the scripted promotions and the abort.
func simulate(cfg *config) (*result, error) {
	ro := rollout(cfg, cfg.fromImage)
	rest, err := argo.Simulate(&ro, nil, argo.Config[template]{Start: cfg.now.Add(-time.Hour), Interval: cfg.interval, MaxSyncs: cfg.maxSyncs})
	if err != nil {
		return nil, err
	}
	if rest.Outcome != argo.OutcomeComplete {
		return nil, fmt.Errorf("the Rollout did not settle on %s before the update: %s after %d reconciles", cfg.fromImage, rest.Outcome, rest.Syncs)
	}
	res := &result{before: rest.Rollout, beforeRSs: rest.ReplicaSets}
	events := []argo.Event[template]{{Sync: 1, Kind: argo.SetTemplate, Template: podTemplate(cfg.name, cfg.toImage)}}
	for _, k := range cfg.promoteAt {
		events = append(events, argo.Event[template]{Sync: k, Kind: argo.Promote})
	}
	for _, s := range cfg.scales {
		events = append(events, argo.Event[template]{Sync: s.at, Kind: argo.SetReplicas, Replicas: s.replicas})
	}
	sc := argo.Config[template]{Start: cfg.now, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, MaxSyncs: cfg.maxSyncs, Events: events}
	tr, err := argo.Simulate(&res.before, res.beforeRSs, sc)
	if err != nil {
		return nil, err
	}
	if cfg.abortAt >= 0 {
		// Abort just after the first reconcile that reaches the step.
		k := 0
		for _, s := range tr.Steps {
			if s.Sync > 1 && s.StepIndex == cfg.abortAt && s.Steps > 0 {
				k = s.Sync
				break
			}
		}
		if k == 0 {
			return nil, fmt.Errorf("-abort-at %d: the rollout never reaches step %d (%s after %d reconciles)", cfg.abortAt, cfg.abortAt, tr.Outcome, tr.Syncs)
		}
		res.abortSync = k + 1
		sc.Events = append(slices.Clone(events), argo.Event[template]{Sync: k + 1, Kind: argo.Abort})
		if tr, err = argo.Simulate(&res.before, res.beforeRSs, sc); err != nil {
			return nil, err
		}
	}
	res.trace, res.events = tr, sc.Events
	return res, nil
}

// generationAt is the Rollout's generation at reconcile k: the new
// template and every -scale raise it (argo.Simulate's events that change
// the spec; spec.paused is never set here, so a promote does not).
func (r *result) generationAt(k int) int64 {
	g := r.before.Generation
	for _, ev := range r.events {
		if ev.Sync <= k && (ev.Kind == argo.SetTemplate || ev.Kind == argo.SetReplicas) {
			g++
		}
	}
	return g
}
