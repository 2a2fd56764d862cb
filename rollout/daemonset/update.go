package daemonset

import (
	"strconv"
	"time"
)

// FindUpdatedPodsOnNode returns, among pods (the DaemonSet's pods on one
// node), the updated pod and the old pod, as indices into pods (-1 when
// there is none), skipping terminating pods; "updated" is [IsPodUpdated]
// with hash and templateGeneration. ok is false, with both -1, when two
// pods are updated or two are old: the node then waits for manage to
// remove the extra pod.
// Upstream: findUpdatedPodsOnNode, pkg/controller/daemon/update.go.
func FindUpdatedPodsOnNode(pods []Pod, hash string, templateGeneration *int64) (newPod, oldPod int, ok bool) {
	return findUpdated(pods, nil, hash, templateGeneration)
}

// findUpdated is FindUpdatedPodsOnNode over pods[idx] (all of pods when
// idx is nil); the results index pods.
func findUpdated(pods []Pod, idx []int, hash string, gen *int64) (newPod, oldPod int, ok bool) {
	newPod, oldPod = -1, -1
	n := len(pods)
	if idx != nil {
		n = len(idx)
	}
	for k := range n {
		i := k
		if idx != nil {
			i = idx[k]
		}
		p := &pods[i]
		if p.Terminating {
			continue
		}
		if IsPodUpdated(p, hash, gen) {
			if newPod >= 0 {
				return -1, -1, false
			}
			newPod = i
		} else {
			if oldPod >= 0 {
				return -1, -1, false
			}
			oldPod = i
		}
	}
	return newPod, oldPod, true
}

// rollScratch holds the lists of one rolling update, reused.
type rollScratch struct {
	replace, candidates, notWanted []mark // pods
	allowed, newNodes              []mark // entries
}

// rollingUpdate is the rolling update over the view, nodes in name order.
// It appends the entries to create on to creates and the pods to delete
// to deletes, and returns the counts of the decision. A node that holds
// an old pod, must be looked up, and is not in the list is an error in
// upstream's words.
func rollingUpdate[T any](v *view, ds *DaemonSet[T], b Budget, hash string, now time.Time, opts Options, s *rollScratch, creates, deletes []mark) ([]mark, []mark, Decision, error) {
	gen := ds.TemplateGeneration
	mrs := ds.MinReadySeconds
	var d Decision
	s.replace, s.candidates, s.notWanted = s.replace[:0], s.candidates[:0], s.notWanted[:0]
	s.allowed, s.newNodes = s.allowed[:0], s.newNodes[:0]
	inMap := func(e *entry) bool { return e.hi > e.lo || (e.node >= 0 && v.nodes[e.node].ShouldRun) }
	if b.MaxSurge == 0 {
		var unavailable int32
		for k := range v.entries {
			e := &v.entries[k]
			if !inMap(e) {
				continue
			}
			newPod, oldPod, ok := findUpdated(v.pods, v.podsOf(e), hash, gen)
			switch {
			case !ok:
				unavailable++
			case (oldPod < 0) == (newPod < 0):
				unavailable++
			case newPod >= 0:
				if !IsPodAvailable(&v.pods[newPod], mrs, now) {
					unavailable++
				}
			case !IsPodAvailable(&v.pods[oldPod], mrs, now):
				if opts.UnavailableOldPods == ReplaceWithinBudget {
					s.candidates = append(s.candidates, mark{oldPod, causeBudget})
					continue
				}
				s.replace = append(s.replace, mark{oldPod, causeOldUnavailable})
				unavailable++
			case unavailable >= b.MaxUnavailable:
			default:
				s.candidates = append(s.candidates, mark{oldPod, causeBudget})
			}
		}
		if opts.UnavailableOldPods == ReplaceWithinBudget {
			// Unavailable old pods first, then available ones, each in
			// node order; all within the budget.
			for _, m := range s.candidates {
				if !IsPodAvailable(&v.pods[m.i], mrs, now) {
					s.replace = append(s.replace, m)
				}
			}
			for _, m := range s.candidates {
				if IsPodAvailable(&v.pods[m.i], mrs, now) {
					s.replace = append(s.replace, m)
				}
			}
			s.candidates, s.replace = s.replace, s.candidates[:0]
		}
		room := min(max(0, int(b.MaxUnavailable)-int(unavailable)), len(s.candidates))
		deletes = append(deletes, s.replace...)
		deletes = append(deletes, s.candidates[:room]...)
		d.Unavailable = unavailable
		return creates, deletes, d, nil
	}

	var surge, available int32
	for k := range v.entries {
		e := &v.entries[k]
		if !inMap(e) {
			continue
		}
		newPod, oldPod, ok := findUpdated(v.pods, v.podsOf(e), hash, gen)
		if !ok {
			surge++
			continue
		}
		if oldPod >= 0 {
			if IsPodAvailable(&v.pods[oldPod], mrs, now) {
				available++
			}
		} else if newPod >= 0 && IsPodAvailable(&v.pods[newPod], mrs, now) {
			available++
		}
		switch {
		case oldPod < 0:
		case newPod < 0:
			if e.node < 0 {
				return creates, deletes, d, &NodeNotFoundError{Node: e.name}
			}
			wanted := v.nodes[e.node].ShouldRun
			switch {
			case !IsPodAvailable(&v.pods[oldPod], mrs, now):
				if !wanted {
					deletes = append(deletes, mark{oldPod, causeNotWantedUnavailable})
					continue
				}
				s.allowed = append(s.allowed, mark{k, causeSurgeUnavailable})
			case !wanted:
				s.notWanted = append(s.notWanted, mark{oldPod, causeNotWantedExcess})
			case surge >= b.MaxSurge:
			default:
				s.newNodes = append(s.newNodes, mark{k, causeSurgeBudget})
			}
		default:
			if !IsPodAvailable(&v.pods[newPod], mrs, now) {
				surge++
				continue
			}
			deletes = append(deletes, mark{oldPod, causeReplaced})
		}
	}
	if n := min(int(available)-int(b.Desired), len(s.notWanted)); n > 0 {
		deletes = append(deletes, s.notWanted[:n]...)
	}
	room := min(max(0, int(b.MaxSurge)-int(surge)), len(s.newNodes))
	creates = append(creates, s.allowed...)
	creates = append(creates, s.newNodes[:room]...)
	d.Surge, d.Available = surge, available
	return creates, deletes, d, nil
}

