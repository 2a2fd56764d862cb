package batchrelease

import (
	"slices"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// Config describes a simulated release: the Rollout's steps that drive
// the BatchRelease's batch partition, and the cluster's timing.
type Config struct {
	// Start is the time of the initial state; sync k runs at Start +
	// k*Interval. Zero means 1970-01-01T00:00:00Z.
	Start time.Time `json:"start"`
	// Interval is the time between syncs; zero means 2 s (the batch
	// release's requeue, DefaultRequeue).
	Interval time.Duration `json:"interval,omitempty"`
	// ReadyDelay is how long a created pod takes to become ready (and
	// available: minReadySeconds is 0 in the simulation).
	ReadyDelay time.Duration `json:"readyDelay,omitempty"`
	// Pauses are the Rollout steps' pauses, by step (Pauses[i] for batch
	// i): how long the Rollout waits after batch i is ready before it
	// raises the batch partition. Missing entries and nil durations are
	// 0 (no wait); the simulation does not model manual pauses.
	Pauses []Pause `json:"pauses,omitempty"`
	// MaxSyncs bounds the number of syncs; zero means 1,000.
	MaxSyncs int `json:"maxSyncs,omitempty"`
	// Options are the options of every batch release reconcile.
	Options Options `json:"options"`
	// Events are the user's changes, in any order, each applied just
	// before its sync.
	Events []Event `json:"events,omitempty"`
}

// Event is a change a user makes during a simulated release, applied
// just before sync number Sync (from 1).
type Event struct {
	// Sync is the sync the change comes before.
	Sync int `json:"sync"`
	// Replicas, when set, scales the workload to that many replicas (an
	// HPA or kubectl scale): the release redoes its current batch, and a
	// Deployment's ReplicaSets are scaled in proportion.
	Replicas *int32 `json:"replicas,omitempty"`
}

// eventsAt returns the descriptions of the events of sync k and the
// replicas they set (the last one wins), -1 when none.
func eventsAt(events []Event, k int) (replicas int32, ok bool) {
	for _, e := range events {
		if e.Sync == k && e.Replicas != nil {
			replicas, ok = *e.Replicas, true
		}
	}
	return replicas, ok
}

func checkEvents(events []Event) error {
	for i, e := range events {
		if e.Replicas != nil && *e.Replicas < 0 {
			return &field.Error{Prefix: "batchrelease", Field: "config.events[" + strconv.Itoa(i) + "].replicas", Value: itoa(*e.Replicas),
				Detail: "must not be negative", Err: field.ErrNegative}
		}
	}
	return nil
}

// Outcome is how a simulation ended.
type Outcome uint8

const (
	// OutcomeComplete: the release completed (every batch done, the
	// workload handed back and settled).
	OutcomeComplete Outcome = iota + 1
	// OutcomeSyncLimit: Config.MaxSyncs syncs ran first.
	OutcomeSyncLimit
)

var outcomeNames = [...]string{"", "OutcomeComplete", "OutcomeSyncLimit"}

// String returns the outcome's name.
func (o Outcome) String() string { return enumString(uint8(o), outcomeNames[:], "Outcome") }

// MarshalText returns the outcome's name, "" for the zero value.
func (o Outcome) MarshalText() ([]byte, error) {
	return marshalEnum(uint8(o), outcomeNames[:], "Outcome")
}

// UnmarshalText sets o to the outcome named text; "" is the zero value.
func (o *Outcome) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, outcomeNames[:], "Outcome")
	if err == nil {
		*o = Outcome(n)
	}
	return err
}

