package daemonset

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/revision"
)

// RevisionData returns the Data the controller records in a
// ControllerRevision for template, and compares with a revision's Data
// to find the current one: the JSON object {"spec":{"template":T}} where
// T is template encoded with encoding/json, decoded into untyped values
// and encoded again with the key "$patch":"replace" added (keys sorted,
// numbers as float64). For a corev1.PodTemplateSpec these are the bytes
// kube-controller-manager writes. A template that does not encode to a
// JSON object is an error.
// Upstream: getPatch, pkg/controller/daemon/update.go.
func RevisionData[T any](template *T) ([]byte, error) {
	raw, err := json.Marshal(template)
	if err != nil {
		return nil, inputError("spec.template", field.ErrSyntax, "encoding: %v", err)
	}
	var t map[string]any
	if err := json.Unmarshal(raw, &t); err != nil || t == nil {
		return nil, inputError("spec.template", field.ErrSyntax, "does not encode to a JSON object")
	}
	t["$patch"] = "replace"
	out, err := json.Marshal(map[string]any{"spec": map[string]any{"template": t}})
	if err != nil {
		return nil, inputError("spec.template", field.ErrSyntax, "encoding the revision data: %v", err)
	}
	return out, nil
}

// Hash returns the hash the controller gives a new revision of template
// with the DaemonSet's status.collisionCount: [revision.Hash], which is
// upstream's ComputeHash (32-bit FNV-1a over the template's dump.ForHash
// rendering, then the count as 8 bytes when set, in the safe alphabet). A
// nil count and a count of 0 give different hashes. For a
// corev1.PodTemplateSpec it is the cluster's hash; for other types, see
// revision.Hash on type names. The controller computes it only when it
// creates a revision; afterwards the sync uses the stored revision's
// label.
// Upstream: ComputeHash, pkg/controller/controller_utils.go.
func Hash[T any](template *T, collisionCount *int32) string {
	return revision.Hash(template, collisionCount)
}

// RevisionName returns the name of a DaemonSet's revision with hash hash:
// "<daemonSet>-<hash>", never truncated.
// Upstream: snapshot, pkg/controller/daemon/update.go.
func RevisionName(daemonSet, hash string) string { return daemonSet + "-" + hash }

// HistoryStep says what the controller does to its revisions to find the
// current one.
type HistoryStep uint8

// The history steps.
const (
	// HistoryReuse: one revision holds the template and has the highest
	// number; nothing is written.
	HistoryReuse HistoryStep = iota + 1
	// HistoryRenumber: the revision holding the template gets the next
	// number (a rollback).
	HistoryRenumber
	// HistoryCreate: no revision holds the template; one is created with
	// the next number.
	HistoryCreate
	// HistoryCollision: the name of the revision to create is taken by a
	// revision with other data; status.collisionCount goes up by one and
	// the sync fails, to be retried with the new count.
	HistoryCollision
)

// String returns the step's name.
func (s HistoryStep) String() string {
	switch s {
	case HistoryReuse:
		return "HistoryReuse"
	case HistoryRenumber:
		return "HistoryRenumber"
	case HistoryCreate:
		return "HistoryCreate"
	case HistoryCollision:
		return "HistoryCollision"
	}
	return "HistoryStep(" + strconv.Itoa(int(s)) + ")"
}

// History is what [ConstructHistory] finds.
type History struct {
	// Step is what happens to get the current revision.
	Step HistoryStep `json:"step"`
	// Current is the current revision as the sync leaves it (for
	// HistoryCollision, the revision that could not be created).
	Current ControllerRevision `json:"current"`
	// Existing is the index in the input of the current revision, -1 when
	// it is created.
	Existing int `json:"existing"`
	// Labelled are the indices of the revisions without a hash label,
	// which the controller labels with their name first.
	Labelled []int `json:"labelled,omitempty"`
	// Duplicates are the indices of other revisions that also hold the
	// template; they are deleted after every pod is relabelled to
	// Current's hash.
	Duplicates []int `json:"duplicates,omitempty"`
	// Old are the indices of the revisions that do not hold the template.
	Old []int `json:"old,omitempty"`
}

// ConstructHistory returns how the controller finds the current revision
// of a DaemonSet named name among revisions, given data (its
// [RevisionData]) and hash (its [Hash] at the current collision count):
// a revision without a hash label is labelled with its name; the revisions
// whose Data equals data are current; with none, the revision
// RevisionName(name, hash) is created numbered one past the highest old
// number, unless that name is taken (HistoryCollision); with several, the
// one with the highest number is kept and the others are duplicates; a
// kept revision numbered below one past the highest old number is
// renumbered.
//
// Ties: among current revisions sharing the highest number, upstream
// keeps the last in the order its informer cache lists them, which
// follows Go's randomised map order, so any of them can be kept; this
// function keeps the last by name, one of the choices upstream can make.
//
// The controller finds a name clash by asking the API server, which
// knows revisions this DaemonSet does not own; this function sees only
// revisions. Errors: an empty or duplicate revision name, a number at
// math.MaxInt64.
// Upstream: constructHistory, dedupCurHistories and snapshot, pkg/controller/daemon/update.go.
func ConstructHistory(name string, revisions []ControllerRevision, data []byte, hash string) (History, error) {
	var h History
	order := make([]int, len(revisions))
	for i := range order {
		order[i] = i
	}
	if err := constructHistory(name, revisions, data, hash, order, &h); err != nil {
		return History{}, err
	}
	return h, nil
}

