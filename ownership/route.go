package ownership

import (
	"fmt"
	"maps"
	"sort"
)

// The kinds the Deployment controller's handlers compare controller
// references with.
const (
	KindDeployment = "Deployment"
	KindReplicaSet = "ReplicaSet"
)

// ReplicaSetAdded returns the indexes in ds (every Deployment the cache
// holds, in any namespace) of the Deployments woken when rs is added, in
// increasing order:
//
//   - rs being deleted: as ReplicaSetDeleted.
//   - rs with a controller reference: the Deployment it names, if that
//     reference has kind Deployment and a Deployment of rs's namespace has
//     its name and UID; else none.
//   - an orphan: every Deployment of rs's namespace whose selector is
//     valid, not empty and matches rs's labels (none if rs has no labels),
//     so that they may adopt it.
//
// Errors: nil rs; two Deployments with the same namespace and name.
// Upstream: DeploymentController.addReplicaSet, resolveControllerRef,
// util.GetDeploymentsForReplicaSet.
func ReplicaSetAdded(rs *Object, ds []Controller) ([]int, error) {
	if err := checkRoute(rs, ds); err != nil {
		return nil, err
	}
	if rs.Deleting {
		return ReplicaSetDeleted(rs, ds)
	}
	var w waker
	if ref, ok := rs.ControllerRef(); ok {
		w.resolve(ds, rs.Namespace, ref)
	} else {
		w.selecting(ds, rs)
	}
	return w.result(), nil
}

// ReplicaSetUpdated returns the indexes in ds of the Deployments woken
// when a ReplicaSet changes from old to cur, in increasing order:
//
//   - the same ResourceVersion (a periodic resync): none.
//   - the controller reference changed (any field, or added or removed)
//     and old had one: the Deployment old's reference resolves to.
//   - cur has a controller reference: the Deployment it resolves to.
//   - cur is an orphan whose labels or controller reference changed:
//     every Deployment that selects it, as ReplicaSetAdded. Labels compare
//     as reflect.DeepEqual does, so a nil map and an empty one differ.
//
// Upstream compares the controller references with reflect.DeepEqual, so
// a nil and a false blockOwnerDeletion differ there and are equal here;
// the answer is the same, because two references that differ only there
// wake the same Deployment.
//
// Errors: nil old or cur; two Deployments with the same namespace and
// name. Upstream: DeploymentController.updateReplicaSet.
func ReplicaSetUpdated(old, cur *Object, ds []Controller) ([]int, error) {
	if err := checkRoute(old, ds); err != nil {
		return nil, err
	}
	if err := checkRoute(cur, ds); err != nil {
		return nil, err
	}
	if cur.ResourceVersion == old.ResourceVersion {
		return nil, nil
	}
	var w waker
	curRef, curOK := cur.ControllerRef()
	oldRef, oldOK := old.ControllerRef()
	refChanged := curOK != oldOK || curRef != oldRef
	if refChanged && oldOK {
		w.resolve(ds, old.Namespace, oldRef)
	}
	if curOK {
		w.resolve(ds, cur.Namespace, curRef)
		return w.result(), nil
	}
	labelsChanged := (cur.Labels == nil) != (old.Labels == nil) || !maps.Equal(cur.Labels, old.Labels)
	if labelsChanged || refChanged {
		w.selecting(ds, cur)
	}
	return w.result(), nil
}

// ReplicaSetDeleted returns the indexes in ds of the Deployments woken
// when rs is deleted: the Deployment its controller reference resolves to
// (see ReplicaSetAdded), none for an orphan.
//
// Errors: nil rs; two Deployments with the same namespace and name.
// Upstream: DeploymentController.deleteReplicaSet.
func ReplicaSetDeleted(rs *Object, ds []Controller) ([]int, error) {
	if err := checkRoute(rs, ds); err != nil {
		return nil, err
	}
	var w waker
	if ref, ok := rs.ControllerRef(); ok {
		w.resolve(ds, rs.Namespace, ref)
	}
	return w.result(), nil
}

