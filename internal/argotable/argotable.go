// Package argotable prints the states of an Argo Rollout the way
// `kubectl argo rollouts get rollout -w` shows them, for the programs
// that plan Rollouts (examples/canary and
// adapters/argorollouts/cmd/argoplan): a status line with the step and
// the weights, then the ReplicaSets with their revision, role and pods,
// then the controller's writes with their reasons. The programs hold
// argo.Step values (from argo.Simulate, or [FromSync] for one planned
// sync); [Block] owns the layout, so that both print alike.
package argotable

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// Legend explains the pod maps.
const Legend = "Pods: ✔ ready, ◌ not ready yet."

// Skipped says that a simulation's reconciles that wrote nothing are
// left out.
const Skipped = "Reconciles that write nothing are not shown."

// Status is what kubectl argo rollouts shows on its Status line
// (GetRolloutPhase, utils/rollout/rolloututil.go): while
// status.observedGeneration is not generation (0: not known, not
// checked), "◌ Progressing" waiting for the spec update to be observed;
// else status.phase and status.message as the controller wrote them;
// for a status without a phase (a manifest written by hand), one derived
// from it: aborted is Degraded, a pause condition Paused, the newest
// ReplicaSet stable, current and fully available with no other pods
// Healthy, anything else Progressing.
func Status(s *argo.Step, generation int64) string {
	st := &s.Status
	if generation != 0 && st.ObservedGeneration != strconv.FormatInt(generation, 10) {
		return icon(argo.PhaseProgressing) + " (waiting for rollout spec update to be observed)"
	}
	if st.Phase != "" {
		if st.Message != "" {
			return icon(st.Phase) + " (" + st.Message + ")"
		}
		return icon(st.Phase)
	}
	switch {
	case st.Abort:
		return icon(argo.PhaseDegraded) + " (RolloutAborted)"
	case len(st.PauseConditions) > 0:
		return icon(argo.PhasePaused) + " (" + string(st.PauseConditions[0].Reason) + ")"
	}
	healthy := st.StableRS != "" && st.StableRS == st.CurrentPodHash && len(s.ReplicaSets) > 0 && s.ReplicaSets[0].Hash == st.StableRS
	for _, rs := range s.ReplicaSets {
		if rs.Hash == st.CurrentPodHash {
			healthy = healthy && rs.Available == s.Replicas && rs.Replicas == s.Replicas
		} else if rs.Pods > 0 {
			healthy = false
		}
	}
	if healthy {
		return icon(argo.PhaseHealthy)
	}
	return icon(argo.PhaseProgressing)
}

// icon prefixes a phase with kubectl argo rollouts' symbol for it.
func icon(p argo.Phase) string {
	switch p {
	case argo.PhaseHealthy:
		return "✔ Healthy"
	case argo.PhasePaused:
		return "॥ Paused"
	case argo.PhaseDegraded:
		return "✖ Degraded"
	case argo.PhaseProgressing:
		return "◌ Progressing"
	}
	return string(p)
}

// PodMap draws a ReplicaSet's pods: ✔ for a ready pod, ◌ for one not
// ready yet, "-" for none; above 40 pods, the two counts.
func PodMap(rs *argo.ReplicaSetState) string {
	if rs.Pods <= 0 {
		return "-"
	}
	ready := min(max(rs.Ready, 0), rs.Pods)
	if rs.Pods > 40 {
		return fmt.Sprintf("%d✔ %d◌", ready, rs.Pods-ready)
	}
	return strings.Repeat("✔", int(ready)) + strings.Repeat("◌", int(rs.Pods-ready))
}

// Block writes kubectl's view of one state: the status line (Status of
// s at generation, with the
// step and the set and actual weights for a canary), the ReplicaSets as
// s lists them (newest revision first) with revision, name, roles,
// spec.replicas, pods and scale-down deadline, then every action with its
// reason.
func Block(b *strings.Builder, canary bool, generation int64, s *argo.Step) {
	fmt.Fprintf(b, "  Status: %s", Status(s, generation))
	if canary {
		if s.Steps > 0 {
			fmt.Fprintf(b, "  Step: %d/%d", s.StepIndex, s.Steps)
			if s.StepText != "" {
				fmt.Fprintf(b, " (%s)", s.StepText)
			}
		}
		fmt.Fprintf(b, "  SetWeight: %d  ActualWeight: %d", s.SetWeight, s.ActualWeight)
	}
	b.WriteByte('\n')
	for i := range s.ReplicaSets {
		rs := &s.ReplicaSets[i]
		role := strings.Join(rs.Roles, ",")
		if role == "" {
			role = "-"
		}
		fmt.Fprintf(b, "  # revision:%-2d %-22s %-14s desired %-3d pods %s", rs.Revision, rs.Name, role, rs.Replicas, PodMap(rs))
		if rs.ScaleDownDeadline != "" {
			fmt.Fprintf(b, "  scale-down-deadline %s", rs.ScaleDownDeadline)
		}
		b.WriteByte('\n')
	}
	for i := range s.Actions {
		a := &s.Actions[i]
		what := a.Kind.String()
		if a.ReplicaSet != "" {
			what += " " + a.ReplicaSet
		}
		fmt.Fprintf(b, "  - %s: %s\n", what, a.Reason)
	}
}

