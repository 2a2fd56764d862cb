// Package statefulset computes what the StatefulSet controller of
// kube-controller-manager v1.36 does: in one sync, and over a whole
// rollout.
//
// The calls most users need:
//
//   - [Plan] (or [PlanWith] with [Options]): one sync of a set, its pods
//     and its ControllerRevisions at a given time: every write in the
//     controller's order ([Action]: adopt, release, create or renumber a
//     revision, create, fix or delete a pod, write the status, delete an
//     old revision), each with a reason, the objects as the sync leaves
//     them, where an OrderedReady sync stopped and why, and the requeue.
//   - [Simulate]: a whole rollout against a simulated cluster (readiness
//     and termination delays, pods that never become ready) with
//     scripted events (a template change, partition steps, scaling, the
//     MaxUnavailableStatefulSet gate switched on or off), as a [Trace].
//   - [Validate]: the set as the API server checks it, in its words.
//   - [Planner]: Plan for a loop, reusing its memory (no allocation in a
//     steady state) and writing reasons only when [Planner.Explain] is
//     asked.
//
// Each decision of a sync is also a function of its own, named for what
// it answers and citing the upstream function: [ParseOrdinal] and
// [EndOrdinal] (slots), [ProcessReplica], [ProcessCondemned],
// [UpdateStep] with [MaxUnavailable], [NewPodRevision], [ComputeStatus]
// with [CompleteRollingUpdate] and [StatusChanged], [RevisionData],
// [HashRevision], [RevisionName] and [ChooseRevisions] (revisions), and
// [TruncateHistory].
//
// # The rules that surprise
//
// Ordinals run from spec.ordinals.start; the partition is an index
// counted from that start, not an ordinal. OrderedReady stops a sync at
// the first slot that is missing, failed, terminating, not ready or not
// available, below or above the partition, so scale-down and updates
// wait for every pod. With the gate off (v1.36's default) a rolling
// update deletes one pod per sync, from the top, and
// rollingUpdate.maxUnavailable is ignored; with it on, the budget counts
// every unavailable slot (old broken pods, terminating pods, pods below
// the partition), so under Parallel broken old pods can stop an update
// for ever (kubernetes/kubernetes#137409; [BudgetReplaceUnavailableFirst]
// is the v1.37 fix). A pod recreated below the partition comes back at
// the current revision; with type RollingUpdate and no rollingUpdate
// block, the last status.currentReplicas stands in for the partition.
// status.currentReplicas is lowered by every update deletion, whatever
// the deleted pod's revision, and can go negative, a status the API
// server refuses ([CurrentReplicasCountCurrentOnly]). Scaling to zero
// completes a rolling update (kubernetes/kubernetes#121534,
// [ZeroReplicasKeepsCurrent]); OnDelete never does. A slot whose name a
// pod the set does not own holds (one it released, an orphan it does not
// adopt) is created anyway, the API server refuses, and the sync fails
// ([BlockRefused]). docs/statefulset.md
// explains each rule with examples.
//
// # Inputs
//
// Types are plain structs with the API's JSON names: [StatefulSet] (the
// template is the caller's type T, encoded with encoding/json into the
// revision data), [Pod] (the ordinal comes from the name) and
// [ControllerRevision]. Zero values are the API server's defaults. Bad
// input is a *field.Error (or a field.ErrorList from Validate), never a
// panic. Every function is pure: inputs are never modified, time is a
// parameter, and results do not depend on the order of pods or
// revisions. Functions are safe for concurrent use; a Planner is not.
//
// What is not modelled: PersistentVolumeClaims (their creation, the
// retention policy's owner references, the stale-claim skip), pod
// storage fixes, the adoption of orphan ControllerRevisions (pass the
// revisions the set owns or will adopt), API errors (every write is taken
// to succeed, but a status the API server refuses and a pod creation
// whose name a pod the set does not own holds, see [BlockRefused]; the
// identity fix of a pod adopted in the same sync succeeds, where the
// controller sends it from a cache the adoption made stale and may get a
// Conflict, depending on when its informer catches up), and the
// StatefulSetSemanticRevisionComparison rule that needs the API server's
// defaulting (see [Gates]). The package imports only the standard library
// and the module's own packages.
package statefulset
