package daemonset

import (
	"slices"
	"time"
)

// Decision is what one step of a sync (manage, or the rolling update)
// asks syncNodes to do, before the burst limit: the nodes to create a pod
// on and the pods to delete, in the order the step found them.
type Decision struct {
	// Create names the nodes that get a new pod.
	Create []string `json:"create,omitempty"`
	// Delete names the pods to delete.
	Delete []string `json:"delete,omitempty"`
	// Unavailable is, for a rolling update without surge, the number of
	// nodes counted unavailable (numUnavailable, after the loop).
	Unavailable int32 `json:"unavailable,omitempty"`
	// Surge is, for a rolling update with surge, the number of nodes
	// counted as surging (numSurge, after the loop).
	Surge int32 `json:"surge,omitempty"`
	// Available is, for a rolling update with surge, the number of nodes
	// whose old pod (or, without one, new pod) is available.
	Available int32 `json:"available,omitempty"`
}

// PodsShouldBeOnNode returns what manage does on one node: whether to
// create a pod there and which of its pods to delete. pods are the
// DaemonSet's pods for that node (any order; pods that are both terminal
// and terminating are ignored, as the controller's listing drops them), hash
// the current revision's hash:
//
//   - ShouldRun and no pod: create.
//   - ShouldContinueRunning: terminating pods are left alone, Failed and
//     Succeeded pods are deleted, the rest are running. Without surge,
//     all running pods but the oldest ([ComparePods]) are deleted, and a
//     node whose pods are all terminating or failed gets no new pod until
//     they are gone. With surge ([AllowsSurge]), a node without a running
//     pod gets one (if ShouldRun); with two or more, the oldest pod at
//     hash and the oldest other are kept, the rest deleted, and the old
//     one is deleted too when it is not ready or the new one is
//     available. The surge check compares the hash label only
//     (a pod updated by its generation label counts as old here).
//   - Otherwise (the pod may not stay): every pod not terminating is
//     deleted.
//
// Upstream deletes a Failed pod only when its per-node backoff (1 s
// doubling to 15 min) has expired; the backoff is the controller's memory
// and is not modelled: PodsShouldBeOnNode deletes failed pods at once.
// Upstream: podsShouldBeOnNode, pkg/controller/daemon/daemon_controller.go.
func PodsShouldBeOnNode[T any](ds *DaemonSet[T], node Node, pods []Pod, hash string, now time.Time) (create bool, del []string) {
	idx := make([]int, 0, len(pods))
	for i := range pods {
		if !(terminal(&pods[i]) && pods[i].Terminating) {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return ComparePods(&pods[a], &pods[b]) })
	create, _, out := podsShouldBeOnNode(ds, &node, idx, pods, hash, AllowsSurge(ds), now, nil)
	for _, m := range out {
		del = append(del, pods[m.i].Name)
	}
	return create, del
}

// podsShouldBeOnNode is PodsShouldBeOnNode over pods[idx], sorted by
// ComparePods; it appends the pods to delete, with their causes, to dst,
// and says why it creates.
func podsShouldBeOnNode[T any](ds *DaemonSet[T], node *Node, idx []int, pods []Pod, hash string, surge bool, now time.Time, dst []mark) (bool, cause, []mark) {
	exists := len(idx) > 0
	switch {
	case node.ShouldRun && !exists:
		return true, causeNoPod, dst
	case node.ShouldContinueRunning:
		running, first := 0, -1
		for _, i := range idx {
			p := &pods[i]
			switch {
			case p.Terminating:
			case p.Phase == PodFailed:
				dst = append(dst, mark{i, causeFailed})
			case p.Phase == PodSucceeded:
				dst = append(dst, mark{i, causeSucceeded})
			default:
				running++
				if first < 0 {
					first = i
				}
			}
		}
		if !surge {
			if running <= 1 {
				return false, 0, dst
			}
			for _, i := range idx {
				p := &pods[i]
				if i != first && !p.Terminating && !terminal(p) {
					dst = append(dst, mark{i, causeExtra})
				}
			}
			return false, 0, dst
		}
		if running <= 1 {
			return running == 0 && node.ShouldRun, causeNoRunning, dst
		}
		newest, oldest := -1, -1
		for _, i := range idx {
			p := &pods[i]
			if p.Terminating || terminal(p) {
				continue
			}
			if p.Hash == hash {
				if newest < 0 {
					newest = i
					continue
				}
			} else if oldest < 0 {
				oldest = i
				continue
			}
			dst = append(dst, mark{i, causeExtraSurge})
		}
		if newest >= 0 && oldest >= 0 {
			switch {
			case !IsPodReady(&pods[oldest]):
				dst = append(dst, mark{oldest, causeOldNotReady})
			case IsPodAvailable(&pods[newest], ds.MinReadySeconds, now):
				dst = append(dst, mark{oldest, causeNewAvailable})
			}
		}
		return false, 0, dst
	default: // may not keep running
		for _, i := range idx {
			if !pods[i].Terminating {
				dst = append(dst, mark{i, causeMayNotRun})
			}
		}
		return false, 0, dst
	}
}