// PodDeleted returns the indexes in ds of the Deployments woken when pod
// is deleted. rss are the ReplicaSets (any namespace) and pods the pods
// the cache still holds. (Upstream finds the pod's ReplicaSet in its cache
// but lists the Deployment's ReplicaSets from the API server; rss stands
// for both.) An informer removes the deleted pod before it
// calls the handler; a pod still in pods counts, whatever its UID, as
// upstream counts what its cache holds (upstream's
// TestPodDeletionPartialReplicaSetOwnershipDoesntEnqueueRecreateDeployment).
//
// Only a Recreate Deployment is woken, and only when its last pod is gone:
// pod's controller reference must name (kind ReplicaSet, name, UID) a
// ReplicaSet of pod's namespace, whose controller reference resolves to a
// Recreate Deployment d; d is woken if no pod of pods is controlled by a
// ReplicaSet that d controls and selects (a nil selector counts as
// selecting all here: upstream lists with the selector's string form, and
// that of a nil selector is "", which the API server reads as everything).
// A ReplicaSet of d with an empty
// namespace, name or UID makes upstream's pod lookup fail, and then d is
// not woken. Two ReplicaSets of d with the same UID, which an API server
// never creates, differ: upstream groups d's pods by ReplicaSet UID and
// counts only the last listed one's, so it can wake d while pods remain;
// PodDeleted counts every pod (the conformance module models the case).
//
// Errors: nil pod; two Deployments with the same namespace and name.
// Upstream: DeploymentController.deletePod, getDeploymentForPod,
// util.ListReplicaSets and getPodMapForDeployment.
func PodDeleted(pod *Object, rss, pods []Object, ds []Controller) ([]int, error) {
	if err := checkRoute(pod, ds); err != nil {
		return nil, err
	}
	ref, ok := pod.ControllerRef()
	if !ok || ref.Kind != KindReplicaSet {
		return nil, nil
	}
	owner := -1
	for i := range rss {
		if rss[i].Namespace == pod.Namespace && rss[i].Name == ref.Name {
			owner = i
			break
		}
	}
	if owner < 0 || rss[owner].UID != ref.UID {
		return nil, nil
	}
	rsRef, ok := rss[owner].ControllerRef()
	if !ok {
		return nil, nil
	}
	di := find(ds, rss[owner].Namespace, rsRef)
	if di < 0 || !ds[di].Recreate {
		return nil, nil
	}
	d := &ds[di]
	if d.Selector.Validate() != nil {
		return nil, nil
	}
	for i := range rss {
		rs := &rss[i]
		r, ok := rs.ControllerRef()
		// Upstream lists with the selector's string form, and a nil
		// selector's is "", which lists everything.
		if rs.Namespace != d.Namespace || !ok || r.UID != d.UID || (d.Selector != nil && !d.Selector.matches(rs.Labels)) {
			continue
		}
		if rs.Namespace == "" || rs.Name == "" || rs.UID == "" {
			return nil, nil
		}
		for j := range pods {
			p := &pods[j]
			pr, ok := p.ControllerRef()
			if ok && p.Namespace == rs.Namespace && pr.Kind == KindReplicaSet && pr.Name == rs.Name && pr.UID == rs.UID {
				return nil, nil
			}
		}
	}
	return []int{di}, nil
}

// checkRoute rejects a nil object and Deployments that a lister could not
// tell apart (the same namespace and name).
func checkRoute(o *Object, ds []Controller) error {
	if o == nil {
		return fmt.Errorf("ownership: no object given")
	}
	seen := make(map[[2]string]bool, len(ds))
	for i := range ds {
		k := [2]string{ds[i].Namespace, ds[i].Name}
		if seen[k] {
			return fmt.Errorf("ownership: two Deployments named %s/%s", ds[i].Namespace, ds[i].Name)
		}
		seen[k] = true
	}
	return nil
}

// find returns the index of the Deployment ref resolves to in namespace
// ns, or -1. Upstream: resolveControllerRef (look up by name, then check
// kind and UID).
func find(ds []Controller, ns string, ref OwnerReference) int {
	if ref.Kind != KindDeployment {
		return -1
	}
	for i := range ds {
		if ds[i].Namespace == ns && ds[i].Name == ref.Name {
			if ds[i].UID != ref.UID {
				return -1
			}
			return i
		}
	}
	return -1
}

// waker collects the indexes of woken Deployments; a Deployment woken
// twice is queued once, as upstream's work queue merges duplicate keys.
type waker struct{ idx []int }

func (w *waker) add(i int) {
	for _, j := range w.idx {
		if j == i {
			return
		}
	}
	w.idx = append(w.idx, i)
}

func (w *waker) resolve(ds []Controller, ns string, ref OwnerReference) {
	if i := find(ds, ns, ref); i >= 0 {
		w.add(i)
	}
}

// selecting wakes every Deployment of rs's namespace whose valid,
// non-empty selector matches rs's labels. Upstream:
// util.GetDeploymentsForReplicaSet.
func (w *waker) selecting(ds []Controller, rs *Object) {
	if len(rs.Labels) == 0 {
		return
	}
	for i := range ds {
		d := &ds[i]
		if d.Namespace != rs.Namespace || d.Selector.Validate() != nil || d.Selector.Empty() {
			continue
		}
		if d.Selector.matches(rs.Labels) {
			w.add(i)
		}
	}
}

func (w *waker) result() []int {
	sort.Ints(w.idx)
	return w.idx
}