// Step is one recorded sync of a simulation, at both levels: the batch
// release's reconcile (the batch table) and the workload controller's
// (the workload's `kubectl get -w` line).
type Step struct {
	// Sync numbers the sync, from 1; syncs that changed nothing are not
	// recorded.
	Sync int `json:"sync"`
	// Time is when the sync ran; Elapsed is Time - Config.Start.
	Time    time.Time     `json:"time"`
	Elapsed time.Duration `json:"elapsed"`

	// BatchPartition is the plan's batch partition the Rollout had set
	// (-1: none, the release finalizes).
	BatchPartition int32 `json:"batchPartition"`
	// Phase, Batch and State are the release's status after the reconcile.
	Phase Phase      `json:"phase"`
	Batch int32      `json:"batch"`
	State BatchState `json:"state,omitempty"`
	// Planned and Desired are the batch's planned and desired updated
	// pods, when the reconcile computed a batch context (HasContext).
	HasContext bool  `json:"hasContext,omitempty"`
	Planned    int32 `json:"planned"`
	Desired    int32 `json:"desired"`
	// Actions and Reason are the batch release reconcile's.
	Actions []Action `json:"actions,omitempty"`
	Reason  string   `json:"reason"`

	// WorkloadWrites describe the workload controller's writes, one
	// line each ("create 2 pods at demo-v2", "scale web-v2 3->5").
	WorkloadWrites []string `json:"workloadWrites,omitempty"`
	// Partition is the workload's partition after the sync, as written
	// ("" when absent).
	Partition string `json:"partition"`
	// Replicas is spec.replicas; Pods counts the active pods, Updated
	// those at the update revision, UpdatedReady the ready ones among
	// them, Ready every ready pod, Old the active pods not updated.
	Replicas     int32 `json:"replicas"`
	Pods         int32 `json:"pods"`
	Updated      int32 `json:"updated"`
	UpdatedReady int32 `json:"updatedReady"`
	Ready        int32 `json:"ready"`
	Old          int32 `json:"old"`
}

// Trace is the result of a simulation.
type Trace struct {
	// Steps are the syncs that changed something, in order.
	Steps []Step `json:"steps"`
	// Outcome is how the simulation ended; Syncs how many syncs ran.
	Outcome Outcome `json:"outcome"`
	Syncs   int     `json:"syncs"`
	// Release and Workload are the final BatchRelease and workload.
	Release  Release  `json:"release"`
	Workload Workload `json:"workload"`
}

func (c *Config) defaults() {
	if c.Start.IsZero() {
		c.Start = time.Unix(0, 0).UTC()
	}
	if c.Interval <= 0 {
		c.Interval = DefaultRequeue
	}
	if c.MaxSyncs <= 0 {
		c.MaxSyncs = 1000
	}
}

// rolloutSide is the Rollout controller's part: it raises the batch
// partition when the current batch is ready and its pause is over, and
// clears it after the last batch.
type rolloutSide struct {
	cfg     *Config
	readyAt time.Time
	waiting bool
}

// advance updates rel.BatchPartition before reconcile at now; it
// reports an event description ("" when nothing changed).
func (rs *rolloutSide) advance(rel *Release, now time.Time) {
	st := &rel.Status
	if rel.BatchPartition == nil || st.Phase != Progressing || st.BatchState != Ready || st.CurrentBatch != *rel.BatchPartition {
		rs.waiting = false
		return
	}
	if !rs.waiting {
		rs.waiting, rs.readyAt = true, now
	}
	var wait time.Duration
	if i := int(st.CurrentBatch); i < len(rs.cfg.Pauses) && rs.cfg.Pauses[i].Duration != nil {
		wait = time.Duration(*rs.cfg.Pauses[i].Duration) * time.Second
	}
	if now.Sub(rs.readyAt) < wait {
		return
	}
	rs.waiting = false
	if next := st.CurrentBatch + 1; int(next) < len(rel.Batches) {
		rel.BatchPartition = &next
	} else {
		rel.BatchPartition = nil
	}
}

func checkSimRelease(release *Release) error {
	if release == nil {
		return &field.Error{Prefix: "batchrelease", Field: "release", Detail: "must not be nil", Err: field.ErrRequired}
	}
	if len(release.Batches) == 0 {
		return &field.Error{Prefix: "batchrelease: invalid BatchRelease " + strconv.Quote(release.Name), Field: "spec.releasePlan.batches", Detail: "must not be empty", Err: field.ErrRequired}
	}
	return nil
}

