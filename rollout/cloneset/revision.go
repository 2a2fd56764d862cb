package cloneset

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

// ControllerRevision is one ControllerRevision of a CloneSet as this
// package reads it: the fields kruise's revision handling looks at.
type ControllerRevision struct {
	// Name is metadata.name, normally "<cloneset>-<hash>" (see
	// [RevisionName]). Names must be unique within a list.
	Name string `json:"name"`
	// Number is the revision field: 1 for the first revision, and one more
	// than the highest existing one for each new template.
	Number int64 `json:"number"`
	// CreatedUnixNano is metadata.creationTimestamp in nanoseconds since the
	// Unix epoch (0 when unknown). It only breaks ties between equal
	// Numbers when revisions are sorted.
	CreatedUnixNano int64 `json:"createdUnixNano,omitempty"`
	// Data is data.raw, the bytes kruise recorded: see [RevisionData]. Two
	// revisions are equal exactly when their Data bytes are equal.
	Data []byte `json:"data,omitempty"`
}

// RevisionData returns the Data kruise records in a CloneSet's
// ControllerRevision, given template, the JSON encoding of the CloneSet's
// spec.template (for a corev1.PodTemplateSpec, what encoding/json.Marshal
// returns; the webhook's defaults must already be in it, as they are in
// the stored object).
//
// The result is the JSON object {"spec":{"template":T}} where T is the
// template decoded into untyped values and encoded again by encoding/json,
// with the extra key "$patch":"replace" inside the template: object keys
// sorted, numbers written as float64 values (so integers beyond 2^53 lose
// precision exactly as they do in kruise), and <, > and & escaped. These
// bytes are what [HashRevision] hashes and what [CalculateInPlaceUpdate]
// compares; the hash of a template changes with every byte, so callers
// must feed in the template as stored, defaults included. One trap:
// kruise v1.9.1 encodes with apimachinery v0.32, which writes a zero
// metadata.creationTimestamp as null; with k8s.io/apimachinery v0.33 or
// later, encoding/json omits it (omitzero), and a caller must put
// "creationTimestamp":null back into metadata to get kruise's bytes.
//
// Only the template is recorded: replicas, strategies and the CloneSet's
// own labels and annotations never make a new revision. template must
// be a JSON object; anything else is an *field.Error (wrapping field.ErrInvalid),
// and the data is nil.
// Upstream: the CloneSet revision control's getPatch (kruise
// pkg/controller/cloneset/revision) with the core control's
// SetRevisionTemplate.
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

// HashRevision returns the hash kruise gives a ControllerRevision holding
// data when the CloneSet's collision count is collisionCount: the part of
// the revision name after the last '-', also written to the revision's
// controller.kubernetes.io/hash label and to pods' pod-template-hash label.
//
// The hash is 32-bit FNV-1 (not FNV-1a) over data followed by the
// decimal digits of collisionCount ("0" for a CloneSet that never had a
// collision, "-1" for a negative count); the sum is written in decimal
// and each digit is spelled in Kubernetes' safe alphabet (0-9 become 4, 5,
// 6, 7, 8, 9, b, c, d, f). The result has 1 to 10 characters.
// Kruise always passes a collision count (status.collisionCount, or 0), so
// this function has no form without one. HashRevision allocates only its
// result.
// Upstream: history.HashControllerRevision with rand.SafeEncodeString.
func HashRevision(data []byte, collisionCount int32) string {
	return revision.ControllerRevisionHash(data, collisionCount)
}

// safeAlphabet is Kubernetes' alphabet for encoded hashes, without vowels
// and look-alike characters.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxRevisionPrefix is the longest CloneSet name prefix a revision name
// keeps, so that "<prefix>-<hash>" fits the 253 characters of a name.
const maxRevisionPrefix = 223

// RevisionName returns the name of the ControllerRevision with hash hash
// for the CloneSet named cloneSet: "<cloneSet>-<hash>", with cloneSet cut
// to its first 223 bytes. Pods carry this full name in their
// controller-revision-hash label (kruise's CloneSetShortHash gate writes
// the hash alone instead; both match, see [IsPodAtRevision]).
// Upstream: history.ControllerRevisionName.
func RevisionName(cloneSet, hash string) string {
	if len(cloneSet) > maxRevisionPrefix {
		cloneSet = cloneSet[:maxRevisionPrefix]
	}
	return cloneSet + "-" + hash
}

