package rollout

import (
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// validateReplicaSets checks that no two ReplicaSets share a name, then
// every ReplicaSet with validateReplicaSet, oldest first (byCreation), so
// that the first invalid one reported does not depend on the order of
// rss.
func validateReplicaSets[T any](rss []ReplicaSet[T]) error {
	if err := checkNames(rss); err != nil {
		return err
	}
	order := oldestOrder(rss, -1)
	for _, i := range order {
		if errs := validateReplicaSet(&rss[i]); len(errs) > 0 {
			return invalidObject("ReplicaSet", rss[i].Name, errs)
		}
	}
	return nil
}

// byCreation orders ReplicaSets oldest first, the same instant by name:
// upstream's ReplicaSetsByCreationTimestamp, a total order once names are
// distinct (checkNames).
func byCreation[T any](a, b ReplicaSet[T]) int {
	if c := a.CreationTime.Compare(b.CreationTime); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// byCreationAt is byCreation through pointers, so that sorting does not
// copy ReplicaSets (a real pod template is about a kilobyte).
func byCreationAt[T any](a, b *ReplicaSet[T]) int {
	if c := a.CreationTime.Compare(b.CreationTime); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// smallNames is how many ReplicaSets checkNames compares pairwise; beyond
// it, it indexes their names in a map.
const smallNames = 32

// checkNames returns duplicateError's error for the first ReplicaSet, in rss
// order, whose name an earlier one already has, and nil when the names
// are distinct. A namespace holds one ReplicaSet per name, so a second one
// can only be a caller's mistake (the same object listed twice, or two
// clusters mixed up); the controller's per-name bookkeeping (upstream's
// scale keeps its sizes in a map by name) would merge the two. Up to
// smallNames ReplicaSets it compares them pairwise, without allocating.
func checkNames[T any](rss []ReplicaSet[T]) error {
	if len(rss) < 2 {
		return nil
	}
	if len(rss) <= smallNames {
		for j := 1; j < len(rss); j++ {
			b := rss[j].Name
			for i := 0; i < j; i++ {
				// Lengths and last bytes first: names that differ
				// mostly differ there (their hash suffix).
				if a := rss[i].Name; len(a) == len(b) && (len(a) == 0 || a[len(a)-1] == b[len(b)-1]) && a == b {
					return duplicateError(b, i, j)
				}
			}
		}
		return nil
	}
	seen := make(map[string]int, len(rss))
	for j := range rss {
		if i, ok := seen[rss[j].Name]; ok {
			return duplicateError(rss[j].Name, i, j)
		}
		seen[rss[j].Name] = j
	}
	return nil
}

// duplicateError reports two ReplicaSets, rss[first] and rss[second],
// with the same name, in the words of package proportion's duplicate
// check, as a *field.Error wrapping field.ErrDuplicate:
//
//	rollout: rss[3].Name: "web-1" duplicates rss[1].Name
func duplicateError(name string, first, second int) error {
	return &field.Error{Prefix: "rollout", Field: "rss[" + strconv.Itoa(second) + "].Name",
		Detail: strconv.Quote(name) + " duplicates rss[" + strconv.Itoa(first) + "].Name", Err: field.ErrDuplicate}
}
