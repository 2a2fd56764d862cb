// Package proportion computes how kube-controller-manager spreads a change
// of a Deployment's replicas over its ReplicaSets while more than one of
// them has pods (a resize in the middle of a rollout, or while paused).
//
// The package works on plain numbers: a [ReplicaSet] carries a name, a
// creation time, spec.replicas, status.availableReplicas and the raw text
// of the desired-replicas and max-replicas annotations; a [Deployment]
// carries spec.replicas, the resolved maxSurge, status.replicas and
// whether the strategy is RollingUpdate. Callers fill them once from their
// apps/v1 objects.
//
// [Scale] is upstream's scale(): it returns the target spec.replicas of
// every ReplicaSet, the annotation values to write and the [Rule] that
// decided. [Share] and [Fraction] are the per-ReplicaSet pieces,
// [IsScalingEvent] and [IsSaturated] the predicates the controller asks
// first, [ActiveOrLatest] the single-ReplicaSet shortcut, and
// [BySizeNewer], [BySizeOlder] and [ByCreation] the orders it visits
// ReplicaSets in.
//
// # Upstream and the differences
//
// The default, [Upstream], gives kube-controller-manager v1.36's result on
// every input where upstream's int32 arithmetic does not overflow. Two
// things are deliberately better, and both are documented where they
// apply:
//
//   - Arithmetic never wraps. Upstream multiplies a ReplicaSet's size by
//     the new maximum in int32, which wraps past about 46,340 replicas
//     and yields negative sizes; here products and sums are int64, R +
//     maxSurge saturates at math.MaxInt32 and results are clamped into
//     int32. Rounding is exact integer arithmetic that equals upstream's
//     float64 math.Round wherever upstream does not overflow.
//   - [Conserving] is a named mode for the proportional split. Upstream
//     hands the rounding leftover to the first ReplicaSet and clamps it at
//     0, so a scale-down across many small ReplicaSets can end above the
//     target. Conserving apportions by largest remainder instead: the
//     targets always sum to the allowed total, none is negative, each is
//     within one replica of its exact share, and ties are broken in
//     upstream's order.
//
// # Inputs, errors and allocation
//
// Nothing here panics or modifies its inputs, and nothing sorts the
// caller's slice. [Scale] rejects negative counts, a new-ReplicaSet index
// outside the slice, duplicate names and unknown modes with a
// [*field.Error] wrapping [field.ErrInvalid] and [field.ErrNegative],
// [field.ErrIndex], [field.ErrDuplicate] or [field.ErrUnsupported], and
// [ParseReplicas] rejects annotation text with one wrapping
// [field.ErrSyntax] or [field.ErrRange]; the scalar functions accept any
// input and document their result for it. [Share], [Fraction], [IsScalingEvent] and [IsSaturated] do
// not allocate; [Scale] allocates only the two slices of its [Result], and
// [ScaleInto] reuses a previous Result's slices.
//
// The package imports only the standard library, keeps no state and is
// safe for concurrent use.
package proportion
