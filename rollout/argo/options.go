package argo

import "time"

// DefaultResync is the controller's resync period (--rollout-resync,
// 15 minutes): a wait longer than that is not requeued; the Rollout is
// looked at again on the next resync.
const DefaultResync = 15 * time.Minute

// Options are named deviations from Argo Rollouts v1.10.1, and the
// controller's resync period. The zero value is upstream's behaviour
// with the default resync; each deviation cites the Argo issue it
// answers.
type Options struct {
	// Resync is the controller's --rollout-resync period; 0 means
	// DefaultResync. Requeues for a pause, an auto-promotion or a
	// scale-down deadline are made only when they fall within it, and a
	// canary aborted with a delay still running longer than it is scaled
	// as if no delay applied (upstream's reconcileNewReplicaSet).
	Resync time.Duration `json:"resync,omitempty"`

	// ZeroDelayScalesDown answers argo #1992 (open): with
	// scaleDownDelaySeconds 0, Argo never writes a deadline, so an old
	// ReplicaSet within scaleDownDelayRevisionLimit keeps its pods on
	// every sync, for ever. With this option a delay of 0 (or less)
	// scales it to 0 at once, which is what users who write 0 expect.
	// It changes blue-green and traffic-routed canaries; a basic canary
	// never delays.
	ZeroDelayScalesDown bool `json:"zeroDelayScalesDown,omitempty"`

	// PausedScales answers argo #4261 (open; PR #5019): a canary with
	// spec.paused scales nothing, so an HPA that changes replicas while
	// a rollout is paused is ignored until it is resumed. With this
	// option the scale-only pass of a replicas change sizes the stable
	// and canary ReplicaSets while paused; steps, pauses and traffic
	// still wait. An inconclusive-analysis pause still halts scaling.
	PausedScales bool `json:"pausedScales,omitempty"`
}

// resync returns the resync period in force.
func (o Options) resync() time.Duration {
	if o.Resync <= 0 {
		return DefaultResync
	}
	return o.Resync
}
