package cloneset

// HistoryToDelete returns the indices in revisions of the ControllerRevisions
// kruise's history cleanup deletes, in the order it deletes them.
//
// A revision is live when its name is current or update (the current and
// update revisions of the reconcile) or when some active pod is at it
// ([IsPodActive], [IsPodAtRevision]); inactive pods in pods are ignored. The non-live revisions, in [SortRevisions] order, are
// deleted oldest first until limit of them remain; live revisions never
// count toward the limit. A nil limit means [DefaultRevisionHistoryLimit];
// a limit of 0 deletes every non-live revision.
//
// Kruise runs the cleanup at the end of every reconcile that reaches the
// status step, over the revisions listed at its start (so a revision
// created in that reconcile is not in the list, and a renumbered one keeps
// its old number there); callers pass the same list.
//
// Errors (*field.Error wrapping field.ErrInvalid) come with a nil result: an empty or
// duplicate revision name, and a negative limit (the webhook accepts one;
// kruise then deletes every non-live revision and fails the reconcile,
// which this function reports instead). Nothing is modified.
// Upstream: ReconcileCloneSet.truncateHistory.
func HistoryToDelete(revisions []ControllerRevision, current, update string, pods []Pod, limit *int32) ([]int, error) {
	keep := int(DefaultRevisionHistoryLimit)
	if limit != nil {
		if *limit < 0 {
			return nil, inputError("spec.revisionHistoryLimit", "%d: must not be negative", *limit)
		}
		keep = int(*limit)
	}
	order, err := sortRevisions(revisions)
	if err != nil {
		return nil, err
	}
	return historyToDelete(revisions, order, current, update, pods, keep), nil
}

// historyToDelete is HistoryToDelete with revisions already checked and
// sorted (order, from sortRevisions) and the limit read (keep >= 0).
func historyToDelete(revisions []ControllerRevision, order []int, current, update string, pods []Pod, keep int) []int {
	// At most len(revisions) revisions are unused: with no more than
	// keep of them, none is deleted, whatever the pods are at.
	if len(revisions) <= keep {
		return nil
	}
	// Pods match a revision by the part after the last '-' unless the
	// label equals the name exactly; index both forms once. Pods share
	// few revisions: the sets hold about as many as revisions, not pods.
	exact := make(map[string]struct{}, len(revisions))
	short := make(map[string]struct{}, len(revisions))
	for i := range pods {
		if IsPodActive(&pods[i]) {
			exact[pods[i].Revision] = struct{}{}
			short[shortHash(pods[i].Revision)] = struct{}{}
		}
	}
	live := func(name string) bool {
		if name == current || name == update {
			return true
		}
		if _, ok := exact[name]; ok {
			return true
		}
		_, ok := short[shortHash(name)]
		return ok
	}
	var dead []int
	for _, i := range order {
		if !live(revisions[i].Name) {
			dead = append(dead, i)
		}
	}
	if len(dead) <= keep {
		return nil
	}
	return dead[:len(dead)-keep]
}
