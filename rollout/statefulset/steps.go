package statefulset

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// Blocker says why a sync stopped making pod writes, or why its update
// step deleted nothing more.
type Blocker uint8

// The blockers. The first six stop an OrderedReady sync in the replica
// or condemned step (Parallel never stops for them); BlockUnavailable
// and BlockBudget end the update step; BlockRefused ends the pod writes
// of any sync.
const (
	// BlockFailedPod: a Failed or Succeeded pod was deleted (or is
	// terminating); its slot is recreated next sync.
	BlockFailedPod Blocker = iota + 1
	// BlockCreated: a pod was created; the next waits for it.
	BlockCreated
	// BlockTerminating: a pod is terminating.
	BlockTerminating
	// BlockNotReady: a pod is not Running and Ready.
	BlockNotReady
	// BlockNotAvailable: a pod is ready but not yet for minReadySeconds.
	BlockNotAvailable
	// BlockDeleted: a pod was deleted (scale-down or update, one per
	// OrderedReady sync; with the gate off, one update per sync).
	BlockDeleted
	// BlockUnavailable: with the gate off, the update step met an
	// unavailable slot that it does not delete (updated, or terminating).
	BlockUnavailable
	// BlockBudget: with the gate on, the unavailable slots use up
	// maxUnavailable.
	BlockBudget
	// BlockRefused: the API server refused a pod creation because a pod
	// the set does not own holds the name (AlreadyExists). The replica
	// step ends there (under Parallel, at the end of its slow-start
	// batch), the condemned and update steps do not run, and the sync
	// fails: it is requeued at once, rate-limited.
	BlockRefused
)

// String returns the blocker's name, e.g. "BlockNotReady".
func (b Blocker) String() string {
	switch b {
	case BlockFailedPod:
		return "BlockFailedPod"
	case BlockCreated:
		return "BlockCreated"
	case BlockTerminating:
		return "BlockTerminating"
	case BlockNotReady:
		return "BlockNotReady"
	case BlockNotAvailable:
		return "BlockNotAvailable"
	case BlockDeleted:
		return "BlockDeleted"
	case BlockUnavailable:
		return "BlockUnavailable"
	case BlockBudget:
		return "BlockBudget"
	case BlockRefused:
		return "BlockRefused"
	}
	return "Blocker(" + strconv.Itoa(int(b)) + ")"
}

// ReplicaDecision is what the replica step does with one slot.
type ReplicaDecision struct {
	// Delete: the pod is Failed or Succeeded and not yet terminating.
	Delete bool `json:"delete,omitempty"`
	// Create: the slot is empty; its pod is created.
	Create bool `json:"create,omitempty"`
	// UpdateIdentity: the pod's PodNameLabel differs from its name; the
	// pod is updated.
	UpdateIdentity bool `json:"updateIdentity,omitempty"`
	// Stop is why an OrderedReady sync stops at this slot; 0 when it goes
	// on. Parallel syncs ignore it (and never update the identity of a
	// pod they would stop at: they do not stop).
	Stop Blocker `json:"stop,omitempty"`
}

// ProcessReplica returns what one sync does with slot pod p (nil for an
// empty slot) of a set named set, under policy at now, in upstream's
// order: a Failed or Succeeded pod is deleted unless terminating, and
// the slot stops there; an empty slot is created (OrderedReady stops
// there); then, under OrderedReady only, a terminating, not Running and
// Ready, or not available pod stops the sync; last, a pod whose
// PodNameLabel differs from its name has its identity updated. Storage
// and claim-retention fixes are not modelled (this package has no
// PersistentVolumeClaims), nor PodClaimIsStale.
// Upstream: processReplica, pkg/controller/statefulset/stateful_set_control.go.
func ProcessReplica(p *Pod, policy PodManagementPolicy, minReadySeconds int32, now time.Time) ReplicaDecision {
	monotonic := policy != Parallel
	switch {
	case p == nil:
		d := ReplicaDecision{Create: true}
		if monotonic {
			d.Stop = BlockCreated
		}
		return d
	case p.Phase == PodFailed || p.Phase == PodSucceeded:
		return ReplicaDecision{Delete: !p.Terminating, Stop: BlockFailedPod}
	case monotonic && p.Terminating:
		return ReplicaDecision{Stop: BlockTerminating}
	case monotonic && !IsRunningAndReady(p):
		return ReplicaDecision{Stop: BlockNotReady}
	case monotonic && !IsAvailable(p, minReadySeconds, now):
		return ReplicaDecision{Stop: BlockNotAvailable}
	}
	return ReplicaDecision{UpdateIdentity: p.PodNameLabel != p.Name}
}

// CondemnedDecision is what the condemned step does with one pod beyond
// the slots.
type CondemnedDecision struct {
	// Delete: the pod is deleted.
	Delete bool `json:"delete,omitempty"`
	// Stop is why an OrderedReady sync stops at this pod (after deleting
	// it: BlockDeleted); 0 when it goes on.
	Stop Blocker `json:"stop,omitempty"`
}

