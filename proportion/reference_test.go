package proportion

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
)

// This file keeps a slow reference for Scale that is meant to be easy to
// check by reading: it follows upstream scale() step by step with a list
// of pointers, sort.Sort with Less methods, a name-to-size map and exact
// math/big arithmetic, and it applies this package's documented
// differences (no wrap, saturation at MaxInt32) explicitly at the end.

type refRS struct {
	ReplicaSet
	index int
}

type refByCreation []*refRS

func (o refByCreation) Len() int      { return len(o) }
func (o refByCreation) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o refByCreation) Less(i, j int) bool {
	if o[i].CreationTime.Equal(o[j].CreationTime) {
		return o[i].Name < o[j].Name
	}
	return o[i].CreationTime.Before(o[j].CreationTime)
}

type refBySizeNewer []*refRS

func (o refBySizeNewer) Len() int      { return len(o) }
func (o refBySizeNewer) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o refBySizeNewer) Less(i, j int) bool {
	if o[i].Replicas == o[j].Replicas {
		return refByCreation(o).Less(j, i)
	}
	return o[i].Replicas > o[j].Replicas
}

type refBySizeOlder []*refRS

func (o refBySizeOlder) Len() int      { return len(o) }
func (o refBySizeOlder) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o refBySizeOlder) Less(i, j int) bool {
	if o[i].Replicas == o[j].Replicas {
		return refByCreation(o).Less(i, j)
	}
	return o[i].Replicas > o[j].Replicas
}

func refFilterActive(in []*refRS) []*refRS {
	var out []*refRS
	for _, rs := range in {
		if rs != nil && rs.Replicas > 0 {
			out = append(out, rs)
		}
	}
	return out
}

var refDigits = regexp.MustCompile(`^[0-9]+$`)

// refStrict reads an annotation the strict way: digits only, <= MaxInt32.
func refStrict(s string) (int64, bool) {
	if !refDigits.MatchString(s) {
		return 0, false
	}
	v, _ := new(big.Int).SetString(s, 10)
	if v.Cmp(big.NewInt(math.MaxInt32)) > 0 {
		return 0, false
	}
	return v.Int64(), true
}

func refClampInt32(v *big.Int) *big.Int {
	if lo := big.NewInt(math.MinInt32); v.Cmp(lo) < 0 {
		return lo
	}
	if hi := big.NewInt(math.MaxInt32); v.Cmp(hi) > 0 {
		return hi
	}
	return v
}

func refMaxReplicas(d Deployment) *big.Int {
	return refClampInt32(new(big.Int).Add(big.NewInt(int64(d.Replicas)), big.NewInt(int64(d.MaxSurge))))
}

// refFraction is getReplicaSetFraction with exact rationals; the result
// is clamped into int32 as documented.
func refFraction(rs *refRS, d Deployment) *big.Int {
	spec := big.NewInt(int64(rs.Replicas))
	if d.Replicas == 0 {
		return refClampInt32(new(big.Int).Neg(spec))
	}
	oldMax, ok := refStrict(rs.MaxReplicas)
	if !ok || oldMax == 0 {
		oldMax = int64(d.StatusReplicas)
		if oldMax == 0 {
			return big.NewInt(0)
		}
	}
	newSize := new(big.Rat).SetFrac(new(big.Int).Mul(spec, refMaxReplicas(d)), big.NewInt(oldMax))
	return refClampInt32(new(big.Int).Sub(refRoundRat(newSize), spec))
}

// refRoundRat rounds half away from zero.
func refRoundRat(x *big.Rat) *big.Int {
	a := new(big.Rat).Abs(x)
	a.Add(a, big.NewRat(1, 2))
	n := new(big.Int).Quo(a.Num(), a.Denom())
	if x.Sign() < 0 {
		n.Neg(n)
	}
	return n
}

func refProportion(rs *refRS, d Deployment, toAdd, added *big.Int) *big.Int {
	if rs.Replicas == 0 || toAdd.Sign() == 0 || toAdd.Cmp(added) == 0 {
		return big.NewInt(0)
	}
	f := refFraction(rs, d)
	allowed := new(big.Int).Sub(toAdd, added)
	if toAdd.Sign() > 0 {
		if f.Cmp(allowed) < 0 {
			return f
		}
		return allowed
	}
	if f.Cmp(allowed) > 0 {
		return f
	}
	return allowed
}

func refIsSaturated(d Deployment, rs *refRS) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.DesiredReplicas) // the tests run on 64-bit platforms
	if err != nil {
		return false
	}
	return rs.Replicas == d.Replicas && int32(desired) == d.Replicas && rs.AvailableReplicas == d.Replicas
}

func refNeedsUpdate(rs *refRS, desired, max int64) bool {
	return rs.DesiredReplicas != fmt.Sprintf("%d", desired) || rs.MaxReplicas != fmt.Sprintf("%d", max)
}

