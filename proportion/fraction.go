package proportion

// Fraction returns how many replicas rs should gain (positive) or lose
// (negative) so that it keeps its share when the deployment's maximum
// moves from the one rs was last sized under to the current one:
//
//	if d.Replicas == 0:  -rs.Replicas
//	otherwise:           round(rs.Replicas * newMax / oldMax) - rs.Replicas
//
// where newMax = d.MaxReplicas() (R + maxSurge, saturated), oldMax is rs's
// max-replicas annotation ([MaxAnnotation]) or, when that is absent,
// invalid or 0, d.StatusReplicas, and round is half away from zero
// (2*5/4 = 2.5 gives 3). If oldMax is still 0 the result is 0. The result
// is clamped into int32. Fraction does not allocate.
//
// Upstream computes rs.Replicas*newMax in int32 (it wraps once the product
// passes 2147483647, about 46,341²) and rounds the float64 quotient with
// math.Round. Here the product is int64 and the rounding exact integer
// arithmetic; the two agree on every input where upstream's product does
// not overflow, because a float64 quotient of two numbers below 2^31 is
// never close enough to a half to round the other way.
// Upstream: getReplicaSetFraction (deploymentutil).
func Fraction(rs ReplicaSet, d Deployment) int32 {
	if d.Replicas == 0 {
		return clamp32(-int64(rs.Replicas))
	}
	oldMax, ok := MaxAnnotation(rs)
	if !ok || oldMax == 0 {
		oldMax = d.StatusReplicas
		if oldMax == 0 {
			return 0
		}
	}
	size := roundDiv(int64(rs.Replicas)*int64(d.MaxReplicas()), int64(oldMax))
	return clamp32(size - int64(rs.Replicas))
}

// roundDiv returns p/q rounded half away from zero, exactly. It needs
// |p| <= 2^62 and q != 0, which products of two int32 values and an int32
// divisor satisfy.
func roundDiv(p, q int64) int64 {
	neg := (p < 0) != (q < 0)
	up, uq := uint64(p), uint64(q)
	if p < 0 {
		up = uint64(-p)
	}
	if q < 0 {
		uq = uint64(-q)
	}
	n := int64((2*up + uq) / (2 * uq)) // floor(|p|/|q| + 1/2); 2|p|+|q| < 2^64
	if neg {
		return -n
	}
	return n
}

// Share returns the change upstream gives rs in one pass of the proportional
// split, when the split must add toAdd replicas in total (negative:
// remove) and earlier ReplicaSets in the pass already took added:
//
//	0                                  if rs.Replicas == 0, toAdd == 0 or toAdd == added
//	min(Fraction(rs, d), toAdd-added)  if toAdd > 0 (never more than is left to add)
//	max(Fraction(rs, d), toAdd-added)  if toAdd < 0 (never more than is left to remove)
//
// toAdd-added is computed in int64, so it never wraps. With consistent
// annotations the result has the sign of toAdd; with stale ones it can
// have the other sign. Share does not allocate.
// Upstream: deploymentutil.GetReplicaSetProportion.
func Share(rs ReplicaSet, d Deployment, toAdd, added int32) int32 {
	return int32(of(rs, d, int64(toAdd), int64(added))) // in int32 range: see of
}

// Of returns the change upstream gives rs in one pass of the proportional
// split.
//
// Deprecated: use Share, whose name says what it returns: rs's share of
// the split.
func Of(rs ReplicaSet, d Deployment, toAdd, added int32) int32 { return Share(rs, d, toAdd, added) }

// of is Share over int64 totals, as Scale sums ReplicaSets in int64. The
// result lies between Fraction (an int32) and toAdd-added, and on the
// same side of Fraction as toAdd-added.
func of(rs ReplicaSet, d Deployment, toAdd, added int64) int64 {
	if rs.Replicas == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	f := int64(Fraction(rs, d))
	left := toAdd - added
	if toAdd > 0 {
		return min(f, left)
	}
	return max(f, left)
}