// FromSync is the view of ro and rss as argo.Simulate records a step:
// the ReplicaSets newest revision first with their roles (stable,
// canary, preview, active) from ro's status, the canary's step and set
// weight, and its actual weight (the canary's share of the Rollout's
// available pods for a basic canary, the recorded traffic weight with
// traffic routing, the maximum weight past the last step). Pods, Ready
// and Available are the ReplicaSets' status counts. Pass a planned
// sync's Rollout and ReplicaSets to show the state it leaves, with its
// actions and reason.
func FromSync[T any](ro *argo.Rollout[T], rss []argo.ReplicaSet[T], actions []argo.Action, reason string) argo.Step {
	st := argo.Step{Actions: slices.Clone(actions), Reason: reason, Replicas: argo.ReplicasOrDefault(ro.Replicas), Status: ro.Status}
	for i := range rss {
		x := &rss[i]
		var roles []string
		if x.PodTemplateHash == ro.Status.StableRS {
			roles = append(roles, "stable")
		}
		if ro.Strategy.Canary != nil && x.PodTemplateHash == ro.Status.CurrentPodHash && x.PodTemplateHash != ro.Status.StableRS {
			roles = append(roles, "canary")
		}
		if ro.Strategy.BlueGreen != nil {
			bg := ro.Status.BlueGreen
			if x.PodTemplateHash == bg.PreviewSelector && x.PodTemplateHash != bg.ActiveSelector {
				roles = append(roles, "preview")
			}
			if x.PodTemplateHash == bg.ActiveSelector {
				roles = append(roles, "active")
			}
		}
		st.ReplicaSets = append(st.ReplicaSets, argo.ReplicaSetState{Name: x.Name, Hash: x.PodTemplateHash, Revision: x.Revision, Roles: roles,
			Replicas: x.Replicas, Pods: x.StatusReplicas, Ready: x.ReadyReplicas, Available: x.AvailableReplicas, ScaleDownDeadline: x.ScaleDownDeadline})
	}
	slices.SortFunc(st.ReplicaSets, func(a, b argo.ReplicaSetState) int {
		if a.Revision != b.Revision {
			if a.Revision > b.Revision {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	c := ro.Strategy.Canary
	if c == nil {
		return st
	}
	m := argo.MaxTrafficWeight(ro)
	st.SetWeight = argo.CurrentSetWeight(ro)
	step, _ := argo.CurrentCanaryStep(ro)
	if ro.Status.CurrentStepIndex != nil && len(c.Steps) > 0 {
		st.StepIndex, st.Steps = *ro.Status.CurrentStepIndex, int32(len(c.Steps))
	}
	if step != nil {
		st.StepText = argo.StepText(*step)
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
	return st
}

// Strategy describes ro's strategy in one phrase: "basic canary (maxSurge
// 25% (default) = 3 pods, maxUnavailable 0 = 0 pods)", "canary with
// traffic routing and dynamicStableScale (...)", "blue-green (preview 2,
// no auto-promotion)".
func Strategy[T any](ro *argo.Rollout[T]) string {
	if b := ro.Strategy.BlueGreen; b != nil {
		preview := "all replicas"
		if b.PreviewReplicaCount != nil {
			preview = fmt.Sprint(*b.PreviewReplicaCount)
		}
		auto := "auto-promotion"
		switch {
		case !argo.AutoPromotionEnabledOrDefault(ro):
			auto = "no auto-promotion"
		case b.AutoPromotionSeconds > 0:
			auto = fmt.Sprintf("auto-promotion after %ds", b.AutoPromotionSeconds)
		}
		return fmt.Sprintf("blue-green (preview %s, %s)", preview, auto)
	}
	c := ro.Strategy.Canary
	if c == nil {
		return "no strategy"
	}
	kind := "basic canary"
	if c.TrafficRouting != nil {
		kind = "canary with traffic routing"
		if c.DynamicStableScale {
			kind += " and dynamicStableScale"
		}
	}
	return fmt.Sprintf("%s (maxSurge %s = %s, maxUnavailable %s = %s)", kind,
		Written(c.MaxSurge), Pods(argo.MaxSurge(ro)), Written(c.MaxUnavailable), Pods(argo.MaxUnavailable(ro)))
}

// Written renders a canary's maxSurge or maxUnavailable as written, or
// Argo's default for nil (the string "25", read as 25%).
func Written(v *intorpercent.IntOrString) string {
	if v == nil {
		return "25% (default)"
	}
	return v.String()
}

// Pods renders a pod count: "1 pod", "3 pods".
func Pods(n int32) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}

// Steps lists a canary's steps with their indexes, as kubectl argo
// rollouts numbers them: "Steps: 0 setWeight: 20, 1 pause: 30s"; "" for
// blue-green.
func Steps[T any](ro *argo.Rollout[T]) string {
	c := ro.Strategy.Canary
	if c == nil {
		return ""
	}
	if len(c.Steps) == 0 {
		return "Steps: none (the canary goes to 100% at once)"
	}
	parts := make([]string, len(c.Steps))
	for i, s := range c.Steps {
		parts[i] = fmt.Sprintf("%d %s", i, argo.StepText(s))
	}
	return "Steps: " + strings.Join(parts, ", ")
}

// Reconciles renders a count of reconciles: "1 reconcile", "25
// reconciles".
func Reconciles(n int) string {
	if n == 1 {
		return "1 reconcile"
	}
	return strconv.Itoa(n) + " reconciles"
}