// NewRevision returns the ControllerRevision kruise creates for a CloneSet
// named cloneSet whose spec.template is template, with revision number
// number, when the CloneSet's collision count is collisionCount
// (status.collisionCount, 0 when unset): Data is the [RevisionData] of
// template encoded with encoding/json (as [Plan] encodes
// CloneSet.Template), and Name is [RevisionName] of cloneSet and
// [HashRevision] of that data. CreatedUnixNano is 0: the API server sets
// the creation time. It is the three calls in one; the bytes and the hash
// carry the caveats RevisionData gives (defaults and creationTimestamp
// must be in template as stored). number is taken as given ([ActiveRevisions]
// says which number kruise picks).
//
// A template that encoding/json cannot encode, or that does not encode to
// a JSON object, is an *field.Error (wrapping field.ErrInvalid) on
// spec.template, and the revision is the zero value.
// Upstream: realControl.NewRevision (kruise
// pkg/controller/cloneset/revision/cloneset_revision.go) with
// history.NewControllerRevision.
func NewRevision[T any](cloneSet string, template T, number int64, collisionCount int32) (ControllerRevision, error) {
	tmpl, err := json.Marshal(template)
	if err != nil {
		return ControllerRevision{}, inputError("spec.template", "encoding: %v", err)
	}
	data, err := RevisionData(tmpl)
	if err != nil {
		return ControllerRevision{}, err
	}
	return ControllerRevision{
		Name:   RevisionName(cloneSet, HashRevision(data, collisionCount)),
		Number: number,
		Data:   data,
	}, nil
}

// UpdateRevisionAction says what kruise does to its revision history to
// obtain the update revision of a reconcile.
type UpdateRevisionAction uint8

const (
	// ReuseLatest: the newest revision already holds the template; nothing
	// is written.
	ReuseLatest UpdateRevisionAction = iota + 1
	// Renumber: an older revision holds the template (a rollback); it gets
	// the next revision number and keeps its name.
	Renumber
	// CreateRevision: no revision holds the template; a new one is created
	// with the next revision number.
	CreateRevision
)

// String returns the action's name.
func (a UpdateRevisionAction) String() string {
	switch a {
	case ReuseLatest:
		return "ReuseLatest"
	case Renumber:
		return "Renumber"
	case CreateRevision:
		return "CreateRevision"
	}
	return "UpdateRevisionAction(" + strconv.Itoa(int(a)) + ")"
}

// ActiveRevisionsResult is the outcome of [ActiveRevisions].
type ActiveRevisionsResult struct {
	// Update is the update revision as the reconcile leaves it: Name,
	// Number and Data (CreatedUnixNano is the existing revision's, or 0
	// for a new one).
	Update ControllerRevision `json:"update"`
	// Action is what happens to the history to get Update.
	Action UpdateRevisionAction `json:"action"`
	// Existing is the index in the input of the revision reused or
	// renumbered, or -1 when Action is CreateRevision.
	Existing int `json:"existing"`
	// Current is the name of the current revision: status.currentRevision
	// when a revision of that name exists, else Update.Name.
	Current string `json:"current"`
	// CollisionCount is the collision count after the reconcile: the input
	// count, plus one for every name clash met while creating the revision.
	CollisionCount int32 `json:"collisionCount,omitempty"`
}

// ActiveRevisions returns the current and update revisions one kruise
// reconcile works with, given the CloneSet's name, its ControllerRevisions
// (in any order), data, the [RevisionData] of its spec.template,
// status.currentRevision and status.collisionCount (0 when unset).
//
// The revisions are sorted by Number, then creation time, then name (see
// [SortRevisions]). If revisions whose Data equals data exist, the newest
// of them is the update revision: reused as is when it is also the newest
// revision overall (ReuseLatest), else renumbered to the next number
// (Renumber; a rollback keeps the old name). Otherwise a revision named
// RevisionName(cloneSet, HashRevision(data, collisionCount)) is created
// with the next number (CreateRevision); while that name is taken by a
// revision with other data, the collision count goes up by one and the
// hash is taken again. The next number is the highest Number plus one (1
// for an empty history).
//
// Kruise detects a name clash by asking the API server, which also knows
// revisions this CloneSet does not own; this function sees only the list it
// is given. The volumeClaimTemplates hash annotation kruise refreshes on a
// renumbered revision is not modelled.
//
// Errors (*field.Error wrapping field.ErrInvalid; the result is then the zero value):
// an empty or duplicate revision name, a Number at math.MaxInt64 (the next
// number would overflow), and a collision count that would pass
// math.MaxInt32. revisions is not modified.
// Upstream: ReconcileCloneSet.getActiveRevisions with
// history.FindEqualRevisions and realHistory.CreateControllerRevision.
func ActiveRevisions(cloneSet string, revisions []ControllerRevision, data []byte, currentRevision string, collisionCount int32) (ActiveRevisionsResult, error) {
	order, err := sortRevisions(revisions)
	if err != nil {
		return ActiveRevisionsResult{}, err
	}
	return activeRevisions(cloneSet, revisions, order, data, currentRevision, collisionCount)
}