// ProcessCondemned returns what one sync does with condemned pod p
// (ordinal beyond the slots) under policy at now. firstUnavailable says
// p is the sync's first unavailable pod: the lowest unavailable slot or,
// when every slot is available, the lowest-ordinal unavailable condemned
// pod. A terminating pod is skipped (OrderedReady: stops). Under
// OrderedReady, a pod not Running and Ready or not available stops the
// sync unless it is the first unavailable pod; otherwise it is deleted
// and OrderedReady stops. Parallel deletes every non-terminating
// condemned pod, health ignored.
// Upstream: processCondemned, pkg/controller/statefulset/stateful_set_control.go.
func ProcessCondemned(p *Pod, firstUnavailable bool, policy PodManagementPolicy, minReadySeconds int32, now time.Time) CondemnedDecision {
	monotonic := policy != Parallel
	switch {
	case p.Terminating && monotonic:
		return CondemnedDecision{Stop: BlockTerminating}
	case p.Terminating:
		return CondemnedDecision{}
	case monotonic && !firstUnavailable && !IsRunningAndReady(p):
		return CondemnedDecision{Stop: BlockNotReady}
	case monotonic && !firstUnavailable && !IsAvailable(p, minReadySeconds, now):
		return CondemnedDecision{Stop: BlockNotAvailable}
	case monotonic:
		return CondemnedDecision{Delete: true, Stop: BlockDeleted}
	}
	return CondemnedDecision{Delete: true}
}

// MaxUnavailable resolves spec.updateStrategy.rollingUpdate.maxUnavailable
// against replicas for the gate-on update step: nil means 1; a count is
// taken as is; a string must end in '%' and the rest is read with
// strconv.Atoi (so "+5%" is 5%), giving floor(p*replicas/100) computed
// in float64 as upstream; a result below 1 becomes 1. A string the
// controller cannot read is an error in its words (a *field.Error
// wrapping field.ErrSyntax), as is a result beyond int32 (field.ErrRange);
// Validate rejects both, so a valid set never gets one:
//
//	statefulset: spec.updateStrategy.rollingUpdate.maxUnavailable: "5": invalid value for IntOrString: invalid type: string is not a percentage
//
// MaxUnavailable does not allocate on success.
// Upstream: getStatefulSetMaxUnavailable, pkg/controller/statefulset/stateful_set_utils.go,
// with intstr.GetScaledValueFromIntOrPercent.
func MaxUnavailable(mu *intorpercent.IntOrString, replicas int32) (int32, error) {
	const path = "spec.updateStrategy.rollingUpdate.maxUnavailable"
	if mu == nil {
		return 1, nil
	}
	n := int64(mu.Int)
	if mu.IsString {
		s := mu.Str
		if !strings.HasSuffix(s, "%") {
			return 0, &field.Error{Prefix: "statefulset", Field: path, Value: strconv.Quote(s),
				Detail: "invalid value for IntOrString: invalid type: string is not a percentage", Err: field.ErrSyntax}
		}
		p, err := strconv.Atoi(s[:len(s)-1])
		if err != nil {
			return 0, &field.Error{Prefix: "statefulset", Field: path, Value: strconv.Quote(s),
				Detail: "invalid value for IntOrString: invalid value " + strconv.Quote(s) + ": " + err.Error(), Err: field.ErrSyntax}
		}
		f := math.Floor(float64(p) * float64(replicas) / 100)
		if f > math.MaxInt32 || f < math.MinInt32 {
			return 0, &field.Error{Prefix: "statefulset", Field: path, Value: strconv.Quote(s),
				Detail: "resolves beyond int32 against " + strconv.Itoa(int(replicas)) + " replicas", Err: field.ErrRange}
		}
		n = int64(f)
	}
	return int32(max(n, 1)), nil
}

// NewPodRevision returns the revision a pod created for slot ordinal
// gets: current or update. The rule reads, with upstream's operator
// precedence: (type RollingUpdate and rollingUpdate nil and ordinal <
// start + status.currentReplicas) or (rollingUpdate set and ordinal <
// start + partition) gives current, anything else update. So a
// partition keeps created pods below it at the current revision;
// RollingUpdate without a rollingUpdate block uses the last written
// status.currentReplicas as a partition; OnDelete always creates at the
// update revision. strategy is read as the API server defaults it (see
// [UpdateStrategy]).
// Upstream: newVersionedStatefulSetPod, pkg/controller/statefulset/stateful_set_utils.go.
func NewPodRevision(strategy UpdateStrategy, ordinal int64, start, statusCurrentReplicas int32, current, update string) string {
	s := readStrategy(strategy)
	if (s.typ == RollingUpdate && s.ruNil && ordinal < int64(start)+int64(statusCurrentReplicas)) ||
		(!s.ruNil && ordinal < int64(start)+int64(s.partition)) {
		return current
	}
	return update
}

// strategy is an UpdateStrategy as the API server defaults it.
type strategy struct {
	typ       UpdateStrategyType
	ruNil     bool // no rollingUpdate block
	partition int32
	mu        *intorpercent.IntOrString
}

