package cloneset

import (
	"slices"
	"strconv"
	"time"
)

// ScaleBranch is the branch of kruise's Scale that decided a reconcile's
// scaling.
type ScaleBranch uint8

// The branches of Scale, in the order kruise tries them.
const (
	// ScaleRegret: pods in PreparingDelete that are no longer needed gone
	// return to PreparingNormal; nothing else happens this round.
	ScaleRegret ScaleBranch = iota + 1
	// ScaleOut: pods are missing (Diffs.ScaleUpNum > 0). Up to
	// Diffs.ScaleUpLimit pods are created; nothing is deleted this round,
	// even when the limit is 0 (docs/cloneset.md#s7-scale-out-short-circuit).
	ScaleOut
	// ScaleDeletePreDeleted: pods in PreparingDelete whose preDelete hook
	// is released are deleted.
	ScaleDeletePreDeleted
	// ScaleDeleteSpecified: specified-delete pods are deleted, the ready
	// ones within Diffs.DeleteReadyLimit.
	ScaleDeleteSpecified
	// ScaleIn: surplus pods are chosen (choosePodsToDelete) and deleted,
	// the ready ones within Diffs.DeleteReadyLimit.
	ScaleIn
	// ScaleWaitForDeletion: pods are surplus but earlier planned deletions
	// (specified-delete or PreparingDelete pods) are still pending, so
	// kruise waits.
	ScaleWaitForDeletion
	// ScaleNone: nothing to do.
	ScaleNone
)

// String returns the branch's name, e.g. "ScaleOut".
func (b ScaleBranch) String() string {
	switch b {
	case ScaleRegret:
		return "ScaleRegret"
	case ScaleOut:
		return "ScaleOut"
	case ScaleDeletePreDeleted:
		return "ScaleDeletePreDeleted"
	case ScaleDeleteSpecified:
		return "ScaleDeleteSpecified"
	case ScaleIn:
		return "ScaleIn"
	case ScaleWaitForDeletion:
		return "ScaleWaitForDeletion"
	case ScaleNone:
		return "ScaleNone"
	}
	return "ScaleBranch(" + strconv.Itoa(int(b)) + ")"
}

// ScaleDecision is what kruise's Scale does in one reconcile.
type ScaleDecision struct {
	// Branch is the branch that ended Scale.
	Branch ScaleBranch `json:"branch"`
	// Modified says Scale wrote something (a pod created, deleted, or its
	// lifecycle changed). Kruise then skips the update step this round.
	// ScaleOut with a ScaleUpLimit of 0 is not modified, so the update
	// step runs.
	Modified bool `json:"modified"`
	// Diffs are the scale-step diffs; zero for ScaleRegret, which returns
	// before computing them.
	Diffs Diffs `json:"diffs"`
	// Regret names the PreparingDelete pods returned to PreparingNormal,
	// in the order considered.
	Regret []string `json:"regret,omitempty"`
	// CreateCurrent and CreateUpdate are how many pods to create at the
	// current and the update revision: if ScaleUpLimit <=
	// ScaleUpNumOldRevision all ScaleUpLimit at the current revision,
	// else ScaleUpNumOldRevision at the current one and the rest at the
	// update revision. Kruise creates them in PreparingNormal, in
	// slow-start batches of 1, 2, 4, ...
	CreateCurrent int32 `json:"createCurrent,omitempty"`
	CreateUpdate  int32 `json:"createUpdate,omitempty"`
	// Delete names the pods deleted, in the order kruise deletes them.
	Delete []string `json:"delete,omitempty"`
	// PrepareDelete names the pods chosen for deletion that carry the
	// preDelete hook: they move to PreparingDelete instead of being
	// deleted, in the order chosen.
	PrepareDelete []string `json:"prepareDelete,omitempty"`
	// ScaleUpLimited says ScaleUpNum > ScaleUpLimit: kruise records a
	// ScaleUpLimited warning event.
	ScaleUpLimited bool `json:"scaleUpLimited,omitempty"`
}

