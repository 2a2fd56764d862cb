package revision

import (
	"reflect"
	"sync"
)

// RegisterEqualIgnoreHash makes [EqualIgnoreHash] compare templates of
// type T with f instead of by reflection. Every caller of EqualIgnoreHash
// for T then uses f too: [FindNew], [RollbackTarget], [IsHashCollision],
// and package rollout's Plan, Planner and Simulate.
//
// It exists for speed: a comparator written for one type, typically
// generated from it, needs no reflection, and compares a realistic
// corev1 pod template several times faster. The module
// github.com/rolloutmath/rolloutmath/adapters/kubeapps registers a
// generated one for corev1.PodTemplateSpec when its kubeapps package is
// imported, and tests it against this package's reflective comparison
// and against upstream's.
//
// f must give exactly the answers EqualIgnoreHash gives without it (see
// its rules: semantic equality, the HashLabel label ignored), or every
// answer that depends on it changes. EqualIgnoreHash settles nil
// templates and a template compared with itself before calling f, so f
// is only given two distinct non-nil pointers. f must not modify or
// retain the templates, nor call EqualIgnoreHash for T, which would call
// f again.
//
// A later registration for the same T replaces f; a nil f goes back to
// the reflective comparison. Registering is safe for concurrent use, but
// is meant for an init function: a comparison that runs while f is being
// registered may use either.
func RegisterEqualIgnoreHash[T any](f func(a, b *T) bool) {
	t := reflect.TypeFor[T]()
	if f == nil {
		comparators.Delete(t)
		return
	}
	comparators.Store(t, f)
}

// comparators holds the comparators registered with
// RegisterEqualIgnoreHash: a func(a, b *T) bool for each reflect.Type T.
var comparators sync.Map

// registered returns the comparator registered for T, or nil.
func registered[T any]() func(a, b *T) bool {
	f, ok := comparators.Load(reflect.TypeFor[T]())
	if !ok {
		return nil
	}
	return f.(func(a, b *T) bool)
}
