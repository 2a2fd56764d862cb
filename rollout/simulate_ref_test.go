package rollout

import (
	"time"
)

// This file keeps Simulate's cluster as it was before it kept pod groups
// incrementally: observe rebuilt every ReplicaSet's list of pod groups at
// every sync and groups were never merged, so a rollout's cost grew with
// the square of its syncs. It is the straightforward reference the
// incremental cluster in simulate.go must match exactly
// (TestSimulateEqualsReference).

// refPods is a group of pods of one ReplicaSet that share their timeline.
type refPods struct {
	n       int32
	created time.Time
	ready   time.Time // when Ready; meaningless if never
	never   bool      // never becomes ready
	gone    time.Time // deleted: when the pod is gone
	deleted bool
}

// refCluster is the simulated ReplicaSet controller and kubelet.
type refCluster struct {
	pods    map[string][]refPods // by ReplicaSet name
	made    map[string]int32     // pods created so far, for ReplicaSets created in the simulation
	tracked map[string]bool      // ReplicaSets created in the simulation
}

// refSimulate is Simulate on refCluster, line for line as it was.
func refSimulate[T any](d *Deployment[T], rss []ReplicaSet[T], cfg Config[T]) (Trace[T], error) {
	if cfg.Start.IsZero() {
		cfg.Start = time.Unix(0, 0).UTC()
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 1000
	}
	var tr Trace[T]
	if errs := validate(d); len(errs) > 0 {
		name := ""
		if d != nil {
			name = d.Name
		}
		return tr, invalidObject("Deployment", name, errs)
	}
	cur := *d
	set := append([]ReplicaSet[T](nil), rss...)
	c := &refCluster{pods: map[string][]refPods{}, made: map[string]int32{}, tracked: map[string]bool{}}
	minReady := time.Duration(cur.MinReadySeconds) * time.Second
	if err := validateReplicaSets(set); err != nil {
		return tr, err
	}
	for i := range set {
		rs := &set[i]
		var g []refPods
		long := cfg.Start.Add(-minReady - time.Hour)
		add := func(p refPods) {
			if p.n > 0 {
				g = append(g, p)
			}
		}
		add(refPods{n: rs.AvailableReplicas, created: long, ready: long})
		add(refPods{n: rs.ReadyReplicas - rs.AvailableReplicas, created: cfg.Start, ready: cfg.Start})
		add(refPods{n: rs.StatusReplicas - rs.ReadyReplicas, created: cfg.Start, ready: cfg.Start.Add(cfg.ReadyDelay)})
		add(refPods{n: terminating(rs), created: long, ready: long, deleted: true, gone: cfg.Start.Add(cfg.TerminationDelay)})
		c.pods[rs.Name] = g
	}
	lastEvent := 0
	for _, ev := range cfg.Events {
		lastEvent = max(lastEvent, ev.Step)
	}
	// The ReplicaSet controller reacts to the initial specs before sync 1.
	refReconcile(c, set, &cfg, cfg.Start, cfg.Start.Add(cfg.Interval/2), minReady)
	for k := 1; k <= cfg.MaxSteps; k++ {
		tr.Syncs = k
		now := cfg.Start.Add(time.Duration(k) * cfg.Interval)
		var events []string
		for _, ev := range cfg.Events {
			if ev.Step == k {
				events = append(events, applyEvent(&cur, ev))
			}
		}
		minReady = time.Duration(cur.MinReadySeconds) * time.Second
		podsSeen := refObserve(c, set, now, minReady)
		sync, err := PlanWith(&cur, set, now, cfg.Options)
		if err != nil {
			tr.Deployment, tr.ReplicaSets = cur, set
			return tr, err
		}
		idle := len(sync.Actions) == 0 && len(events) == 0 && equalStatus(&cur.Status, &sync.Deployment.Status) &&
			equalAnnotations(cur.Annotations, sync.Deployment.Annotations)
		if !idle {
			tr.Steps = append(tr.Steps, step(k, now, cfg.Start, events, &sync, set, podsSeen))
		}
		cur, set = sync.Deployment, sync.ReplicaSets
		for i := range set {
			if _, ok := c.pods[set[i].Name]; !ok {
				c.pods[set[i].Name] = nil
				c.tracked[set[i].Name] = true
			}
		}
		refForgetDeleted(c, set)
		settled := refReconcile(c, set, &cfg, now, now.Add(cfg.Interval/2), minReady)
		if idle && settled && k >= lastEvent && !sync.Requeue {
			tr.Outcome = outcome(&cur)
			if sync.Path == PathSelectingAll {
				tr.Outcome = OutcomeStalled // refused, whatever the stale status says
			}
			break
		}
	}
	if tr.Outcome == 0 {
		tr.Outcome = OutcomeStepLimit
	}
	tr.Deployment, tr.ReplicaSets = cur, set
	return tr, nil
}

