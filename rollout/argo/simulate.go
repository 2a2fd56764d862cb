package argo

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// EventKind is what a scripted Event does: a user's change to the
// Rollout (kubectl apply, kubectl argo rollouts ...) or an HPA's.
type EventKind uint8

// The scripted events Simulate understands.
const (
	// SetTemplate replaces spec.template (a new revision) and raises the
	// generation.
	SetTemplate EventKind = iota + 1
	// SetReplicas changes spec.replicas, as an HPA or kubectl scale
	// does.
	SetReplicas
	// Promote is `kubectl argo rollouts promote`: unpause spec.paused,
	// and clear the pause conditions, or, with none, skip the current
	// canary step.
	Promote
	// PromoteFull is `kubectl argo rollouts promote --full`: unpause
	// and set status.promoteFull (unless already fully promoted).
	PromoteFull
	// Abort is `kubectl argo rollouts abort`: status.abort = true.
	Abort
	// Retry is `kubectl argo rollouts retry rollout`: status.abort =
	// false.
	Retry
	// Pause is `kubectl argo rollouts pause`: spec.paused = true.
	Pause
	// Resume sets spec.paused = false (kubectl patch).
	Resume
)

// String returns the kind's name, e.g. "PromoteFull".
func (k EventKind) String() string {
	switch k {
	case SetTemplate:
		return "SetTemplate"
	case SetReplicas:
		return "SetReplicas"
	case Promote:
		return "Promote"
	case PromoteFull:
		return "PromoteFull"
	case Abort:
		return "Abort"
	case Retry:
		return "Retry"
	case Pause:
		return "Pause"
	case Resume:
		return "Resume"
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is a change applied just before sync number Sync (1 is the
// first; an event outside the syncs that run is never applied). An
// event that changes the spec raises the generation, as the API server
// does.
type Event[T any] struct {
	// Sync is the number of the sync the event comes before, from 1.
	Sync int `json:"sync"`
	// Kind is what the event does.
	Kind EventKind `json:"kind"`
	// Template is the new template (SetTemplate).
	Template T `json:"template"`
	// Replicas is the new spec.replicas (SetReplicas).
	Replicas int32 `json:"replicas,omitempty"`
}

// Config describes the simulated cluster. The zero value is usable: a
// sync every 10 s, pods ready as soon as they exist, at most 1,000
// syncs.
type Config[T any] struct {
	// Start is the time of the initial state; sync k runs at Start +
	// k*Interval. Zero means 1970-01-01T00:00:00Z.
	Start time.Time `json:"start"`
	// Interval is the time between syncs; zero means 10 s.
	Interval time.Duration `json:"interval,omitempty"`
	// ReadyDelay is how long a created pod takes to become ready; it is
	// available minReadySeconds later.
	ReadyDelay time.Duration `json:"readyDelay,omitempty"`
	// NeverReady is how many of the first pods of every ReplicaSet
	// created during the simulation never become ready.
	NeverReady int32 `json:"neverReady,omitempty"`
	// MaxSyncs bounds the number of syncs; zero means 1,000.
	MaxSyncs int `json:"maxSyncs,omitempty"`
	// Events are the scripted changes, in any order.
	Events []Event[T] `json:"events,omitempty"`
	// Options are the options of every sync, as PlanWith's.
	Options Options `json:"options"`
}

// Outcome is how a simulation ended.
type Outcome uint8

// The ways a simulation ends. "Settled" means a sync wrote nothing, no
// pod is about to become ready, no requeue is pending and no scripted
// event is left.
const (
	// OutcomeComplete: settled with the current template's ReplicaSet
	// stable, at replicas, all of it available, and no other
	// ReplicaSet with pods (even if spec.paused is set).
	OutcomeComplete Outcome = iota + 1
	// OutcomePaused: settled while paused (spec.paused, a pause
	// condition such as an indefinite pause step or a blue-green
	// promotion waiting for a promote).
	OutcomePaused
	// OutcomeAborted: settled while aborted.
	OutcomeAborted
	// OutcomeStalled: settled otherwise (pods that never become ready,
	// a canary that cannot move, an analysis step that is not run).
	OutcomeStalled
	// OutcomeSyncLimit: MaxSyncs syncs ran before it settled.
	OutcomeSyncLimit
)

// String returns "Complete", "Paused", "Aborted", "Stalled" or
// "SyncLimit".
func (o Outcome) String() string {
	switch o {
	case OutcomeComplete:
		return "Complete"
	case OutcomePaused:
		return "Paused"
	case OutcomeAborted:
		return "Aborted"
	case OutcomeStalled:
		return "Stalled"
	case OutcomeSyncLimit:
		return "SyncLimit"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// ReplicaSetState is one ReplicaSet in a Step, as `kubectl argo rollouts
// get rollout -w` lists it.
type ReplicaSetState struct {
	// Name, Hash and Revision identify the ReplicaSet: its name, its
	// pod-template hash and its revision number.
	Name     string `json:"name"`
	Hash     string `json:"hash"`
	Revision int64  `json:"revision"`
	// Roles are the ReplicaSet's tags: "stable", "canary", "preview",
	// "active" (none for an old ReplicaSet).
	Roles []string `json:"roles,omitempty"`
	// Replicas is spec.replicas; Pods, Ready and Available count its
	// pods after the sync's writes took effect.
	Replicas  int32 `json:"replicas"`
	Pods      int32 `json:"pods"`
	Ready     int32 `json:"ready"`
	Available int32 `json:"available"`
	// ScaleDownDeadline is its scale-down-deadline, "" when none.
	ScaleDownDeadline string `json:"scaleDownDeadline,omitempty"`
}

// Step is one recorded sync of a simulation, with what `kubectl argo
// rollouts get rollout -w` shows after it.
type Step struct {
	// Sync numbers the sync, from 1; syncs that changed nothing are not
	// recorded, so numbers may skip.
	Sync int `json:"sync"`
	// Time is when the sync ran; Elapsed is Time - Config.Start.
	Time    time.Time     `json:"time"`
	Elapsed time.Duration `json:"elapsed"`
	// Events describe the events applied just before the sync.
	Events []string `json:"events,omitempty"`
	// Actions and Reason are Plan's.
	Actions []Action `json:"actions,omitempty"`
	Reason  string   `json:"reason"`
	// Replicas is spec.replicas.
	Replicas int32 `json:"replicas"`
	// StepIndex and Steps are the canary's "Step: i/n" (Steps 0 when
	// there are none, or for blue-green). StepText describes step
	// StepIndex as kubectl does ("setWeight: 20", "pause: 30s"), ""
	// past the last.
	StepIndex int32  `json:"stepIndex"`
	Steps     int32  `json:"steps"`
	StepText  string `json:"stepText,omitempty"`
	// SetWeight is the weight the steps ask for (CurrentSetWeight);
	// ActualWeight is kubectl's actual weight: the canary's share of
	// available pods for a basic canary, the recorded traffic weight
	// with traffic routing, MaxTrafficWeight past the last step.
	SetWeight    int32 `json:"setWeight"`
	ActualWeight int32 `json:"actualWeight"`
	// Status is the Rollout's status after the sync.
	Status Status `json:"status"`
	// ReplicaSets are the ReplicaSets after the sync, newest revision
	// first, as kubectl lists them.
	ReplicaSets []ReplicaSetState `json:"replicaSets"`
}

// String renders the step on one line: the sync, the events, step and
// weights (set/actual), the phase, the ReplicaSets (name, tags, ready/pods), then the reason.
func (s Step) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sync %d (+%s)", s.Sync, s.Elapsed)
	if len(s.Events) > 0 {
		b.WriteString(" [" + strings.Join(s.Events, "; ") + "]")
	}
	if s.Steps > 0 {
		fmt.Fprintf(&b, " step %d/%d", s.StepIndex, s.Steps)
	}
	if s.Steps > 0 || s.SetWeight != 0 || s.ActualWeight != 0 {
		fmt.Fprintf(&b, " weight %d/%d", s.SetWeight, s.ActualWeight)
	}
	if s.Status.Phase != "" {
		b.WriteString(" " + string(s.Status.Phase))
	}
	b.WriteString(" |")
	for _, rs := range s.ReplicaSets {
		fmt.Fprintf(&b, " %s", rs.Hash)
		if len(rs.Roles) > 0 {
			b.WriteString("(" + strings.Join(rs.Roles, ",") + ")")
		}
		fmt.Fprintf(&b, " %d/%d", rs.Available, rs.Replicas)
	}
	b.WriteString(" | " + s.Reason)
	return b.String()
}

// Trace is the result of Simulate.
type Trace[T any] struct {
	// Steps are the syncs that changed something, in order.
	Steps []Step `json:"steps"`
	// Outcome is how the simulation ended; Syncs is how many syncs ran.
	Outcome Outcome `json:"outcome"`
	Syncs   int     `json:"syncs"`
	// Rollout and ReplicaSets are the final state.
	Rollout     Rollout[T]      `json:"rollout"`
	ReplicaSets []ReplicaSet[T] `json:"replicaSets"`
}

// String renders every step on its own line, then the outcome.
func (t *Trace[T]) String() string {
	var b strings.Builder
	for _, s := range t.Steps {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s after %d syncs", t.Outcome, t.Syncs)
	return b.String()
}

// simRS is the simulated ReplicaSet controller's view of one ReplicaSet:
// its pods' ready times (zero time: never).
type simRS struct {
	pods    []time.Time
	created int32
	initial bool
}

// sim is the state of one simulation.
type sim[T any] struct {
	cfg  *Config[T]
	ro   Rollout[T]
	rss  []ReplicaSet[T]
	pods map[string]*simRS
}

// Simulate runs the Argo Rollouts controller on ro and its ReplicaSets
// against a simulated cluster, one sync per Config.Interval, applying
// cfg.Events, until it settles (see Outcome) or cfg.MaxSyncs syncs ran.
//
// The cluster: after each sync the ReplicaSet controller brings every
// ReplicaSet's pods to its spec.replicas at once: created pods become
// ready ReadyDelay later (or never, see NeverReady) and available
// minReadySeconds after that; removed pods go at once, not-ready ones
// first, then the newest. ReplicaSets passed in keep their counts: their
// ready pods are ready from the start, the others become ready
// ReadyDelay after Start. Pause durations, auto-promotion and
// scale-down delays run in this virtual time.
//
// What the tests check after every sync of random rollouts: a basic
// canary never has more than replicas + maxSurge pods once its older
// ReplicaSets are gone, nor fewer than replicas - maxUnavailable
// available once it had that many, with the exceptions docs/argo.md
// names; a rollout whose pods all become ready reaches its last step.
//
// Errors: those of Plan, on the initial state or after an event; the
// trace up to that sync is returned with it, with Outcome 0. ro and
// replicaSets are never modified.
func Simulate[T any](ro *Rollout[T], replicaSets []ReplicaSet[T], cfg Config[T]) (Trace[T], error) {
	return simulate(ro, replicaSets, cfg, nil)
}

// syncCheck is called by simulate after every sync with the sync's
// input and result; the tests check their invariants with it.
type syncCheck[T any] func(k int, ro *Rollout[T], rss []ReplicaSet[T], sync *Sync[T])

func simulate[T any](ro *Rollout[T], replicaSets []ReplicaSet[T], cfg Config[T], check syncCheck[T]) (Trace[T], error) {
	if cfg.Start.IsZero() {
		cfg.Start = time.Unix(0, 0).UTC()
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.MaxSyncs <= 0 {
		cfg.MaxSyncs = 1000
	}
	var tr Trace[T]
	if err := checkInput(ro, replicaSets); err != nil {
		return tr, err
	}
	s := &sim[T]{cfg: &cfg, ro: *ro, rss: slices.Clone(replicaSets), pods: make(map[string]*simRS, len(replicaSets))}
	for i := range s.rss {
		r := &s.rss[i]
		sr := &simRS{initial: true}
		for j := int32(0); j < r.StatusReplicas; j++ {
			if j < r.ReadyReplicas {
				sr.pods = append(sr.pods, cfg.Start.Add(-time.Duration(ro.MinReadySeconds)*time.Second))
			} else {
				sr.pods = append(sr.pods, cfg.Start.Add(cfg.ReadyDelay))
			}
		}
		s.pods[r.Name] = sr
	}
	lastEvent := 0
	for _, ev := range cfg.Events {
		lastEvent = max(lastEvent, ev.Sync)
	}
	var planner Planner[T]
	planner.Options = cfg.Options
	for k := 1; k <= cfg.MaxSyncs; k++ {
		tr.Syncs = k
		now := cfg.Start.Add(time.Duration(k) * cfg.Interval)
		var events []string
		for _, ev := range cfg.Events {
			if ev.Sync == k {
				events = append(events, s.apply(ev))
			}
		}
		s.observe(now)
		in := s.ro
		sync, err := planner.Plan(&in, s.rss, now)
		if err != nil {
			tr.Rollout, tr.ReplicaSets = s.ro, s.rss
			return tr, err
		}
		planner.Explain()
		if check != nil {
			check(k, &in, s.rss, sync)
		}
		s.take(sync, now)
		s.observe(now)
		if len(sync.Actions) > 0 || len(events) > 0 {
			tr.Steps = append(tr.Steps, s.step(k, now, events, sync))
		}
		if len(sync.Actions) == 0 && !sync.Requeue && k >= lastEvent && s.settled(now) && !s.waiting(now) {
			tr.Outcome = s.outcome()
			tr.Rollout, tr.ReplicaSets = s.ro, s.rss
			return tr, nil
		}
	}
	tr.Outcome = OutcomeSyncLimit
	tr.Rollout, tr.ReplicaSets = s.ro, s.rss
	return tr, nil
}

// apply applies a scripted event and describes it.
func (s *sim[T]) apply(ev Event[T]) string {
	ro := &s.ro
	st := &ro.Status
	switch ev.Kind {
	case SetTemplate:
		ro.Template = ev.Template
		ro.Generation++
		return "new template"
	case SetReplicas:
		ro.Replicas = &ev.Replicas
		ro.Generation++
		return "replicas " + strconv.Itoa(int(ev.Replicas))
	case Promote:
		if ro.Paused {
			ro.Paused = false
			ro.Generation++
		}
		if len(st.PauseConditions) > 0 {
			st.PauseConditions = nil
		} else if c := ro.Strategy.Canary; c != nil && len(c.Steps) > 0 {
			_, i := CurrentCanaryStep(ro)
			if int(i) < len(c.Steps) {
				i++
			}
			st.CurrentStepIndex = &i
		}
		return "promote"
	case PromoteFull:
		if ro.Paused {
			ro.Paused = false
			ro.Generation++
		}
		if st.CurrentPodHash != st.StableRS {
			st.PromoteFull = true
		}
		return "promote --full"
	case Abort:
		st.Abort = true
		return "abort"
	case Retry:
		st.Abort = false
		return "retry"
	case Pause:
		if !ro.Paused {
			ro.Paused = true
			ro.Generation++
		}
		return "pause"
	case Resume:
		if ro.Paused {
			ro.Paused = false
			ro.Generation++
		}
		return "resume"
	}
	return ev.Kind.String()
}

// observe sets every ReplicaSet's status from its pods at now.
func (s *sim[T]) observe(now time.Time) {
	minReady := time.Duration(s.ro.MinReadySeconds) * time.Second
	for i := range s.rss {
		r := &s.rss[i]
		sr := s.pods[r.Name]
		var ready, avail int32
		for _, at := range sr.pods {
			if at.IsZero() || at.After(now) {
				continue
			}
			ready++
			if !at.Add(minReady).After(now) {
				avail++
			}
		}
		r.StatusReplicas, r.ReadyReplicas, r.AvailableReplicas = int32(len(sr.pods)), ready, avail
	}
}

// take stores a sync's result and lets the ReplicaSet controller act.
func (s *sim[T]) take(sync *Sync[T], now time.Time) {
	s.ro = sync.Rollout
	s.rss = append(s.rss[:0:0], sync.ReplicaSets...)
	keep := make(map[string]bool, len(s.rss))
	for i := range s.rss {
		r := &s.rss[i]
		keep[r.Name] = true
		sr := s.pods[r.Name]
		if sr == nil {
			sr = &simRS{}
			s.pods[r.Name] = sr
		}
		for int32(len(sr.pods)) < r.Replicas {
			at := now.Add(s.cfg.ReadyDelay)
			if !sr.initial && sr.created < s.cfg.NeverReady {
				at = time.Time{}
			}
			sr.created++
			sr.pods = append(sr.pods, at)
		}
		if int32(len(sr.pods)) > r.Replicas {
			// Not-ready pods go first (never-ready, then the latest
			// to become ready), then the newest.
			slices.SortStableFunc(sr.pods, func(a, b time.Time) int {
				ra, rb := !a.IsZero() && !a.After(now), !b.IsZero() && !b.After(now)
				switch {
				case ra != rb:
					if ra {
						return -1
					}
					return 1
				case a.IsZero() != b.IsZero():
					if a.IsZero() {
						return 1
					}
					return -1
				}
				return a.Compare(b)
			})
			sr.pods = sr.pods[:r.Replicas]
		}
	}
	for name := range s.pods {
		if !keep[name] {
			delete(s.pods, name)
		}
	}
}

// settled reports whether no pod changes state after now.
func (s *sim[T]) settled(now time.Time) bool {
	minReady := time.Duration(s.ro.MinReadySeconds) * time.Second
	for _, sr := range s.pods {
		for _, at := range sr.pods {
			if !at.IsZero() && at.Add(minReady).After(now) {
				return false
			}
		}
	}
	return true
}

// waiting reports whether a timer of the Rollout has not yet passed at
// now: a pause step's duration, a blue-green auto-promotion, a
// scale-down deadline. (The controller requeues for them; a sync that
// lands exactly on the end sees it not yet passed.)
func (s *sim[T]) waiting(now time.Time) bool {
	ro := &s.ro
	for i := range s.rss {
		if t, has, ok := deadline(&s.rss[i]); has && ok && !t.Before(now) {
			return true
		}
	}
	if step, _ := CurrentCanaryStep(ro); step != nil && step.Pause != nil && step.Pause.Duration != nil {
		if start, ok := pauseStart(ro.Status.PauseConditions, PauseCanaryStep); ok {
			if !start.Add(time.Duration(DurationSeconds(*step.Pause)) * time.Second).Before(now) {
				return true
			}
		}
	}
	if b := ro.Strategy.BlueGreen; b != nil && b.AutoPromotionSeconds > 0 && AutoPromotionEnabledOrDefault(ro) {
		if start, ok := pauseStart(ro.Status.PauseConditions, PauseBlueGreen); ok {
			if !start.Add(time.Duration(b.AutoPromotionSeconds) * time.Second).Before(now) {
				return true
			}
		}
	}
	return false
}

// outcome classifies a settled simulation.
func (s *sim[T]) outcome() Outcome {
	st := &s.ro.Status
	if st.Abort {
		return OutcomeAborted
	}
	r := ReplicasOrDefault(s.ro.Replicas)
	complete := st.StableRS != "" && st.StableRS == st.CurrentPodHash
	for i := range s.rss {
		x := &s.rss[i]
		if x.PodTemplateHash == st.CurrentPodHash {
			complete = complete && x.Replicas == r && x.AvailableReplicas == r
		} else if x.Replicas != 0 || x.StatusReplicas != 0 {
			complete = false
		}
	}
	switch {
	case complete:
		return OutcomeComplete
	case s.ro.Paused || len(st.PauseConditions) > 0:
		return OutcomePaused
	}
	return OutcomeStalled
}

// step records one sync.
func (s *sim[T]) step(k int, now time.Time, events []string, sync *Sync[T]) Step {
	ro := &s.ro
	st := Step{Sync: k, Time: now, Elapsed: now.Sub(s.cfg.Start), Events: events,
		Actions: slices.Clone(sync.Actions), Reason: sync.Reason, Replicas: ReplicasOrDefault(ro.Replicas), Status: ro.Status}
	st.Status.PauseConditions = slices.Clone(ro.Status.PauseConditions)
	for i := range s.rss {
		x := &s.rss[i]
		var roles []string
		if x.PodTemplateHash == ro.Status.StableRS {
			roles = append(roles, "stable")
		}
		if ro.Strategy.Canary != nil && x.PodTemplateHash == ro.Status.CurrentPodHash && x.PodTemplateHash != ro.Status.StableRS {
			roles = append(roles, "canary")
		}
		if ro.Strategy.BlueGreen != nil {
			if x.PodTemplateHash == ro.Status.BlueGreen.PreviewSelector && x.PodTemplateHash != ro.Status.BlueGreen.ActiveSelector {
				roles = append(roles, "preview")
			}
			if x.PodTemplateHash == ro.Status.BlueGreen.ActiveSelector {
				roles = append(roles, "active")
			}
		}
		st.ReplicaSets = append(st.ReplicaSets, ReplicaSetState{Name: x.Name, Hash: x.PodTemplateHash, Revision: x.Revision, Roles: roles,
			Replicas: x.Replicas, Pods: x.StatusReplicas, Ready: x.ReadyReplicas, Available: x.AvailableReplicas, ScaleDownDeadline: x.ScaleDownDeadline})
	}
	slices.SortFunc(st.ReplicaSets, func(a, b ReplicaSetState) int {
		if a.Revision != b.Revision {
			return cmp.Compare(b.Revision, a.Revision)
		}
		return strings.Compare(a.Name, b.Name)
	})
	if c := ro.Strategy.Canary; c != nil {
		m := MaxTrafficWeight(ro)
		st.SetWeight = CurrentSetWeight(ro)
		step, i := CurrentCanaryStep(ro)
		if ro.Status.CurrentStepIndex != nil && len(c.Steps) > 0 {
			st.StepIndex, st.Steps = *ro.Status.CurrentStepIndex, int32(len(c.Steps))
		}
		_ = i
		if step != nil {
			st.StepText = StepText(*step)
		}
		switch {
		case step == nil:
			st.ActualWeight = m
		case ro.Status.AvailableReplicas > 0 && c.TrafficRouting == nil:
			for _, x := range st.ReplicaSets {
				if slices.Contains(x.Roles, "canary") {
					st.ActualWeight = int32(int64(x.Available) * int64(m) / int64(ro.Status.AvailableReplicas))
				}
			}
		case ro.Status.AvailableReplicas > 0:
			if w := ro.Status.Canary.Weights; w != nil {
				st.ActualWeight = w.Canary.Weight
			} else {
				st.ActualWeight = st.SetWeight
			}
		}
	}
	return st
}

// StepText describes a canary step as kubectl argo rollouts does:
// "setWeight: 20", "pause", "pause: 30s", "setCanaryScale{replicas: 3}",
// "experiment", "analysis", "setHeaderRoute", "setMirrorRoute",
// "plugin", or "invalid".
// Upstream: CanaryStepString, utils/rollout/rolloututil.go.
func StepText(s CanaryStep) string {
	switch {
	case s.SetWeight != nil:
		return "setWeight: " + strconv.Itoa(int(*s.SetWeight))
	case s.Pause != nil:
		if s.Pause.Duration != nil {
			return "pause: " + s.Pause.Duration.String()
		}
		return "pause"
	case s.Experiment != nil:
		return "experiment"
	case s.Analysis != nil:
		return "analysis"
	case s.SetCanaryScale != nil:
		c := s.SetCanaryScale
		switch {
		case c.Weight != nil:
			return "setCanaryScale{weight: " + strconv.Itoa(int(*c.Weight)) + "}"
		case c.MatchTrafficWeight:
			return "setCanaryScale{matchTrafficWeight: true}"
		case c.Replicas != nil:
			return "setCanaryScale{replicas: " + strconv.Itoa(int(*c.Replicas)) + "}"
		}
	case s.Plugin != nil:
		return "plugin"
	case s.SetHeaderRoute != nil:
		return "setHeaderRoute"
	case s.SetMirrorRoute != nil:
		return "setMirrorRoute"
	}
	return "invalid"
}