// refScale is the slow reference for Scale on valid input.
func refScale(d Deployment, rss []ReplicaSet, newRS int, mode Mode) Result {
	maxReplicas := refMaxReplicas(d)
	res := Result{
		Targets:         make([]Target, len(rss)),
		Order:           []int{},
		DesiredReplicas: d.Replicas,
		MaxReplicas:     int32(maxReplicas.Int64()),
	}
	if d.Replicas > 0 {
		res.Allowed = res.MaxReplicas
	}
	var newP *refRS
	var oldRSs []*refRS
	for i := range rss {
		res.Targets[i].Replicas = rss[i].Replicas
		p := &refRS{ReplicaSet: rss[i], index: i}
		if i == newRS {
			newP = p
		} else {
			oldRSs = append(oldRSs, p)
		}
	}
	if len(rss) == 0 {
		res.Rule = RuleNoReplicaSets
		return res
	}

	// Step 1: FindActiveOrLatest (sorts oldRSs newest first, as upstream).
	sort.Sort(sort.Reverse(refByCreation(oldRSs)))
	var pick *refRS
	withNew := append(append([]*refRS{}, oldRSs...), newP)
	switch active := refFilterActive(withNew); len(active) {
	case 0:
		if newP != nil {
			pick = newP
		} else {
			pick = oldRSs[0]
		}
	case 1:
		pick = active[0]
	}
	if pick != nil {
		res.Rule, res.Order = RuleActiveOrLatest, []int{pick.index}
		if pick.Replicas != d.Replicas {
			res.Targets[pick.index] = Target{Replicas: d.Replicas, Annotate: true}
		}
		return res
	}

	// Step 2: saturated new ReplicaSet.
	if refIsSaturated(d, newP) {
		res.Rule = RuleSaturated
		for _, rs := range refFilterActive(oldRSs) {
			res.Order = append(res.Order, rs.index)
			res.Targets[rs.index] = Target{Replicas: 0, Annotate: true}
		}
		return res
	}

	// Step 3: Recreate.
	if !d.RollingUpdate {
		res.Rule = RuleNotRollingUpdate
		return res
	}

	// Step 4.
	res.Rule = RuleProportional
	all := refFilterActive(withNew)
	sum := new(big.Int)
	for _, rs := range all {
		sum.Add(sum, big.NewInt(int64(rs.Replicas)))
	}
	allowed := big.NewInt(int64(res.Allowed))
	toAdd := new(big.Int).Sub(allowed, sum)
	nameToSize := map[string]*big.Int{}
	switch {
	case toAdd.Sign() > 0:
		sort.Sort(refBySizeNewer(all))
	case toAdd.Sign() < 0:
		sort.Sort(refBySizeOlder(all))
	}
	if mode == Conserving && toAdd.Sign() != 0 {
		remainder := map[string]*big.Rat{}
		given := new(big.Int)
		for _, rs := range all {
			share := new(big.Rat).SetFrac(new(big.Int).Mul(allowed, big.NewInt(int64(rs.Replicas))), sum)
			floor := new(big.Int).Quo(share.Num(), share.Denom())
			nameToSize[rs.Name] = floor
			remainder[rs.Name] = new(big.Rat).Sub(share, new(big.Rat).SetInt(floor))
			given.Add(given, floor)
		}
		sort.SliceStable(all, func(i, j int) bool { return remainder[all[i].Name].Cmp(remainder[all[j].Name]) > 0 })
		extra := new(big.Int).Sub(allowed, given).Int64()
		for k := 0; k < int(extra); k++ {
			nameToSize[all[k].Name].Add(nameToSize[all[k].Name], big.NewInt(1))
		}
	} else {
		added := new(big.Int)
		for _, rs := range all {
			if toAdd.Sign() != 0 {
				p := refProportion(rs, d, toAdd, added)
				nameToSize[rs.Name] = new(big.Int).Add(big.NewInt(int64(rs.Replicas)), p)
				added.Add(added, p)
			} else {
				nameToSize[rs.Name] = big.NewInt(int64(rs.Replicas))
			}
		}
		if toAdd.Sign() != 0 {
			first := nameToSize[all[0].Name]
			first.Add(first, new(big.Int).Sub(toAdd, added))
			if first.Sign() < 0 {
				first.SetInt64(0)
				res.Clamped = true
			}
		}
	}
	for _, rs := range all {
		size := nameToSize[rs.Name]
		if hi := big.NewInt(math.MaxInt32); size.Cmp(hi) > 0 {
			size = hi // documented saturation
		}
		s := int32(size.Int64())
		res.Order = append(res.Order, rs.index)
		res.Targets[rs.index] = Target{
			Replicas: s,
			Annotate: s != rs.Replicas || refNeedsUpdate(rs, int64(d.Replicas), maxReplicas.Int64()),
		}
	}
	return res
}
