package statefulset

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/revision"
)

// RevisionData returns the Data the controller records in a
// StatefulSet's ControllerRevision, given template, the JSON encoding of
// the set's spec.template as the API server stores it (defaults
// included; for a corev1.PodTemplateSpec what encoding/json.Marshal
// returns with k8s.io/api v0.36, which omits a zero creationTimestamp).
//
// The result is the JSON object {"spec":{"template":T}} where T is the
// template decoded into untyped values and encoded again by
// encoding/json with the extra key "$patch":"replace": keys sorted,
// numbers as float64 values, <, > and & escaped. Only the template is
// recorded: replicas, strategy, ordinals and minReadySeconds never make
// a new revision. template must be a JSON object; anything else is a
// *field.Error and the data is nil.
// Upstream: getPatch, pkg/controller/statefulset/stateful_set_utils.go.
func RevisionData(template []byte) ([]byte, error) {
	var t map[string]any
	if err := json.Unmarshal(template, &t); err != nil {
		return nil, inputError("spec.template", "not a JSON object: %v", err)
	}
	if t == nil {
		return nil, inputError("spec.template", "null: must be a JSON object")
	}
	t["$patch"] = "replace"
	out, err := json.Marshal(map[string]any{"spec": map[string]any{"template": t}})
	if err != nil {
		// Values decoded from valid JSON always encode again.
		return nil, inputError("spec.template", "encoding the revision data: %v", err)
	}
	return out, nil
}

// HashRevision returns the hash of a ControllerRevision holding data
// when the set's collision count is collisionCount: 32-bit FNV-1 (not
// FNV-1a) over data followed by the decimal digits of collisionCount
// (the controller always passes one, so "0" is hashed even without a
// collision), its decimal digits spelled in Kubernetes' safe alphabet
// (0-9 become 4, 5, 6, 7, 8, 9, b, c, d, f). The result has 1 to 10
// characters; HashRevision allocates only it.
// Upstream: HashControllerRevision, pkg/controller/history/controller_history.go,
// with rand.SafeEncodeString.
func HashRevision(data []byte, collisionCount int32) string {
	var buf [11]byte
	return string(appendHash(buf[:0], data, collisionCount))
}

// appendHash appends HashRevision's text to dst.
func appendHash(dst, data []byte, collisionCount int32) []byte {
	return revision.AppendControllerRevisionHash(dst, data, collisionCount)
}

// maxRevisionPrefix is the longest set name a revision name keeps.
const maxRevisionPrefix = 223

// RevisionName returns the name of the ControllerRevision with hash
// hash of the set named set: "<set>-<hash>", set cut to its first 223
// bytes. Pods carry this full name in their RevisionLabel.
// Upstream: ControllerRevisionName, pkg/controller/history/controller_history.go.
func RevisionName(set, hash string) string {
	if len(set) > maxRevisionPrefix {
		set = set[:maxRevisionPrefix]
	}
	return set + "-" + hash
}

// appendRevisionName appends RevisionName(set, HashRevision(data, cc))
// to dst.
func appendRevisionName(dst []byte, set string, data []byte, cc int32) []byte {
	if len(set) > maxRevisionPrefix {
		set = set[:maxRevisionPrefix]
	}
	dst = append(dst, set...)
	dst = append(dst, '-')
	return appendHash(dst, data, cc)
}

// SortRevisions returns the indices of revisions in the history's
// order: by Number, then creation time (earlier first), then name.
// Names must be non-empty and unique (else a *field.Error), so the order
// is total. revisions is not modified.
// Upstream: SortControllerRevisions, pkg/controller/history/controller_history.go.
func SortRevisions(revisions []ControllerRevision) ([]int, error) {
	order := make([]int, len(revisions))
	if err := sortRevisions(revisions, order); err != nil {
		return nil, err
	}
	return order, nil
}