// Scale returns what kruise's Scale does to cs's pods in one reconcile,
// in kruise's order, stopping at the first branch that acts:
//
//  1. Regret (unless a preDelete or inPlaceUpdate hook has
//     markPodNotReady): with d = R - N + the number of distinct pods
//     specified for deletion or in PreparingDelete, the first d pods in
//     PreparingDelete that are not specified for deletion return to
//     PreparingNormal.
//  2. The diffs for the scale step (CalculateDiffs, ForScale).
//  3. Scale out whenever ScaleUpNum > 0: create ScaleUpLimit pods (see
//     CreateCurrent), and return even if that is 0.
//  4. Pods in PreparingDelete: delete those no longer held by the
//     preDelete hook.
//  5. Specified-delete pods not in PreparingDelete: delete those not
//     ready (IsPodAvailable at minReadySeconds 0; at minReadySeconds with
//     Options.ReadyLimit = ReadyLimitAvailableOnly), and ready ones while
//     DeleteReadyLimit lasts.
//  6. Scale in when ScaleDownNum > 0: wait if any deletion of 4 or 5 is
//     pending; else choose ScaleDownNumOldRevision pods (at most
//     ScaleDownNum) from the pods not at the update revision and the
//     rest from those at it, each group in DeletionOrder (a group taken
//     whole is not sorted by kruise), then delete those not ready and
//     ready ones while DeleteReadyLimit lasts.
//
// Deleting a pod that carries the preDelete hook (any of its labels or
// finalizers) moves it to PreparingDelete instead (PrepareDelete).
//
// Where kruise walks pods in the order its cache lists them (regret,
// steps 4 and 5, and a group taken whole in step 6), which is
// unspecified, Scale walks them by name, so that the result never
// depends on the order of pods. Kruise's results are the same whenever
// its cache lists pods by name.
//
// Scale assumes kruise's scale expectations are satisfied: pods holds
// every pod kruise created and none it deleted (see the package
// comment). It does not model PVCs and instance IDs (kruise reuses the
// ID of a free PVC for a new pod's name), the KruisePodReady condition a
// hook with markPodNotReady writes, nor API errors.
//
// Errors, with a zero ScaleDecision: those of CalculateDiffs.
// Upstream: sync.realControl.Scale.
func Scale[T any](cs *CloneSet[T], pods []Pod, revs Revisions, now time.Time, opts Options) (ScaleDecision, error) {
	if err := checkCloneSet(cs); err != nil {
		return ScaleDecision{}, err
	}
	if err := checkPods(pods); err != nil {
		return ScaleDecision{}, err
	}
	return scale(cs, pods, revs, now, opts), nil
}

// scale is Scale on inputs already checked (checkCloneSet, checkPods).
func scale[T any](cs *CloneSet[T], pods []Pod, revs Revisions, now time.Time, opts Options) ScaleDecision {
	s := scaler[T]{cs: cs, pods: pods, revs: revs, now: now, opts: opts}
	return s.run()
}

type scaler[T any] struct {
	cs   *CloneSet[T]
	pods []Pod
	revs Revisions
	now  time.Time
	opts Options
	dec  ScaleDecision
}

func (s *scaler[T]) run() ScaleDecision {
	cs := s.cs
	toDelete := nameSet(cs.ScaleStrategy.PodsToDelete)
	// The active pods (listed when a scale-in chooses among them); the
	// planned deletions.
	var nActive int
	var specified, preDelete []int
	for i := range s.pods {
		p := &s.pods[i]
		if !IsPodActive(p) {
			continue
		}
		nActive++
		if p.SpecifiedDelete || toDelete.has(p.Name) {
			specified = append(specified, i)
		}
		if p.Lifecycle == PreparingDelete {
			preDelete = append(preDelete, i)
		}
	}
	byName := func(list []int) {
		slices.SortFunc(list, func(a, b int) int { return compareNames(s.pods[a].Name, s.pods[b].Name) })
	}
	byName(specified)
	byName(preDelete)
	numToDelete := len(specified)
	for _, i := range preDelete {
		if !(s.pods[i].SpecifiedDelete || toDelete.has(s.pods[i].Name)) {
			numToDelete++
		}
	}

	// 1. Regret.
	if !markPodNotReady(cs.Lifecycle) {
		d := int64(cs.Replicas) - int64(nActive) + int64(numToDelete)
		for _, i := range preDelete {
			if d <= 0 {
				break
			}
			p := &s.pods[i]
			if p.SpecifiedDelete || toDelete.has(p.Name) {
				continue
			}
			s.dec.Regret = append(s.dec.Regret, p.Name)
			d--
		}
		if len(s.dec.Regret) > 0 {
			s.dec.Branch, s.dec.Modified = ScaleRegret, true
			return s.dec
		}
	}

	// 2. Diffs.
	diffs := calculateDiffs(cs, s.pods, s.revs, s.now, ForScale, s.opts)
	s.dec.Diffs = diffs
	s.dec.ScaleUpLimited = diffs.ScaleUpNum > diffs.ScaleUpLimit

	// 3. Scale out.
	if diffs.ScaleUpNum > 0 {
		limit, old := diffs.ScaleUpLimit, diffs.ScaleUpNumOldRevision
		if limit <= old {
			s.dec.CreateCurrent = limit
		} else {
			s.dec.CreateCurrent, s.dec.CreateUpdate = old, limit-old
		}
		s.dec.Branch, s.dec.Modified = ScaleOut, limit > 0
		return s.dec
	}

	// 4. Pods in PreparingDelete whose hook is released.
	if len(preDelete) > 0 {
		if s.deletePods(preDelete) {
			s.dec.Branch = ScaleDeletePreDeleted
			return s.dec
		}
	}

	// 5. Specified-delete pods not in PreparingDelete.
	readyLimit := diffs.DeleteReadyLimit
	var canDelete []int
	for _, i := range specified {
		if s.pods[i].Lifecycle == PreparingDelete {
			continue
		}
		if !s.limitedByReadyLimit(i) {
			canDelete = append(canDelete, i)
		} else if readyLimit > 0 {
			canDelete = append(canDelete, i)
			readyLimit--
		}
	}
	if s.deletePods(canDelete) {
		s.dec.Branch = ScaleDeleteSpecified
		return s.dec
	}

	// 6. Scale in.
	if diffs.ScaleDownNum > 0 {
		if numToDelete > 0 {
			s.dec.Branch = ScaleWaitForDeletion
			return s.dec
		}
		active := make([]int, 0, nActive)
		for i := range s.pods {
			if IsPodActive(&s.pods[i]) {
				active = append(active, i)
			}
		}
		chosen := s.choosePodsToDelete(active, int(diffs.ScaleDownNum), int(diffs.ScaleDownNumOldRevision))
		var del []int
		for _, i := range chosen {
			if !s.limitedByReadyLimit(i) {
				del = append(del, i)
			} else if readyLimit > 0 {
				del = append(del, i)
				readyLimit--
			}
		}
		s.deletePods(del)
		s.dec.Branch = ScaleIn
		return s.dec
	}
	s.dec.Branch = ScaleNone
	return s.dec
}

