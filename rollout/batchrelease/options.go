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
	// partition style compare the current and desired partitions by the
	// new pods each lets the Deployment have (NewRSReplicasLimit on its
	// replicas) instead of reading both on a base of 10,000,000. Upstream
	// stalls in two ways the webhook does not (or not always) stop: steps
	// mixing counts and percents (["50%", 8] on 10 replicas: "50%" reads
	// as 5,000,000 >= 8, the partition is never written and the batch is
	// never ready, because the webhook skips mixed pairs), and a percent
	// above "100%" followed by "100%" ("101%" reads above "100%", but the
	// R-1 guard holds "101%" to R-1 new pods). Upstream:
	// IsCurrentMoreThanOrEqualToDesired, pkg/controller/batchrelease/control/util.go,
	// used by the Deployment partition style's UpgradeBatch
	// (control/partitionstyle/deployment/control.go, kruise-rollout PR
	// #106).
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
