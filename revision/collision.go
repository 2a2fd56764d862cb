package revision

// IsHashCollision reports whether creating the new ReplicaSet hit a hash
// collision: a ReplicaSet with the name the Deployment wanted
// ([ReplicaSetName]) already exists, and it is not this Deployment's new
// ReplicaSet. It is the Deployment's, and IsHashCollision returns false, when
// its controller owner's UID is deploymentUID (and not empty) and its
// template *existing equals the Deployment's template *template by
// [EqualIgnoreHash]; the controller then carries on with it. Otherwise
// the controller bumps status.collisionCount ([NextCollisionCount]) and
// retries, so the next [Hash], and name, differ. ownerUID is the UID of
// the existing ReplicaSet's controller owner reference, "" when it has
// none. Upstream: getNewReplicaSet's handling of AlreadyExists.
func IsHashCollision[T any](deploymentUID string, template *T, ownerUID string, existing *T) bool {
	ours := ownerUID != "" && ownerUID == deploymentUID && EqualIgnoreHash(template, existing)
	return !ours
}

// Collision reports whether creating the new ReplicaSet hit a hash
// collision.
//
// Deprecated: use IsHashCollision, whose name says which collision.
func Collision[T any](deploymentUID string, template *T, ownerUID string, existing *T) bool {
	return IsHashCollision(deploymentUID, template, ownerUID, existing)
}

// NextCollisionCount returns the status.collisionCount to write after a
// [IsHashCollision]: 1 when it was nil, else one more. Like upstream it wraps
// from math.MaxInt32 to math.MinInt32: the count only salts the hash, so
// wrapping still gives new hashes where saturating would repeat one.
// Upstream: the increment in getNewReplicaSet.
func NextCollisionCount(collisionCount *int32) int32 {
	if collisionCount == nil {
		return 1
	}
	return *collisionCount + 1
}