// constructHistory fills h, reusing its slices; order is scratch of
// len(revisions).
func constructHistory(name string, revisions []ControllerRevision, data []byte, hash string, order []int, h *History) error {
	h.Labelled, h.Duplicates, h.Old = h.Labelled[:0], h.Duplicates[:0], h.Old[:0]
	h.Existing = -1
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(revisions[a].Name, revisions[b].Name) })
	for k, i := range order {
		if revisions[i].Name == "" {
			return inputError(indexed("revisions", i, "name"), field.ErrRequired, "must not be empty")
		}
		if k > 0 && revisions[order[k-1]].Name == revisions[i].Name {
			j := max(i, order[k-1])
			return inputError(indexed("revisions", j, "name"), field.ErrDuplicate, "duplicate name %s", strconv.Quote(revisions[j].Name))
		}
	}
	var maxOld int64
	keep := -1
	for _, i := range order {
		r := &revisions[i]
		if r.Hash == "" {
			h.Labelled = append(h.Labelled, i)
		}
		if bytes.Equal(r.Data, data) {
			if keep < 0 || r.Number >= revisions[keep].Number {
				keep = i
			}
			continue
		}
		h.Old = append(h.Old, i)
		maxOld = max(maxOld, r.Number)
	}
	if maxOld == math.MaxInt64 {
		return inputError("revisions.number", field.ErrRange, "%d: the next revision number would overflow", maxOld)
	}
	next := maxOld + 1
	if keep < 0 {
		h.Current = ControllerRevision{Name: RevisionName(name, hash), Hash: hash, Number: next, Data: data}
		h.Step = HistoryCreate
		if _, taken := slices.BinarySearchFunc(order, h.Current.Name, func(i int, n string) int { return strings.Compare(revisions[i].Name, n) }); taken {
			h.Step = HistoryCollision
		}
		return nil
	}
	for _, i := range order {
		if i != keep && bytes.Equal(revisions[i].Data, data) {
			h.Duplicates = append(h.Duplicates, i)
		}
	}
	h.Existing = keep
	h.Current = revisions[keep]
	if h.Current.Hash == "" {
		h.Current.Hash = h.Current.Name
	}
	h.Step = HistoryReuse
	if h.Current.Number < next {
		h.Current.Number = next
		h.Step = HistoryRenumber
	}
	return nil
}

// HistoryToDelete returns the indices of the revisions the controller's
// history cleanup deletes, oldest first: old (indices into revisions of
// the revisions that are not current, as [History].Old) beyond limit
// (revisionHistoryLimit, nil meaning 10), sorted by number (ties by name),
// skipping those whose hash (or, without a hash label, name) is the Hash
// of one of pods (pods with a node, terminal and deleted ones included).
// Live old revisions count toward the limit although they are kept: with
// limit 2 and four old revisions of which two are live, both others go.
// Upstream: cleanupHistory, pkg/controller/daemon/update.go.
func HistoryToDelete(revisions []ControllerRevision, old []int, pods []Pod, limit *int32) []int {
	return historyToDelete(revisions, slices.Clone(old), pods, limit, nil)
}

func historyToDelete(revisions []ControllerRevision, old []int, pods []Pod, limit *int32, dst []int) []int {
	keep := DefaultRevisionHistoryLimit
	if limit != nil {
		keep = *limit
	}
	toKill := len(old) - int(keep)
	if toKill <= 0 {
		return dst
	}
	slices.SortFunc(old, func(a, b int) int {
		ra, rb := &revisions[a], &revisions[b]
		if ra.Number != rb.Number {
			if ra.Number < rb.Number {
				return -1
			}
			return 1
		}
		return strings.Compare(ra.Name, rb.Name)
	})
	for _, i := range old {
		if toKill == 0 {
			break
		}
		h := revisions[i].Hash
		if h == "" {
			h = revisions[i].Name
		}
		if live(pods, h) {
			continue
		}
		dst = append(dst, i)
		toKill--
	}
	return dst
}

// live reports whether a pod with a node carries hash.
func live(pods []Pod, hash string) bool {
	for i := range pods {
		if pods[i].Node != "" && pods[i].Hash == hash {
			return true
		}
	}
	return false
}
