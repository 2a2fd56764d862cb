package argo

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
)

// PodTemplateHash returns the pod-template hash Argo gives template
// when status.collisionCount is collisionCount (nil when unset): FNV-1a
// (32 bits) over the template's encoding/json form, then, if
// collisionCount is set, over its 4 little-endian bytes and 4 zero
// bytes, written in decimal and mapped onto Kubernetes' safe alphabet.
// For a corev1.PodTemplateSpec this is exactly Argo's hash; for another
// T it is the hash of that T's JSON. An error is returned only when T
// does not encode (a *field.Error naming spec.template).
// Upstream: ComputePodTemplateHash, utils/hash/hash.go.
func PodTemplateHash[T any](template *T, collisionCount *int32) (string, error) {
	data, err := json.Marshal(template)
	if err != nil {
		return "", &field.Error{Prefix: "argo", Field: "spec.template", Detail: "encoding: " + err.Error()}
	}
	return hashBytes(data, collisionCount), nil
}

// hashBytes is FNV-1a over data and the collision count's 8 bytes,
// safe-encoded.
func hashBytes(data []byte, collisionCount *int32) string {
	const offset, prime = 2166136261, 16777619
	h := uint32(offset)
	for _, b := range data {
		h = (h ^ uint32(b)) * prime
	}
	if collisionCount != nil {
		var buf [8]byte
		binary.LittleEndian.PutUint32(buf[:], uint32(*collisionCount))
		for _, b := range buf {
			h = (h ^ uint32(b)) * prime
		}
	}
	var num [10]byte
	s := strconv.AppendUint(num[:0], uint64(h), 10)
	return safeEncode(s)
}

// safeAlphabet is Kubernetes' alphabet without vowels and look-alikes.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// safeEncode maps every byte to safeAlphabet. Upstream: rand.SafeEncodeString.
func safeEncode(s []byte) string {
	for i, b := range s {
		s[i] = safeAlphabet[int(b)%len(safeAlphabet)]
	}
	return string(s)
}

// StepsHash returns the hash Argo records in status.currentStepHash for
// a canary's steps: FNV-1a over the steps' JSON, safe-encoded; "" for a
// Rollout that is not a canary. The JSON of SetWeight, Pause and
// SetCanaryScale steps is Argo's byte for byte; the other kinds are
// hashed as written (compacted), which equals Argo's when the manifest
// lists their fields in Argo's order with no defaulted field left out.
// Upstream: ComputeStepHash, utils/conditions/conditions.go.
func StepsHash[T any](ro *Rollout[T]) string {
	if ro.Strategy.BlueGreen != nil || ro.Strategy.Canary == nil {
		return ""
	}
	steps := ro.Strategy.Canary.Steps
	data, err := json.Marshal(steps)
	if err != nil {
		// Only a RawMessage that is not JSON fails; Plan rejects those.
		data = nil
	}
	if steps == nil {
		data = []byte("null")
	}
	return hashBytes(data, nil)
}

// NewReplicas returns the spec.replicas the new ReplicaSet should have.
// Blue-green: replicas, except previewReplicaCount before promotion
// (while the active ReplicaSet is another one, no promoteFull, and
// either the new ReplicaSet is not yet status.currentPodHash or the
// preview check point has not passed or the rollout is paused).
// Canary: the new count of BasicCanaryCounts (others: all but new and
// stable) or TrafficRoutedCanaryCounts with weights. all holds every
// ReplicaSet of the Rollout, newRS included; newRS must not be nil.
// Upstream: NewRSNewReplicas, utils/replicaset/replicaset.go.
func NewReplicas[T any](ro *Rollout[T], all []*ReplicaSet[T], newRS *ReplicaSet[T], weights *Weights) int32 {
	r := ReplicasOrDefault(ro.Replicas)
	if b := ro.Strategy.BlueGreen; b != nil {
		if b.PreviewReplicaCount == nil {
			return r
		}
		active := byHash(all, ro.Status.BlueGreen.ActiveSelector)
		if active == nil || newRS == nil || active.Name == newRS.Name || ro.Status.PromoteFull {
			return r
		}
		if newRS.PodTemplateHash != ro.Status.CurrentPodHash {
			return *b.PreviewReplicaCount
		}
		if !ro.Paused && len(ro.Status.PauseConditions) == 0 && ro.Status.BlueGreen.ScaleUpPreviewCheckPoint {
			return r
		}
		return *b.PreviewReplicaCount
	}
	if c := ro.Strategy.Canary; c != nil {
		stable := StableReplicaSet(ro, newRS, all)
		if c.TrafficRouting == nil {
			var buf [8]*ReplicaSet[T]
			others := OtherReplicaSets(buf[:0], newRS, stable, all)
			n, _ := BasicCanaryCounts(ro, newRS, stable, others)
			return n
		}
		n, _ := TrafficRoutedCanaryCounts(ro, newRS, stable, weights)
		return n
	}
	return 0
}

