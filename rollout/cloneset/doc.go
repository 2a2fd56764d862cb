// Package cloneset computes what OpenKruise's CloneSet controller (kruise
// v1.9.1) decides in one reconcile, as pure functions over plain structs.
//
// Most users start with:
//
//   - [Plan]: one whole reconcile (revision, scale or update, status),
//     as ordered writes each with a reason a person can read, and
//     [Simulate]: a rollout reconcile by reconcile against a simulated
//     cluster, partition batches included.
//   - [CalculatePartitionReplicas]: how many pods a partition keeps on the
//     current revision ("what does partition 60% do to 17 replicas?").
//   - [CalculateDiffs]: every number one reconcile works with (pods to
//     create and at which revision, pods to delete, the update budget).
//   - [Scale]: what the scale step does (regret, create, delete) and
//     [DeletionOrder]: which pods a scale-in removes first.
//
// Beneath them: [Resolve] reads the strategy's int-or-percent fields the
// way kruise's controller does; [IsPodAvailable], [IsPodUpdateReady],
// [IsPodActive], [IsPodAtRevision], [IsSpecifiedDelete] and [ClassifyPod]
// are the pod predicates every step uses; [ParseDeletionCost] reads the
// deletion-cost annotation.
//
// A CloneSet owns its pods directly (there are no ReplicaSets): it keeps
// partition pods on the current revision, surges with maxSurge even under
// a partition, and updates pods in place or by recreation. The caller
// converts its API objects into [CloneSet] and [Pod]; this package imports
// neither Kubernetes nor kruise.
//
// Semantics are kruise v1.9.1's exactly by default, including its
// surprises (a negative update budget, a partition guard that compares
// the literal "100%", percentages the controller reads with a different
// parser than the webhook, a ready limit that blocks scale-in under a
// long minReadySeconds). [Options] names each deliberate difference
// ([BudgetClampAtZero], [ReadyLimitAvailableOnly], and in the update order
// [NoKeyLast] and [ScatterFloor]); its zero value is kruise's behaviour. Beyond that, the package differs from kruise only
// where kruise's result depends on the order its cache lists pods: ties
// are broken by pod name (see [DeletionOrder] and [Scale]). Kruise's feature gates that change
// the math (CloneSetPartitionRollback, PreparingUpdateAsUpdate) and the
// scaling-exclude-preparing-delete setting are explicit inputs in
// [Gates], with kruise's defaults as zero values.
//
// Inputs kruise never receives (a nil CloneSet, negative replicas, pods
// without names or with the same name) are errors rather than numbers:
// each a [*field.Error] wrapping [field.ErrInvalid] that names the field,
// so callers use errors.Is and errors.As. Not modelled: the topology-spread ranker kruise
// uses in place of the same-node ranker when the template has
// topologySpreadConstraints (it reads Node objects), PVCs and instance
// IDs, API errors.
//
// The package assumes kruise's scale expectations are satisfied: the pods
// passed in include every pod the controller has created and none it has
// deleted. A caller whose cache may lag its own writes waits (as kruise
// does, for up to five minutes) before asking again.
//
// The package keeps no state, reads no clock (time is a parameter) and is
// safe for concurrent use. It never modifies its inputs.
package cloneset
