package cloneset

import "github.com/rolloutmath/rolloutmath/intorpercent"

// PartitionField is the path of the partition in a CloneSet, as errors
// name it.
const PartitionField = "spec.updateStrategy.partition"

// CalculatePartitionReplicas resolves a CloneSet's partition against its
// replicas: how many pods stay on the current revision, in [0, replicas].
// A nil partition is 0.
//
// A count is used as is (then clamped to [0, replicas]: -1 gives 0, 12 of
// 10 gives 10). A percentage is read with kruise's fractional parser (it
// must end in '%'; the number may be fractional, "99.99%") and rounded
// up, computed in float64 as kruise does: ceil(p*replicas/100). Two guards
// follow, both kruise's:
//
//   - At least one pod kept: rounding up gives every positive percentage
//     of a positive replica count at least 1 ("0.01%" of 9 is 1).
//   - At least one pod updated: when replicas > 1 and a string partition
//     resolves to all replicas, it becomes replicas-1, unless the string
//     is exactly "100%" ("99%" of 9 is 8, "100%" of 99 is 99). The
//     comparison is with the literal text, so "100.0%" and "1e2%" of 5
//     give 4, and "150%" of 5 gives 5 (ceil 8 is not 5, then clamped).
//     There is no guard at replicas 1: "50%" of 1 is 1.
//
// replicas is spec.replicas; kruise reads a nil spec.replicas as 1 here,
// so a caller holding an absent field passes 1. A negative replicas is an
// *field.Error wrapping field.ErrNegative (kruise would clamp the result to 0).
// A partition kruise cannot read is a *field.Error naming PartitionField,
// for example a string without '%' ("99"), or "5%%"; kruise's controller
// then logs and uses 0, updating every pod, and the webhook rejects it.
// Percentages whose scaled value does not fit in an int64 ("Inf%",
// "NaN%", "1e300%") resolve to 0, as kruise's float conversion gives on
// amd64; on arm64 kruise would give replicas instead.
//
// CalculatePartitionReplicas does not allocate unless it fails.
// Upstream: util.CalculatePartitionReplicas.
func CalculatePartitionReplicas(partition *intorpercent.IntOrString, replicas int32) (int32, error) {
	if replicas < 0 {
		return 0, negativeError("replicas", replicas)
	}
	if partition == nil {
		return 0, nil
	}
	r := int64(replicas)
	p, err := fractionalScaled(*partition, r, true)
	if err != nil {
		return 0, valueError(PartitionField, *partition, err)
	}
	if r > 1 && p == r && partition.IsString && partition.Str != "100%" {
		p = r - 1
	}
	return int32(min(max(p, 0), r)), nil
}
