package daemonset

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// Budget is what one rolling update may do, in nodes.
type Budget struct {
	// Desired is the number of nodes that should run the pod (D).
	Desired int32 `json:"desired"`
	// MaxUnavailable is maxUnavailable resolved against Desired, rounded
	// up; 1 when it and MaxSurge both resolve to 0 and Desired > 0.
	MaxUnavailable int32 `json:"maxUnavailable"`
	// MaxSurge is maxSurge resolved against Desired, rounded up.
	MaxSurge int32 `json:"maxSurge"`
}

// strict reads v as the controller does (a count, or digits followed by
// '%'), resolved against total and rounded up.
func strict(v *intorpercent.IntOrString, total int32, path string) (int32, error) {
	val, ok := v.Value()
	if !ok {
		detail := "invalid type: string is not a percentage"
		if len(v.Str) > 0 && v.Str[len(v.Str)-1] == '%' {
			detail = "invalid value " + strconv.Quote(v.Str) + ": not a whole number of percent"
		}
		return 0, &field.Error{Prefix: prefix, Field: path, Value: strconv.Quote(v.Str), Detail: detail, Err: field.ErrSyntax}
	}
	n, err := val.Scaled(total, intorpercent.Up)
	if err != nil {
		return 0, &field.Error{Prefix: prefix, Field: path, Value: val.String(), Detail: err.Error(), Err: field.ErrRange}
	}
	return n, nil
}

const rollingPath = "spec.updateStrategy.rollingUpdate"

// UnavailableCount returns maxUnavailable resolved against desired (the
// number of nodes that should run the pod), rounded up: "25%" of 10 is 3,
// "10%" of 5 is 1. It is 0 when the strategy is not RollingUpdate. It
// does not apply the rule that 0/0 becomes 1 (see [Budgets]). An
// unreadable value is an error (the API server rejects it).
// Upstream: UnavailableCount, pkg/controller/daemon/util/daemonset_util.go.
func UnavailableCount[T any](ds *DaemonSet[T], desired int32) (int32, error) {
	if !rolling(ds) {
		return 0, nil
	}
	ru := ds.UpdateStrategy.RollingUpdate
	if ru == nil || ru.MaxUnavailable == nil {
		return DefaultMaxUnavailable, nil
	}
	return strict(ru.MaxUnavailable, desired, rollingPath+".maxUnavailable")
}

// SurgeCount returns maxSurge resolved against desired, rounded up: "30%"
// of 5 is 2, and any non-zero percentage of 1 is 1. It is 0 when the
// strategy is not RollingUpdate or maxSurge is nil.
// Upstream: SurgeCount, pkg/controller/daemon/util/daemonset_util.go.
func SurgeCount[T any](ds *DaemonSet[T], desired int32) (int32, error) {
	if !rolling(ds) {
		return 0, nil
	}
	ru := ds.UpdateStrategy.RollingUpdate
	if ru == nil || ru.MaxSurge == nil {
		return 0, nil
	}
	return strict(ru.MaxSurge, desired, rollingPath+".maxSurge")
}

// AllowsSurge reports whether the DaemonSet surges: SurgeCount(ds, 1) > 0.
// Upstream: AllowsSurge, pkg/controller/daemon/util/daemonset_util.go.
func AllowsSurge[T any](ds *DaemonSet[T]) bool {
	n, err := SurgeCount(ds, 1)
	return err == nil && n > 0
}

func rolling[T any](ds *DaemonSet[T]) bool {
	return ds.UpdateStrategy.Type == "" || ds.UpdateStrategy.Type == RollingUpdate
}

// Budgets returns the budget of a rolling update over nodes: Desired is
// the number of nodes with ShouldRun, MaxUnavailable and MaxSurge are
// UnavailableCount and SurgeCount of it, and when Desired > 0 and both are
// 0, MaxUnavailable becomes 1. Percentages round up (the Deployment
// controller rounds maxUnavailable down): "50%" of 3 nodes is 2. Budgets
// does not allocate unless it fails.
// Upstream: updatedDesiredNodeCounts, pkg/controller/daemon/update.go.
func Budgets[T any](ds *DaemonSet[T], nodes []Node) (Budget, error) {
	var d int32
	for i := range nodes {
		if nodes[i].ShouldRun {
			d++
		}
	}
	return budgets(ds, d)
}

func budgets[T any](ds *DaemonSet[T], d int32) (Budget, error) {
	mu, err := UnavailableCount(ds, d)
	if err != nil {
		return Budget{}, err
	}
	ms, err := SurgeCount(ds, d)
	if err != nil {
		return Budget{}, err
	}
	if d > 0 && mu == 0 && ms == 0 {
		mu = 1
	}
	return Budget{Desired: d, MaxUnavailable: mu, MaxSurge: ms}, nil
}