// byHash returns the ReplicaSet whose pod-template hash is hash, or nil
// ("" matches none). Upstream: GetReplicaSetByTemplateHash.
func byHash[T any](all []*ReplicaSet[T], hash string) *ReplicaSet[T] {
	if hash == "" {
		return nil
	}
	for _, rs := range all {
		if rs != nil && rs.PodTemplateHash == hash {
			return rs
		}
	}
	return nil
}

// StableReplicaSet returns the ReplicaSet whose pod-template hash is
// status.stableRS (newRS itself when it is), or nil.
// Upstream: GetStableRS, utils/replicaset/canary.go.
func StableReplicaSet[T any](ro *Rollout[T], newRS *ReplicaSet[T], all []*ReplicaSet[T]) *ReplicaSet[T] {
	if ro.Status.StableRS == "" {
		return nil
	}
	if newRS != nil && newRS.PodTemplateHash == ro.Status.StableRS {
		return newRS
	}
	return byHash(all, ro.Status.StableRS)
}

// OtherReplicaSets appends to dst the ReplicaSets of all that are
// neither newRS nor stableRS (by name), in all's order, and returns it.
// Upstream: GetOtherRSs, utils/replicaset/canary.go.
func OtherReplicaSets[T any](dst []*ReplicaSet[T], newRS, stableRS *ReplicaSet[T], all []*ReplicaSet[T]) []*ReplicaSet[T] {
	for _, rs := range all {
		if rs == nil || (stableRS != nil && rs.Name == stableRS.Name) || (newRS != nil && rs.Name == newRS.Name) {
			continue
		}
		dst = append(dst, rs)
	}
	return dst
}

// newestFirst sorts rss by revision, newest first, as Argo sorts old
// ReplicaSets before scaling them down (sort.Reverse of
// ReplicaSetsByRevisionNumber): higher revision first; equal revisions,
// the later creation first. A ReplicaSet without a revision (0) sorts
// after those with one. Remaining ties (same revision and creation
// time) go by name, descending, so that the order never depends on
// the input's — where upstream's sort would keep an order that depends
// on the informer's listing.
func newestFirst[T any](rss []*ReplicaSet[T]) {
	slices.SortFunc(rss, func(a, b *ReplicaSet[T]) int {
		if a.Revision != b.Revision {
			return cmp.Compare(b.Revision, a.Revision)
		}
		if c := b.CreationTime.Compare(a.CreationTime); c != 0 {
			return c
		}
		return cmp.Compare(b.Name, a.Name)
	})
}

// byCreation sorts rss oldest first, ties by name: Argo's
// ReplicaSetsByCreationTimestamp (which breaks ties by name too).
func byCreation[T any](rss []*ReplicaSet[T]) {
	slices.SortFunc(rss, func(a, b *ReplicaSet[T]) int {
		if c := a.CreationTime.Compare(b.CreationTime); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}

// deadline reads rs's scale-down-deadline: has reports whether the
// annotation is set; ok whether it parses (RFC 3339).
func deadline[T any](rs *ReplicaSet[T]) (t time.Time, has, ok bool) {
	if rs.ScaleDownDeadline == "" {
		return time.Time{}, false, false
	}
	t, err := time.Parse(time.RFC3339, rs.ScaleDownDeadline)
	return t, true, err == nil
}

// FormatDeadline writes t as Argo writes a scale-down-deadline: UTC,
// RFC 3339, whole seconds.
func FormatDeadline(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}
