package conformance

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	_ "github.com/rolloutmath/rolloutmath/adapters/kubeapps" // registers the generated comparator
	"github.com/rolloutmath/rolloutmath/revision"
)

// reflectiveTemplate holds a corev1 template in a type of its own, for
// which no comparator is registered: revision.EqualIgnoreHash compares it
// by reflection, exactly as it compares a corev1.PodTemplateSpec when
// nothing is registered (the labels are found through the embedding, and
// the wrapper adds no field).
type reflectiveTemplate struct {
	corev1.PodTemplateSpec
}

// TestGeneratedEqualIgnoreHashMatchesReflectionAndUpstream compares the
// comparator kubeapps generates and registers for corev1.PodTemplateSpec
// with revision's reflective comparison and with upstream's
// EqualIgnoreHash, on templates where every field of every type reachable
// from corev1.PodTemplateSpec may be set (not only those the model-based
// generators set), against copies changed in a few random places: some
// changes keep the meaning (nil made empty, a quantity respelled, a time
// in another zone, a value copied to new memory, the hash label set),
// others change it.
func TestGeneratedEqualIgnoreHashMatchesReflectionAndUpstream(t *testing.T) {
	var equal, unequal int
	check := func(t *rapid.T, a, b corev1.PodTemplateSpec, edits []string) {
		if rapid.IntRange(0, 2).Draw(t, "hashLabel") == 0 {
			if b.Labels == nil {
				b.Labels = map[string]string{}
			}
			b.Labels[revision.HashLabel] = "5d4c8f7b9"
			edits = append(edits, "b.Labels: hash label set")
		}
		generated := revision.EqualIgnoreHash(&a, &b)
		wa, wb := reflectiveTemplate{a}, reflectiveTemplate{b}
		reflective := revision.EqualIgnoreHash(&wa, &wb)
		upstream := deploymentutil.EqualIgnoreHash(&a, &b)
		if generated != reflective || generated != upstream {
			t.Fatalf("generated comparator %v, reflection %v, upstream %v after the edits\n%s",
				generated, reflective, upstream, strings.Join(edits, "\n"))
		}
		if back := revision.EqualIgnoreHash(&b, &a); back != generated {
			t.Fatalf("generated comparator not symmetric: %v, %v the other way", generated, back)
		}
		if generated {
			equal++
		} else {
			unequal++
		}
		count("EqualIgnoreHash (generated)", "agree")
	}
	rapid.Check(t, func(t *rapid.T) {
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		random := func() (a corev1.PodTemplateSpec) {
			reflect.ValueOf(&a).Elem().Set(randomValue(r, reflect.TypeFor[corev1.PodTemplateSpec](), 0))
			return a
		}
		// Most paths of the type are deep and rarely set at random: reach
		// a few of them, and change b there and only there.
		for i := range 3 {
			p := templatePaths[rapid.IntRange(0, len(templatePaths)-1).Draw(t, fmt.Sprint("path", i))]
			a := random()
			reach(r, reflect.ValueOf(&a).Elem(), p.steps)
			b := *a.DeepCopy()
			how := edit(r, reach(r, reflect.ValueOf(&b).Elem(), p.steps))
			check(t, a, b, []string{"b" + p.name + ": " + how})
		}
		// Then a copy changed in random places, or in none.
		a := random()
		var b corev1.PodTemplateSpec
		if r.IntN(4) == 0 {
			b = a // shares every map, slice and pointer with a
		} else {
			b = *a.DeepCopy()
		}
		var edits []string
		for range r.IntN(4) {
			spots := editable(reflect.ValueOf(&b).Elem(), "b", nil)
			s := spots[r.IntN(len(spots))]
			edits = append(edits, s.path+": "+edit(r, s.v))
		}
		check(t, a, b, edits)
	})
	t.Logf("%d equal pairs, %d unequal; %d paths into the template", equal, unequal, len(templatePaths))
	if equal == 0 || unequal == 0 {
		t.Fatalf("the pairs were not varied enough: %d equal, %d unequal", equal, unequal)
	}
}

// A typePath leads from a template to one of its parts: through struct
// fields (their indexes), pointers (-1) and the first element of slices
// and arrays (-2). name spells it.
type typePath struct {
	name  string
	steps []int
}

const (
	stepPointee = -1
	stepFirst   = -2
)

// templatePaths are the paths to every part of corev1.PodTemplateSpec
// that edit changes, each struct, pointer and slice followed once.
var templatePaths = typePaths(reflect.TypeFor[corev1.PodTemplateSpec](), typePath{}, nil)

