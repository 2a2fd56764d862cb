package statefulset

import "time"

// ComputeStatus returns the counters of the status one sync computes
// over pods, the pods in the slots and the condemned pods (not the
// empty slots, nor pods whose ordinal does not parse) at now:
//
//   - Replicas: pods created (every pod passed; terminating, Failed and
//     Succeeded ones included);
//   - ReadyReplicas: Running and Ready (terminating included);
//   - AvailableReplicas: Running, Ready and available (see [IsAvailable]);
//   - CurrentReplicas, UpdatedReplicas: not terminating, at current or
//     update (a pod at neither counts in neither).
//
// CurrentRevision and UpdateRevision are set to current and update; the
// other fields are zero. The update step then lowers CurrentReplicas by
// its deletions, and [CompleteRollingUpdate] may move it. ComputeStatus
// does not allocate.
// Upstream: computeReplicaStatus and updateStatus,
// pkg/controller/statefulset/stateful_set_control.go.
func ComputeStatus(pods []Pod, minReadySeconds int32, current, update string, now time.Time) Status {
	s := Status{CurrentRevision: current, UpdateRevision: update}
	for i := range pods {
		countPod(&s, &pods[i], minReadySeconds, now)
	}
	return s
}

// countPod adds p to the counters of s.
func countPod(s *Status, p *Pod, minReadySeconds int32, now time.Time) {
	s.Replicas++
	if IsRunningAndReady(p) {
		s.ReadyReplicas++
		if IsAvailable(p, minReadySeconds, now) {
			s.AvailableReplicas++
		}
	}
	if !p.Terminating {
		if p.Revision == s.CurrentRevision {
			s.CurrentReplicas++
		}
		if p.Revision == s.UpdateRevision {
			s.UpdatedReplicas++
		}
	}
}

// CompleteRollingUpdate completes a rolling update in status, as the
// controller does before it writes a status: when the strategy type
// (after defaulting) is RollingUpdate and UpdatedReplicas,
// ReadyReplicas and Replicas all equal spec.replicas, CurrentReplicas
// becomes UpdatedReplicas and CurrentRevision becomes UpdateRevision. It
// reads readiness, not availability (minReadySeconds is ignored), holds
// trivially at replicas 0 (kubernetes/kubernetes#121534; see
// Options.ZeroReplicas) and never under OnDelete
// (kubernetes/kubernetes#73492).
// Upstream: completeRollingUpdate, pkg/controller/statefulset/stateful_set_utils.go.
func CompleteRollingUpdate[T any](set *StatefulSet[T], status *Status) {
	completeRollingUpdate(readStrategy(set.UpdateStrategy), set.Replicas, status, ZeroReplicasCompletes)
}

func completeRollingUpdate(s strategy, replicas int32, status *Status, zero ZeroReplicasPolicy) {
	if s.typ != RollingUpdate || status.UpdatedReplicas != replicas || status.ReadyReplicas != replicas || status.Replicas != replicas {
		return
	}
	if zero == ZeroReplicasKeepsCurrent && replicas == 0 && s.partition > 0 {
		return
	}
	status.CurrentReplicas = status.UpdatedReplicas
	status.CurrentRevision = status.UpdateRevision
}

// StatusChanged reports whether the controller writes status next over
// old: the observed generation went up, or any counter or revision name
// differs. The collision count alone does not make a write.
// Upstream: inconsistentStatus, pkg/controller/statefulset/stateful_set_utils.go.
func StatusChanged(old, next *Status) bool {
	return next.ObservedGeneration > old.ObservedGeneration ||
		next.Replicas != old.Replicas ||
		next.CurrentReplicas != old.CurrentReplicas ||
		next.ReadyReplicas != old.ReadyReplicas ||
		next.UpdatedReplicas != old.UpdatedReplicas ||
		next.CurrentRevision != old.CurrentRevision ||
		next.AvailableReplicas != old.AvailableReplicas ||
		next.UpdateRevision != old.UpdateRevision
}
