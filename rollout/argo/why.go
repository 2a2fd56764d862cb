package argo

import (
	"strconv"
	"strings"
	"time"
)

// role is what a ReplicaSet is to the sync.
type role uint8

const (
	whyNone role = iota
	whyNew
	whyStable
	whyOld
)

// weightSource says which rule chose the traffic weight.
type weightSource uint8

const (
	weightSteps weightSource = iota
	weightRollback
	weightPromoted
	weightAbort
	weightNoCanary
	weightPromoteFull
	weightPrevious
	weightNoSteps
)

// why holds the facts of one action's reason, recorded while planning;
// the sentence is written only when asked (Planner.Explain).
type why struct {
	role      role
	target    int32 // the count the rule asks for
	blueGreen bool
	traffic   bool
	explicit  bool  // setCanaryScale.replicas: weight holds the pods
	weight    int32 // the weight the count comes from
	maxWeight int32
	replicas  int32
	surge     int32
	// splitNew and splitStable are SplitForWeight's target.
	splitNew, splitStable int32
	unavailable           int32

	abortHold, abortExpired bool
	delay                   time.Duration
	limit                   int32
	unhealthy               bool
	budget                  int32
	dynamic, intermediate   bool
	zeroDelay, overLimit    bool
	badDeadline, expired    bool
	waiting                 bool
	deadline                string

	recorded       bool  // the stable's reason: weights were recorded
	recordedStable int32 // ... and their stable weight

	source   weightSource
	from     int32
	fromHash string
	abort    bool
}

// summary holds the facts of the sync's one-line reason.
type summary struct {
	kind        summaryKind
	desired     int32
	scaled      int
	trafficHeld bool
	promoted    string
	stepDone    bool
}

type summaryKind uint8

const (
	sumStrategy summaryKind = iota
	sumDefaulted
	sumCreated
	sumScaling
	sumReset
)

// explain writes every Action.Reason and the Sync.Reason.
func (p *planner[T]) explain() {
	var b strings.Builder
	for i := range p.out.Actions {
		b.Reset()
		p.reason(&b, &p.out.Actions[i], &p.whys[i])
		p.out.Actions[i].Reason = b.String()
	}
	b.Reset()
	p.summary(&b)
	p.out.Reason = b.String()
}

// pct writes weight w of m as a percentage ("20%"), or "w/m" when m is
// not 100.
func pct(b *strings.Builder, w, m int32) {
	if m == 100 {
		b.WriteString(strconv.Itoa(int(w)))
		b.WriteByte('%')
		return
	}
	b.WriteString(strconv.Itoa(int(w)))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(int(m)))
}

// num writes a float with up to two decimals, trailing zeros dropped.
func num(b *strings.Builder, f float64) {
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	b.WriteString(s)
}

// podsText writes "1 pod" or "n pods".
func podsText(b *strings.Builder, n int32) {
	b.WriteString(strconv.Itoa(int(n)))
	if n == 1 {
		b.WriteString(" pod")
		return
	}
	b.WriteString(" pods")
}

// splitText explains SplitForWeight's answer c/s for weight w of m on r
// replicas: "canary 1 / stable 3: weight 20% of 3 is 0.6; 1/4 = 25% is
// the closest split that keeps a pod on each side".
func splitText(b *strings.Builder, r, w, m, c, s int32) {
	b.WriteString("canary ")
	b.WriteString(strconv.Itoa(int(c)))
	b.WriteString(" / stable ")
	b.WriteString(strconv.Itoa(int(s)))
	b.WriteString(": weight ")
	pct(b, w, m)
	b.WriteString(" of ")
	b.WriteString(strconv.Itoa(int(r)))
	b.WriteString(" is ")
	exact := float64(int64(r)*int64(w)) / float64(m)
	num(b, exact)
	total := c + s
	if float64(c) == exact && total == r {
		b.WriteString(" pods")
		return
	}
	b.WriteString("; ")
	b.WriteString(strconv.Itoa(int(c)))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(int(total)))
	b.WriteString(" = ")
	if total > 0 {
		num(b, float64(c)*100/float64(total))
	} else {
		b.WriteByte('0')
	}
	b.WriteString("% is the closest split")
	if w > 0 && w < m && c > 0 && s > 0 && (exact < 1 || float64(r)-exact < 1) {
		b.WriteString(" that keeps a pod on each side")
	}
	if total > r {
		b.WriteString(", surging one pod")
	}
}

