// Package daemonset computes what the DaemonSet controller of
// kube-controller-manager v1.36 decides in one sync, as pure functions
// over plain structs.
//
// Most users start with:
//
//   - [Plan] (and [PlanWith], with [Options]): one whole sync (history,
//     manage, rolling update, cleanup, status) as a [Sync]: the writes in
//     the controller's order, each an [Action] with a reason a person can
//     read, the objects as the sync leaves them, and the requeue.
//   - [Simulate]: a rollout sync by sync over a simulated cluster of
//     nodes, with readiness and termination delays and scripted events,
//     as a [Trace] of steps ([Step]) and an [Outcome].
//   - [Planner]: Plan for a loop, without allocating in a steady state,
//     leaving the reasons until [Planner.Explain].
//
// A DaemonSet's rollout is counted in nodes: [Budgets] resolves
// maxUnavailable and maxSurge against the number of nodes that should run
// the pod, rounding percentages up, and turns 0/0 into maxUnavailable 1.
// The steps beneath a sync are [ConstructHistory] (which revision is
// current), [PodsShouldBeOnNode] and [Manage] (one pod per node),
// [RollingUpdateStep] with [FindUpdatedPodsOnNode] (which old pods go and
// where new ones surge), [CalculateStatus] and [HistoryToDelete]. The pod
// predicates are [IsPodReady], [IsPodAvailable] and [IsPodUpdated] (which
// has a trap: a pod whose pod-template-generation label equals the
// DaemonSet's template generation counts as updated whatever its hash).
// [Validate] checks a DaemonSet in the API server's words.
//
// The words are those of every engine in this module (docs/engines.md):
// a sync is one pass of the controller over one DaemonSet; every write is
// one Action of one [ActionKind] (CreatePod, DeletePod, WriteRevision,
// WriteStatus, ...); reasons are written only when asked for.
//
// Semantics are upstream's exactly, including its surprises: old pods
// that are not available are replaced outside maxUnavailable (a broken
// update on top of a broken update can take every node's pod down;
// [ReplaceWithinBudget] is the named deviation), a pod that failed or is
// terminating leaves its node without a pod until the old one is gone
// (without surge), status looks only at the oldest pod on each node. One
// thing differs by necessity: upstream visits nodes in Go's randomised
// map order, so which nodes are updated first varies; Plan visits them by
// name, one of the orders upstream can produce, and results never depend
// on the order of the inputs.
//
// The scheduling predicates (taints, tolerations, node affinity) are the
// caller's: each [Node] says whether the daemon pod should run there and
// whether a pod already there may stay. The caller converts its API
// objects into [DaemonSet], [Node], [Pod] and [ControllerRevision]; this
// package imports only the standard library and this module.
//
// Inputs the API server would reject, and inputs that cannot come from a
// cluster (duplicate names, a node that should run the pod but not keep
// it), are errors: each a *field.Error (or field.ErrorList) wrapping
// field.ErrInvalid, so callers use errors.Is and errors.As. Nothing reads
// a clock or modifies its inputs; the functions are safe for concurrent
// use, a Planner is not.
package daemonset
