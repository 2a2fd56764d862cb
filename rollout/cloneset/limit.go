package cloneset

import "time"

// LimitUpdateIndexes returns the prefix of candidates (indices into pods,
// in the order they would be updated) that one update step may update,
// given updateNum and updateMaxUnavailable (Diffs.UpdateNum and
// Diffs.UpdateMaxUnavailable of the update step) and targetRevision, the
// revision the pods move to (the update revision when updateNum > 0, the
// current revision when it is negative).
//
// At most |updateNum| candidates are considered. Then, with unavailable
// the number of active pods in pods that are not available at
// minReadySeconds and now (pods in PreparingDelete and specified-delete
// pods included), and targetUnavailable those of them at targetRevision,
// candidates are taken in order while targetUnavailable plus the number
// taken stays below updateMaxUnavailable; taking an available candidate
// also needs unavailable below updateMaxUnavailable and counts it as
// unavailable from then on (updating a pod that is already unavailable
// costs nothing more). So a budget of 0 or less takes nothing.
//
// The result shares candidates' backing array (it is candidates[:k]);
// nothing is modified. Candidates out of range are the caller's error:
// [SortUpdateIndexes] checks them.
// Upstream: sync.limitUpdateIndexes.
func LimitUpdateIndexes(pods []Pod, candidates []int, updateNum, updateMaxUnavailable int32, targetRevision string, minReadySeconds int32, now time.Time) []int {
	n := int64(updateNum)
	if n < 0 {
		n = -n
	}
	if n < int64(len(candidates)) {
		candidates = candidates[:n]
	}
	budget := int64(updateMaxUnavailable)
	var unavailable, targetUnavailable int64
	for i := range pods {
		p := &pods[i]
		if IsPodActive(p) && !IsPodAvailable(p, minReadySeconds, now) {
			unavailable++
			if IsPodAtRevision(p, targetRevision) {
				targetUnavailable++
			}
		}
	}
	var can int64
	for _, i := range candidates {
		if targetUnavailable+can >= budget {
			break
		}
		if IsPodAvailable(&pods[i], minReadySeconds, now) {
			if unavailable >= budget {
				break
			}
			unavailable++
		}
		can++
	}
	return candidates[:can]
}
