package main

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/examples/internal/cluster"
	"github.com/rolloutmath/rolloutmath/internal/capacity"
	"github.com/rolloutmath/rolloutmath/internal/rstable"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// simulate validates the Deployment cfg describes, runs its rollout with
// rollout.Simulate and returns the trace to print. The cluster starts
// settled: one ReplicaSet (revision 1, the old image) with R available
// pods and a complete deployment status. The new template is applied as
// a scripted event before sync 1, followed by cfg's other events.
func simulate(cfg *config) (*trace, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	d, old := cfg.initialState()
	events, described := cfg.events()
	sim := rollout.Config[template]{
		Start:            cfg.now,
		Interval:         cfg.interval,
		ReadyDelay:       cfg.readyDelay,
		TerminationDelay: cfg.terminating,
		NeverReady:       cfg.neverReady,
		MaxSyncs:         cfg.maxSyncs,
		Events:           events,
	}
	if cfg.terminatingAware {
		sim.Options.Surge = rollout.SurgeCountsTerminating
	}
	tr, err := rollout.Simulate(&d, []rollout.ReplicaSet[template]{old}, sim)
	if err != nil {
		return nil, fmt.Errorf("rollout: simulating: %w", err)
	}
	t := cfg.trace(&d, &old, &tr, described)
	if cfg.pod != nil {
		if t.Capacity, err = peaks(cfg.pod, t); err != nil {
			return nil, fmt.Errorf("rollout: %w", err)
		}
	}
	return t, nil
}

// peaks returns what the rollout t needs beyond its steady state, R pods
// of pod. Every ReplicaSet of this program runs the same requests (an
// update changes an image only), so each step is one group of pods.
func peaks(pod *capacity.Pod, t *trace) (*capacity.Report, error) {
	perPod, err := pod.Requests()
	if err != nil {
		return nil, err
	}
	steps := make([]capacity.Step, len(t.Steps))
	for i := range t.Steps {
		s := &t.Steps[i]
		steps[i] = capacity.Step{Sync: s.N, Replicas: s.Replicas, Groups: []capacity.Group{{Pods: s.Pods(), Requests: perPod}}}
	}
	rep, err := capacity.Peaks(perPod, steps)
	return &rep, err
}

// initialState returns the deployment as it runs before the update, with
// the old image, and its only ReplicaSet, revision 1, with every pod
// available.
func (cfg *config) initialState() (rollout.Deployment[template], rollout.ReplicaSet[template]) {
	d := cfg.deployment()
	d.Template = cfg.template(cfg.fromImage)
	return cluster.Settled(d, cfg.now)
}

// events returns the scripted events of cfg for the simulator, and a
// description of each by the sync it precedes.
func (cfg *config) events() ([]rollout.Event[template], map[int][]string) {
	var events []rollout.Event[template]
	described := map[int][]string{}
	add := func(ev rollout.Event[template], text string) {
		events = append(events, ev)
		described[ev.Sync] = append(described[ev.Sync], text)
	}
	add(rollout.Event[template]{Sync: 1, Kind: rollout.SetTemplate, Template: cfg.template(cfg.toImage)},
		fmt.Sprintf("image %s -> %s", cfg.fromImage, cfg.toImage))
	for _, e := range cfg.scales {
		add(rollout.Event[template]{Sync: e.at, Kind: rollout.SetReplicas, Replicas: e.replicas},
			fmt.Sprintf("scale to %d", e.replicas))
	}
	if cfg.pauseAt > 0 {
		add(rollout.Event[template]{Sync: cfg.pauseAt, Kind: rollout.Pause}, "pause")
	}
	if cfg.resumeAt > 0 {
		add(rollout.Event[template]{Sync: cfg.resumeAt, Kind: rollout.Resume}, "resume")
	}
	if cfg.rollbackAt > 0 {
		text := "roll back to the previous revision"
		if cfg.rollbackTo != 0 {
			text = fmt.Sprintf("roll back to revision %d", cfg.rollbackTo)
		}
		add(rollout.Event[template]{Sync: cfg.rollbackAt, Kind: rollout.Rollback, Revision: cfg.rollbackTo}, text)
	}
	return events, described
}

// trace converts the simulator's result into the trace this program
// prints, with the initial state as step 0.
func (cfg *config) trace(d *rollout.Deployment[template], old *rollout.ReplicaSet[template], tr *rollout.Trace[template], described map[int][]string) *trace {
	surge, unavailable := rollout.DefaultMaxSurge(), rollout.DefaultMaxUnavailable()
	if cfg.maxSurge != nil {
		surge = cfg.maxSurge.value()
	}
	if cfg.maxUnavailable != nil {
		unavailable = cfg.maxUnavailable.value()
	}
	t := &trace{
		Deployment: d.Name,
		Strategy:   cfg.strategy,
		FromImage:  cfg.fromImage,
		ToImage:    cfg.toImage,
		Now:        cfg.now,
		Syncs:      tr.Syncs,
		Outcome:    rstable.Outcome(tr.Outcome),
	}
	if cfg.strategy != string(rollout.Recreate) {
		t.MaxSurge, t.MaxUnavailable = surge.String(), unavailable.String()
	}
	first := step{
		Reasons:     []string{"the old ReplicaSet runs every pod"},
		ReplicaSets: []rsRow{{Name: old.Name, Revision: 1, Desired: old.Replicas, Current: old.StatusReplicas, Ready: old.ReadyReplicas, Available: old.AvailableReplicas}},
		Replicas:    d.Replicas,
	}
	first.SetBounds(cfg.strategy == string(rollout.Recreate), rollout.MaxSurge(d), rollout.MaxUnavailable(d))
	t.Steps = append(t.Steps, first)
	for _, s := range tr.Steps {
		st := step{
			N:        s.Sync,
			Elapsed:  s.Elapsed.String(),
			Events:   described[s.Sync],
			Path:     s.Path.String(),
			Actions:  s.Actions,
			Reasons:  []string{s.Reason},
			Replicas: s.Replicas,
		}
		st.SetBounds(cfg.strategy == string(rollout.Recreate), s.MaxSurge, s.MaxUnavailable)
		for _, rs := range s.ReplicaSets {
			st.ReplicaSets = append(st.ReplicaSets, rsRow{Name: rs.Name, Revision: rs.Revision,
				Desired: rs.Desired, Current: rs.Current, Ready: rs.Ready, Available: rs.Available})
			st.Terminating += rs.Terminating
		}
		t.Steps = append(t.Steps, st)
	}
	return t
}
