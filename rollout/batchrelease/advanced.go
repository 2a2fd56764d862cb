package batchrelease

import (
	"math"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// AdvancedDeployment is a Deployment under kruise-rollout's advanced
// Deployment controller, which rolls it instead of kube-controller-manager
// (the Deployment itself is paused, its strategy Recreate).
type AdvancedDeployment struct {
	// Name is metadata.name.
	Name string `json:"name"`
	// Replicas is spec.replicas (R).
	Replicas int32 `json:"replicas"`
	// Strategy is the rollouts.kruise.io/deployment-strategy annotation.
	Strategy DeploymentStrategy `json:"strategy"`
	// NewReplicaSet names the ReplicaSet whose template is the
	// Deployment's; when no ReplicaSet has that name, a rolling round
	// creates it.
	NewReplicaSet string `json:"newReplicaSet"`
	// StatusReplicas is status.replicas, which proportional scaling reads
	// for a ReplicaSet without the max-replicas annotation.
	StatusReplicas int32 `json:"statusReplicas"`
}

// RoundStep names the part of the advanced controller's sync that wrote
// a ReplicaSet.
type RoundStep uint8

const (
	// CreateNewReplicaSet: the new ReplicaSet is created with
	// max(NewRSNewReplicas, NewRSReplicasLowerBound) pods.
	CreateNewReplicaSet RoundStep = iota + 1
	// ScaleNewReplicaSet: reconcileNewReplicaSet (to R when above it,
	// else to NewRSNewReplicas).
	ScaleNewReplicaSet
	// ScaleUpOldReplicaSet: scaleUpOldReplicaSets, the biggest old
	// ReplicaSet up by -ScaleDownLimitForOld.
	ScaleUpOldReplicaSet
	// CleanupUnhealthyReplicas: cleanupUnhealthyReplicas, an old
	// ReplicaSet's unavailable pods removed.
	CleanupUnhealthyReplicas
	// ScaleDownOldReplicaSet: scaleDownOldReplicaSetsForRollingUpdate.
	ScaleDownOldReplicaSet
	// ScaleActiveOrLatest: sync with one active ReplicaSet, scaled to R.
	ScaleActiveOrLatest
	// ScaleDownSaturated: sync with a saturated new ReplicaSet, every old
	// one scaled to 0.
	ScaleDownSaturated
	// ScaleProportionally: sync's proportional scaling.
	ScaleProportionally
)

var roundStepNames = [...]string{"", "CreateNewReplicaSet", "ScaleNewReplicaSet", "ScaleUpOldReplicaSet",
	"CleanupUnhealthyReplicas", "ScaleDownOldReplicaSet", "ScaleActiveOrLatest", "ScaleDownSaturated", "ScaleProportionally"}

// String returns the step's name.
func (s RoundStep) String() string { return enumString(uint8(s), roundStepNames[:], "RoundStep") }

// MarshalText returns the step's name, "" for the zero value.
func (s RoundStep) MarshalText() ([]byte, error) {
	return marshalEnum(uint8(s), roundStepNames[:], "RoundStep")
}

// UnmarshalText sets s to the step named text; "" is the zero value.
func (s *RoundStep) UnmarshalText(text []byte) error {
	n, err := unmarshalEnum(text, roundStepNames[:], "RoundStep")
	if err == nil {
		*s = RoundStep(n)
	}
	return err
}

// ReplicaSetWrite is one ReplicaSet write of a round: its spec.replicas
// from From to To (a creation has From 0).
type ReplicaSetWrite struct {
	// Step is the part of the sync that made the write.
	Step RoundStep `json:"step"`
	// Name names the ReplicaSet written.
	Name string `json:"name"`
	// From and To are its spec.replicas before and after.
	From int32 `json:"from"`
	To   int32 `json:"to"`
}

// Round is one sync of the advanced Deployment controller.
type Round struct {
	// Rolling says the sync rolled (rolloutRolling); false means it only
	// scaled (sync: a paused strategy or a scaling event).
	Rolling bool `json:"rolling"`
	// Writes are the ReplicaSet writes in the controller's order.
	Writes []ReplicaSetWrite `json:"writes,omitempty"`
	// ReplicaSets are the ReplicaSets as the sync leaves them, in input
	// order, a created one last.
	ReplicaSets []ReplicaSet `json:"replicaSets"`
}

// SyncAdvancedDeployment runs one sync of kruise-rollout's advanced
// Deployment controller over d and its ReplicaSets rss at time now (the
// creation time of a new ReplicaSet). A paused strategy or a scaling
// event (an active ReplicaSet whose desired-replicas annotation is not R)
// scales only (sync); otherwise the round rolls:
//
//  1. the new ReplicaSet is created when missing, with
//     max(NewRSNewReplicas, NewRSReplicasLowerBound) pods;
//  2. reconcileNewReplicaSet: above R it is scaled to R, else to
//     NewRSNewReplicas; if it scaled, the round stops;
//  3. reconcileOldReplicaSets over the active old ReplicaSets:
//     LD = ScaleDownLimitForOld; LD <= 0 scales the biggest old one up by
//     -LD and stops; else maxDown = min(Σ spec(all) - (R - U) -
//     (new.spec - new.available), LD); unhealthy old replicas are cleaned
//     up (creation order, each by min(cap left, spec - available)), then
//     available ones scaled down, larger revisions first, within
//     min(Σ available(all) - (R - U), LD recomputed).
//
// Every scaled ReplicaSet gets desired-replicas R and max-replicas
// R + surge, as upstream writes them. rss is not modified. Errors are for
// bad input only: negative counts, duplicate names.
// Upstream: syncDeployment, rolloutRolling, reconcileNewReplicaSet,
// reconcileOldReplicaSets, cleanupUnhealthyReplicas,
// scaleDownOldReplicaSetsForRollingUpdate, scaleUpOldReplicaSets
// (pkg/controller/deployment/rolling.go), sync and scale
// (pkg/controller/deployment/sync.go).
func SyncAdvancedDeployment(d *AdvancedDeployment, rss []ReplicaSet, now time.Time) (Round, error) {
	st, err := newRoundState(d, rss)
	if err != nil {
		return Round{}, err
	}
	if d.Strategy.Paused || st.isScalingEvent() {
		st.scale()
		return Round{Writes: st.writes, ReplicaSets: st.rss}, nil
	}
	st.rolling(now)
	return Round{Rolling: true, Writes: st.writes, ReplicaSets: st.rss}, nil
}

// ReconcileOldReplicaSets runs step 3 of [SyncAdvancedDeployment] alone:
// the old ReplicaSets' share of one rolling round, with the new
// ReplicaSet (d.NewReplicaSet, which must be among rss) as it is. rss is
// not modified. Upstream: reconcileOldReplicaSets,
// pkg/controller/deployment/rolling.go.
func ReconcileOldReplicaSets(d *AdvancedDeployment, rss []ReplicaSet) (Round, error) {
	st, err := newRoundState(d, rss)
	if err != nil {
		return Round{}, err
	}
	if st.newIdx < 0 {
		return Round{}, &field.Error{Prefix: "batchrelease: invalid Deployment " + strconv.Quote(d.Name), Field: "newReplicaSet", Value: strconv.Quote(d.NewReplicaSet),
			Detail: "must name one of the ReplicaSets", Err: field.ErrRequired}
	}
	st.reconcileOld()
	return Round{Rolling: true, Writes: st.writes, ReplicaSets: st.rss}, nil
}

func newRoundState(d *AdvancedDeployment, rss []ReplicaSet) (*roundState, error) {
	if err := checkAdvanced(d, rss); err != nil {
		return nil, err
	}
	st := &roundState{d: d, rss: append([]ReplicaSet(nil), rss...), newIdx: -1}
	for i := range st.rss {
		st.rss[i].DesiredReplicas = clonePtr(st.rss[i].DesiredReplicas)
		st.rss[i].MaxReplicas = clonePtr(st.rss[i].MaxReplicas)
		if st.rss[i].Name == d.NewReplicaSet {
			st.newIdx = i
		}
	}
	return st, nil
}

func clonePtr(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func checkAdvanced(d *AdvancedDeployment, rss []ReplicaSet) error {
	if d == nil {
		return &field.Error{Prefix: "batchrelease", Field: "deployment", Detail: "must not be nil", Err: field.ErrRequired}
	}
	if d.Replicas < 0 {
		return &field.Error{Prefix: "batchrelease: invalid Deployment " + strconv.Quote(d.Name), Field: "spec.replicas", Value: itoa(d.Replicas), Detail: "must not be negative", Err: field.ErrNegative}
	}
	var sum int64
	for i := range rss {
		rs := &rss[i]
		p := "replicaSets[" + strconv.Itoa(i) + "]"
		for _, c := range [...]struct {
			name string
			v    int32
		}{{"spec.replicas", rs.Replicas}, {"status.replicas", rs.StatusReplicas}, {"status.readyReplicas", rs.ReadyReplicas}, {"status.availableReplicas", rs.AvailableReplicas}} {
			if c.v < 0 {
				return &field.Error{Prefix: "batchrelease", Field: p + "." + c.name, Value: itoa(c.v), Detail: "must not be negative", Err: field.ErrNegative}
			}
		}
		for j := range i {
			if rss[j].Name == rs.Name {
				return &field.Error{Prefix: "batchrelease", Field: p + ".name", Value: strconv.Quote(rs.Name), Detail: "duplicate name", Err: field.ErrDuplicate}
			}
		}
		sum += int64(rs.Replicas)
	}
	if sum+int64(d.Replicas)*2 > 1<<31-1 {
		return &field.Error{Prefix: "batchrelease", Field: "replicaSets", Value: strconv.FormatInt(sum, 10),
			Detail: "spec.replicas of the ReplicaSets plus twice the Deployment's must fit in an int32", Err: field.ErrRange}
	}
	return nil
}

// roundState is one sync in progress.
type roundState struct {
	d      *AdvancedDeployment
	rss    []ReplicaSet
	newIdx int
	writes []ReplicaSetWrite
	idx    []int
}

func (st *roundState) surge() int32 { return MaxSurge(st.d.Replicas, &st.d.Strategy) }

// scaleTo writes rs i to n as scaleReplicaSet does (size and the
// replicas annotations); it reports whether the size changed.
func (st *roundState) scaleTo(i int, n int32, step RoundStep) bool {
	rs := &st.rss[i]
	r := st.d.Replicas
	m := r + st.surge()
	sizeChanged := rs.Replicas != n
	annotations := rs.DesiredReplicas == nil || *rs.DesiredReplicas != r || rs.MaxReplicas == nil || *rs.MaxReplicas != m
	if !sizeChanged && !annotations {
		return false
	}
	if sizeChanged {
		st.writes = append(st.writes, ReplicaSetWrite{Step: step, Name: rs.Name, From: rs.Replicas, To: n})
	}
	rs.Replicas = n
	rs.DesiredReplicas = &r
	rs.MaxReplicas = &m
	return sizeChanged
}

// scaleAndRecord is scaleReplicaSetAndRecordEvent: nothing when the size
// is already n.
func (st *roundState) scaleAndRecord(i int, n int32, step RoundStep) bool {
	if st.rss[i].Replicas == n {
		return false
	}
	return st.scaleTo(i, n, step)
}

// oldIndexes returns the indexes of the old ReplicaSets (all but the
// new one), active ones only when active.
func (st *roundState) oldIndexes(active bool) []int {
	st.idx = st.idx[:0]
	for i := range st.rss {
		if i == st.newIdx || (active && st.rss[i].Replicas <= 0) {
			continue
		}
		st.idx = append(st.idx, i)
	}
	return st.idx
}

func (st *roundState) isScalingEvent() bool {
	for i := range st.rss {
		rs := &st.rss[i]
		if rs.Replicas > 0 && rs.DesiredReplicas != nil && *rs.DesiredReplicas != st.d.Replicas {
			return true
		}
	}
	return false
}

func (st *roundState) sum(idx []int, avail bool) int64 {
	var n int64
	for _, i := range idx {
		if avail {
			n += int64(st.rss[i].AvailableReplicas)
		} else {
			n += int64(st.rss[i].Replicas)
		}
	}
	return n
}

func (st *roundState) rolling(now time.Time) {
	d := st.d
	r := d.Replicas
	if st.newIdx < 0 {
		var maxRev int64
		for i := range st.rss {
			if n, ok := revisionNumber(&st.rss[i]); ok && n > maxRev {
				maxRev = n
			}
		}
		nrs := ReplicaSet{Name: d.NewReplicaSet, Revision: strconv.FormatInt(maxRev+1, 10), CreationTime: now}
		all := append(st.rss[:len(st.rss):len(st.rss)], nrs)
		n := max(NewRSNewReplicas(r, all, nrs, d.Strategy), NewRSReplicasLowerBound(r, &d.Strategy))
		desired, m := r, r+st.surge()
		nrs.Replicas, nrs.DesiredReplicas, nrs.MaxReplicas = n, &desired, &m
		st.rss = append(st.rss, nrs)
		st.newIdx = len(st.rss) - 1
		st.writes = append(st.writes, ReplicaSetWrite{Step: CreateNewReplicaSet, Name: nrs.Name, To: n})
	}
	// reconcileNewReplicaSet
	nr := &st.rss[st.newIdx]
	switch {
	case nr.Replicas == r:
	case nr.Replicas > r:
		if st.scaleAndRecord(st.newIdx, r, ScaleNewReplicaSet) {
			return
		}
	default:
		if st.scaleAndRecord(st.newIdx, NewRSNewReplicas(r, st.rss, *nr, d.Strategy), ScaleNewReplicaSet) {
			return
		}
	}
	st.reconcileOld()
}

func (st *roundState) oldSlice(idx []int) []ReplicaSet {
	out := make([]ReplicaSet, 0, len(idx))
	for _, i := range idx {
		out = append(out, st.rss[i])
	}
	return out
}

func (st *roundState) reconcileOld() {
	d := st.d
	r := d.Replicas
	old := append([]int(nil), st.oldIndexes(true)...)
	if st.sum(old, false) == 0 {
		return
	}
	newRS := st.rss[st.newIdx]
	var all int64
	for i := range st.rss {
		all += int64(st.rss[i].Replicas)
	}
	u := MaxUnavailable(r, &d.Strategy)
	ld := ScaleDownLimitForOld(st.oldSlice(old), newRS, r, d.Strategy.Partition)
	if ld <= 0 {
		// scaleUpOldReplicaSets: the biggest old ReplicaSet, older first.
		if -ld <= 0 || len(old) == 0 {
			return
		}
		order := sortedIndexes(nil, st.rss, old, bySizeOlder)
		st.scaleAndRecord(order[0], int32(int64(st.rss[order[0]].Replicas)-ld), ScaleUpOldReplicaSet)
		return
	}
	minAvailable := int64(r) - int64(u)
	newUnavailable := int64(newRS.Replicas) - int64(newRS.AvailableReplicas)
	maxDown := min(all-minAvailable-newUnavailable, ld)
	if maxDown <= 0 {
		return
	}
	// cleanupUnhealthyReplicas, in creation order.
	var cleaned int64
	for _, i := range sortedIndexes(nil, st.rss, old, byCreation) {
		if cleaned >= maxDown {
			break
		}
		rs := &st.rss[i]
		if rs.Replicas == 0 || rs.Replicas == rs.AvailableReplicas {
			continue
		}
		down := min(maxDown-cleaned, int64(rs.Replicas)-int64(rs.AvailableReplicas))
		n := int64(rs.Replicas) - down
		if n > int64(rs.Replicas) {
			return // upstream refuses to scale up while cleaning up
		}
		st.scaleAndRecord(i, int32(n), CleanupUnhealthyReplicas)
		cleaned += down
	}
	// scaleDownOldReplicaSetsForRollingUpdate
	// Σ available over the active old ReplicaSets and the new one.
	avail := st.sum(old, true) + int64(st.rss[st.newIdx].AvailableReplicas)
	if avail <= minAvailable {
		return
	}
	budget := min(avail-minAvailable, ScaleDownLimitForOld(st.oldSlice(old), st.rss[st.newIdx], r, d.Strategy.Partition))
	var done int64
	for _, i := range sortedIndexes(nil, st.rss, old, byLargerRevision) {
		if done >= budget {
			break
		}
		rs := &st.rss[i]
		if rs.Replicas == 0 {
			continue
		}
		down := min(int64(rs.Replicas), budget-done)
		n := int64(rs.Replicas) - down
		if n > int64(rs.Replicas) {
			return
		}
		st.scaleAndRecord(i, int32(n), ScaleDownOldReplicaSet)
		done += down
	}
}

// scale is the advanced controller's sync for a paused strategy or a
// scaling event. Upstream: scale, pkg/controller/deployment/sync.go.
func (st *roundState) scale() {
	r := st.d.Replicas
	old := append([]int(nil), st.oldIndexes(false)...)
	if st.newIdx < 0 && len(old) == 0 {
		return
	}
	// FindActiveOrLatest
	var active []int
	for _, i := range old {
		if st.rss[i].Replicas > 0 {
			active = append(active, i)
		}
	}
	if st.newIdx >= 0 && st.rss[st.newIdx].Replicas > 0 {
		active = append(active, st.newIdx)
	}
	target := -1
	switch len(active) {
	case 0:
		if st.newIdx >= 0 {
			target = st.newIdx
		} else {
			newest := sortedIndexes(nil, st.rss, old, byCreation)
			target = newest[len(newest)-1]
		}
	case 1:
		target = active[0]
	}
	if target >= 0 {
		if st.rss[target].Replicas != r {
			st.scaleAndRecord(target, r, ScaleActiveOrLatest)
		}
		return
	}
	if st.newIdx >= 0 && st.saturated(&st.rss[st.newIdx]) {
		for _, i := range old {
			if st.rss[i].Replicas > 0 {
				st.scaleAndRecord(i, 0, ScaleDownSaturated)
			}
		}
		return
	}
	allowed := int64(max(r, 0))
	toAdd := allowed - st.sum(active, false)
	if toAdd < 0 {
		var cleaned int64
		for _, i := range sortedIndexes(nil, st.rss, old, byCreation) {
			if cleaned >= -toAdd {
				break
			}
			rs := &st.rss[i]
			if rs.Replicas == 0 || rs.Replicas == rs.AvailableReplicas {
				continue
			}
			down := min(-toAdd-cleaned, int64(rs.Replicas)-int64(rs.AvailableReplicas))
			st.scaleAndRecord(i, int32(int64(rs.Replicas)-down), CleanupUnhealthyReplicas)
			cleaned += down
		}
		toAdd += cleaned
		active = active[:0]
		for _, i := range old {
			if st.rss[i].Replicas > 0 {
				active = append(active, i)
			}
		}
		if st.newIdx >= 0 && st.rss[st.newIdx].Replicas > 0 {
			active = append(active, st.newIdx)
		}
	}
	var order []int
	switch {
	case toAdd > 0:
		order = sortedIndexes(nil, st.rss, active, bySizeNewer)
	case toAdd < 0:
		order = sortedIndexes(nil, st.rss, active, bySizeOlder)
	default:
		order = active
	}
	sizes := make([]int64, len(order))
	var added int64
	for k, i := range order {
		spec := int64(st.rss[i].Replicas)
		sizes[k] = spec
		if toAdd != 0 {
			p := st.proportion(&st.rss[i], toAdd, added)
			sizes[k] = spec + p
			added += p
		}
	}
	for k, i := range order {
		if k == 0 && toAdd != 0 {
			sizes[k] += toAdd - added
			if sizes[k] < 0 {
				sizes[k] = 0
			}
		}
		st.scaleTo(i, int32(sizes[k]), ScaleProportionally)
	}
}

// saturated is IsSaturated: spec, desired-replicas and available all R.
func (st *roundState) saturated(rs *ReplicaSet) bool {
	r := st.d.Replicas
	return rs.Replicas == r && rs.DesiredReplicas != nil && *rs.DesiredReplicas == r && rs.AvailableReplicas == r
}

// proportion is GetProportion: rs's share of toAdd, within what is left.
// The size times the new maximum is computed in int64 (upstream: int32,
// which wraps past about 46,340 replicas); the float64 rounding is
// upstream's.
func (st *roundState) proportion(rs *ReplicaSet, toAdd, added int64) int64 {
	if rs.Replicas == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	var fraction int64
	if st.d.Replicas == 0 {
		fraction = -int64(rs.Replicas)
	} else {
		maxR := int64(st.d.Replicas) + int64(st.surge())
		annotated := st.d.StatusReplicas
		if rs.MaxReplicas != nil {
			annotated = *rs.MaxReplicas
		}
		size := float64(int64(rs.Replicas)*maxR) / float64(annotated)
		fraction = int64(int32(math.Round(size))) - int64(rs.Replicas)
	}
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}