// NodeNotFoundError is a surging rolling update's failure: an old pod is
// on a node that is not among the nodes (deleted while its pod stays).
// It is not bad input: upstream fails the same way, skips the history
// cleanup, writes status and retries; [Plan] records it in Sync.Reason
// and requeues, [RollingUpdateStep] returns it.
type NodeNotFoundError struct {
	// Node names the missing node.
	Node string
}

// Error returns upstream's text:
// couldn't get node for nodeName "n": node "n" not found.
func (e *NodeNotFoundError) Error() string {
	return "couldn't get node for nodeName " + strconv.Quote(e.Node) + ": node " + strconv.Quote(e.Node) + " not found"
}

// RollingUpdateStep returns what the rolling update does on its own over
// nodes and pods, as if manage had done nothing (see [Plan] for when it
// runs), with the [Budgets] of nodes and hash the current revision's
// hash. Nodes are visited in name order (upstream visits them in Go's map
// order, which varies from run to run: only the counts are
// deterministic). The map holds every node with listed pods and every
// node that should run the pod; on each, terminating pods are ignored
// and [FindUpdatedPodsOnNode] picks the new and the old pod.
//
// Without surge (MaxSurge 0): a node with two pods of a kind, with none,
// or with both an old and a new pod counts unavailable, as does one whose
// new pod is not available; an old pod that is not available is deleted
// whatever the budget (and counts unavailable); available old pods are
// candidates while fewer than MaxUnavailable nodes were counted
// unavailable so far, and max(0, MaxUnavailable - unavailable) of them
// are deleted. Nothing is created: manage creates the replacement in a
// later sync, once the old pod is gone. Decision.Unavailable is the final
// count.
//
// With surge (MaxUnavailable is not used): a node with two pods of a
// kind, or whose new pod is not yet available, counts as surging; a new
// pod is created at once beside every unavailable old pod, and beside
// available old pods on as many nodes as MaxSurge minus the surging
// count allows; an old pod whose new pod is available is deleted. On a
// node that should not run the pod (a NoSchedule taint), an unavailable
// old pod is deleted, and available ones are deleted only as far as the
// available count exceeds Desired. Decision.Surge and Decision.Available
// are the counts.
//
// Errors: bad input (see [Plan]), and, with surge, an old pod on a node
// not in nodes, in upstream's words ("couldn't get node for nodeName
// ...").
// Upstream: rollingUpdate, pkg/controller/daemon/update.go.
func RollingUpdateStep[T any](ds *DaemonSet[T], nodes []Node, pods []Pod, hash string, now time.Time, opts Options) (Decision, error) {
	if ds == nil {
		return Decision{}, nilError()
	}
	var v view
	if err := v.build(nodes, pods); err != nil {
		return Decision{}, err
	}
	b, err := budgets(ds, v.desired)
	if err != nil {
		return Decision{}, err
	}
	var s rollScratch
	creates, deletes, counts, err := rollingUpdate(&v, ds, b, hash, now, opts, &s, nil, nil)
	if err != nil {
		return Decision{}, err
	}
	d := v.decision(creates, deletes)
	d.Unavailable, d.Surge, d.Available = counts.Unavailable, counts.Surge, counts.Available
	return d, nil
}
