// Package cloneset computes what OpenKruise's CloneSet controller (kruise
// v1.9.1) decides in one sync, as pure functions over plain structs.
//
// Most users start with:
//
//   - [Plan] (and [PlanWith], with [Options]): one whole sync (revision,
//     scale or update, status) as a [Sync]: the writes in kruise's order,
//     each an [Action] with a reason a person can read, and the objects as
//     the sync leaves them. Pods to create are one CreatePod action per
//     revision with a count, so a sync's cost does not grow with
//     spec.replicas; [Sync.CreatedPods] names them on demand.
//   - [Simulate]: a rollout sync by sync against a simulated cluster,
//     partition batches included, as a [Trace] of steps ([Step]) and an
//     [Outcome].
//   - [Planner]: Plan for a loop, leaving the reasons until
//     [Planner.Explain] is asked for them.
//
// The words are the same as package rollout's. A sync is one pass of the
// controller over one CloneSet (kruise calls it a reconcile, and printed
// text keeps that word); Plan returns a Sync; Simulate returns a Trace
// whose Steps are the syncs that changed something, numbered by
// Step.Sync, with Trace.Syncs the number that ran. Every write is one
// Action of one [ActionKind], whichever step makes it, named for what is
// acted on (CreatePod, UpdatePodInPlace, WriteStatus). Reasons are lazy:
// a sync records the facts of each and writes the sentence only when
// explained (Plan and PlanWith always explain). Every enum reads and
// writes its name as text and JSON.
//
// For the numbers beneath a sync:
//
//   - [CalculatePartitionReplicas]: how many pods a partition keeps on the
//     current revision ("what does partition 60% do to 17 replicas?").
//   - [CalculateDiffs]: every number one sync works with (pods to
//     create and at which revision, pods to delete, the update budget),
//     for the scale step or the update step ([DiffsFor]).
//   - [Scale]: what the scale step does (regret, create, delete) and
//     [DeletionOrder]: which pods a scale-in removes first; [Update]: what
//     the update step does.
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
// In-place updates diff the templates of two revisions. A template that
// encodes as a corev1.PodTemplateSpec (the kruiseapps adapter's) is
// diffed as kruise does ([CalculateInPlaceUpdate]); a template of the
// caller's own type says what changes in place by implementing
// [InPlaceDiffer]. A template that does neither cannot be updated in
// place: InPlaceIfPossible recreates its pods and the reason says why,
// InPlaceOnly is an error. A pod whose revision is not among the
// revisions passed in is recreated (or fails InPlaceOnly), as in kruise,
// with a warning in [Sync.Warnings].
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
// The functions keep no state, read no clock (time is a parameter) and
// are safe for concurrent use; a Planner is not (give each worker its
// own). Nothing modifies its inputs.
package cloneset
