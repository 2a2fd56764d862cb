// Package cloneset computes what OpenKruise's CloneSet controller (kruise
// v1.9.1) decides in one reconcile, as pure functions over plain structs.
//
// Most users start with:
//
//   - [CalculatePartitionReplicas]: how many pods a partition keeps on the
//     current revision ("what does partition 60% do to 17 replicas?").
//   - [CalculateDiffs]: every number one reconcile works with (pods to
//     create and at which revision, pods to delete, the update budget).
//   - [PodsToDelete] and [SortForDeletion]: which pods a scale-in removes, and
//     in which order.
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
// parser than the webhook). [Options] names each deliberate difference;
// its zero value is kruise's behaviour. Kruise's feature gates that change
// the math (CloneSetPartitionRollback, PreparingUpdateAsUpdate) and the
// scaling-exclude-preparing-delete setting are explicit inputs in
// [Gates], with kruise's defaults as zero values.
//
// The package assumes kruise's scale expectations are satisfied: the pods
// passed in include every pod the controller has created and none it has
// deleted. A caller whose cache may lag its own writes waits (as kruise
// does, for up to five minutes) before asking again.
//
// The package keeps no state, reads no clock (time is a parameter) and is
// safe for concurrent use. It never modifies its inputs.
package cloneset
