package revision

import (
	"reflect"

	"github.com/rolloutmath/rolloutmath/revision/internal/deep"
)

// EqualsItself reports whether EqualIgnoreHash(t, c) holds for a deep copy
// c of *t: a copy that shares no pointer, slice or map with *t but keeps
// its map keys, channels, functions and unsafe pointers. A template that
// does not equal its copy never matches the ReplicaSet created from it, so
// a controller creates a ReplicaSet for it at every other sync.
//
// Under EqualIgnoreHash's rules, *t fails to equal its copy exactly when,
// in a part EqualIgnoreHash compares field by field, it holds a NaN float
// or complex number, a non-nil func, a map key holding a NaN, or a value
// whose own Equal method (called with the value as both receiver and
// argument, where EqualIgnoreHash would call it) returns false or panics
// on a value that holds one of those. A value compared with its own Equal
// method is judged by that method, and a time.Time is always equal to
// itself. Labels, annotations and other string maps always are.
//
// When ok is false, path says where the first such value is, in Go syntax
// from the template ("template.Spec.Containers[0].Weight",
// "template.Spec.Limits[\"cpu\"]", "template.Spec.Extra.(float64)",
// "template"), followed by what it is: "(NaN)", "(non-nil func)", "(NaN in
// map key)", "(Equal returns false)". A nil t equals itself. EqualsItself never panics and never
// modifies *t; like EqualIgnoreHash, it remembers the pointers it has
// visited, so shared and cyclic values cost polynomial time. It allocates.
// Upstream has no counterpart: kube-controller-manager's templates come
// from JSON, which holds no NaN and no func.
func EqualsItself[T any](t *T) (ok bool, path string) {
	if t == nil {
		return true, ""
	}
	ok, where, reason := deep.SelfEqual(reflect.ValueOf(t).Elem())
	if ok {
		return true, ""
	}
	return false, "template" + where + " (" + reason + ")"
}
