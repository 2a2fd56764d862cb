// Package rollout computes what kube-controller-manager's Deployment
// controller (v1.36) decides in one sync, as pure functions over plain
// structs, and simulates a whole rollout sync by sync.
//
// Most callers need one of three calls:
//
//   - [Plan], given a Deployment, its ReplicaSets and the time, returns one
//     [Sync]: the writes in the controller's order ([Sync.Actions], each
//     with a Reason a person can read), the ReplicaSets and Deployment as
//     the sync leaves them, and when to requeue. [PlanWith] takes [Options].
//   - [Simulate], given the same and a [Config], runs Plan against an
//     in-memory cluster until the rollout ends and returns a [Trace].
//   - [Planner], for a controller or a tool that plans many syncs, gives
//     the same Sync as Plan but reuses its memory and formats the reasons
//     only when [Planner.Explain] is called (see below).
//
// The words: a sync is one pass of the controller over one deployment
// (upstream's syncDeployment). Plan returns a Sync. Simulate returns a
// Trace whose Steps are the syncs that changed something, each [Step]
// numbered by its Step.Sync (from 1, so numbers may skip); Trace.Syncs
// counts every sync that ran, Config.MaxSyncs bounds them and an [Event]
// applies just before sync number Event.Sync. Actions are the writes, in
// the controller's order; their reasons are facts recorded during the
// sync and written as text only when asked for: Plan and PlanWith return
// them written, Planner.Plan leaves them "" until Planner.Explain.
//
// For example, one sync of a 10-replica Deployment whose image changed:
//
//	s, err := rollout.Plan(&deployment, replicaSets, time.Now())
//	if err != nil {
//		return err // invalid input, in the API server's words where it has them
//	}
//	for _, a := range s.Actions {
//		fmt.Println(a.Reason)
//	}
//	// created new ReplicaSet nginx-646577b8b4 (revision 2) at 3: 13 pods allowed (10 + maxSurge 3), 10 in other ReplicaSets
//	// scaled down old ReplicaSet nginx-6d4cf56db6 from 10 to 8: 10 pods available, ...
//
// [Validate] checks a Deployment as the API server would before Plan reads it.
//
// Sync, Trace and the types in them carry camelCase JSON tags, and every
// enum ([Path], [ActionKind], [Outcome], ...) is written and read by its
// name, so a Sync or a Trace reads back from encoding/json as it was.
//
// A controller that syncs on every event, or a tool that replays many
// rollouts, keeps a [Planner] per worker: [Planner.Plan] gives the
// same Sync as Plan but reuses its memory (no allocation in a sync that
// scales a ReplicaSet at an unchanged size of the deployment, or at
// rest), takes the new ReplicaSet's name
// when the caller knows it (skipping the template comparisons that cost
// most with a real pod template), and leaves the reasons to
// [Planner.Explain], so they are formatted only when read.
//
// The package has three layers:
//
//   - Step math: the numbers one sync works with. [Fenceposts], [MaxSurge],
//     [MaxUnavailable] and [MinAvailable] resolve the strategy's bounds;
//     [NewReplicas] and [ReconcileNew] size the new ReplicaSet;
//     [MaxScaledDown], [CleanupUnhealthy] and [ScaleDownOld] (together
//     [ReconcileOld]) shrink the old ones; [IsSaturated], [CalculateStatus], [Complete], [Progressing],
//     [TimedOut], [RolloutStatus] and [Requeue] judge the result. Each names
//     its upstream counterpart in its doc comment, does not allocate (the
//     status functions allocate only the conditions they return) and never
//     wraps: where upstream's int32 arithmetic would overflow, the result
//     saturates at math.MaxInt32 instead, and the doc comment says so. On
//     every input that does not overflow, the answer is upstream's.
//   - [Plan] composes the step math into one sync in upstream's order
//     (deleting, paused, rollback, scaling event, then Recreate or
//     RollingUpdate) and returns every action with a reason a person can
//     read, the ReplicaSets and Deployment as the sync leaves them, and when
//     to requeue. It never modifies its inputs.
//   - [Simulate] drives Plan against an in-memory cluster (a ReplicaSet
//     controller, pods that become ready after a delay, pods that never do,
//     pods that stay terminating) and scripted events (a new template, a
//     resize, pause, resume, rollback), returning every sync that changed
//     something so that a rollout can be printed like `kubectl get rs -w`.
//
// Templates are whatever type the caller uses (a corev1.PodTemplateSpec or
// [revision.Template]); the package handles them only through the revision
// package (equality ignoring the pod-template-hash label, hashing).
//
// Beyond upstream, [Options] offers a terminating-aware surge
// ([SurgeCountsTerminating]): terminating pods count against maxSurge, as
// users have asked for in kubernetes/kubernetes#37955 and KEP-5882. It also
// selects the proportion package's conserving split and the revision
// package's substituting history cleanup. All are off by default, so
// default results stay upstream-exact.
//
// A ReplicaSet's spec.minReadySeconds is read only to keep the new
// ReplicaSet's equal to the deployment's: when it is known
// (ReplicaSet.MinReadySeconds not nil) and differs, Plan writes the
// deployment's value as upstream does (an AnnotateReplicaSet action, the
// ReplicaSet's generation raised, the deployment's revision annotation
// left for the next sync). Availability is the ReplicaSets' reported
// counters, whatever minReadySeconds they were counted with.
//
// Not modelled: API errors and write conflicts (ReplicaSetCreateError is
// never set), ReplicaSet conditions (ReplicaFailure is always removed) and
// an empty selector. Upstream sends the new ReplicaSet's update twice in a
// sync that is not paused, a rollback or a deletion (isScalingEvent and
// then the branch taken both run getNewReplicaSet on the same lister
// snapshot); Plan lists it once. Pods are seen only through the
// ReplicaSets' counters: Recreate waits while old ReplicaSets report
// status.replicas or status.terminatingReplicas, where upstream lists the
// pods, so a ReplicaSet that does not report terminatingReplicas hides its
// terminating pods.
//
// Plan is checked against the real controller in the repository's
// conformance module (adapters/kubeapps/conformance,
// TestPlanMatchesDeploymentControllerSyncBySync): kube-controller-manager
// v1.36.3's DeploymentController, driven with a fake clientset through
// random whole rollouts (image changes, resizes, pauses, rollbacks,
// Recreate, small history limits, expiring deadlines), is compared sync by
// sync with Plan given the same Deployment and ReplicaSets: the writes in
// order, every ReplicaSet after the sync (replicas, generation,
// annotations, template), and the Deployment's annotations, generation,
// status and conditions with reason and message. The one documented
// difference is upstream's repeated update of the new ReplicaSet, which
// Plan lists once.
//
// The package keeps no state, reads no clock (time is a parameter) and is
// safe for concurrent use.
package rollout
