package deep

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// SelfEqual reports whether the addressable value v equals a deep copy of
// itself by Equal's rules, as revision.EqualsItself documents: when v's
// type has a labels map, v is compared field by field, without its own
// Equal method. When ok is false, path says where the first value that
// does not is, in Go syntax from v (".Spec.Limits[\"cpu\"]", "" for v
// itself), and reason what it is ("NaN", "non-nil func", "NaN in map key",
// "Equal returns false").
func SelfEqual(v reflect.Value) (ok bool, path, reason string) {
	ti := infoOf(v.Type())
	var s selfWalker
	if ti.labels != nil {
		// Equal compares such a value field by field, without calling its
		// own Equal method.
		ok = s.fields(v, ti)
	} else {
		ok = s.check(v, ti)
	}
	if ok {
		return true, "", ""
	}
	slices.Reverse(s.path)
	return false, strings.Join(s.path, ""), s.reason
}

// selfVisit is a pointer, slice or map the selfWalker has visited: its
// address, type, and a tag as in visit (a slice's length and whether the
// value was reached through an unexported field).
type selfVisit struct {
	p   uintptr
	t   *typeInfo
	tag uint
}

// selfWalker checks that a value equals a deep copy of itself, with the
// rules of walker (strict: those of an identity check).
type selfWalker struct {
	strict bool
	seen   map[selfVisit]struct{}

	// path holds the steps from the value found up to the root, in
	// reverse; reason says what the value is.
	path   []string
	reason string
}

// enter reports whether v needs checking, and records it: a value met
// again is either being checked higher up (a cycle) or was found equal to
// itself, for a false would have ended the walk.
func (s *selfWalker) enter(p uintptr, t *typeInfo, tag uint) bool {
	if s.seen == nil {
		s.seen = map[selfVisit]struct{}{}
	}
	k := selfVisit{p, t, tag}
	if _, ok := s.seen[k]; ok {
		return false
	}
	s.seen[k] = struct{}{}
	return true
}

// fail records why the value checked does not equal itself.
func (s *selfWalker) fail(reason string) bool {
	s.reason = reason
	return false
}

// check reports whether v, of the type described by ti, equals a deep copy
// of itself, as walker.equal would compare them.
func (s *selfWalker) check(v reflect.Value, ti *typeInfo) bool {
	if !s.strict {
		if ti.isTime && v.CanAddr() && v.CanInterface() {
			return true
		}
		if ti.equal.call != noEqual {
			if equal, called := s.callEqual(v, ti); called {
				return equal || s.fail("Equal returns false")
			}
		}
	}
	switch ti.kind {
	case reflect.Float32, reflect.Float64:
		return !math.IsNaN(v.Float()) || s.fail("NaN")
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return !math.IsNaN(real(c)) && !math.IsNaN(imag(c)) || s.fail("NaN")
	case reflect.Func:
		return v.IsNil() || s.fail("non-nil func")
	case reflect.Interface:
		if v.IsNil() {
			return true
		}
		e := v.Elem()
		if !s.check(e, infoOf(e.Type())) {
			s.path = append(s.path, ".("+e.Type().String()+")")
			return false
		}
		return true
	case reflect.Pointer:
		if v.IsNil() || !s.enter(v.Pointer(), ti, selfTag(v, 0)) {
			return true
		}
		return s.check(v.Elem(), ti.elem)
	case reflect.Array:
		return s.elems(v, ti)
	case reflect.Slice:
		if v.Len() == 0 || !s.enter(v.Pointer(), ti, selfTag(v, v.Len())) {
			return true
		}
		return s.elems(v, ti)
	case reflect.Map:
		return s.checkMap(v, ti)
	case reflect.Struct:
		return s.fields(v, ti)
	}
	return true // strings, booleans, integers, channels, unsafe pointers
}

// selfTag is visit's tag for v, n elements long.
func selfTag(v reflect.Value, n int) uint {
	tag := uint(n) << 1
	if !v.CanInterface() {
		tag |= 1
	}
	return tag
}

// elems checks the elements of array or slice v.
func (s *selfWalker) elems(v reflect.Value, ti *typeInfo) bool {
	for i := range v.Len() {
		if !s.check(v.Index(i), ti.elem) {
			s.path = append(s.path, "["+strconv.Itoa(i)+"]")
			return false
		}
	}
	return true
}

// fields checks the fields of struct v.
func (s *selfWalker) fields(v reflect.Value, ti *typeInfo) bool {
	for i, fi := range ti.fields {
		if !s.check(v.Field(i), fi) {
			s.path = append(s.path, "."+v.Type().Field(i).Name)
			return false
		}
	}
	return true
}

// checkMap checks map v as compareMap would compare it with a copy: every
// key must be found again (a key holding a NaN is not), and every value
// must equal itself, read as compareMap reads it (addressable copies for
// the small maps it can read, map values otherwise).
func (s *selfWalker) checkMap(v reflect.Value, ti *typeInfo) bool {
	if v.Len() == 0 || !s.enter(v.Pointer(), ti, selfTag(v, 0)) {
		return true
	}
	addressable := v.CanInterface() && v.Len() <= smallMap
	var elem reflect.Value
	if addressable {
		elem = reflect.New(v.Type().Elem()).Elem()
	}
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		if hasNaN(k) {
			s.path = append(s.path, "["+keyString(k)+"]")
			return s.fail("NaN in map key")
		}
		e := it.Value()
		if addressable {
			elem.SetIterValue(it)
			e = elem
		}
		if !s.check(e, ti.elem) {
			s.path = append(s.path, "["+keyString(k)+"]")
			return false
		}
	}
	return true
}

// hasNaN reports whether map key k holds a NaN, which makes it unequal to
// itself (reflect.Value.Equal and map lookups compare floats with ==).
func hasNaN(k reflect.Value) bool {
	switch k.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.IsNaN(k.Float())
	case reflect.Complex64, reflect.Complex128:
		c := k.Complex()
		return math.IsNaN(real(c)) || math.IsNaN(imag(c))
	case reflect.Interface:
		return !k.IsNil() && hasNaN(k.Elem())
	case reflect.Array:
		for i := range k.Len() {
			if hasNaN(k.Index(i)) {
				return true
			}
		}
	case reflect.Struct:
		for i := range k.NumField() {
			if hasNaN(k.Field(i)) {
				return true
			}
		}
	}
	return false
}

// keyString spells map key k for a path: quoted if it is a string.
func keyString(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return strconv.Quote(k.String())
	}
	return fmt.Sprint(k)
}

// callEqual is what Equal does with an Equal method (see
// opMethod), for a value and its copy: they are identical unless v holds
// something an identity check finds unequal to itself, and then v's Equal
// method is called with v as receiver and argument. called is false when
// Equal could not call the method on v.
func (s *selfWalker) callEqual(v reflect.Value, ti *typeInfo) (equal, called bool) {
	m := ti.equal
	if (m.call == pointerEqual || m.argPointer) && !v.CanAddr() || !v.CanInterface() {
		return false, false
	}
	identical := selfWalker{strict: true}
	if identical.check(v, ti) {
		return true, true
	}
	return invokeEqual(m, v, v), true
}
