package revision

import (
	"encoding/binary"
	"hash/fnv"
	"reflect"
	"strconv"
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
// For a corev1.PodTemplateSpec the result is byte-for-byte what
// kube-controller-manager built with the same k8s.io/api version computes:
// the rendering names every struct field, so the hash of the same template
// changes when Kubernetes adds fields. A [Template] hashes as whatever its
// rendering is. A nil t hashes as the zero T. Map keys of kinds other than
// booleans, numbers, strings and arrays sort as go-spew sorts them, except
// that String and Error methods of keys reached through unexported fields
// are not called. A map or slice that contains itself, where go-spew would
// recurse forever, renders as "<shown>" the second time.
// Upstream: controller.ComputeHash.
func Hash[T any](t *T, collisionCount *int32) string {
	var v reflect.Value
	if t == nil {
		v = reflect.New(reflect.TypeFor[T]()).Elem()
	} else {
		v = reflect.ValueOf(t).Elem()
	}
	return hashBytes(dump(v), collisionCount)
}

// hashBytes is upstream's hashing pipeline applied to a rendering.
func hashBytes(rendering []byte, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write(rendering)
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], uint32(*collisionCount))
		h.Write(b[:])
	}
	return safeEncode(strconv.AppendUint(nil, uint64(h.Sum32()), 10))
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
