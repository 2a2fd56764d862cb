// Package ownership answers which objects a Deployment controller owns
// and which Deployments an event wakes, as kube-controller-manager decides
// before any rollout math runs.
//
// The calls most users need:
//
//   - [Selector.Matches]: does a label selector (matchLabels plus
//     matchExpressions) select a label set; nil selects nothing, empty
//     selects everything. Upstream: metav1.LabelSelectorAsSelector and
//     labels.Selector.Matches.
//   - [ParseSelector]: the string form (app=web,tier in (a,b),!legacy), as
//     labels.Parse reads it. [Selector.String] writes it.
//   - [ClaimAll]: for a Deployment and the ReplicaSets of its namespace,
//     which it keeps, adopts, releases or ignores, and why: the owned set
//     to pass to rollout.Plan and the adoptions and releases to write.
//     Upstream: ReplicaSetControllerRefManager.ClaimReplicaSets.
//   - [ReplicaSetAdded], [ReplicaSetUpdated], [ReplicaSetDeleted] and
//     [PodDeleted]: which Deployments an informer event wakes. Upstream:
//     the Deployment controller's event handlers.
//
// Selectors live here rather than in a labels package of their own: the
// library needs them only to decide ownership, and Selector, Claim and the
// event functions read as one vocabulary (ownership.Selector,
// ownership.ClaimAll, ownership.ReplicaSetAdded).
//
// Every function is pure: inputs are never modified, and results depend
// only on the inputs, never on their order. The package imports only the
// standard library.
package ownership
