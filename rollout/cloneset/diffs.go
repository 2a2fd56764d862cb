package cloneset

import (
	"math"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// DiffsFor says which of kruise's two callers the diffs are for. They
// differ only in what counts as a pod at the update revision.
type DiffsFor uint8

// The two callers of CalculateDiffs in a reconcile.
const (
	// ForScale: the scale step, creating and deleting pods. With the
	// PreparingUpdateAsUpdate gate, a pod in PreparingUpdate counts as
	// updated.
	ForScale DiffsFor = iota + 1
	// ForUpdate: the update step, updating pods. A pod counts as updated
	// exactly when it is at the update revision (IsPodAtRevision).
	ForUpdate
)

// String returns the name, e.g. "ForScale".
func (f DiffsFor) String() string {
	switch f {
	case ForScale:
		return "ForScale"
	case ForUpdate:
		return "ForUpdate"
	}
	return "DiffsFor(" + strconv.Itoa(int(f)) + ")"
}

// Revisions names the two revisions a reconcile works with.
type Revisions struct {
	// Current is the revision partition pods stay on; "" means Update
	// (kruise uses the update revision when status.currentRevision names
	// no existing revision).
	Current string `json:"current,omitempty"`
	// Update is the revision of the CloneSet's template.
	Update string `json:"update"`
}

// current returns the current revision with the default applied.
func (r Revisions) current() string {
	if r.Current == "" {
		return r.Update
	}
	return r.Current
}

// Counts are the pod counts the diffs are computed from: every active pod
// is counted in exactly one of New and Old, and in exactly one of the
// classes (PreDeleting, ToDelete, Unavailable, or available). "New" means
// at the update revision as DiffsFor decides.
type Counts struct {
	// New and Old count active pods at and not at the update revision,
	// PreparingDelete pods included. New+Old = Diffs.Pods.
	New int32 `json:"new"`
	Old int32 `json:"old"`
	// ActiveNew and ActiveOld leave out PreparingDelete pods:
	// ActiveNew = New - PreDeletingNew.
	ActiveNew int32 `json:"activeNew"`
	ActiveOld int32 `json:"activeOld"`
	// PreDeletingNew and PreDeletingOld count pods in PreparingDelete.
	PreDeletingNew int32 `json:"preDeletingNew"`
	PreDeletingOld int32 `json:"preDeletingOld"`
	// ToDeleteNew and ToDeleteOld count pods specified for deletion (and
	// not in PreparingDelete).
	ToDeleteNew int32 `json:"toDeleteNew"`
	ToDeleteOld int32 `json:"toDeleteOld"`
	// UnavailableNew and UnavailableOld count the remaining pods that are
	// not available at minReadySeconds.
	UnavailableNew int32 `json:"unavailableNew"`
	UnavailableOld int32 `json:"unavailableOld"`
}

// Resolved are the CloneSet's settings as kruise's controller reads them
// for the diffs: partition resolved by CalculatePartitionReplicas,
// maxSurge, maxUnavailable and scaleStrategy.maxUnavailable by the legacy
// parser. A value kruise cannot read is 0, and the reason is in Warnings.
type Resolved struct {
	// Replicas is spec.replicas, R.
	Replicas int32 `json:"replicas"`
	// Partition is P = CalculatePartitionReplicas(partition, R), 0 when
	// unreadable.
	Partition int32 `json:"partition"`
	// MaxSurge is S = ceil of maxSurge against R, 0 when nil, unreadable
	// or Paused. Negative counts pass through ("-1" stays -1).
	MaxSurge int64 `json:"maxSurge"`
	// MaxUnavailable is U: maxUnavailable (default "20%") against R,
	// rounded up when S is 0 and down otherwise.
	MaxUnavailable int64 `json:"maxUnavailable"`
	// ScaleMaxUnavailable is SU: scaleStrategy.maxUnavailable against R,
	// rounded up; math.MaxInt32 when nil.
	ScaleMaxUnavailable int64 `json:"scaleMaxUnavailable"`
	// Warnings holds a *field.Error for each field kruise could not read
	// and replaced by 0 (kruise only logs the partition's, and says
	// nothing of the others). nil when every field was readable.
	Warnings []error `json:"-"`
}

// Diffs is what one reconcile of kruise's CloneSet controller sets out to
// do, as calculateDiffsWithExpectation computes it. The notation: R, P,
// S, U, SU as in Resolved; N = Pods; the counts as in Counts;
// totalUnavailable = TotalUnavailable; toDelete = ToDeleteNew+ToDeleteOld.
// Every output is 0 unless its formula says otherwise, and none is
// negative except UpdateNum and UpdateMaxUnavailable.
//
// Kruise computes in Go int (64 bits); so does CalculateDiffs, in the
// same order, so even a pathological maxUnavailable of "9999999999%"
// gives kruise's number. The outputs are then saturated to the int32
// range, which changes no decision (they are compared with pod counts).
type Diffs struct {
	// Resolved are the settings the formulas use.
	Resolved Resolved `json:"resolved"`
	// Counts are the pod counts the formulas use.
	Counts Counts `json:"counts"`
	// Pods is N, the number of active pods.
	Pods int32 `json:"pods"`
	// TotalUnavailable = PreDeletingNew + PreDeletingOld + UnavailableNew
	// + UnavailableOld. Specified-delete pods are not in it.
	TotalUnavailable int32 `json:"totalUnavailable"`

	// ScaleUpNum is how many pods to create: with total = N, or N minus
	// the PreparingDelete pods when scaling excludes them, ScaleUpNum =
	// R + UseSurge - total when that is positive.
	ScaleUpNum int32 `json:"scaleUpNum,omitempty"`
	// ScaleUpNumOldRevision is how many of them should be at the current
	// revision: max(P + UseSurgeOldRevision - oldTotal, 0), where oldTotal
	// is Old (minus PreDeletingOld when scaling excludes them). Set only
	// when ScaleUpNum > 0, and it may exceed ScaleUpNum.
	ScaleUpNumOldRevision int32 `json:"scaleUpNumOldRevision,omitempty"`
	// ScaleDownNum is how many pods to delete beyond those already
	// specified: total - toDelete - (R + UseSurge) when positive.
	ScaleDownNum int32 `json:"scaleDownNum,omitempty"`
	// ScaleDownNumOldRevision is how many of them should be old:
	// max(oldTotal - ToDeleteOld - (P + UseSurgeOldRevision), 0). Set only
	// when ScaleDownNum > 0, and it may exceed ScaleDownNum.
	ScaleDownNumOldRevision int32 `json:"scaleDownNumOldRevision,omitempty"`
	// ScaleUpLimit is how many pods may be created this reconcile:
	// min(ScaleUpNum, max(SU - TotalUnavailable, 0)). Set only when
	// ScaleUpNum > 0.
	ScaleUpLimit int32 `json:"scaleUpLimit,omitempty"`
	// DeleteReadyLimit is how many ready pods may be deleted:
	// max(U + (N - R) - TotalUnavailable, 0), with N every active pod
	// even when scaling excludes PreparingDelete pods. Set only when
	// toDelete > 0 or ScaleDownNum > 0.
	DeleteReadyLimit int32 `json:"deleteReadyLimit,omitempty"`
	// UseSurge is how many pods beyond R this reconcile aims for, when
	// S > 0: min(S, scaleSurge) if scaleSurge >= updateSurge, else
	// min(S, updateSurge). scaleSurge = min(max(TotalUnavailable +
	// toDelete - U, 0), toDelete) makes room to replace specified-delete
	// pods; updateSurge = min(|oldDiff|, |newDiff|) when the two diffs
	// (see UpdateNum) have strictly opposite signs, else 0.
	UseSurge int32 `json:"useSurge,omitempty"`
	// UseSurgeOldRevision is the part of UseSurge at the current
	// revision: min(UseSurge, scaleOldSurge) on the scale branch, where
	// scaleOldSurge = max(scaleSurge - ToDeleteNew, 0); on the update
	// branch min(UseSurge, updateSurge) when old pods are short (oldDiff
	// < 0, or newDiff > 0 when |newDiff| is the smaller), else 0.
	UseSurgeOldRevision int32 `json:"useSurgeOldRevision,omitempty"`
	// UpdateNum is how many pods to move between revisions: with
	// oldDiff = ActiveOld - P and newDiff = ActiveNew - (R - P), it is
	// oldDiff if |oldDiff| <= |newDiff|, else -newDiff. Positive: update
	// that many old pods to the update revision. Negative: roll that many
	// updated pods back to the current revision, which happens only with
	// the PartitionRollback gate and distinct revisions; otherwise
	// oldDiff is first raised to at least 0 and newDiff lowered to at
	// most 0.
	UpdateNum int32 `json:"updateNum,omitempty"`
	// UpdateMaxUnavailable is the update budget: U + N - R, set only when
	// UpdateNum != 0. It is negative when more than U pods are missing
	// (docs/cloneset.md#s1-negative-update-budget); Options.UpdateBudget =
	// BudgetClampAtZero clamps it at 0.
	UpdateMaxUnavailable int32 `json:"updateMaxUnavailable,omitempty"`
}

// The fields whose values the diffs read, as errors and warnings name
// them.
const (
	MaxSurgeField            = "spec.updateStrategy.maxSurge"
	MaxUnavailableField      = "spec.updateStrategy.maxUnavailable"
	ScaleMaxUnavailableField = "spec.scaleStrategy.maxUnavailable"
)

// Resolve returns cs's settings as kruise's controller reads them for
// the diffs (see Resolved): partition by CalculatePartitionReplicas,
// maxSurge (0 while paused) and scaleStrategy.maxUnavailable rounded up
// by the legacy parser, maxUnavailable (default "20%") by the legacy
// parser rounded up when the surge is 0 and down otherwise. Unreadable
// values are 0, each with a *field.Error in Warnings. The error is
// non-nil only for a nil cs or negative replicas.
// Upstream: the preamble of sync.calculateDiffsWithExpectation.
func Resolve[T any](cs *CloneSet[T]) (Resolved, error) {
	if err := checkCloneSet(cs); err != nil {
		return Resolved{}, err
	}
	return resolve(cs), nil
}

func resolve[T any](cs *CloneSet[T]) Resolved {
	r := Resolved{Replicas: cs.Replicas, ScaleMaxUnavailable: math.MaxInt32}
	total := int64(cs.Replicas)
	us := &cs.UpdateStrategy
	if p, err := CalculatePartitionReplicas(us.Partition, cs.Replicas); err != nil {
		r.Warnings = append(r.Warnings, err)
	} else {
		r.Partition = p
	}
	if us.MaxSurge != nil {
		s, err := legacyScaled(*us.MaxSurge, total, true)
		if err != nil {
			r.Warnings = append(r.Warnings, valueError(MaxSurgeField, *us.MaxSurge, err))
		}
		if !us.Paused {
			r.MaxSurge = s
		}
	}
	mu := DefaultMaxUnavailable()
	if us.MaxUnavailable != nil {
		mu = *us.MaxUnavailable
	}
	if u, err := legacyScaled(mu, total, r.MaxSurge == 0); err != nil {
		r.Warnings = append(r.Warnings, valueError(MaxUnavailableField, mu, err))
	} else {
		r.MaxUnavailable = u
	}
	if sm := cs.ScaleStrategy.MaxUnavailable; sm != nil {
		su, err := legacyScaled(*sm, total, true)
		if err != nil {
			r.Warnings = append(r.Warnings, valueError(ScaleMaxUnavailableField, *sm, err))
		}
		r.ScaleMaxUnavailable = su
	}
	return r
}

// CalculateDiffs returns what one reconcile of cs sets out to do, given
// its active pods (inactive ones in pods are skipped), the two revisions,
// the time now (for minReadySeconds) and the caller asking (ForScale or
// ForUpdate). See Diffs for
// every formula. opts.Gates.PartitionRollback allows rollback (negative
// UpdateNum); opts.Gates.PreparingUpdateAsUpdate counts PreparingUpdate
// pods as updated for ForScale; opts.Gates.ScalingExcludePreparingDelete
// (or the CloneSet's ExcludePreparingDeleteLabel) leaves PreparingDelete
// pods out of the scale totals; opts.UpdateBudget may clamp
// UpdateMaxUnavailable.
//
// Errors, with a zero Diffs: a nil cs, negative replicas or
// minReadySeconds, an unknown DiffsFor, a pod without a name, two pods with
// the same name, negative restart counts (each a *field.Error wrapping
// field.ErrInvalid). Settings kruise cannot read are not errors: kruise uses 0,
// and so does CalculateDiffs, listing them in Diffs.Resolved.Warnings.
//
// CalculateDiffs is O(len(pods) + len(podsToDelete)) and allocates only a
// set of pod names (and of podsToDelete) and warnings.
// Upstream: sync.calculateDiffsWithExpectation.
func CalculateDiffs[T any](cs *CloneSet[T], pods []Pod, revs Revisions, now time.Time, diffsFor DiffsFor, opts Options) (Diffs, error) {
	if err := checkCloneSet(cs); err != nil {
		return Diffs{}, err
	}
	if diffsFor != ForScale && diffsFor != ForUpdate {
		return Diffs{}, &field.Error{Prefix: "cloneset", Field: "diffsFor", Detail: diffsFor.String() + ": must be ForScale or ForUpdate", Err: field.ErrUnsupported}
	}
	if err := checkPods(pods); err != nil {
		return Diffs{}, err
	}
	return calculateDiffs(cs, pods, revs, now, diffsFor, opts), nil
}

// calculateDiffs is CalculateDiffs on inputs already checked.
func calculateDiffs[T any](cs *CloneSet[T], pods []Pod, revs Revisions, now time.Time, diffsFor DiffsFor, opts Options) Diffs {
	d := Diffs{Resolved: resolve(cs)}
	preparingAsNew := diffsFor == ForScale && opts.Gates.PreparingUpdateAsUpdate
	toDelete := nameSet(cs.ScaleStrategy.PodsToDelete)
	c := &d.Counts
	for i := range pods {
		p := &pods[i]
		if !IsPodActive(p) {
			continue
		}
		isNew := IsPodAtRevision(p, revs.Update) || (preparingAsNew && p.Lifecycle == PreparingUpdate)
		class := Available
		switch {
		case p.Lifecycle == PreparingDelete:
			class = PreDeleting
		case p.SpecifiedDelete || toDelete.has(p.Name):
			class = ToDelete
		case !IsPodAvailable(p, cs.MinReadySeconds, now):
			class = Unavailable
		}
		count(c, isNew, class)
	}
	d.Pods = c.New + c.Old
	d.TotalUnavailable = c.PreDeletingNew + c.PreDeletingOld + c.UnavailableNew + c.UnavailableOld
	calculate(&d, revs.current() == revs.Update, cs.Labels[ExcludePreparingDeleteLabel] == "true", opts)
	return d
}

// count adds one pod of the given class to the counts.
func count(c *Counts, isNew bool, class PodClass) {
	if isNew {
		c.New++
		switch class {
		case PreDeleting:
			c.PreDeletingNew++
			return
		case ToDelete:
			c.ToDeleteNew++
		case Unavailable:
			c.UnavailableNew++
		}
		c.ActiveNew++
		return
	}
	c.Old++
	switch class {
	case PreDeleting:
		c.PreDeletingOld++
		return
	case ToDelete:
		c.ToDeleteOld++
	case Unavailable:
		c.UnavailableOld++
	}
	c.ActiveOld++
}

// calculate fills d's outputs from its Resolved settings and Counts, in
// kruise's order and int64 arithmetic.
func calculate(d *Diffs, consistent, excludeLabel bool, opts Options) {
	c := &d.Counts
	r := int64(d.Resolved.Replicas)
	p := int64(d.Resolved.Partition)
	s, u, su := d.Resolved.MaxSurge, d.Resolved.MaxUnavailable, d.Resolved.ScaleMaxUnavailable
	n := int64(d.Pods)
	totalUnavailable := int64(d.TotalUnavailable)
	toDeleteNew, toDeleteOld := int64(c.ToDeleteNew), int64(c.ToDeleteOld)

	oldDiff := int64(c.ActiveOld) - p
	newDiff := int64(c.ActiveNew) - (r - p)
	if consistent || !opts.Gates.PartitionRollback {
		oldDiff = max(oldDiff, 0)
		newDiff = min(newDiff, 0)
	}

	var useSurge, useSurgeOld int64
	if s > 0 {
		var scaleSurge, scaleOldSurge int64
		if del := toDeleteNew + toDeleteOld; del > 0 {
			scaleSurge = min(max(totalUnavailable+del-u, 0), del)
			scaleOldSurge = max(scaleSurge-toDeleteNew, 0)
		}
		var updateSurge, updateOldSurge int64
		if (oldDiff > 0 && newDiff < 0) || (oldDiff < 0 && newDiff > 0) {
			if abs(oldDiff) <= abs(newDiff) {
				updateSurge = abs(oldDiff)
				if oldDiff < 0 {
					updateOldSurge = updateSurge
				}
			} else {
				updateSurge = abs(newDiff)
				if newDiff > 0 {
					updateOldSurge = updateSurge
				}
			}
		}
		if scaleSurge >= updateSurge {
			useSurge = min(s, scaleSurge)
			useSurgeOld = min(useSurge, scaleOldSurge)
		} else {
			useSurge = min(s, updateSurge)
			useSurgeOld = min(useSurge, updateOldSurge)
		}
	}
	d.UseSurge, d.UseSurgeOldRevision = sat32(useSurge), sat32(useSurgeOld)

	total, oldTotal := n, int64(c.Old)
	if opts.Gates.ScalingExcludePreparingDelete || excludeLabel {
		total -= int64(c.PreDeletingNew) + int64(c.PreDeletingOld)
		oldTotal -= int64(c.PreDeletingOld)
	}
	expTotal, expOld := r+useSurge, p+useSurgeOld

	if up := expTotal - total; up > 0 {
		d.ScaleUpNum = sat32(up)
		d.ScaleUpNumOldRevision = sat32(max(expOld-oldTotal, 0))
		d.ScaleUpLimit = sat32(min(up, max(su-totalUnavailable, 0)))
	}
	if down := total - toDeleteOld - toDeleteNew - expTotal; down > 0 {
		d.ScaleDownNum = sat32(down)
		d.ScaleDownNumOldRevision = sat32(max(oldTotal-toDeleteOld-expOld, 0))
	}
	if toDeleteNew > 0 || toDeleteOld > 0 || d.ScaleDownNum > 0 {
		d.DeleteReadyLimit = sat32(max(u+(n-r)-totalUnavailable, 0))
	}

	var updateNum int64
	if abs(oldDiff) <= abs(newDiff) {
		updateNum = oldDiff
	} else {
		updateNum = -newDiff
	}
	d.UpdateNum = sat32(updateNum)
	if updateNum != 0 {
		budget := u + n - r
		if opts.UpdateBudget == BudgetClampAtZero {
			budget = max(budget, 0)
		}
		d.UpdateMaxUnavailable = sat32(budget)
	}
}

// abs returns |v|. Every caller's v is a difference of int32 counts, so
// it is never math.MinInt64.
func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// sat32 saturates v to the int32 range.
func sat32(v int64) int32 {
	return int32(min(max(v, math.MinInt32), math.MaxInt32))
}

// names is a set of pod names; a short list is searched, a long one
// hashed.
type names struct {
	list []string
	set  map[string]struct{}
}

func nameSet(list []string) names {
	if len(list) <= 8 {
		return names{list: list}
	}
	set := make(map[string]struct{}, len(list))
	for _, n := range list {
		set[n] = struct{}{}
	}
	return names{set: set}
}

func (s names) has(name string) bool {
	if s.set != nil {
		_, ok := s.set[name]
		return ok
	}
	for _, n := range s.list {
		if n == name {
			return true
		}
	}
	return false
}
