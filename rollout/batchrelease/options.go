package batchrelease

import "github.com/rolloutmath/rolloutmath/intorpercent"

// Options are named deviations from kruise-rollout v0.6.3. The zero
// value is upstream's behaviour; each option names the upstream issue or
// documented promise it answers.
type Options struct {
	// FailureThresholdFallback makes a nil failureThreshold fall back to
	// the workload's maxUnavailable (read, like failureThreshold, against
	// the updated pods, rounded up), as the BatchRelease API comment on
	// failureThreshold promises ("if nil, Rollout will use the
	// MaxUnavailable of workload as its FailureThreshold"). Upstream
	// v0.6.3 tolerates no unready pod instead. It applies to the
	// partition and canary styles (blue-green carries no threshold).
	// Upstream: ReleasePlan.FailureThreshold, api/v1beta1/batchrelease_plan_types.go;
	// allowedUnavailable, pkg/controller/batchrelease/context/context.go.
	FailureThresholdFallback bool `json:"failureThresholdFallback,omitempty"`
	// CompareDeploymentPartitionsOnReplicas makes the Deployment
	// partition style compare the current and desired partitions on the
	// Deployment's replicas instead of on 10,000,000, so that a step
	// sequence mixing counts and percents (["50%", 8] on 10 replicas)
	// moves on instead of stalling: upstream reads "50%" as 5,000,000 and
	// 8 as 8, judges the partition reached and never patches it, so the
	// batch is never ready. The webhook lets such steps through because
	// it skips mixed pairs. Upstream: IsCurrentMoreThanOrEqualToDesired,
	// pkg/controller/batchrelease/control/util.go (kruise-rollout PR #106
	// introduced the advanced Deployment partition).
	CompareDeploymentPartitionsOnReplicas bool `json:"compareDeploymentPartitionsOnReplicas,omitempty"`
}

// fallbackReadiness re-runs IsBatchReady on c with the workload's
// maxUnavailable as the failure threshold (Options.FailureThresholdFallback).
func fallbackReadiness(c *BatchContext, maxUnavailable *intorpercent.IntOrString) Readiness {
	if maxUnavailable == nil {
		return c.IsBatchReady()
	}
	cc := *c
	cc.FailureThreshold = maxUnavailable
	return cc.IsBatchReady()
}
