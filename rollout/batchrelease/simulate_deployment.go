package batchrelease

import (
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// SimulateDeployment runs a whole batch release of a Deployment through
// kruise-rollout's advanced Deployment controller: before each sync the
// Rollout side raises the batch partition as in [Simulate]; then one
// batch release reconcile ([Plan]) writes the strategy annotation's
// partition; then one round of the advanced controller
// ([SyncAdvancedDeployment]) scales the ReplicaSets; each ReplicaSet
// creates or deletes pods to match its spec.replicas at once (deleting
// unready pods first, then the newest), and a created pod is ready and
// available Config.ReadyDelay later.
//
// d is the Deployment with its new template (d.NewReplicaSet names the
// ReplicaSet of that template; it is created on the first rolling round
// if absent), paused by kruise-rollout's workload webhook until the
// release takes control: nothing rolls before. Its Strategy.RollingUpdate
// holds the Deployment's own maxSurge and maxUnavailable, which
// Initialize copies into the strategy annotation (defaulted). After the
// release hands the Deployment back, the rounds continue with the
// partition at R, which is the native rolling update's arithmetic (the
// limit no longer binds). The inputs are not modified.
func SimulateDeployment(release *Release, d *AdvancedDeployment, rss []ReplicaSet, cfg Config) (Trace, error) {
	cfg.defaults()
	var tr Trace
	if err := checkSimRelease(release); err != nil {
		return tr, err
	}
	if err := checkAdvanced(d, rss); err != nil {
		return tr, err
	}
	if err := checkEvents(cfg.Events); err != nil {
		return tr, err
	}
	rel := *release
	rel.Batches = slices.Clone(release.Batches)
	if rel.BatchPartition == nil {
		rel.BatchPartition = new(int32)
	} else {
		bp := *rel.BatchPartition
		rel.BatchPartition = &bp
	}
	s := &deploySim{cfg: &cfg, d: *d, rss: slices.Clone(rss), pods: map[string][]time.Time{},
		controlled: release.Status.Phase == Progressing || release.Status.Phase == Finalizing}
	if d.Strategy.RollingUpdate != nil {
		ru := *d.Strategy.RollingUpdate
		s.d.Strategy.RollingUpdate = &ru
	}
	for _, rs := range rss {
		ready := make([]time.Time, rs.StatusReplicas)
		for i := range ready {
			if int32(i) < rs.AvailableReplicas {
				ready[i] = cfg.Start.Add(-time.Hour)
			} else {
				ready[i] = cfg.Start.Add(cfg.ReadyDelay)
			}
		}
		s.pods[rs.Name] = ready
	}
	side := rolloutSide{cfg: &cfg}
	planner := Planner{Options: cfg.Options}
	for k := 1; k <= cfg.MaxSyncs; k++ {
		tr.Syncs = k
		now := cfg.Start.Add(time.Duration(k) * cfg.Interval)
		s.observe(now)
		if n, ok := eventsAt(cfg.Events, k); ok {
			s.d.Replicas = n
			if s.handedBack {
				s.d.Strategy.Partition = intorpercent.FromInt(n)
			}
		}
		side.advance(&rel, now)
		w := s.workload(&rel)
		sync, err := planner.Plan(&rel, &w, now)
		if err != nil {
			return tr, err
		}
		planner.Explain(&sync)
		bp := int32(-1)
		if rel.BatchPartition != nil {
			bp = *rel.BatchPartition
		}
		s.apply(&sync)
		rel.Status = sync.Release.Status
		rel.Status.NoNeedUpdateReplicas = clonePtr(rel.Status.NoNeedUpdateReplicas)
		var writes []string
		if s.controlled || s.handedBack {
			round, err := SyncAdvancedDeployment(&s.d, s.rss, now)
			if err != nil {
				return tr, err
			}
			s.rss = round.ReplicaSets
			for _, wr := range round.Writes {
				if wr.Step == CreateNewReplicaSet {
					writes = append(writes, "create "+wr.Name+" with "+itoa(wr.To)+" replicas")
					continue
				}
				writes = append(writes, "scale "+wr.Name+" "+itoa(wr.From)+"->"+itoa(wr.To)+" ("+wr.Step.String()+")")
			}
			s.reconcilePods(now)
		}
		if len(sync.Actions) > 0 || len(writes) > 0 {
			st := Step{Sync: k, Time: now, Elapsed: now.Sub(cfg.Start), BatchPartition: bp, Phase: rel.Status.Phase,
				Batch: rel.Status.CurrentBatch, State: rel.Status.BatchState, Actions: slices.Clone(sync.Actions), Reason: sync.Reason,
				WorkloadWrites: writes}
			if sync.HasContext {
				st.HasContext, st.Planned, st.Desired = true, sync.Context.PlannedUpdatedReplicas, sync.Context.DesiredUpdatedReplicas
			}
			for i := range st.Actions {
				st.Actions[i].Partition = clonePtrIOS(st.Actions[i].Partition)
				st.Actions[i].MaxSurge = clonePtrIOS(st.Actions[i].MaxSurge)
				st.Actions[i].MaxUnavailable = clonePtrIOS(st.Actions[i].MaxUnavailable)
			}
			s.counts(&st, now)
			tr.Steps = append(tr.Steps, st)
		}
		if rel.Status.Phase == Completed && s.settled(now) {
			tr.Outcome = OutcomeComplete
			break
		}
	}
	if tr.Outcome == 0 {
		tr.Outcome = OutcomeSyncLimit
	}
	tr.Release = rel
	// The final workload as the last sync left it, its status observed.
	s.observe(cfg.Start.Add(time.Duration(tr.Syncs) * cfg.Interval))
	tr.Workload = s.workload(&rel)
	return tr, nil
}

// deploySim is the simulated Deployment, its ReplicaSets and their pods
// (each pod is the time it becomes ready).
type deploySim struct {
	cfg        *Config
	d          AdvancedDeployment
	rss        []ReplicaSet
	pods       map[string][]time.Time
	controlled bool
	handedBack bool
	labelled   int32
}

func (s *deploySim) newRS() *ReplicaSet {
	for i := range s.rss {
		if s.rss[i].Name == s.d.NewReplicaSet {
			return &s.rss[i]
		}
	}
	return nil
}

// observe refreshes each ReplicaSet's status from its pods at now.
func (s *deploySim) observe(now time.Time) {
	var total int32
	for i := range s.rss {
		rs := &s.rss[i]
		pods := s.pods[rs.Name]
		rs.StatusReplicas, rs.ReadyReplicas = int32(len(pods)), 0
		for _, at := range pods {
			if !at.After(now) {
				rs.ReadyReplicas++
			}
		}
		rs.AvailableReplicas = rs.ReadyReplicas
		total += rs.StatusReplicas
	}
	s.d.StatusReplicas = total
}

// reconcilePods is the ReplicaSet controller: pods to match spec.replicas.
func (s *deploySim) reconcilePods(now time.Time) {
	for i := range s.rss {
		rs := &s.rss[i]
		pods := s.pods[rs.Name]
		for int32(len(pods)) < rs.Replicas {
			pods = append(pods, now.Add(s.cfg.ReadyDelay))
		}
		if int32(len(pods)) > rs.Replicas {
			// Unready pods go first, then the newest: sort by ready time,
			// latest last, and cut from the end.
			slices.SortFunc(pods, func(a, b time.Time) int { return a.Compare(b) })
			pods = pods[:rs.Replicas]
			if s.labelled > 0 && rs.Name == s.d.NewReplicaSet {
				s.labelled = min(s.labelled, rs.Replicas)
			}
		}
		s.pods[rs.Name] = pods
	}
}

func (s *deploySim) settled(now time.Time) bool {
	nrs := s.newRS()
	if nrs == nil || nrs.Replicas != s.d.Replicas {
		return false
	}
	for i := range s.rss {
		rs := &s.rss[i]
		if rs.Name != s.d.NewReplicaSet && len(s.pods[rs.Name]) > 0 {
			return false
		}
	}
	for _, at := range s.pods[nrs.Name] {
		if at.After(now) {
			return false
		}
	}
	return int32(len(s.pods[nrs.Name])) == s.d.Replicas
}

// workload is the Deployment as the batch release reads it.
func (s *deploySim) workload(rel *Release) Workload {
	w := Workload{Kind: Deployment, Name: s.d.Name, Generation: 1, ObservedGeneration: 1, Replicas: s.d.Replicas, Controlled: s.controlled,
		Paused: s.d.Strategy.Paused}
	if ru := s.d.Strategy.RollingUpdate; ru != nil {
		w.MaxSurge, w.MaxUnavailable = ru.MaxSurge, ru.MaxUnavailable
	}
	if s.controlled {
		p := s.d.Strategy.Partition
		w.Partition = &p
	}
	w.Status.UpdateRevision = s.d.NewReplicaSet
	w.Status.StableRevision = s.d.NewReplicaSet
	var oldest *ReplicaSet
	for i := range s.rss {
		rs := &s.rss[i]
		w.Status.Replicas += rs.StatusReplicas
		w.Status.ReadyReplicas += rs.ReadyReplicas
		if rs.Name == s.d.NewReplicaSet {
			w.Status.UpdatedReplicas = rs.StatusReplicas
			w.Status.UpdatedReadyReplicas = rs.ReadyReplicas
		} else if oldest == nil || byCreation(rs, oldest) < 0 {
			oldest = rs
		}
	}
	if oldest != nil {
		w.Status.StableRevision = oldest.Name
	}
	if rel.RolloutID != "" {
		w.Status.Pods = &PodCounts{Listed: w.Status.Replicas, RolloutIDLabeled: s.labelled}
	}
	return w
}

// apply writes the batch release's actions to the Deployment.
func (s *deploySim) apply(sync *Sync) {
	for _, a := range sync.Actions {
		switch a.Kind {
		case TakeControl:
			s.controlled = true
			s.d.Strategy = DeploymentStrategy{RollingStyle: Partition, Partition: *a.Partition,
				RollingUpdate: &RollingUpdate{MaxSurge: clonePtrIOS(a.MaxSurge), MaxUnavailable: clonePtrIOS(a.MaxUnavailable)}}
		case WritePartition:
			s.d.Strategy.Partition = *a.Partition
		case ReleaseControl:
			if a.ClearPartition {
				s.controlled, s.handedBack = false, true
				s.d.Strategy.Partition = intorpercent.FromInt(s.d.Replicas)
			}
		case LabelPods:
			s.labelled += a.Count
		}
	}
}

// counts fills the workload columns of st.
func (s *deploySim) counts(st *Step, now time.Time) {
	st.Replicas = s.d.Replicas
	if s.controlled {
		st.Partition = s.d.Strategy.Partition.String()
	}
	for i := range s.rss {
		rs := &s.rss[i]
		for _, at := range s.pods[rs.Name] {
			st.Pods++
			ready := !at.After(now)
			if ready {
				st.Ready++
			}
			if rs.Name == s.d.NewReplicaSet {
				st.Updated++
				if ready {
					st.UpdatedReady++
				}
			} else {
				st.Old++
			}
		}
	}
}