// manage is the controller's manage over the view: per node in name
// order, then the unscheduled pods of nodes missing from the list. It
// appends to creates (entry indices) and deletes (pod indices).
// Upstream: manage and getUnscheduledPodsWithoutNode,
// pkg/controller/daemon/daemon_controller.go.
func manage[T any](v *view, ds *DaemonSet[T], hash string, surge bool, now time.Time, creates, deletes []mark) ([]mark, []mark) {
	for k := range v.entries {
		e := &v.entries[k]
		if e.node < 0 {
			continue
		}
		create, c, dels := podsShouldBeOnNode(ds, &v.nodes[e.node], v.podsOf(e), v.pods, hash, surge, now, deletes)
		deletes = dels
		if create {
			creates = append(creates, mark{k, c})
		}
	}
	for k := range v.entries {
		e := &v.entries[k]
		if e.node >= 0 {
			continue
		}
		for _, i := range v.podsOf(e) {
			if v.pods[i].Unscheduled {
				deletes = append(deletes, mark{i, causeOrphan})
			}
		}
	}
	return creates, deletes
}

// Manage returns what manage does over every node: [PodsShouldBeOnNode]
// for each node, in name order (upstream walks the node list in the order
// its cache lists it), then the deletion of unscheduled pods whose node
// is not in nodes (the scheduler cannot place them and the pod garbage
// collector does not delete them). hash is the current revision's hash.
// Errors: bad input (see [Plan]).
// Upstream: manage, pkg/controller/daemon/daemon_controller.go.
func Manage[T any](ds *DaemonSet[T], nodes []Node, pods []Pod, hash string, now time.Time) (Decision, error) {
	if ds == nil {
		return Decision{}, nilError()
	}
	var v view
	if err := v.build(nodes, pods); err != nil {
		return Decision{}, err
	}
	creates, deletes := manage(&v, ds, hash, AllowsSurge(ds), now, nil, nil)
	return v.decision(creates, deletes), nil
}

// decision names the entries and pods of a step.
func (v *view) decision(creates, deletes []mark) Decision {
	var d Decision
	for _, m := range creates {
		d.Create = append(d.Create, v.entries[m.i].name)
	}
	for _, m := range deletes {
		d.Delete = append(d.Delete, v.pods[m.i].Name)
	}
	return d
}

// mark is a pod (an index into the pods) or a node (an index into the
// view's entries) a step acts on, and why.
type mark struct {
	i int
	c cause
}

// cause says why a step creates or deletes a pod.
type cause uint8

// The causes of the writes of manage and the rolling update.
const (
	causeNone cause = iota
	// manage
	causeNoPod        // create: the node should run the pod and has none
	causeNoRunning    // create (surge): no running pod on the node
	causeFailed       // delete: the pod failed
	causeSucceeded    // delete: the pod succeeded
	causeExtra        // delete: a second running pod (no surge)
	causeExtraSurge   // delete: beyond the oldest new and oldest old pod
	causeOldNotReady  // delete (surge): the old pod beside a new one is not ready
	causeNewAvailable // delete (surge): the new pod beside it is available
	causeMayNotRun    // delete: the pod may not keep running on its node
	causeOrphan       // delete: unscheduled, for a node that does not exist
	// rolling update
	causeOldUnavailable       // delete: old and unavailable, outside the budget
	causeBudget               // delete: old and available, within maxUnavailable
	causeReplaced             // delete (surge): the new pod on the node is available
	causeNotWantedUnavailable // delete (surge): old, unavailable, on a node that should not run it
	causeNotWantedExcess      // delete (surge): old, on a node that should not run it, more available than desired
	causeSurgeUnavailable     // create (surge): beside an unavailable old pod, outside the budget
	causeSurgeBudget          // create (surge): beside an available old pod, within maxSurge
)