// limitedByReadyLimit reports whether deleting pod i uses up the ready
// limit: kruise's "ready" (available at minReadySeconds 0), or with
// ReadyLimitAvailableOnly available at minReadySeconds.
// Upstream: sync.isPodReady.
func (s *scaler[T]) limitedByReadyLimit(i int) bool {
	var minReady int32
	if s.opts.ReadyLimit == ReadyLimitAvailableOnly {
		minReady = s.cs.MinReadySeconds
	}
	return IsPodAvailable(&s.pods[i], minReady, s.now)
}

// deletePods deletes the pods (indexes into s.pods), moving those held
// by the preDelete hook to PreparingDelete instead, and reports whether
// anything changed. A pod already in PreparingDelete and still hooked is
// left as it is. Upstream: realControl.deletePods.
func (s *scaler[T]) deletePods(list []int) bool {
	var hook *LifecycleHook
	if s.cs.Lifecycle != nil {
		hook = s.cs.Lifecycle.PreDelete
	}
	modified := false
	for _, i := range list {
		p := &s.pods[i]
		if podHooked(hook, p) {
			if p.Lifecycle != PreparingDelete {
				s.dec.PrepareDelete = append(s.dec.PrepareDelete, p.Name)
				modified = true
			}
			continue
		}
		s.dec.Delete = append(s.dec.Delete, p.Name)
		modified = true
	}
	s.dec.Modified = s.dec.Modified || modified
	return modified
}

// choosePodsToDelete picks total pods to delete among the active ones:
// oldDiff from those not at the update revision (as the scale step
// decides) and the rest from those at it, each group in DeletionOrder.
// Upstream: realControl.choosePodsToDelete.
func (s *scaler[T]) choosePodsToDelete(active []int, total, oldDiff int) []int {
	var updated, notUpdated []int
	preparingAsNew := s.opts.Gates.PreparingUpdateAsUpdate
	for _, i := range active {
		p := &s.pods[i]
		if IsPodAtRevision(p, s.revs.Update) || (preparingAsNew && p.Lifecycle == PreparingUpdate) {
			updated = append(updated, i)
		} else {
			notUpdated = append(notUpdated, i)
		}
	}
	switch {
	case oldDiff >= total:
		return s.choose(notUpdated, total)
	case oldDiff > 0:
		return append(s.choose(notUpdated, oldDiff), s.choose(updated, total-oldDiff)...)
	}
	return s.choose(updated, total)
}

// choose returns the first k of group in the deletion order, or all of
// group, by name, when k covers it.
func (s *scaler[T]) choose(group []int, k int) []int {
	if k >= len(group) {
		out := slices.Clone(group)
		slices.SortFunc(out, func(a, b int) int { return compareNames(s.pods[a].Name, s.pods[b].Name) })
		return out
	}
	keys := deletionKeys(s.pods, group, s.cs.MinReadySeconds, s.now)
	out := make([]int, k)
	for j := range out {
		out[j] = int(keys[j].idx)
	}
	return out
}

// markPodNotReady reports whether the preDelete or inPlaceUpdate hook
// marks pods not ready, which turns regret off.
// Upstream: lifecycle.IsLifecycleMarkPodNotReady.
func markPodNotReady(l *Lifecycle) bool {
	return l != nil && ((l.PreDelete != nil && l.PreDelete.MarkPodNotReady) || (l.InPlaceUpdate != nil && l.InPlaceUpdate.MarkPodNotReady))
}

func compareNames(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
