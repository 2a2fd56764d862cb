package revision

import (
	"encoding/binary"
	"reflect"
	"strconv"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
)

// Hash returns the pod-template-hash of template *t with the given
// collision count: the value kube-controller-manager puts in the
// HashLabel label and in the ReplicaSet's name (see [ReplicaSetName]).
//
// The template is rendered the way upstream's dump.ForHash renders it
// (go-spew's "%#v" with sorted map keys, methods disabled, no pointer
// addresses or capacities), the rendering is hashed with 32-bit FNV-1a,
// followed, when collisionCount is not nil, by *collisionCount as four
// little-endian bytes and four zero bytes, and the decimal digits of the
// sum are spelled in upstream's safe alphabet: 0-9 become 4-9, b, c, d, f.
// The result has 1 to 10 characters. A nil collisionCount and a count of
// 0 give different hashes.
//
// Type names are part of the hash. The rendering names every type it
// prints, with its package: a Template[PodSpec] renders as
// "revision.Template[example.com/ctl/api.PodSpec]{...}" (a generic type's
// arguments carry their full import path; a type in package main is
// "main.PodSpec" under go run and go build but is named by its import
// path inside a test binary). So renaming your spec type, or moving it
// to another package, changes the hash of every template and renames
// every ReplicaSet: the next sync sees no ReplicaSet equal to the
// template's hash and starts a rollout that changes nothing. Use
// corev1.PodTemplateSpec to get the names a cluster uses, and keep your
// own template type's name and package stable.
//
// For a corev1.PodTemplateSpec the result is byte-for-byte what
// kube-controller-manager built with the same k8s.io/api version computes:
// the rendering names every struct field, so the hash of the same template
// changes when Kubernetes adds fields. A [Template] hashes as whatever its
// rendering is. A nil t hashes as the zero T. Map keys of kinds other than
// booleans, numbers, strings and arrays sort as go-spew sorts them, except
// that String and Error methods of keys reached through unexported fields
// are not called. A map or slice that contains itself, where go-spew would
// recurse forever, renders as "<shown>" the second time.
//
// The rendering is hashed as it is produced, never held in memory. The
// template is walked by reflection. Constant pieces of the rendering
// (type names with their parentheses, field names, fields holding zero
// values) are hashed in one step each through tables cached on first
// use. Hash allocates only its result (and a zero T for a nil t), except
// for maps whose entries it cannot sort in place (keys of kinds other
// than strings, maps of more than 16 entries whose values are not
// strings, maps reached through unexported fields). The first hash of a
// template type also builds that type's cached description (the names
// and the zero values of its fields, and their tables), which stays for
// the life of the process.
//
// Shared pointers: go-spew, with the ForHash configuration, detects only
// a pointer already on the path from the root to the value it renders (a
// cycle); a value reached along k paths is rendered k times. Hash matches
// that rendering, so its time is proportional to the length of the
// rendering with every sharing undone: a value whose two branches point
// to the same value at every level renders 2^(d+1) nodes at depth d, and
// each level doubles the time (measured on a small node type: 0.5 ms at
// depth 10, 94 ms at 18, 0.4 s at 20; about 7 minutes at 30). Memory
// stays constant, as the rendering is not held. Pod templates decoded
// from the API share no pointers. [EqualIgnoreHash] does not have this
// cost.
// Upstream: controller.ComputeHash.
func Hash[T any](t *T, collisionCount *int32) string {
	var v reflect.Value
	if t == nil {
		v = reflect.New(reflect.TypeFor[T]()).Elem()
	} else {
		v = reflect.ValueOf(t).Elem()
	}
	return hashSum(deep.Hash(v), collisionCount)
}

// hashBytes is upstream's hashing pipeline applied to a rendering.
func hashBytes(rendering []byte, collisionCount *int32) string {
	return hashSum(fnvBytes(fnvOffset32, rendering), collisionCount)
}

// hashSum finishes upstream's hashing pipeline from h, the FNV-32a state
// after the rendering.
func hashSum(h uint32, collisionCount *int32) string {
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], uint32(*collisionCount))
		h = fnvBytes(h, b[:])
	}
	var digits [10]byte
	return safeEncode(strconv.AppendUint(digits[:0], uint64(h), 10))
}

// FNV-32a constants. Upstream: hash/fnv.
const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
)

// fnvBytes continues the FNV-32a state h with the bytes of b.
func fnvBytes(h uint32, b []byte) uint32 {
	for _, c := range b {
		h = (h ^ uint32(c)) * fnvPrime32
	}
	return h
}

// safeAlphabet is upstream's alphabet without vowels and look-alikes.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// safeEncode maps every byte of s to safeAlphabet[b % 27], as upstream's
// rand.SafeEncodeString does for ASCII input. Upstream: rand.SafeEncodeString.
func safeEncode(s []byte) string {
	for i, b := range s {
		s[i] = safeAlphabet[int(b)%len(safeAlphabet)]
	}
	return string(s)
}

// ControllerRevisionHash returns the hash Kubernetes' history package
// gives a ControllerRevision whose data.raw is data, when the owner's
// status.collisionCount is collisionCount (0 when unset): FNV-1 (32 bits)
// over data and then over the decimal text of collisionCount, written in
// decimal and mapped onto upstream's safe alphabet. It is the hash the
// StatefulSet controller and kruise's CloneSet controller put in a
// revision's name and in the controller-revision-hash label; data is
// the revision's patch bytes, which each engine builds. It is not Hash:
// a ReplicaSet's pod-template-hash is FNV-1a over the template's
// printed form. Upstream: history.HashControllerRevision
// (pkg/controller/history/controller_history.go).
func ControllerRevisionHash(data []byte, collisionCount int32) string {
	var buf [10]byte
	return string(AppendControllerRevisionHash(buf[:0], data, collisionCount))
}

// AppendControllerRevisionHash appends ControllerRevisionHash's text (at
// most 10 characters) to dst and returns the extended slice; it
// allocates only when dst has no room.
func AppendControllerRevisionHash(dst, data []byte, collisionCount int32) []byte {
	h := uint32(fnvOffset32)
	for _, b := range data {
		h = (h * fnvPrime32) ^ uint32(b)
	}
	var cc [11]byte
	for _, b := range strconv.AppendInt(cc[:0], int64(collisionCount), 10) {
		h = (h * fnvPrime32) ^ uint32(b)
	}
	start := len(dst)
	dst = strconv.AppendUint(dst, uint64(h), 10)
	for i := start; i < len(dst); i++ {
		dst[i] = safeAlphabet[int(dst[i])%len(safeAlphabet)]
	}
	return dst
}
