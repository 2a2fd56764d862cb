package cloneset

import (
	"strconv"
	"strings"
	"time"
)

// IsPodActive reports whether kruise sees p at all: its phase is neither
// Succeeded nor Failed and it is not Terminating. Inactive pods are left
// out of every count, budget and status field. A nil p is not active.
// Upstream: controller.IsPodActive.
func IsPodActive(p *Pod) bool {
	return p != nil && p.Phase != PodSucceeded && p.Phase != PodFailed && !p.Terminating
}

// IsPodUpdateReady reports whether p is ready in kruise's sense: phase
// Running, Ready, ready for longer than minReadySeconds at now (strictly:
// ReadySince + minReadySeconds < now; a zero ReadySince never qualifies
// unless minReadySeconds is 0), and its InPlaceUpdateReady condition
// absent or True. The lifecycle state is not consulted. With
// minReadySeconds 0 it is what status.readyReplicas counts. A nil p is
// not ready.
//
// Kruise v1.9.1 builds against Kubernetes v1.32, whose availability test
// is the strict "<"; Kubernetes v1.36 uses "<=", so a pod exactly
// minReadySeconds into its readiness is available there and not here.
// Upstream: core.commonControl.IsPodUpdateReady.
func IsPodUpdateReady(p *Pod, minReadySeconds int32, now time.Time) bool {
	if p == nil || p.Phase != PodRunning || !p.Ready {
		return false
	}
	if minReadySeconds > 0 {
		if p.ReadySince.IsZero() || !p.ReadySince.Add(time.Duration(minReadySeconds)*time.Second).Before(now) {
			return false
		}
	}
	return p.InPlaceUpdateReady == "" || p.InPlaceUpdateReady == ConditionTrue
}

// IsPodAvailable reports whether p counts as available: its lifecycle
// state is "" or Normal, and IsPodUpdateReady(p, minReadySeconds, now).
// A pod in PreparingNormal, PreparingUpdate, Updating, Updated or
// PreparingDelete is never available, however ready it is. With
// minReadySeconds 0 it is what kruise's scale path calls "ready" when it
// limits the deletion of ready pods. A nil p is not available.
// Upstream: sync.IsPodAvailable.
func IsPodAvailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	if p == nil || (p.Lifecycle != "" && p.Lifecycle != Normal) {
		return false
	}
	return IsPodUpdateReady(p, minReadySeconds, now)
}

// IsPodAtRevision reports whether p's Revision matches the revision
// named rev: the two are equal, or their parts after the last '-' are
// ("demo-788944f45" matches "788944f45", so pods labelled under kruise's
// CloneSetShortHash gate and without it both match). A consequence kruise
// has too: a revision ending in '-' matches a pod without a revision. A
// nil p matches nothing. Upstream: clonesetutils.EqualToRevisionHash.
func IsPodAtRevision(p *Pod, rev string) bool {
	if p == nil {
		return false
	}
	return p.Revision == rev || sameShortHash(p.Revision, rev)
}

// sameShortHash reports whether shortHash(a) == shortHash(b). Two
// non-empty names whose last bytes differ have different short hashes
// (a short hash ends a name, or both are empty and both names end in
// '-'): that cheap test spares most searches for the '-'.
func sameShortHash(a, b string) bool {
	if len(a) > 0 && len(b) > 0 && a[len(a)-1] != b[len(b)-1] {
		return false
	}
	return shortHash(a) == shortHash(b)
}

// shortHash returns the part of a revision name after its last '-'.
func shortHash(rev string) string {
	return rev[strings.LastIndexByte(rev, '-')+1:]
}

// IsSpecifiedDelete reports whether p is specified for deletion: it
// carries SpecifiedDeleteLabel (SpecifiedDelete) or its name is in
// podsToDelete (spec.scaleStrategy.podsToDelete). A nil p is not.
// Upstream: sync.isSpecifiedDelete.
func IsSpecifiedDelete(p *Pod, podsToDelete []string) bool {
	if p == nil {
		return false
	}
	if p.SpecifiedDelete {
		return true
	}
	for _, name := range podsToDelete {
		if name == p.Name {
			return true
		}
	}
	return false
}

// ParseDeletionCost returns the deletion cost a DeletionCostAnnotation
// value gives a pod, as kruise's deletion order reads it, and whether the
// value is valid. A valid value is a base-10 int32 that starts with '-',
// with a digit 1-9, or is exactly "0": "-5", "0", "12", and also "-0" and
// "-007" (-7), since only the first character is checked for a sign or a
// leading zero. Anything else is cost 0 and invalid: "" (an empty
// annotation, or none), "+3", "007", " 1", "1e3", "2147483648". Kruise
// ignores the invalidity; ParseDeletionCost reports it so a caller can
// warn. ParseDeletionCost does not allocate.
// Upstream: clonesetutils.getDeletionCostFromPodAnnotations.
func ParseDeletionCost(v string) (cost int32, ok bool) {
	if v == "" || !(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9')) {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

// PodClass is the one branch kruise's diff calculation counts an active
// pod in (docs/cloneset.md#pod-classes-and-availability). The zero
// PodClass is not a class.
type PodClass uint8

// The pod classes, checked in this order.
const (
	// Inactive: Succeeded, Failed or Terminating; not counted at all.
	Inactive PodClass = iota + 1
	// PreDeleting: lifecycle PreparingDelete. Counted as unavailable and,
	// unless scaling excludes PreparingDelete pods, as present.
	PreDeleting
	// ToDelete: specified for deletion (label or podsToDelete). Never
	// counted as unavailable, even when it is.
	ToDelete
	// Unavailable: not IsPodAvailable at minReadySeconds.
	Unavailable
	// Available: none of the above.
	Available
)

// String returns the class's name, e.g. "PreDeleting".
func (c PodClass) String() string {
	switch c {
	case Inactive:
		return "Inactive"
	case PreDeleting:
		return "PreDeleting"
	case ToDelete:
		return "ToDelete"
	case Unavailable:
		return "Unavailable"
	case Available:
		return "Available"
	}
	return "PodClass(" + strconv.Itoa(int(c)) + ")"
}

// ClassifyPod returns the class of p in cs at now: Inactive for an
// inactive (or nil) pod, PreDeleting for lifecycle PreparingDelete, then
// ToDelete if IsSpecifiedDelete(p, cs.ScaleStrategy.PodsToDelete), then
// Unavailable unless IsPodAvailable(p, cs.MinReadySeconds, now), else
// Available. A nil cs counts no minReadySeconds and no podsToDelete.
// Upstream: the per-pod switch in sync.calculateDiffsWithExpectation.
func ClassifyPod[T any](cs *CloneSet[T], p *Pod, now time.Time) PodClass {
	var minReady int32
	var podsToDelete []string
	if cs != nil {
		minReady, podsToDelete = cs.MinReadySeconds, cs.ScaleStrategy.PodsToDelete
	}
	return classify(p, minReady, podsToDelete, now)
}

func classify(p *Pod, minReady int32, podsToDelete []string, now time.Time) PodClass {
	switch {
	case !IsPodActive(p):
		return Inactive
	case p.Lifecycle == PreparingDelete:
		return PreDeleting
	case IsSpecifiedDelete(p, podsToDelete):
		return ToDelete
	case !IsPodAvailable(p, minReady, now):
		return Unavailable
	}
	return Available
}