// refObserve fills the ReplicaSets' status from the pods at now (dropping
// pods whose termination has finished) and returns the number of pods,
// terminating ones included.
func refObserve[T any](c *refCluster, set []ReplicaSet[T], now time.Time, minReady time.Duration) int32 {
	var total int64
	for i := range set {
		rs := &set[i]
		groups := c.pods[rs.Name][:0:0]
		var replicas, ready, available, term int64
		for _, g := range c.pods[rs.Name] {
			if g.deleted {
				if !g.gone.After(now) {
					continue
				}
				term += int64(g.n)
			} else {
				replicas += int64(g.n)
				if !g.never && !g.ready.After(now) {
					ready += int64(g.n)
					if !g.ready.Add(minReady).After(now) {
						available += int64(g.n)
					}
				}
			}
			groups = append(groups, g)
		}
		c.pods[rs.Name] = groups
		rs.StatusReplicas, rs.ReadyReplicas, rs.AvailableReplicas = sat(replicas), sat(ready), sat(available)
		t := sat(term)
		rs.TerminatingReplicas = &t
		total += replicas + term
	}
	return sat(total)
}

// refReconcile is the ReplicaSet controller at time at: it creates missing
// pods and deletes surplus ones (unready first, then the most recently
// ready, then the newest) and marks every ReplicaSet's generation as
// observed. It reports whether the cluster is settled: nothing created or
// deleted, no pod terminating, and every pod that will become available
// already was at now.
func refReconcile[T any](c *refCluster, set []ReplicaSet[T], cfg *Config[T], now, at time.Time, minReady time.Duration) bool {
	settled := true
	for i := range set {
		rs := &set[i]
		rs.ObservedGeneration = rs.Generation
		groups := c.pods[rs.Name]
		var active int64
		for _, g := range groups {
			if !g.deleted {
				active += int64(g.n)
			}
		}
		switch spec := int64(rs.Replicas); {
		case spec > active:
			settled = false
			n := spec - active
			var never int64
			if c.tracked[rs.Name] {
				never = min(n, max(0, int64(cfg.NeverReady)-int64(c.made[rs.Name])))
				c.made[rs.Name] = sat(int64(c.made[rs.Name]) + n)
			}
			if never > 0 {
				groups = append(groups, refPods{n: int32(never), created: at, never: true})
			}
			if n > never {
				groups = append(groups, refPods{n: int32(n - never), created: at, ready: at.Add(cfg.ReadyDelay)})
			}
		case spec < active:
			settled = false
			groups = refDeletePods(groups, active-spec, at, at.Add(cfg.TerminationDelay), cfg.TerminationDelay > 0)
		}
		for _, g := range groups {
			if g.deleted || !g.never && g.ready.Add(minReady).After(now) {
				settled = false
			}
		}
		c.pods[rs.Name] = groups
	}
	return settled
}

// refDeletePods removes n active pods from groups, unready ones first, then
// the most recently ready, then the newest; with keep they stay as
// terminating until gone.
func refDeletePods(groups []refPods, n int64, at, gone time.Time, keep bool) []refPods {
	out := make([]refPods, 0, len(groups)+1)
	for n > 0 {
		best := -1
		for i, g := range groups {
			if g.deleted || g.n == 0 {
				continue
			}
			if best < 0 || refDeleteFirst(g, groups[best], at) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		take := min(n, int64(groups[best].n))
		groups[best].n -= int32(take)
		n -= take
		if keep {
			d := groups[best]
			d.n, d.deleted, d.gone = int32(take), true, gone
			out = append(out, d)
		}
	}
	for _, g := range groups {
		if g.n > 0 {
			out = append(out, g)
		}
	}
	return out
}

// refDeleteFirst reports whether the ReplicaSet controller deletes pods of a
// before those of b at time at.
func refDeleteFirst(a, b refPods, at time.Time) bool {
	aReady, bReady := !a.never && !a.ready.After(at), !b.never && !b.ready.After(at)
	if aReady != bReady {
		return !aReady
	}
	if aReady && !a.ready.Equal(b.ready) {
		return a.ready.After(b.ready)
	}
	return a.created.After(b.created)
}

// refForgetDeleted drops the pods of ReplicaSets no longer in set.
func refForgetDeleted[T any](c *refCluster, set []ReplicaSet[T]) {
	if len(c.pods) == len(set) {
		return
	}
	keep := make(map[string]bool, len(set))
	for i := range set {
		keep[set[i].Name] = true
	}
	for name := range c.pods {
		if !keep[name] {
			delete(c.pods, name)
		}
	}
}
