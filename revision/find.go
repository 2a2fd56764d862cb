package revision

// createdBefore is upstream's ReplicaSetsByCreationTimestamp order: older
// first, and for the same instant the smaller name first.
func createdBefore[T any](a, b *ReplicaSet[T]) bool {
	if a.CreationTime.Equal(b.CreationTime) {
		return a.Name < b.Name
	}
	return a.CreationTime.Before(b.CreationTime)
}

// FindNew returns the index in rss of the new ReplicaSet of a Deployment
// whose pod template is *template: among the ReplicaSets whose template
// is equal to it by [EqualIgnoreHash], the oldest by creation time, the
// smallest name breaking ties (and, for identical times and names, the
// first in rss). ok is false, and i is -1, when none matches. Deleting
// ReplicaSets are not excluded, as upstream does not. FindNew neither
// sorts nor modifies rss, so the answer does not depend on its order; it
// does not allocate beyond what [EqualIgnoreHash] does.
// Upstream: deploymentutil.FindNewReplicaSet.
func FindNew[T any](template *T, rss []ReplicaSet[T]) (i int, ok bool) {
	best := -1
	if template == nil {
		return best, false // EqualIgnoreHash: nil equals only nil
	}
	f := registered[T]() // looked up once, not for every ReplicaSet
	for j := range rss {
		if best >= 0 && !createdBefore(&rss[j], &rss[best]) {
			continue // could not win even if it matched
		}
		if t := &rss[j].Template; t == template || equalDistinct(template, t, f) {
			best = j
		}
	}
	return best, best >= 0
}

// FindOld returns the indices in rss of the old ReplicaSets, in rss
// order: all of them are old except the new one found by [FindNew] and
// any ReplicaSet with the same non-empty UID as it. active holds the old
// ones with Replicas != 0, the ones that still have pods to scale down.
// A second ReplicaSet with the new template (a duplicate left by an
// upgrade of the hash) is old. FindOld allocates only its results; both
// are nil when empty.
// Upstream: deploymentutil.FindOldReplicaSets (returns active, all).
func FindOld[T any](template *T, rss []ReplicaSet[T]) (all, active []int) {
	newRS, found := FindNew(template, rss)
	for j := range rss {
		if found && (j == newRS || rss[j].UID != "" && rss[j].UID == rss[newRS].UID) {
			continue
		}
		all = append(all, j)
		if rss[j].Replicas != 0 {
			active = append(active, j)
		}
	}
	return all, active
}
