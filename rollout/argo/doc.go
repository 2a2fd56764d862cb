// Package argo computes what the Argo Rollouts controller v1.10.1 does
// with a Rollout's ReplicaSets: the canary and blue-green replica math,
// in one sync and over a whole rollout.
//
// The calls most users need:
//
//   - [SplitForWeight]: the canary/stable pods a weight gives on a
//     replica count, the answer to "why 1 canary and 3 stable at
//     setWeight 20 on 3 replicas?".
//   - [Plan] (or [PlanWith] with [Options]): one sync of a Rollout and
//     its ReplicaSets at a given time: every write in the controller's
//     order ([Action]: create or scale a ReplicaSet, add or remove its
//     scale-down deadline, set the traffic weight, switch a Service,
//     write the status), each with a reason, the objects as the sync
//     leaves them, and the requeue.
//   - [Simulate]: a whole rollout against a simulated cluster (pods
//     ready after a delay, pause durations in virtual time) with
//     scripted events (a new template, an HPA resize, promote, promote
//     --full, abort, retry, pause), as a [Trace] whose steps show what
//     `kubectl argo rollouts get rollout -w` shows.
//   - [Validate]: the Rollout as the controller checks it, in its words.
//   - [Planner]: Plan for a loop, reusing its memory (no allocation in a
//     steady state) and writing reasons only when [Planner.Explain] is
//     asked.
//
// Each decision of a sync is also a function of its own, named for what
// it answers and citing the upstream function: the defaults
// ([ReplicasOrDefault], [MaxSurgeOrDefault], [MaxUnavailableOrDefault],
// [ScaleDownDelayOrDefault], [AbortScaleDownDelayOrDefault],
// [MaxTrafficWeight], [DurationSeconds], ...), the fenceposts
// ([ResolveFenceposts], [MaxSurge], [MaxUnavailable]), which weight
// applies ([CurrentCanaryStep], [CurrentSetWeight], [UseSetCanaryScale],
// [CanaryReplicasOrWeight], [DesiredCanaryWeight],
// [WeightOnAbortOrRollback]), the counts ([SplitForWeight],
// [BasicCanaryCounts], [TrafficRoutedCanaryCounts],
// [CheckMinPodsPerReplicaSet], [NewReplicas]), the older ReplicaSets
// ([ScaleDownOldReplicaSets]) and step progression
// ([AtDesiredReplicaCountsForCanary], [ReplicaProgressThresholdMet],
// [StepComplete], [PauseStepComplete]).
//
// # The rules that surprise
//
// maxSurge and maxUnavailable default to the strings "25" and are read
// with Kubernetes' deprecated reader, so any string is a percentage and
// one that is not a number zeroes both (the canary then never moves,
// yet its steps complete). A basic canary's target is the split closest
// to the weight that keeps a pod on each side, surging one pod when
// that is closer; it is approached within maxSurge and maxUnavailable,
// stable first, one ReplicaSet per sync. With traffic routing the canary
// jumps to ceil(weight x replicas / max) pods and the stable keeps all
// its pods unless dynamicStableScale is set; setCanaryScale stays in
// force through later steps. spec.paused stops canary scaling, HPA
// included ([Options.PausedScales] lets a replicas change through). A blue-green old ReplicaSet waits scaleDownDelaySeconds at
// the Rollout's replicas; a delay of 0 keeps it for ever
// ([Options.ZeroDelayScalesDown] is the fix). docs/argo.md explains each
// rule with examples.
//
// # Inputs
//
// Types are plain structs with the CRD's JSON names: [Rollout] (the
// template is the caller's type T, hashed through its encoding/json form
// as Argo hashes a corev1.PodTemplateSpec) and [ReplicaSet]. Pointer
// fields are nil when the manifest leaves them out; Argo's defaults are
// applied by the functions that read them. Bad input is a *field.Error
// (or a field.ErrorList from Validate), never a panic. Every function is
// pure: inputs are never modified, time is a parameter, and results do
// not depend on the order of ReplicaSets. Functions are safe for
// concurrent use; a Planner is not.
//
// What is not modelled: Services and traffic routers are not read (the
// selectors and weights recorded in the status stand for them, and a
// router confirms every weight at once), analysis runs and experiments
// are not run (their steps wait), Rollout conditions are not computed
// (the phase is, but a progress deadline never times out), and pod
// restarts, ephemeral metadata, anti-affinity and
// workload references are out of scope. The package imports only the
// standard library and the module's own packages.
package argo
