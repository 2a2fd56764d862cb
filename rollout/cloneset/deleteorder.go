package cloneset

import (
	"cmp"
	"slices"
	"time"
)

// DeletionOrder returns the indexes of the active pods in pods, in the
// order kruise deletes them when it scales in (first = deleted first).
// Inactive pods (see IsPodActive) are left out. Each rule decides only
// when the ones before it tie:
//
//  1. not scheduled (no NodeName) before scheduled;
//  2. phase Pending (or "", or any phase but Unknown and Running) before
//     Unknown before Running;
//  3. not available (IsPodAvailable at minReadySeconds) before available,
//     then not Ready before Ready;
//  4. lower deletion cost first (ParseDeletionCost: junk is 0);
//  5. higher same-node rank first: among the pods on one node, ordered by
//     rules 1, 2, the Ready half of 3, 4 and 6-9, the last (most valuable)
//     has rank 0 and the others k-1, ..., 1 for k pods on the node, so a
//     node's extra pods go before pods alone on their node;
//  6. when both are Ready, the later ReadySince first (a zero time first);
//  7. more Restarts first;
//  8. the later CreationTime first (a zero time first);
//  9. then by Name, ascending.
//
// Rules 1-8 are kruise's ActivePodsWithRanks with its same-node ranker.
// Rule 9 is ours: kruise sorts with Go's unstable sort.Sort, so pods
// that tie on 1-8 come out in an order that depends on the order kruise's
// cache listed them (for 12 pods or fewer sort.Sort is an insertion sort
// and keeps the listing order; for more it may not), and the listing
// order itself is unspecified. Breaking ties by name makes the order
// total: the result never depends on the order of pods, and names are
// unique (a duplicate is an error). The same holds inside the
// same-node ranker, which kruise also sorts with sort.Sort.
//
// Not modelled: when the pod template has topologySpreadConstraints,
// kruise replaces rule 5's ranker by a spread ranker that reads the
// nodes' topology labels; this package sees neither the template's
// constraints nor the nodes, so it always uses the same-node ranker.
//
// minReadySeconds and now decide availability. Errors: a pod without a
// name, two pods with the same name, negative restarts (wrapping
// field.ErrInvalid); the slice is then nil. DeletionOrder is O(n log n) and
// allocates the result, a key per pod, a list of the scheduled ones
// and a set of names (to reject duplicates).
// Upstream: clonesetutils.ActivePodsWithRanks, NewSameNodeRanker.
func DeletionOrder(pods []Pod, minReadySeconds int32, now time.Time) ([]int, error) {
	if err := checkPods(pods); err != nil {
		return nil, err
	}
	keys := deletionKeys(pods, nil, minReadySeconds, now)
	out := make([]int, len(keys))
	for i := range keys {
		out[i] = int(keys[i].idx)
	}
	return out, nil
}

// delKey is what the deletion order reads of one pod.
type delKey struct {
	idx       int32
	noNode    bool
	phase     uint8
	avail     bool
	ready     bool
	cost      int32
	rank      int32
	restarts  int32
	readyTime time.Time // ReadySince when Ready, else zero
	created   time.Time
	name      string
	node      string
}

// deletionKeys returns the keys of the active pods among pods (or among
// pods[sel[i]] when sel is non-nil), sorted into the deletion order, with
// same-node ranks computed over exactly those pods.
func deletionKeys(pods []Pod, sel []int, minReadySeconds int32, now time.Time) []delKey {
	n := len(pods)
	if sel != nil {
		n = len(sel)
	}
	keys := make([]delKey, 0, n)
	for j := range n {
		i := j
		if sel != nil {
			i = sel[j]
		}
		p := &pods[i]
		if !IsPodActive(p) {
			continue
		}
		cost, _ := ParseDeletionCost(p.DeletionCost)
		k := delKey{
			idx: int32(i), noNode: p.NodeName == "", phase: phaseOrdinal(p.Phase),
			avail: IsPodAvailable(p, minReadySeconds, now), ready: p.Ready, cost: cost,
			restarts: p.Restarts, created: p.CreationTime, name: p.Name, node: p.NodeName,
		}
		if p.Ready {
			k.readyTime = p.ReadySince
		}
		keys = append(keys, k)
	}
	rankSameNode(keys)
	slices.SortFunc(keys, compareForDeletion)
	return keys
}