// reason writes one action's sentence.
func (p *planner[T]) reason(b *strings.Builder, a *Action, w *why) {
	switch a.Kind {
	case SetSpecReplicas:
		b.WriteString("spec.replicas is unset: the controller writes 1 so that an HPA can scale the Rollout, and stops this sync")
	case CreateReplicaSet:
		b.WriteString("no ReplicaSet has the current template: create ")
		b.WriteString(a.ReplicaSet)
		b.WriteString(" at 0 replicas with revision ")
		b.WriteString(strconv.FormatInt(a.Revision, 10))
		b.WriteString("; the sync stops there and sizes it next time")
	case UpdateRevision:
		b.WriteString("rolled back to an older template: its ReplicaSet becomes revision ")
		b.WriteString(strconv.FormatInt(a.Revision, 10))
	case DeleteReplicaSet:
		b.WriteString("more old ReplicaSets than revisionHistoryLimit ")
		b.WriteString(strconv.Itoa(int(w.limit)))
		b.WriteString(": delete the oldest with no pods")
	case SetTrafficWeight:
		b.WriteString("send ")
		pct(b, a.Weight, w.maxWeight)
		b.WriteString(" of traffic to the canary (was ")
		pct(b, a.From, w.maxWeight)
		b.WriteString("): ")
		switch w.source {
		case weightRollback:
			b.WriteString("rolling back to stable with dynamicStableScale, traffic follows the stable's available pods")
		case weightPromoted:
			b.WriteString("fully promoted, all traffic is on stable")
		case weightAbort:
			b.WriteString("aborted")
		case weightNoCanary:
			b.WriteString("the canary has no available pods")
		case weightPromoteFull:
			b.WriteString("full promotion")
		case weightPrevious:
			b.WriteString("the canary is not yet at its pods, so the previous setWeight holds")
		case weightNoSteps:
			b.WriteString("no steps")
		default:
			b.WriteString("the current step's weight")
		}
	case SwitchPreviewService:
		b.WriteString("point the preview Service at the new ReplicaSet ")
		b.WriteString(a.Hash)
	case SwitchActiveService:
		if w.abort {
			b.WriteString("aborted: point the active Service back at the stable ReplicaSet ")
		} else {
			b.WriteString("the new ReplicaSet is fully available and the pause is over: point the active Service at ")
		}
		b.WriteString(a.Hash)
		if w.fromHash != "" {
			b.WriteString(" (was ")
			b.WriteString(w.fromHash)
			b.WriteByte(')')
		}
	case RemoveScaleDownDeadline:
		b.WriteString("the ")
		if w.role == whyStable {
			b.WriteString("stable")
		} else {
			b.WriteString("new")
		}
		b.WriteString(" ReplicaSet is in use again: remove its scale-down deadline ")
		b.WriteString(a.Deadline)
	case AddScaleDownDeadline:
		if w.abortHold {
			b.WriteString("aborted and the stable is fully available: keep the canary until ")
		} else {
			b.WriteString("old ReplicaSet after the switch: keep its pods for scaleDownDelaySeconds, until ")
		}
		b.WriteString(a.Deadline)
	case ScaleReplicaSet, AnnotateDesiredReplicas:
		p.scaleReason(b, a, w)
	case WriteStatus:
		p.statusReason(b)
	}
}