// typePaths appends to paths the paths from a value of type t, reached by
// at, to the parts of it edit changes, at itself included.
func typePaths(t reflect.Type, at typePath, paths []typePath) []typePath {
	with := func(name string, step int) typePath {
		return typePath{at.name + name, append(append([]int(nil), at.steps...), step)}
	}
	if t == quantityType || t == timeType {
		return append(paths, at)
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				paths = typePaths(f.Type, with("."+f.Name, i), paths)
			}
		}
		return paths
	case reflect.Array:
		return typePaths(t.Elem(), with("[0]", stepFirst), paths)
	case reflect.Pointer:
		return typePaths(t.Elem(), with("(*)", stepPointee), append(paths, at))
	case reflect.Slice:
		return typePaths(t.Elem(), with("[0]", stepFirst), append(paths, at))
	}
	return append(paths, at)
}

// reach follows steps from the settable value v, making nil pointers and
// empty slices on the way hold a random value, and returns the part
// reached.
func reach(r *rand.Rand, v reflect.Value, steps []int) reflect.Value {
	for _, s := range steps {
		switch s {
		case stepPointee:
			if v.IsNil() {
				p := reflect.New(v.Type().Elem())
				p.Elem().Set(randomValue(r, v.Type().Elem(), maxRandomDepth-1))
				v.Set(p)
			}
			v = v.Elem()
		case stepFirst:
			if v.Kind() == reflect.Slice && v.Len() == 0 {
				e := reflect.MakeSlice(v.Type(), 1, 1)
				e.Index(0).Set(randomValue(r, v.Type().Elem(), maxRandomDepth-1))
				v.Set(e)
			}
			v = v.Index(0)
		default:
			v = v.Field(s)
		}
	}
	return v
}

// Pools of the random values: few, so that independent draws often agree.
var (
	randomStrings    = []string{"", "a", "b", "web"}
	randomKeys       = []string{"a", "b", "cpu", "memory"}
	randomQuantities = []string{"0", "1", "1000m", "250m", "0.25", "128Mi", "134217728", "2"}
	randomInstants   = []time.Time{{}, time.Unix(0, 0), time.Unix(3600, 0), time.Unix(3600, 5)}
)

// maxRandomDepth bounds the nesting of random values.
const maxRandomDepth = 7

var (
	quantityType = reflect.TypeFor[resource.Quantity]()
	timeType     = reflect.TypeFor[metav1.Time]()
)

// randomQuantity returns a quantity from the pool, in a representation of
// its own (parsed anew).
func randomQuantity(r *rand.Rand) resource.Quantity {
	return resource.MustParse(randomQuantities[r.IntN(len(randomQuantities))])
}

// randomTime returns an instant of the pool in a random zone.
func randomTime(r *rand.Rand) metav1.Time {
	return metav1.NewTime(randomInstants[r.IntN(len(randomInstants))].In(zones[r.IntN(len(zones))]))
}

// randomValue returns a random value of type t, nested depth deep:
// exported struct fields set or left zero at random, pointers nil or not,
// maps and slices nil, empty or with an entry or two.
func randomValue(r *rand.Rand, t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t {
	case quantityType:
		v.Set(reflect.ValueOf(randomQuantity(r)))
		return v
	case timeType:
		v.Set(reflect.ValueOf(randomTime(r)))
		return v
	}
	deeper := depth < maxRandomDepth
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.IntN(3)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(r.IntN(3)))
	case reflect.String:
		v.SetString(randomStrings[r.IntN(len(randomStrings))])
	case reflect.Pointer:
		if deeper && r.IntN(10) < 3 {
			p := reflect.New(t.Elem())
			p.Elem().Set(randomValue(r, t.Elem(), depth+1))
			v.Set(p)
		}
	case reflect.Slice:
		switch n := r.IntN(10); {
		case n < 4 || !deeper:
		case n < 5:
			v.Set(reflect.MakeSlice(t, 0, 0))
		default:
			s := reflect.MakeSlice(t, 1+r.IntN(2), 2)
			for i := range s.Len() {
				s.Index(i).Set(randomValue(r, t.Elem(), depth+1))
			}
			v.Set(s)
		}
	case reflect.Map:
		switch n := r.IntN(10); {
		case n < 4 || !deeper:
		case n < 5:
			v.Set(reflect.MakeMap(t))
		default:
			m := reflect.MakeMap(t)
			for range 1 + r.IntN(2) {
				k := reflect.New(t.Key()).Elem()
				k.SetString(randomKeys[r.IntN(len(randomKeys))])
				m.SetMapIndex(k, randomValue(r, t.Elem(), depth+1))
			}
			v.Set(m)
		}
	case reflect.Array:
		for i := range t.Len() {
			v.Index(i).Set(randomValue(r, t.Elem(), depth+1))
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && r.IntN(2) == 0 {
				v.Field(i).Set(randomValue(r, f.Type, depth+1))
			}
		}
	default:
		panic(fmt.Sprintf("randomValue: unexpected kind %v of %v", t.Kind(), t))
	}
	return v
}

// spot is a settable part of a template that edit can change.
type spot struct {
	path string
	v    reflect.Value
}