// sortRevisions fills order (len(revisions) long) with the history
// order, checking names; it does not allocate.
func sortRevisions(revisions []ControllerRevision, order []int) error {
	for i := range order {
		order[i] = i
		if revisions[i].Name == "" {
			return requiredError("revisions[" + strconv.Itoa(i) + "].name")
		}
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(revisions[a].Name, revisions[b].Name) })
	for k := 1; k < len(order); k++ {
		if revisions[order[k]].Name == revisions[order[k-1]].Name {
			i := max(order[k], order[k-1])
			return duplicateError("revisions["+strconv.Itoa(i)+"].name", revisions[i].Name)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		ra, rb := &revisions[a], &revisions[b]
		switch {
		case ra.Number != rb.Number:
			return cmp.Compare(ra.Number, rb.Number)
		case ra.CreatedUnixNano != rb.CreatedUnixNano:
			return cmp.Compare(ra.CreatedUnixNano, rb.CreatedUnixNano)
		}
		return strings.Compare(ra.Name, rb.Name)
	})
	return nil
}

// RevisionChoice says how a sync obtains its update revision.
type RevisionChoice uint8

// The revision choices.
const (
	// ReuseLatest: the newest revision holds the template; nothing is
	// written.
	ReuseLatest RevisionChoice = iota + 1
	// Rollback: an older revision holds the template; it is renumbered
	// to the next number (RenumberRevision) and keeps its name.
	Rollback
	// Create: no revision holds the template; a new one is created
	// (CreateRevision), raising the collision count past names taken by
	// other data.
	Create
)

// String returns the choice's name, e.g. "ReuseLatest".
func (c RevisionChoice) String() string {
	switch c {
	case ReuseLatest:
		return "ReuseLatest"
	case Rollback:
		return "Rollback"
	case Create:
		return "Create"
	}
	return "RevisionChoice(" + strconv.Itoa(int(c)) + ")"
}

// Revisions is the outcome of [ChooseRevisions].
type Revisions struct {
	// Update is the update revision as the sync leaves it (a created one
	// has CreatedUnixNano 0 and its Hash set).
	Update ControllerRevision `json:"update"`
	// Choice says how Update was obtained.
	Choice RevisionChoice `json:"choice"`
	// Existing is the index in the input of the revision reused or
	// renumbered, -1 for Create.
	Existing int `json:"existing"`
	// Current is the name of the current revision: status.currentRevision
	// when a revision of that name is listed, else Update's.
	Current string `json:"current"`
	// CollisionCount is the collision count after the sync.
	CollisionCount int32 `json:"collisionCount"`
	// Collisions is how many names Create found taken.
	Collisions int32 `json:"collisions,omitempty"`
	// Next is the number a new or renumbered revision gets: the highest
	// Number plus one, 1 for an empty history.
	Next int64 `json:"next"`
}

// ChooseRevisions returns the current and update revisions of a sync of
// the set named set whose revision data (see [RevisionData]) is data,
// given its revisions in any order, status.currentRevision and
// status.collisionCount (0 when unset).
//
// In the history's order (see [SortRevisions]): when the newest revision
// with Data equal to data is the newest revision overall, it is reused;
// when an older one holds data, it is renumbered to the next number (a
// rollback); otherwise a revision named RevisionName(set,
// HashRevision(data, collisionCount)) is created, the count raised by one
// while that name is taken by a revision with other data. The controller
// learns of a taken name from the API server, which also knows revisions
// the set does not own; this function sees only the list it is given.
//
// Errors (*field.Error): empty or duplicate names, a Number at
// math.MaxInt64, a collision count that would pass math.MaxInt32. The
// result is then zero. revisions is not modified.
// Upstream: getStatefulSetRevisions, pkg/controller/statefulset/stateful_set_control.go,
// with FindEqualRevisions and CreateControllerRevision (pkg/controller/history).
func ChooseRevisions(set string, revisions []ControllerRevision, data []byte, currentRevision string, collisionCount int32) (Revisions, error) {
	order := make([]int, len(revisions))
	var name []byte
	return chooseRevisions(set, revisions, order, &name, data, currentRevision, collisionCount)
}

