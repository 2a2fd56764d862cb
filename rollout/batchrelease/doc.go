// Package batchrelease computes kruise-rollout's batch release
// (openkruise/rollouts v0.6.3): how a Rollout's canary steps become the
// batches of a BatchRelease, what each batch writes to a CloneSet,
// StatefulSet or Deployment (partition, paused, maxSurge, the canary
// Deployment's replicas), and when a batch is ready.
//
// The calls most users need: [Plan] answers one reconcile of a
// BatchRelease over its workload, [Simulate] runs a whole release against
// the workload engines of this module, and [Validate] checks a Rollout's
// steps in the webhook's words. [BatchReplicas], [PercentPartition] and
// the batch contexts are the step functions, each naming its upstream
// counterpart.
//
// The package imports only the standard library and this module's
// packages, keeps no state and is safe for concurrent use.
package batchrelease
