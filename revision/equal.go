package revision

import "github.com/rolloutmath/rolloutmath/revision/internal/deep"

// EqualIgnoreHash reports whether the templates *a and *b are semantically
// equal once the HashLabel label is ignored. T is the caller's template
// type (corev1.PodTemplateSpec, a [Template], or any other type); the
// comparison is by reflection and follows upstream's semantic equality:
//
//   - A nil map or slice equals an empty one (so labels that are empty
//     once the hash label is ignored equal nil labels).
//   - A nil pointer differs from a pointer to a zero value; two nil
//     pointers are equal. Slice and array order matters; map order does not.
//   - A value whose type has its own method Equal(T) bool or Equal(*T)
//     bool, with a value or pointer receiver, is compared with it, so a
//     Quantity-like "1" equals "1000m" and two time.Time or metav1.Time
//     values at the same instant are equal. Values that are identical
//     field by field are equal without calling the method. The method is
//     not used on values reached through unexported struct fields, where
//     reflection cannot call methods, nor, for a pointer receiver or
//     pointer parameter, on values that are not addressable (the dynamic
//     value of an interface). An Equal method that panics means unequal.
//   - Unexported struct fields are compared, field by field, like exported
//     ones (upstream panics on them).
//   - Floats compare with ==, so NaN differs from itself; functions are
//     equal only when both are nil; channels and unsafe pointers compare
//     by identity. A template holding a NaN or a non-nil func therefore
//     does not equal a copy of itself (though it equals itself: a == b
//     is true at once), and never matches the ReplicaSet made from it;
//     [EqualsItself] finds such values, and rollout.Plan rejects a
//     deployment whose template holds one. Remove them from the template,
//     or compare them with an Equal method of their type.
//   - Cyclic and shared values terminate in polynomial time. A pair of
//     pointers, maps or slices met again while comparing them (a cycle)
//     is taken as equal. Once a comparison has entered 128 pairs, or 16
//     nested ones, it remembers every pair it enters, and a pair met again
//     later is taken as equal too, as upstream's semantic DeepEqual does:
//     had it differed, the comparison would already have returned false.
//     A pair is told apart by its addresses, its type, a slice's length,
//     and whether it was reached through an unexported field. So values
//     that reach the same pointers along many paths (a chain whose two
//     branches point to the same value at every level) cost time in
//     proportion to the number of distinct pairs, not of paths. Not
//     seen: sharing through interface values that hold non-pointer values
//     (upstream does not see it either).
//
// The labels map is located once per type T: it is the field a.Labels,
// either direct or promoted from embedded structs (the embedded ObjectMeta
// of corev1.PodTemplateSpec), or else a.ObjectMeta.Labels; it must be a
// map from a string type to a string type, reached without passing through
// a pointer. Only that map's HashLabel entry is ignored. When T has no such
// map (T is not a struct, say), the templates are compared as they are,
// and T's own Equal method, if any, is used.
//
// A nil template equals only another nil template. EqualIgnoreHash never
// modifies or copies the templates, never panics, and does not allocate,
// except when it calls an Equal method on values that are not identical
// (reflection allocates for the call); for maps whose entries reflection
// must copy out: maps of more than 32 entries whose type is not
// map[string]string underneath (labels, annotations and selectors never
// allocate; inside the dynamic value of an interface, only the type
// map[string]string itself is exempt), and maps reached through an
// unexported field of a struct held by value in an interface; and for the
// set of pairs it remembers (see above) once a comparison enters more
// than 128 pairs of references or 16 nested ones. The first comparison of a
// template type also compiles that type's comparison (a list of steps
// over the offsets of its fields in memory) and caches it.
//
// A comparator registered for T with [RegisterEqualIgnoreHash] replaces
// the reflective comparison of two distinct non-nil templates, and its
// answer is returned as it is.
// Upstream: deploymentutil.EqualIgnoreHash.
func EqualIgnoreHash[T any](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a == b {
		return true
	}
	return equalDistinct(a, b, registered[T]())
}

// equalDistinct is EqualIgnoreHash for two distinct non-nil templates,
// with f, the comparator registered for T or nil. A caller that compares
// many templates looks f up once.
func equalDistinct[T any](a, b *T, f func(a, b *T) bool) bool {
	if f != nil {
		return f(a, b)
	}
	return deep.Equal(a, b, HashLabel)
}