// readStrategy applies the API server's defaults to s.
func readStrategy(s UpdateStrategy) strategy {
	out := strategy{typ: s.Type, ruNil: s.RollingUpdate == nil}
	if out.typ == "" {
		out.typ = RollingUpdate
		out.ruNil = false
	}
	if s.RollingUpdate != nil {
		out.partition = s.RollingUpdate.Partition
		out.mu = s.RollingUpdate.MaxUnavailable
	}
	return out
}

// Slot is what the update step reads of one slot.
type Slot struct {
	// Outdated: the slot's pod (or the pod created for it this sync) is
	// not at the update revision.
	Outdated bool `json:"outdated,omitempty"`
	// Terminating: the pod is terminating.
	Terminating bool `json:"terminating,omitempty"`
	// Unavailable: the slot is empty, its pod not available, or
	// terminating (see [IsUnavailable]); a pod created this sync counts
	// as unavailable.
	Unavailable bool `json:"unavailable,omitempty"`
}

// UpdateDecision is what the rolling update step does.
type UpdateDecision struct {
	// Delete are the slots whose pods are deleted, in the order deleted
	// (descending).
	Delete []int32 `json:"delete,omitempty"`
	// Unavailable is the number of unavailable slots the gate-on step
	// counted; 0 with the gate off.
	Unavailable int32 `json:"unavailable,omitempty"`
	// MaxUnavailable is the resolved budget with the gate on; 0 off.
	MaxUnavailable int32 `json:"maxUnavailable,omitempty"`
	// Stop is why the step deleted nothing more: BlockDeleted (gate off,
	// one deletion), BlockUnavailable (gate off, an unavailable slot
	// above the rest), BlockBudget (gate on); 0 when it ran out of
	// slots to look at. StopSlot is the slot it stopped at.
	Stop     Blocker `json:"stop,omitempty"`
	StopSlot int32   `json:"stopSlot,omitempty"`
}

// UpdateStep returns the pods the rolling update step deletes, given
// the slots (index k is ordinal start+k), the partition (0 for a
// RollingUpdate without a rollingUpdate block), whether the
// MaxUnavailableStatefulSet gate is on, the resolved maxUnavailable (see
// [MaxUnavailable]; read only with the gate on), whether the set is
// Parallel and the budget policy. The decision's Delete is appended to
// dst.
//
// Gate off: from the top slot down to the partition, the first outdated
// pod that is not terminating is deleted and the step ends; an
// unavailable slot met before it (updated, or outdated but terminating)
// ends the step with nothing deleted. maxUnavailable is ignored.
//
// Gate on: U counts the unavailable slots over all slots (below the
// partition, terminating and empty ones included; condemned pods are
// not slots). If U >= maxUnavailable nothing is deleted; otherwise the
// outdated, non-terminating pods from the top down to the partition are
// deleted until maxUnavailable - U are. With BudgetReplaceUnavailableFirst
// and Parallel, outdated pods at or above the partition that are
// unavailable and not terminating are deleted first, whatever the
// budget (kubernetes/kubernetes#137409).
// Upstream: updateStatefulSet's update loop and
// updateStatefulSetAfterInvariantEstablished,
// pkg/controller/statefulset/stateful_set_control.go.
func UpdateStep(slots []Slot, partition int32, gate bool, maxUnavailable int32, parallel bool, budget BudgetPolicy, dst []int32) UpdateDecision {
	d := UpdateDecision{Delete: dst}
	top := int64(len(slots)) - 1
	if !gate {
		for k := top; k >= int64(partition); k-- {
			s := slots[k]
			if s.Outdated && !s.Terminating {
				d.Delete = append(d.Delete, int32(k))
				d.Stop, d.StopSlot = BlockDeleted, int32(k)
				return d
			}
			if s.Unavailable {
				d.Stop, d.StopSlot = BlockUnavailable, int32(k)
				return d
			}
		}
		return d
	}
	d.MaxUnavailable = maxUnavailable
	first := len(d.Delete)
	if parallel && budget == BudgetReplaceUnavailableFirst {
		for k := top; k >= int64(partition); k-- {
			if s := slots[k]; s.Outdated && !s.Terminating && s.Unavailable {
				d.Delete = append(d.Delete, int32(k))
			}
		}
	}
	for _, s := range slots {
		if s.Unavailable {
			d.Unavailable++
		}
	}
	if d.Unavailable >= maxUnavailable {
		d.Stop, d.StopSlot = BlockBudget, -1
		return d
	}
	want := int64(maxUnavailable) - int64(d.Unavailable)
	deleted := int64(0)
	for k := top; k >= int64(partition) && deleted < want; k-- {
		s := slots[k]
		if !s.Outdated || s.Terminating {
			continue
		}
		if s.Unavailable && alreadyDeleted(d.Delete[first:], int32(k)) {
			continue
		}
		d.Delete = append(d.Delete, int32(k))
		deleted++
		if deleted == want {
			d.Stop, d.StopSlot = BlockBudget, int32(k)
		}
	}
	return d
}

// alreadyDeleted reports whether slot k is among the first phase's
// deletions (descending).
func alreadyDeleted(del []int32, k int32) bool {
	for _, x := range del {
		if x == k {
			return true
		}
	}
	return false
}
