package main

import (
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/rollout/daemonset"
)

// podKey identifies a pod across syncs: its name and creation time (the
// controller may create a pod under the name of one deleted before).
type podKey struct {
	name    string
	created time.Time
}

func keyOf(p *daemonset.Pod) podKey { return podKey{p.Name, p.Created} }

// cluster is the simulated cluster daemonsetplan runs the controller
// against. It moves as daemonset.Simulate's cluster does (created pods
// scheduled and Running at once, Ready -ready-delay after their
// creation; deleted pods gone -terminating after their deletion), except
// that the pods the manifests hold keep their own times: an existing pod
// that is not Ready becomes Ready -ready-delay after now, an existing
// terminating pod is gone -terminating after now.
type cluster struct {
	ds        daemonset.DaemonSet[kubeapps.Template]
	nodes     []daemonset.Node
	pods      []daemonset.Pod
	revisions []daemonset.ControllerRevision
	readyAt   map[podKey]time.Time // when a pod that is not ready becomes ready
	goneAt    map[podKey]time.Time // when a terminating pod is gone
	readyFor  time.Duration
	termFor   time.Duration
}

// newCluster returns the cluster of in at now.
func newCluster(in *input, cfg *config) *cluster {
	c := &cluster{ds: in.ds, nodes: in.nodes, pods: slices.Clone(in.pods), revisions: slices.Clone(in.revisions),
		readyAt: map[podKey]time.Time{}, goneAt: map[podKey]time.Time{}, readyFor: cfg.readyDelay, termFor: cfg.terminating}
	for i := range c.pods {
		p := &c.pods[i]
		switch {
		case p.Terminating:
			c.goneAt[keyOf(p)] = in.now.Add(cfg.terminating)
		case !p.Ready && !terminal(p):
			c.readyAt[keyOf(p)] = in.now.Add(cfg.readyDelay)
		}
	}
	return c
}

// terminal reports whether p has failed or succeeded: it never becomes
// ready.
func terminal(p *daemonset.Pod) bool {
	return p.Phase == daemonset.PodFailed || p.Phase == daemonset.PodSucceeded
}

// hasNode reports whether the cluster holds the node named name.
func (c *cluster) hasNode(name string) bool {
	return slices.ContainsFunc(c.nodes, func(n daemonset.Node) bool { return n.Name == name })
}

// observe moves the cluster on to now: terminating pods whose time has
// come are gone, created pods are scheduled and Running, pods whose
// ready time has come are Ready since then.
func (c *cluster) observe(now time.Time) {
	c.pods = slices.DeleteFunc(c.pods, func(p daemonset.Pod) bool {
		at, ok := c.goneAt[keyOf(&p)]
		return p.Terminating && ok && !at.After(now)
	})
	for i := range c.pods {
		p := &c.pods[i]
		if p.Unscheduled && c.hasNode(p.Node) {
			p.Unscheduled, p.Phase = false, daemonset.PodRunning
		}
		if p.Ready || p.Terminating || p.Unscheduled || terminal(p) {
			continue
		}
		at, ok := c.readyAt[keyOf(p)]
		if !ok {
			at = p.Created.Add(c.readyFor)
		}
		if !at.After(now) {
			p.Phase, p.Ready, p.ReadySince = daemonset.PodRunning, true, at
		}
	}
}

// take applies a sync's writes.
func (c *cluster) take(s *daemonset.Sync[kubeapps.Template], now time.Time) {
	c.ds.Status = s.DaemonSet.Status
	c.pods = append(c.pods[:0], s.Pods...)
	c.revisions = append(c.revisions[:0], s.Revisions...)
	for i := range c.pods {
		p := &c.pods[i]
		if _, ok := c.goneAt[keyOf(p)]; p.Terminating && !ok {
			c.goneAt[keyOf(p)] = now.Add(c.termFor)
		}
	}
}

// moving reports whether the cluster will change by itself after now.
func (c *cluster) moving(now time.Time) bool {
	for i := range c.pods {
		p := &c.pods[i]
		switch {
		case p.Terminating:
			return true
		case p.Unscheduled && c.hasNode(p.Node):
			return true
		case !p.Ready && !terminal(p):
			return true
		case p.Ready && c.ds.MinReadySeconds > 0 && !daemonset.IsPodAvailable(p, c.ds.MinReadySeconds, now):
			return true
		}
	}
	return false
}

// complete reports whether the rollout is over after s: nothing written,
// the status up to date, and every node that should run the pod running
// exactly one pod, updated and available, and no other node one.
func (c *cluster) complete(s *daemonset.Sync[kubeapps.Template], now time.Time) bool {
	st := &c.ds.Status
	if len(s.Actions) > 0 || st.ObservedGeneration != c.ds.Generation || st.NumberMisscheduled != 0 ||
		st.UpdatedNumberScheduled != st.DesiredNumberScheduled || st.NumberAvailable != st.DesiredNumberScheduled ||
		st.CurrentNumberScheduled != st.DesiredNumberScheduled {
		return false
	}
	per := map[string]int{}
	for i := range c.pods {
		p := &c.pods[i]
		if p.Node == "" {
			continue // the controller ignores a pod for no node
		}
		if p.Terminating || !daemonset.IsPodUpdated(p, s.Hash, c.ds.TemplateGeneration) || !p.Ready || !daemonset.IsPodAvailable(p, c.ds.MinReadySeconds, now) {
			return false
		}
		per[p.Node]++
	}
	for _, n := range c.nodes {
		if n.ShouldRun && per[n.Name] != 1 || !n.ShouldRun && per[n.Name] != 0 {
			return false
		}
	}
	return true
}

// run runs syncs from start, every interval, with the changes of in
// applied just before the first, until the rollout completes, stalls or
// maxSyncs syncs ran, and returns the trace.
func (c *cluster) run(in *input, cfg *config) (daemonset.Trace[kubeapps.Template], error) {
	var tr daemonset.Trace[kubeapps.Template]
	var planner daemonset.Planner[kubeapps.Template]
	for k := 1; k <= cfg.maxSyncs; k++ {
		now := in.now.Add(time.Duration(k-1) * cfg.interval)
		var events []string
		if k == 1 {
			events = in.apply(&c.ds)
		}
		c.observe(now)
		if _, err := planner.Plan(&c.ds, c.nodes, c.pods, c.revisions, now); err != nil {
			tr.Syncs = k
			c.fill(&tr)
			return tr, err
		}
		s := planner.Explain()
		tr.Syncs = k
		c.take(s, now)
		if len(s.Actions) > 0 || len(events) > 0 {
			tr.Steps = append(tr.Steps, daemonset.Step{Sync: k, Time: now, Events: events, Actions: slices.Clone(s.Actions),
				Reason: s.Reason, Status: s.Status, Pods: slices.Clone(c.pods)})
		}
		if c.complete(s, now) {
			tr.Outcome = daemonset.OutcomeComplete
			c.fill(&tr)
			return tr, nil
		}
		if len(s.Actions) == 0 && !c.moving(now) {
			tr.Outcome = daemonset.OutcomeStalled
			c.fill(&tr)
			return tr, nil
		}
	}
	tr.Outcome = daemonset.OutcomeSyncLimit
	c.fill(&tr)
	return tr, nil
}

func (c *cluster) fill(tr *daemonset.Trace[kubeapps.Template]) {
	tr.DaemonSet, tr.Nodes, tr.Pods, tr.Revisions = c.ds, c.nodes, c.pods, c.revisions
}