// scaleReason explains a ReplicaSet's size.
func (p *planner[T]) scaleReason(b *strings.Builder, a *Action, w *why) {
	if a.Kind == AnnotateDesiredReplicas {
		b.WriteString("size already right; record desired-replicas ")
		b.WriteString(strconv.Itoa(int(a.Replicas)))
		if w.abortHold {
			b.WriteString(" while the abort delay holds the canary")
		}
		return
	}
	b.WriteString(strconv.Itoa(int(a.From)))
	b.WriteString(" → ")
	b.WriteString(strconv.Itoa(int(a.Replicas)))
	b.WriteString(": ")
	switch w.role {
	case whyOld:
		switch {
		case w.unhealthy:
			b.WriteString("old ReplicaSet with unavailable pods: keep only its available ones")
		case w.dynamic:
			b.WriteString("old ReplicaSet, dynamicStableScale: scale down at once")
		case w.intermediate:
			b.WriteString("intermediate ReplicaSet of an interrupted update: no traffic goes to it")
		case w.overLimit:
			b.WriteString("more old ReplicaSets wait than scaleDownDelayRevisionLimit ")
			b.WriteString(strconv.Itoa(int(w.limit)))
		case w.badDeadline:
			b.WriteString("its scale-down deadline does not parse")
		case w.expired:
			b.WriteString("its scale-down deadline has passed")
		case w.zeroDelay:
			b.WriteString("scaleDownDelaySeconds is 0")
		case w.waiting:
			b.WriteString("waiting for its scale-down deadline ")
			b.WriteString(w.deadline)
			b.WriteString(", held at the Rollout's replicas")
		default:
			b.WriteString("old ReplicaSet: availability allows ")
			b.WriteString(strconv.Itoa(int(w.budget)))
			b.WriteString(" fewer pods (newest revision first)")
		}
		return
	case whyStable, whyNew:
	default:
		return
	}
	if w.blueGreen {
		if w.role == whyStable {
			b.WriteString("blue-green keeps the stable (active) ReplicaSet at replicas")
		} else {
			b.WriteString("the preview gets ")
			podsText(b, w.target)
		}
		return
	}
	if w.abortExpired {
		b.WriteString("the abort delay has passed")
		return
	}
	if w.traffic && w.role == whyStable {
		if !w.dynamic {
			b.WriteString("traffic routing without dynamicStableScale: the stable keeps all replicas")
			return
		}
		b.WriteString("dynamicStableScale: the stable keeps the pods of the larger of the stable weight now and the one recorded last sync")
		if w.recorded {
			b.WriteString(" (")
			pct(b, w.recordedStable, w.maxWeight)
			b.WriteByte(')')
		}
		return
	}
	if w.explicit {
		b.WriteString("setCanaryScale asks for ")
		podsText(b, w.weight)
		return
	}
	if w.traffic {
		b.WriteString("traffic routing: weight ")
		pct(b, w.weight, w.maxWeight)
		b.WriteString(" of ")
		b.WriteString(strconv.Itoa(int(w.replicas)))
		b.WriteString(" replicas, rounded up")
		return
	}
	splitText(b, w.replicas, w.weight, w.maxWeight, w.splitNew, w.splitStable)
	goal := w.splitNew
	if w.role == whyStable {
		goal = w.splitStable
	}
	if a.Replicas != goal {
		b.WriteString("; stepping toward ")
		b.WriteString(strconv.Itoa(int(goal)))
		b.WriteString(" within maxSurge ")
		b.WriteString(strconv.Itoa(int(w.surge)))
		b.WriteString(" and maxUnavailable ")
		b.WriteString(strconv.Itoa(int(w.unavailable)))
	}
}

// statusReason explains a status write.
func (p *planner[T]) statusReason(b *strings.Builder) {
	s := &p.out.Rollout.Status
	b.WriteString("status")
	if p.sum.promoted != "" {
		b.WriteString(": ")
		b.WriteString(p.sum.promoted)
		b.WriteString(", stable is now ")
		b.WriteString(s.StableRS)
	}
	if c := p.ro.Strategy.Canary; c != nil && s.CurrentStepIndex != nil {
		b.WriteString(": step ")
		b.WriteString(strconv.Itoa(int(*s.CurrentStepIndex)))
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(len(c.Steps)))
		if p.sum.stepDone {
			b.WriteString(" (the previous step completed)")
		}
	}
	if s.Abort {
		b.WriteString(", aborted")
	}
	for _, c := range s.PauseConditions {
		b.WriteString(", paused (")
		b.WriteString(string(c.Reason))
		b.WriteByte(')')
	}
}

// summary writes the sync's one line.
func (p *planner[T]) summary(b *strings.Builder) {
	switch p.sum.kind {
	case sumDefaulted:
		b.WriteString("spec.replicas defaulted to 1")
		return
	case sumCreated:
		b.WriteString("created the new ReplicaSet ")
		b.WriteString(p.out.NewReplicaSet)
		return
	case sumScaling:
		b.WriteString("replicas changed from ")
		b.WriteString(strconv.Itoa(int(p.sum.desired)))
		b.WriteString(" to ")
		b.WriteString(strconv.Itoa(int(p.r)))
		b.WriteString(": scale-only pass")
		return
	case sumReset:
		b.WriteString("template or steps changed: status reset")
		return
	}
	if p.out.Halted != "" {
		b.WriteString("scaling halted (")
		b.WriteString(p.out.Halted)
		b.WriteString(")")
	} else if len(p.out.Actions) == 0 {
		b.WriteString("nothing to do")
	} else {
		b.WriteString(strconv.Itoa(len(p.out.Actions)))
		b.WriteString(" write")
		if len(p.out.Actions) > 1 {
			b.WriteByte('s')
		}
	}
	if p.sum.promoted != "" {
		b.WriteString("; promoted: ")
		b.WriteString(p.sum.promoted)
	}
	if p.out.Requeue {
		b.WriteString("; requeue after ")
		b.WriteString(p.out.RequeueAfter.String())
	}
}
