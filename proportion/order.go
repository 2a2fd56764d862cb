package proportion

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// ByCreation orders ReplicaSets oldest first: it returns a negative
// number when a was created before b, a positive one when after, and for
// equal creation times (compared as instants) it compares the names, so
// it is a total order on ReplicaSets with distinct names. Use it with
// slices.SortFunc. It does not allocate.
// Upstream: controller.ReplicaSetsByCreationTimestamp.
func ByCreation(a, b ReplicaSet) int {
	return byCreation(&a, &b)
}

// BySizeNewer orders ReplicaSets the way a proportional scale-up visits
// them: larger spec.replicas first; equal sizes newest first; equal
// sizes and creation times by name, larger name first. It is
// ByCreation(b, a) after the size. It does not allocate.
// Upstream: controller.ReplicaSetsBySizeNewer.
func BySizeNewer(a, b ReplicaSet) int {
	return bySizeNewer(&a, &b)
}

// BySizeOlder orders ReplicaSets the way a proportional scale-down
// visits them: larger spec.replicas first; equal sizes oldest first;
// equal sizes and creation times by name, smaller name first. It is
// ByCreation(a, b) after the size. It does not allocate.
// Upstream: controller.ReplicaSetsBySizeOlder.
func BySizeOlder(a, b ReplicaSet) int {
	return bySizeOlder(&a, &b)
}

func byCreation(a, b *ReplicaSet) int {
	if c := a.CreationTime.Compare(b.CreationTime); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

func bySizeNewer(a, b *ReplicaSet) int {
	if c := cmp.Compare(b.Replicas, a.Replicas); c != 0 {
		return c
	}
	return byCreation(b, a)
}

func bySizeOlder(a, b *ReplicaSet) int {
	if c := cmp.Compare(b.Replicas, a.Replicas); c != 0 {
		return c
	}
	return byCreation(a, b)
}

// ActiveOrLatest returns the ReplicaSet that takes all of the
// deployment's replicas when at most one ReplicaSet has any: the only
// active one (Replicas > 0) if there is exactly one; with none active, the
// new ReplicaSet rss[newRS] if there is one (newRS >= 0), otherwise the
// newest ReplicaSet by [ByCreation] (ties: the larger name). ok is false
// when rss is empty or two or more ReplicaSets are active. newRS is the
// index of the new ReplicaSet, or -1 for none.
//
// Unlike upstream it does not sort rss. Bad input (see [Scale]) gives an
// [*field.Error] and (-1, false). It allocates only to check names when
// len(rss) > 32, and on the error path.
// Upstream: deploymentutil.FindActiveOrLatest.
func ActiveOrLatest(rss []ReplicaSet, newRS int) (i int, ok bool, err error) {
	if err := checkReplicaSets(rss, newRS, nil); err != nil {
		return -1, false, err
	}
	i, ok = activeOrLatest(rss, newRS)
	return i, ok, nil
}

// activeOrLatest is ActiveOrLatest on checked input.
func activeOrLatest(rss []ReplicaSet, newRS int) (int, bool) {
	if len(rss) == 0 {
		return -1, false
	}
	active, only := 0, -1
	for i := range rss {
		if rss[i].Replicas > 0 {
			active++
			only = i
		}
	}
	switch {
	case active == 1:
		return only, true
	case active > 1:
		return -1, false
	case newRS >= 0:
		return newRS, true
	}
	newest := 0
	for i := 1; i < len(rss); i++ {
		if byCreation(&rss[i], &rss[newest]) > 0 {
			newest = i
		}
	}
	return newest, true
}

// checkReplicaSets validates rss and newRS for Scale and ActiveOrLatest.
// scratch, if it has len(rss) elements, is used to sort indices by name;
// otherwise names are compared pairwise (len <= 32) or a scratch slice is
// allocated.
func checkReplicaSets(rss []ReplicaSet, newRS int, scratch []int) error {
	if newRS < -1 || newRS >= len(rss) {
		return inputError("newRS", strconv.Itoa(newRS)+" is out of range [-1, "+strconv.Itoa(len(rss))+")", field.ErrIndex)
	}
	for i := range rss {
		if rss[i].Replicas < 0 {
			return negative("rss["+strconv.Itoa(i)+"].Replicas", rss[i].Replicas)
		}
		if rss[i].AvailableReplicas < 0 {
			return negative("rss["+strconv.Itoa(i)+"].AvailableReplicas", rss[i].AvailableReplicas)
		}
	}
	return checkNames(rss, scratch)
}

// checkNames returns an error naming the first duplicate in index
// order: the smallest j such that rss[j].Name equals an earlier name.
func checkNames(rss []ReplicaSet, scratch []int) error {
	n := len(rss)
	if n <= 32 && len(scratch) < n {
		for j := 1; j < n; j++ {
			for i := 0; i < j; i++ {
				if rss[i].Name == rss[j].Name {
					return duplicate(rss, i, j)
				}
			}
		}
		return nil
	}
	if len(scratch) < n {
		scratch = make([]int, n)
	}
	idx := scratch[:n]
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := strings.Compare(rss[a].Name, rss[b].Name); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	first, later := -1, -1 // over runs of equal names: the run whose second index is smallest
	for start := 0; start < n; {
		end := start + 1
		for end < n && rss[idx[end]].Name == rss[idx[start]].Name {
			end++
		}
		if end-start > 1 && (later == -1 || idx[start+1] < later) {
			first, later = idx[start], idx[start+1]
		}
		start = end
	}
	if later >= 0 {
		return duplicate(rss, first, later)
	}
	return nil
}

func duplicate(rss []ReplicaSet, i, j int) error {
	return inputError("rss["+strconv.Itoa(j)+"].Name",
		strconv.Quote(rss[j].Name)+" duplicates rss["+strconv.Itoa(i)+"].Name", field.ErrDuplicate)
}

func negative(path string, v int32) error {
	return inputError(path, strconv.Itoa(int(v))+" must not be negative", field.ErrNegative)
}