// Simulate runs a whole batch release of a CloneSet: before each sync
// the Rollout side raises the batch partition (batch i+1 once batch i is
// ready and its pause is over, none after the last batch); then one
// batch release reconcile ([Plan]) writes the CloneSet's partition; then
// one CloneSet reconcile ([cloneset.Plan]) acts on it; pods become ready
// Config.ReadyDelay after they are created, deleted pods are gone by the
// next sync. cs is the CloneSet with its new template, as kruise-rollout's
// workload webhook leaves it (the partition at "100%" so that nothing is
// updated before the first batch: Simulate sets it if absent); release
// is the BatchRelease the Rollout created (BatchPartition 0 for its
// first step; Simulate starts it there if nil). The inputs are not
// modified. A release already Progressing (or Finalizing) starts with
// the CloneSet under its control. Updated pods get the rollout-id label when release has a
// rolloutID. Simulate ends when the release has completed and the
// CloneSet has settled (OutcomeComplete), or after Config.MaxSyncs syncs.
func Simulate[T any](release *Release, cs *cloneset.CloneSet[T], pods []cloneset.Pod, revisions []cloneset.ControllerRevision, cfg Config) (Trace, error) {
	cfg.defaults()
	var tr Trace
	if err := checkSimRelease(release); err != nil {
		return tr, err
	}
	if cs == nil {
		return tr, &field.Error{Prefix: "batchrelease", Field: "cloneSet", Detail: "must not be nil", Err: field.ErrRequired}
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
	cur := *cs
	if cur.UpdateStrategy.Partition == nil {
		hundred := intorpercent.FromString("100%")
		cur.UpdateStrategy.Partition = &hundred
	}
	s := &cloneSim[T]{cfg: &cfg, cs: cur, pods: slices.Clone(pods), revs: slices.Clone(revisions), readyAt: map[string]time.Time{},
		controlled: release.Status.Phase == Progressing || release.Status.Phase == Finalizing}
	for i := range s.pods {
		if !s.pods[i].Ready {
			s.readyAt[s.pods[i].Name] = cfg.Start.Add(cfg.ReadyDelay)
		}
		s.pods[i].Labels = cloneLabels(s.pods[i].Labels)
	}
	// The CloneSet controller has seen the new template once before the
	// release starts.
	if _, err := s.reconcile(cfg.Start); err != nil {
		return tr, err
	}
	side := rolloutSide{cfg: &cfg}
	planner := Planner{Options: cfg.Options}
	for k := 1; k <= cfg.MaxSyncs; k++ {
		tr.Syncs = k
		now := cfg.Start.Add(time.Duration(k) * cfg.Interval)
		s.observe(now)
		if n, ok := eventsAt(cfg.Events, k); ok {
			s.cs.Replicas = n
			s.cs.Generation++
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
		s.apply(&sync, &rel)
		rel.Status = sync.Release.Status
		rel.Status.NoNeedUpdateReplicas = clonePtr(rel.Status.NoNeedUpdateReplicas)
		writes, err := s.reconcile(now)
		if err != nil {
			return tr, err
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
			s.counts(&st)
			tr.Steps = append(tr.Steps, st)
		}
		if rel.Status.Phase == Completed && s.settled() {
			tr.Outcome = OutcomeComplete
			break
		}
	}
	if tr.Outcome == 0 {
		tr.Outcome = OutcomeSyncLimit
	}
	tr.Release = rel
	tr.Workload = s.workload(&rel)
	return tr, nil
}

func cloneLabels(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// RolloutIDLabel is the pod label kruise-rollout writes with the
// release's rolloutID; BatchIDLabel the batch (from 1) a pod was
// released in. Upstream: RolloutIDLabel, RolloutBatchIDLabel, api/v1beta1.
// NoNeedUpdateLabel marks, with the rolloutID, the pods already at the
// target revision when rolling back in batches. Upstream: NoNeedUpdatePodLabel,
// pkg/util.
const (
	RolloutIDLabel    = "rollouts.kruise.io/rollout-id"
	BatchIDLabel      = "rollouts.kruise.io/rollout-batch-id"
	NoNeedUpdateLabel = "rollouts.kruise.io/no-need-update"
)

// cloneSim is the simulated CloneSet and its pods.
type cloneSim[T any] struct {
	cfg        *Config
	cs         cloneset.CloneSet[T]
	pods       []cloneset.Pod
	revs       []cloneset.ControllerRevision
	readyAt    map[string]time.Time
	gone       map[string]bool
	planner    cloneset.Planner[T]
	controlled bool
}

// observe lets time pass: deleted pods go, created pods become ready.
func (s *cloneSim[T]) observe(now time.Time) {
	keep := s.pods[:0]
	for _, p := range s.pods {
		if p.Terminating {
			continue
		}
		if p.NodeName == "" {
			p.NodeName = "node-1"
		}
		if !p.Ready {
			if at, ok := s.readyAt[p.Name]; ok && !at.After(now) {
				p.Phase, p.Ready, p.ReadySince = cloneset.PodRunning, true, at
				delete(s.readyAt, p.Name)
			}
		}
		keep = append(keep, p)
	}
	s.pods = keep
}

func (s *cloneSim[T]) settled() bool {
	st := &s.cs.Status
	return len(s.readyAt) == 0 && st.ObservedGeneration >= s.cs.Generation && st.UpdatedReadyReplicas == s.cs.Replicas && st.Replicas == s.cs.Replicas
}

// reconcile runs one CloneSet reconcile and adopts it.
func (s *cloneSim[T]) reconcile(now time.Time) ([]string, error) {
	sync, err := s.planner.Plan(&s.cs, s.pods, s.revs, now)
	if err != nil {
		return nil, err
	}
	all, err := sync.AppendCreatedPods(slices.Clip(sync.Pods))
	if err != nil {
		return nil, err
	}
	var writes []string
	created := map[string]int{}
	for _, a := range sync.Actions {
		switch a.Kind {
		case cloneset.CreatePod:
			created[a.Revision] += int(max(a.Count, 1))
		case cloneset.DeletePod:
			writes = append(writes, "delete pod "+a.Pod)
		case cloneset.UpdatePodInPlace:
			writes = append(writes, "update pod "+a.Pod+" in place")
			s.readyAt[a.Pod] = now.Add(s.cfg.ReadyDelay)
		}
	}
	for _, rev := range sortedKeys(created) {
		writes = append(writes, "create "+pods(int64(created[rev]), "")+" at "+rev)
	}
	for i := len(sync.Pods); i < len(all); i++ {
		s.readyAt[all[i].Name] = now.Add(s.cfg.ReadyDelay)
	}
	s.cs, s.pods, s.revs = sync.CloneSet, all, sync.Revisions
	s.cs.UpdateStrategy.Partition = clonePtrIOS(s.cs.UpdateStrategy.Partition)
	return writes, nil
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// workload is the CloneSet as the batch release reads it.
func (s *cloneSim[T]) workload(rel *Release) Workload {
	st := &s.cs.Status
	w := Workload{Kind: CloneSet, Name: s.cs.Name, Generation: s.cs.Generation, ObservedGeneration: st.ObservedGeneration,
		Replicas: s.cs.Replicas, Controlled: s.controlled, Partition: s.cs.UpdateStrategy.Partition, Paused: s.cs.UpdateStrategy.Paused,
		MaxSurge: s.cs.UpdateStrategy.MaxSurge, MaxUnavailable: s.cs.UpdateStrategy.MaxUnavailable,
		Status: WorkloadStatus{Replicas: st.Replicas, ReadyReplicas: st.ReadyReplicas, UpdatedReplicas: st.UpdatedReplicas,
			UpdatedReadyReplicas: st.UpdatedReadyReplicas, UpdateRevision: st.UpdateRevision, StableRevision: st.CurrentRevision}}
	if w.Status.StableRevision == "" {
		w.Status.StableRevision = st.UpdateRevision
	}
	if rel.RolloutID != "" {
		pc := PodCounts{Listed: int32(len(s.pods))}
		for i := range s.pods {
			p := &s.pods[i]
			if !p.Terminating && p.Labels[RolloutIDLabel] == rel.RolloutID {
				pc.RolloutIDLabeled++
			}
			if !p.Terminating && cloneset.IsPodAtRevision(p, st.UpdateRevision) && p.Labels[NoNeedUpdateLabel] == rel.RolloutID {
				pc.NoNeedUpdate++
			}
		}
		w.Status.Pods = &pc
	}
	return w
}

// apply writes the batch release's actions to the CloneSet and its pods.
func (s *cloneSim[T]) apply(sync *Sync, rel *Release) {
	for _, a := range sync.Actions {
		switch a.Kind {
		case TakeControl, WritePartition:
			s.controlled = true
			if a.Partition != nil {
				s.cs.UpdateStrategy.Partition = clonePtrIOS(a.Partition)
			}
			s.cs.UpdateStrategy.Paused = sync.Workload.Paused
			s.cs.Generation++
		case ReleaseControl:
			s.controlled = false
			if a.ClearPartition {
				s.cs.UpdateStrategy.Partition = nil
				s.cs.UpdateStrategy.Paused = false
				s.cs.Generation++
			}
		case LabelPods:
			s.label(a.Count, rel, sync.Context.CurrentBatch)
		case LabelNoNeedUpdatePods:
			s.labelNoNeedUpdate(rel)
		}
	}
}

// label labels n pods at the update revision that lack the rollout-id,
// newest first, as the patcher takes them from the end of its list.
func (s *cloneSim[T]) label(n int32, rel *Release, batch int32) {
	upd := s.cs.Status.UpdateRevision
	idx := make([]int, 0, len(s.pods))
	for i := range s.pods {
		p := &s.pods[i]
		if !p.Terminating && cloneset.IsPodAtRevision(p, upd) && p.Labels[RolloutIDLabel] != rel.RolloutID {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return s.pods[b].CreationTime.Compare(s.pods[a].CreationTime) })
	for _, i := range idx {
		if n == 0 {
			break
		}
		p := &s.pods[i]
		p.Labels = cloneLabels(p.Labels)
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[RolloutIDLabel] = rel.RolloutID
		p.Labels[BatchIDLabel] = strconv.Itoa(int(batch) + 1)
		n--
	}
}

// labelNoNeedUpdate marks every pod at the update revision as needing no
// update, as markNoNeedUpdatePodsIfNeeds does.
func (s *cloneSim[T]) labelNoNeedUpdate(rel *Release) {
	upd := s.cs.Status.UpdateRevision
	for i := range s.pods {
		p := &s.pods[i]
		if p.Terminating || !cloneset.IsPodAtRevision(p, upd) || p.Labels[NoNeedUpdateLabel] == rel.RolloutID {
			continue
		}
		p.Labels = cloneLabels(p.Labels)
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[NoNeedUpdateLabel] = rel.RolloutID
	}
}

// counts fills the workload columns of st.
func (s *cloneSim[T]) counts(st *Step) {
	st.Replicas = s.cs.Replicas
	if p := s.cs.UpdateStrategy.Partition; p != nil {
		st.Partition = p.String()
	}
	upd := s.cs.Status.UpdateRevision
	for i := range s.pods {
		p := &s.pods[i]
		if p.Terminating {
			continue
		}
		st.Pods++
		if p.Ready {
			st.Ready++
		}
		if cloneset.IsPodAtRevision(p, upd) {
			st.Updated++
			if p.Ready {
				st.UpdatedReady++
			}
		} else {
			st.Old++
		}
	}
}