// editable appends to spots every settable part of v, found at path, that
// edit knows how to change: scalars, pointers, slices, maps, quantities
// and times, and the parts inside them.
func editable(v reflect.Value, path string, spots []spot) []spot {
	t := v.Type()
	if t == quantityType || t == timeType {
		return append(spots, spot{path, v})
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				spots = editable(v.Field(i), path+"."+t.Field(i).Name, spots)
			}
		}
		return spots
	case reflect.Array:
		for i := range v.Len() {
			spots = editable(v.Index(i), fmt.Sprintf("%s[%d]", path, i), spots)
		}
		return spots
	case reflect.Pointer:
		spots = append(spots, spot{path, v})
		if !v.IsNil() {
			spots = editable(v.Elem(), "(*"+path+")", spots)
		}
		return spots
	case reflect.Slice:
		spots = append(spots, spot{path, v})
		for i := range v.Len() {
			spots = editable(v.Index(i), fmt.Sprintf("%s[%d]", path, i), spots)
		}
		return spots
	}
	return append(spots, spot{path, v})
}

// edit changes the settable value v at random and says how. Some changes
// keep v's meaning for semantic equality; others change it.
func edit(r *rand.Rand, v reflect.Value) string {
	t := v.Type()
	switch t {
	case quantityType:
		q := randomQuantity(r)
		v.Set(reflect.ValueOf(q))
		return "quantity " + q.String()
	case timeType:
		old := v.Interface().(metav1.Time)
		if r.IntN(2) == 0 {
			v.Set(reflect.ValueOf(metav1.NewTime(old.In(zones[r.IntN(len(zones))]))))
			return "same instant, another zone"
		}
		v.Set(reflect.ValueOf(randomTime(r)))
		return "another time"
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
		return "flipped"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
		return "incremented"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
		return "incremented"
	case reflect.String:
		s := randomStrings[r.IntN(len(randomStrings))]
		if s == v.String() {
			s += "x"
		}
		v.SetString(s)
		return fmt.Sprintf("string %q", s)
	case reflect.Pointer:
		switch {
		case v.IsNil():
			p := reflect.New(t.Elem())
			p.Elem().Set(randomValue(r, t.Elem(), maxRandomDepth-1))
			v.Set(p)
			return "nil pointer set"
		case r.IntN(2) == 0:
			p := reflect.New(t.Elem())
			p.Elem().Set(v.Elem())
			v.Set(p)
			return "the value moved to new memory"
		default:
			v.SetZero()
			return "pointer set to nil"
		}
	case reflect.Slice:
		switch n := v.Len(); {
		case n == 0 && v.IsNil():
			v.Set(reflect.MakeSlice(t, 0, 0))
			return "nil slice made empty"
		case n == 0:
			v.SetZero()
			return "empty slice made nil"
		case r.IntN(2) == 0:
			c := reflect.MakeSlice(t, n, n)
			reflect.Copy(c, v)
			v.Set(c)
			return "the elements moved to new memory"
		default:
			v.Set(v.Slice(0, n-1))
			return "last element dropped"
		}
	case reflect.Map:
		switch n := v.Len(); {
		case n == 0 && v.IsNil():
			v.Set(reflect.MakeMap(t))
			return "nil map made empty"
		case n == 0:
			v.SetZero()
			return "empty map made nil"
		}
		c := reflect.MakeMap(t)
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(it.Key(), it.Value())
		}
		k := reflect.New(t.Key()).Elem()
		k.SetString(randomKeys[r.IntN(len(randomKeys))])
		var how string
		switch r.IntN(3) {
		case 0:
			how = "entries copied to a new map"
		case 1:
			c.SetMapIndex(k, reflect.Value{})
			how = fmt.Sprintf("key %q deleted", k.String())
		default:
			c.SetMapIndex(k, randomValue(r, t.Elem(), maxRandomDepth-1))
			how = fmt.Sprintf("key %q set", k.String())
		}
		v.Set(c)
		return how
	}
	panic(fmt.Sprintf("edit: unexpected kind %v of %v", t.Kind(), t))
}

// TestHashMatchesComputeHashOnEveryPath compares revision.Hash with
// upstream's ComputeHash on random templates reached and changed along
// every path into corev1.PodTemplateSpec (see templatePaths), so that
// each field's rendering, and each run of zero fields around it, is
// checked, not only those the model-based generators set.
func TestHashMatchesComputeHashOnEveryPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
		p := templatePaths[rapid.IntRange(0, len(templatePaths)-1).Draw(t, "path")]
		var tmpl corev1.PodTemplateSpec
		v := reflect.ValueOf(&tmpl).Elem()
		v.Set(randomValue(r, v.Type(), 0))
		how := edit(r, reach(r, v, p.steps))
		var cc *int32
		if r.IntN(2) == 0 {
			n := int32(r.IntN(3))
			cc = &n
		}
		if got, up := revision.Hash(&tmpl, cc), controller.ComputeHash(&tmpl, cc); got != up {
			t.Fatalf("Hash = %q, upstream %q, with %s: %s", got, up, p.name, how)
		}
		count("ComputeHash (every path)", "agree")
	})
}
