package proportion

// IsScalingEvent reports whether d's replicas changed since its active
// ReplicaSets were last sized: true if some rs in rss with Replicas > 0
// has a valid desired-replicas annotation ([DesiredAnnotation]) other
// than d.Replicas. ReplicaSets without a valid annotation are skipped, so
// a nil or empty rss gives false. rss holds every ReplicaSet of the
// deployment, the new one included. It does not allocate.
// Upstream: isScalingEvent (deployment controller).
func IsScalingEvent(d Deployment, rss []ReplicaSet) bool {
	for i := range rss {
		if rss[i].Replicas <= 0 {
			continue
		}
		if desired, ok := DesiredAnnotation(rss[i]); ok && desired != d.Replicas {
			return true
		}
	}
	return false
}

// IsSaturated reports whether rs, the new ReplicaSet, already owns the
// whole deployment:
//
//	rs.Replicas == R && desired == R && rs.AvailableReplicas == R
//
// where desired is rs's desired-replicas annotation read leniently, as
// upstream does here: strconv.Atoi as on a 64-bit platform, so a sign is
// accepted ("+3"). An annotation Atoi rejects (absent, "", "3.0") gives
// false. Upstream then truncates the value to int32, so "4294967306"
// counts as 10; IsSaturated compares the whole value instead, as the
// library never wraps a number, and is otherwise upstream's. It does not
// allocate for a well-formed annotation.
// Upstream: deploymentutil.IsSaturated.
func IsSaturated(d Deployment, rs ReplicaSet) bool {
	desired, ok := parseSaturatedDesired(rs.DesiredReplicas)
	if !ok {
		return false
	}
	return rs.Replicas == d.Replicas && desired == int64(d.Replicas) && rs.AvailableReplicas == d.Replicas
}