// rankSameNode sets the same-node rank of each key: on a node with k >= 2
// pods, ordered by compareOnNode, the last gets 0 and the others k-1 down
// to 1. It sorts the scheduled pods by node and then by compareOnNode,
// so it allocates one slice whatever the number of nodes.
func rankSameNode(keys []delKey) {
	on := make([]int32, 0, len(keys))
	for i := range keys {
		if keys[i].node != "" {
			on = append(on, int32(i))
		}
	}
	slices.SortFunc(on, func(a, b int32) int {
		if c := cmp.Compare(keys[a].node, keys[b].node); c != 0 {
			return c
		}
		return compareOnNode(&keys[a], &keys[b])
	})
	for start := 0; start < len(on); {
		end := start + 1
		for end < len(on) && keys[on[end]].node == keys[on[start]].node {
			end++
		}
		for r, i := range on[start : end-1] {
			keys[i].rank = int32(end - start - 1 - r)
		}
		start = end
	}
}

// phaseOrdinal orders phases for deletion: Pending (and anything else)
// 0, Unknown 1, Running 2.
func phaseOrdinal(p PodPhase) uint8 {
	switch p {
	case PodUnknown:
		return 1
	case PodRunning:
		return 2
	}
	return 0
}

// compareForDeletion is the deletion order: negative when a is deleted
// before b.
func compareForDeletion(a, b delKey) int {
	if c := compareHead(&a, &b); c != 0 {
		return c
	}
	if a.avail != b.avail {
		return boolFirst(!a.avail, !b.avail)
	}
	if a.ready != b.ready {
		return boolFirst(!a.ready, !b.ready)
	}
	if a.cost != b.cost {
		return cmp.Compare(a.cost, b.cost)
	}
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	return compareTail(&a, &b)
}

// compareOnNode is the order the same-node ranker sorts a node's pods by:
// the deletion order without availability and ranks.
func compareOnNode(a, b *delKey) int {
	if c := compareHead(a, b); c != 0 {
		return c
	}
	if a.ready != b.ready {
		return boolFirst(!a.ready, !b.ready)
	}
	if a.cost != b.cost {
		return cmp.Compare(a.cost, b.cost)
	}
	return compareTail(a, b)
}

// compareHead applies rules 1 and 2.
func compareHead(a, b *delKey) int {
	if a.noNode != b.noNode {
		return boolFirst(a.noNode, b.noNode)
	}
	return cmp.Compare(a.phase, b.phase)
}

// compareTail applies rules 6 to 9.
func compareTail(a, b *delKey) int {
	if a.ready && b.ready && !a.readyTime.Equal(b.readyTime) {
		return laterOrZeroFirst(a.readyTime, b.readyTime)
	}
	if a.restarts != b.restarts {
		return cmp.Compare(b.restarts, a.restarts)
	}
	if !a.created.Equal(b.created) {
		return laterOrZeroFirst(a.created, b.created)
	}
	return cmp.Compare(a.name, b.name)
}

// boolFirst returns -1 when only x holds, 1 when only y holds.
func boolFirst(x, y bool) int {
	if x == y {
		return 0
	}
	if x {
		return -1
	}
	return 1
}

// laterOrZeroFirst orders two different times: a zero time first, else
// the later first. Upstream: afterOrZero.
func laterOrZeroFirst(a, b time.Time) int {
	if a.IsZero() || b.IsZero() {
		return boolFirst(a.IsZero(), b.IsZero())
	}
	return b.Compare(a)
}