// chooseRevisions is ChooseRevisions with scratch space: order (as long
// as revisions) and name, a buffer for candidate names.
func chooseRevisions(set string, revisions []ControllerRevision, order []int, name *[]byte, data []byte, currentRevision string, collisionCount int32) (Revisions, error) {
	if err := sortRevisions(revisions, order); err != nil {
		return Revisions{}, err
	}
	res := Revisions{Existing: -1, CollisionCount: collisionCount, Next: 1}
	if n := len(order); n > 0 {
		last := revisions[order[n-1]].Number
		if last == math.MaxInt64 {
			return Revisions{}, inputError("revisions["+strconv.Itoa(order[n-1])+"].number", "%d: the next revision number would overflow", last)
		}
		res.Next = last + 1
	}
	equal := -1
	for _, i := range order {
		if bytes.Equal(revisions[i].Data, data) {
			equal = i
		}
	}
	switch {
	case equal >= 0 && equal == order[len(order)-1]:
		res.Choice, res.Existing, res.Update = ReuseLatest, equal, revisions[equal]
	case equal >= 0:
		res.Choice, res.Existing, res.Update = Rollback, equal, revisions[equal]
		res.Update.Number = res.Next
	default:
		res.Choice = Create
		for {
			*name = appendRevisionName((*name)[:0], set, data, res.CollisionCount)
			taken := -1
			for i := range revisions {
				if revisions[i].Name == string(*name) {
					taken = i
					break
				}
			}
			if taken < 0 {
				n := string(*name)
				res.Update = ControllerRevision{Name: n, Number: res.Next, Hash: n[len(n)-hashLen(n):], Data: data}
				break
			}
			if res.CollisionCount == math.MaxInt32 {
				return Revisions{}, inputError("status.collisionCount", "would pass %d", int32(math.MaxInt32))
			}
			res.CollisionCount++
			res.Collisions++
		}
	}
	res.Current = res.Update.Name
	for i := range revisions {
		if revisions[i].Name == currentRevision {
			res.Current = currentRevision
			break
		}
	}
	return res, nil
}

// hashLen is the length of the hash at the end of a revision name.
func hashLen(name string) int {
	return len(name) - strings.LastIndexByte(name, '-') - 1
}

// TruncateHistory returns, in the history's order, the indices of the
// revisions one sync deletes: the revisions not live (live = current,
// update, and the RevisionLabel of every claimed pod, terminating ones
// included) beyond the first limit of them counted from the newest; that
// is, with h non-live revisions, the oldest h - limit. A negative limit
// deletes nothing. revisions must be the list as the sync read it,
// before any creation or renumbering; it is not modified.
// Upstream: truncateHistory, pkg/controller/statefulset/stateful_set_control.go.
func TruncateHistory(revisions []ControllerRevision, current, update string, pods []Pod, limit int32) ([]int, error) {
	order := make([]int, len(revisions))
	if err := sortRevisions(revisions, order); err != nil {
		return nil, err
	}
	return truncateHistory(revisions, order, current, update, pods, limit, nil), nil
}

// truncateHistory appends TruncateHistory's answer to dst, given the
// history order. It checks liveness by scanning pods per revision, so it
// does not allocate beyond dst.
func truncateHistory(revisions []ControllerRevision, order []int, current, update string, pods []Pod, limit int32, dst []int) []int {
	if limit < 0 {
		return dst
	}
	nonLive := 0
	for _, i := range order {
		if !live(revisions[i].Name, current, update, pods) {
			nonLive++
		}
	}
	drop := nonLive - int(limit)
	for _, i := range order {
		if drop <= 0 {
			break
		}
		if !live(revisions[i].Name, current, update, pods) {
			dst = append(dst, i)
			drop--
		}
	}
	return dst
}

// live reports whether the revision named name is live.
func live(name, current, update string, pods []Pod) bool {
	if name == current || name == update {
		return true
	}
	for i := range pods {
		if pods[i].Revision == name {
			return true
		}
	}
	return false
}
