// Package batchrelease computes kruise-rollout's batch release
// (openkruise/rollouts v0.6.3): how a Rollout's canary steps become the
// batches of a BatchRelease, what each batch writes to a CloneSet,
// StatefulSet or Deployment (partition, paused, maxSurge, the canary
// Deployment's replicas, pod labels), and when a batch is ready.
//
// The calls most users need: [Plan] answers one reconcile of a
// BatchRelease over its workload; [Simulate] runs a whole release of a
// CloneSet against the CloneSet engine ([cloneset.Plan]) and
// [SimulateDeployment] one of a Deployment through kruise-rollout's
// advanced Deployment controller ([SyncAdvancedDeployment]); [Validate]
// checks a Rollout's steps in the webhook's words.
//
// The step functions follow one upstream decision each and name it:
// [BatchReplicas] (CalculateBatchReplicas), [PercentPartition]
// (ParseIntegerAsPercentageIfPossible), the batch contexts of each style
// ([CloneSetBatchContext], [StatefulSetBatchContext],
// [DeploymentBatchContext], [CanaryBatchContext], [BlueGreenBatchContext]),
// the advanced Deployment's rules ([NewRSReplicasLimit],
// [NewRSNewReplicas], [ScaleDownLimitForOld], [ReconcileOldReplicaSets]),
// [IsCurrentMoreThanOrEqualToDesired] and [BatchContext.IsBatchReady].
// Every percent is read as kruise-rollout reads it, with apimachinery's
// strict reader (a string must end in '%'; unreadable text counts as 0).
//
// [Options] hold named deviations from upstream; the zero value is
// upstream's behaviour. docs/batchrelease.md describes the traps users
// meet: the partition's meaning flips between kinds, the R-1 guard of
// Deployments, mixed count and percent steps, and the percent round trip.
//
// Bad input is a *field.Error wrapping field.ErrInvalid; nothing panics.
// The package keeps no state and is safe for concurrent use (a Planner is
// not).
package batchrelease