// activeRevisions is ActiveRevisions with revisions already checked and
// sorted (order, from sortRevisions).
func activeRevisions(cloneSet string, revisions []ControllerRevision, order []int, data []byte, currentRevision string, collisionCount int32) (ActiveRevisionsResult, error) {
	next := int64(1)
	if len(order) > 0 {
		last := revisions[order[len(order)-1]].Number
		if last == math.MaxInt64 {
			return ActiveRevisionsResult{}, inputError("revisions["+strconv.Itoa(order[len(order)-1])+"].number", "%d: the next revision number would overflow", last)
		}
		next = last + 1
	}
	res := ActiveRevisionsResult{Existing: -1, CollisionCount: collisionCount}
	equal := -1
	for _, i := range order {
		if bytes.Equal(revisions[i].Data, data) {
			equal = i
		}
	}
	switch {
	case equal >= 0 && equal == order[len(order)-1]:
		res.Action, res.Existing, res.Update = ReuseLatest, equal, revisions[equal]
	case equal >= 0:
		res.Action, res.Existing, res.Update = Renumber, equal, revisions[equal]
		res.Update.Number = next
	default:
		res.Action = CreateRevision
		byName := make(map[string]int, len(revisions))
		for i := range revisions {
			byName[revisions[i].Name] = i
		}
		for {
			name := RevisionName(cloneSet, HashRevision(data, res.CollisionCount))
			i, taken := byName[name]
			if !taken {
				res.Update = ControllerRevision{Name: name, Number: next, Data: data}
				break
			}
			if bytes.Equal(revisions[i].Data, data) {
				// Unreachable: an equal revision would have been found above.
				res.Action, res.Existing, res.Update = ReuseLatest, i, revisions[i]
				break
			}
			if res.CollisionCount == math.MaxInt32 {
				return ActiveRevisionsResult{}, inputError("status.collisionCount", "would pass %d", math.MaxInt32)
			}
			res.CollisionCount++
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

// CurrentRevisionAfter returns status.currentRevision as the status step of
// a reconcile writes it: update when every active pod is at the update
// revision and their number equals spec.replicas (updated ==
// statusReplicas == specReplicas), else current. Readiness is not
// required. The counts are those of the pods listed at the start of the
// reconcile: statusReplicas is the number of active pods and updated the
// number of them at the update revision. [CalculateStatus] calls it once
// it has counted the pods; call it directly when you have the counts.
// Upstream: ReconcileCloneSet.calculateStatus.
func CurrentRevisionAfter(current, update string, specReplicas, statusReplicas, updated int32) string {
	if updated == statusReplicas && statusReplicas == specReplicas {
		return update
	}
	return current
}

// SortRevisions returns the indices of revisions in kruise's history order:
// by Number, then by creation time (earlier first), then by name. Names
// are unique (else an *field.Error wrapping field.ErrInvalid), so the order is
// total and does not depend on the input order. revisions is not
// modified.
// Upstream: history.SortControllerRevisions.
func SortRevisions(revisions []ControllerRevision) ([]int, error) {
	return sortRevisions(revisions)
}

func sortRevisions(revisions []ControllerRevision) ([]int, error) {
	return sortRevisionsInto(nil, revisions)
}

// sortRevisionsInto is sortRevisions writing the order into dst's memory
// when it has room.
func sortRevisionsInto(dst []int, revisions []ControllerRevision) ([]int, error) {
	seen := make(map[string]struct{}, len(revisions))
	for i := range revisions {
		name := revisions[i].Name
		if name == "" {
			return nil, inputError("revisions["+strconv.Itoa(i)+"].name", "must not be empty")
		}
		if _, dup := seen[name]; dup {
			return nil, inputError("revisions["+strconv.Itoa(i)+"].name", "duplicate name %q", name)
		}
		seen[name] = struct{}{}
	}
	order := dst[:0]
	for i := range revisions {
		order = append(order, i)
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
	return order, nil
}
