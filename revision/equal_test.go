package revision

import (
	"math"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestEqualIgnoreHash(t *testing.T) {
	tests := []struct {
		name   string
		change func(*podTemplate) // applied to a second realistic template
		want   bool
		reason string
	}{
		// Upstream TestEqualIgnoreHash, on our realistic template.
		{name: "same spec, same labels", change: func(*podTemplate) {}, want: true},
		{name: "only the hash label value differs", want: true,
			change: func(p *podTemplate) { *p = withHash(*p, "other") }},
		{name: "only one has the hash label", want: true,
			change: func(p *podTemplate) { *p = withHash(*p, "5d4c8f7b9") }},
		{name: "a different label instead of the hash label", want: false,
			change: func(p *podTemplate) { p.Labels = map[string]string{"app": "web", "something": "else"} },
			reason: "same number of labels, but only the hash label is ignored"},
		{name: "different spec, same labels", want: false,
			change: func(p *podTemplate) { p.Spec.Containers[0].Image = "nginx:1.28" }},
		{name: "different spec, different hash label", want: false,
			change: func(p *podTemplate) { *p = withHash(*p, "x"); p.Spec.Containers[1].Args = nil }},

		// Upstream's semantic equality (EqualIgnoreHash,
		// pkg/controller/deployment/util/deployment_util.go, compares with
		// apiequality.Semantic): quantities by amount, nil and empty slices
		// and maps equal, a nil pointer unequal to a pointer to zero.
		{name: `quantity "1" vs "1000m"`, want: true,
			change: func(p *podTemplate) { p.Spec.Containers[0].Resources.Limits["cpu"] = quantity{1000, "1000m"} },
			reason: "quantity has an Equal method comparing amounts"},
		{name: "different quantity", want: false,
			change: func(p *podTemplate) { p.Spec.Containers[0].Resources.Limits["cpu"] = quantity{999, "999m"} }},
		{name: "empty vs nil slice", want: true,
			change: func(p *podTemplate) { p.Spec.Containers[0].LivenessProbe.Exec = []string{} },
			reason: "the realistic liveness probe has a nil Exec"},
		{name: "empty vs nil map", want: true,
			change: func(p *podTemplate) { p.Spec.Containers[0].LivenessProbe.HTTPGet.Headers = map[string]string{} },
			reason: "the test removes the probe headers from both templates first"},
		{name: "hash label only vs nil labels", want: false,
			change: func(p *podTemplate) { p.Labels = map[string]string{HashLabel: "x"} },
			reason: "the other template has app and tier labels"},
		{name: "nil vs &0 grace period", want: false,
			change: func(p *podTemplate) { p.Spec.TerminationGracePeriodSeconds = nil },
			reason: "a nil pointer differs from a pointer to any value"},
		{name: "swapped containers", want: false,
			change: func(p *podTemplate) {
				p.Spec.Containers[0], p.Spec.Containers[1] = p.Spec.Containers[1], p.Spec.Containers[0]
			}},
		{name: "same instant, other offset", want: true,
			change: func(p *podTemplate) { p.Spec.StartAfter.offset = 3600 },
			reason: "instant has a pointer-receiver Equal(*instant)"},
		{name: "another instant", want: false,
			change: func(p *podTemplate) { p.Spec.StartAfter.unix++ }},
		{name: "map order", want: true,
			change: func(p *podTemplate) {
				p.Annotations = map[string]string{"prometheus.io/scrape": "true"}
			}},
		{name: "extra annotation", want: false,
			change: func(p *podTemplate) { p.Annotations["x"] = "y" }},
		{name: "annotation named like the hash label", want: false,
			change: func(p *podTemplate) { p.Annotations[HashLabel] = "x" },
			reason: "only the labels' hash entry is ignored"},
		{name: "nil vs empty node selector", want: false,
			change: func(p *podTemplate) { p.Spec.NodeSelector = nil },
			reason: "realistic has a node selector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := realisticTemplate(), realisticTemplate()
			// No probe headers, so that a nil map can meet an empty one.
			a.Spec.Containers[0].LivenessProbe.HTTPGet.Headers = nil
			b.Spec.Containers[0].LivenessProbe.HTTPGet.Headers = nil
			tt.change(&b)
			a0, b0 := cloneTemplate(a), cloneTemplate(b)
			if got := EqualIgnoreHash(&a, &b); got != tt.want {
				t.Errorf("EqualIgnoreHash(realistic, %s) = %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
			}
			if got := EqualIgnoreHash(&b, &a); got != tt.want {
				t.Errorf("EqualIgnoreHash(%s, realistic) = %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
			}
			if !reflect.DeepEqual(a, a0) || !reflect.DeepEqual(b, b0) {
				t.Errorf("EqualIgnoreHash modified its inputs")
			}
		})
	}
}

// ObjectMeta and the template types below mimic the shapes the labels map
// is found in.
type ObjectMeta struct {
	Name   string
	Labels map[string]string
}

// embeddedMeta is shaped like corev1.PodTemplateSpec: ObjectMeta embedded.
type embeddedMeta struct {
	ObjectMeta
	Spec string
}

// namedMeta has a named, not embedded, ObjectMeta field.
type namedMeta struct {
	ObjectMeta ObjectMeta
	Spec       string
}

type labelKey string

// namedLabels has a labels map of named string types.
type namedLabels struct {
	Labels map[labelKey]labelKey
	Spec   string
}

// pointerMeta reaches its labels through a pointer: not located.
type pointerMeta struct {
	*ObjectMeta
	Spec string
}

// hiddenMeta reaches its labels through an unexported embedded field.
type hiddenMeta struct {
	objectMeta
	Spec string
}

type objectMeta struct {
	Labels map[string]string
}

// manyLabels has more labels than compareMap scans without allocating.
type manyLabels struct {
	Labels map[labelKey]labelKey
}

func bigLabels(n int, hash string) map[labelKey]labelKey {
	m := map[labelKey]labelKey{}
	for i := range n {
		m[labelKey(rune('a'+i%26))+labelKey(rune('a'+i/26))] = "v"
	}
	if hash != "" {
		m[HashLabel] = labelKey(hash)
	}
	return m
}

func TestEqualIgnoreHashFindsLabels(t *testing.T) {
	tests := []struct {
		name string
		eq   func() bool
		want bool
	}{
		{"embedded ObjectMeta", func() bool {
			return EqualIgnoreHash(
				&embeddedMeta{ObjectMeta{Labels: map[string]string{"app": "a"}}, "s"},
				&embeddedMeta{ObjectMeta{Labels: map[string]string{"app": "a", HashLabel: "h"}}, "s"})
		}, true},
		{"named ObjectMeta field", func() bool {
			return EqualIgnoreHash(
				&namedMeta{ObjectMeta{Labels: map[string]string{HashLabel: "1"}}, "s"},
				&namedMeta{ObjectMeta{Labels: nil}, "s"})
		}, true},
		{"named string types", func() bool {
			return EqualIgnoreHash(
				&namedLabels{map[labelKey]labelKey{"app": "a", HashLabel: "1"}, "s"},
				&namedLabels{map[labelKey]labelKey{"app": "a", HashLabel: "2"}, "s"})
		}, true},
		{"named string types, other label", func() bool {
			return EqualIgnoreHash(
				&namedLabels{map[labelKey]labelKey{"app": "a", HashLabel: "1"}, "s"},
				&namedLabels{map[labelKey]labelKey{"app": "b", HashLabel: "1"}, "s"})
		}, false},
		{"named string types, hash label only on one side, same count", func() bool {
			return EqualIgnoreHash(
				&namedLabels{map[labelKey]labelKey{"app": "a", "x": "1"}, "s"},
				&namedLabels{map[labelKey]labelKey{"app": "a", HashLabel: "1"}, "s"})
		}, false},
		{"through a pointer: not located, so the hash label counts", func() bool {
			return EqualIgnoreHash(
				&pointerMeta{&ObjectMeta{Labels: map[string]string{HashLabel: "1"}}, "s"},
				&pointerMeta{&ObjectMeta{Labels: map[string]string{HashLabel: "2"}}, "s"})
		}, false},
		{"through an unexported embedded field", func() bool {
			return EqualIgnoreHash(
				&hiddenMeta{objectMeta{map[string]string{"app": "a", HashLabel: "1"}}, "s"},
				&hiddenMeta{objectMeta{map[string]string{"app": "a"}}, "s"})
		}, true},
		{"large labels map", func() bool {
			return EqualIgnoreHash(&manyLabels{bigLabels(100, "1")}, &manyLabels{bigLabels(100, "")})
		}, true},
		{"large labels map, one differs", func() bool {
			b := bigLabels(100, "")
			b["ab"] = "w"
			return EqualIgnoreHash(&manyLabels{bigLabels(100, "1")}, &manyLabels{b})
		}, false},
		{"no labels map: a string template", func() bool {
			a, b := "x", "x"
			return EqualIgnoreHash(&a, &b)
		}, true},
		{"no labels map: a map template keeps the hash key", func() bool {
			a, b := map[string]string{HashLabel: "1"}, map[string]string{HashLabel: "2"}
			return EqualIgnoreHash(&a, &b)
		}, false},
	}
	for _, tt := range tests {
		if got := tt.eq(); got != tt.want {
			t.Errorf("EqualIgnoreHash(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

type node struct {
	Name string
	Next *node
}

func ring(names ...string) *node {
	head := &node{Name: names[0]}
	n := head
	for _, name := range names[1:] {
		n.Next = &node{Name: name}
		n = n.Next
	}
	n.Next = head
	return n.Next
}

// odd holds the values that have no obvious semantic equality.
type odd struct {
	F      float64
	Fn     func()
	Ch     chan int
	Any    any
	hidden time.Time // unexported: compared field by field
	Arr    [2]complex128
}

type panicky struct{ N int }

func (p panicky) Equal(panicky) bool { panic("boom") }

type wrongEqual struct{ N int }

// Equal has the wrong signature and is not used.
func (w wrongEqual) Equal(other int) bool { return true }

type alwaysEqual struct{ N int }

func (alwaysEqual) Equal(alwaysEqual) bool { return true }

func TestEqualIgnoreHashEdgeCases(t *testing.T) {
	ch := make(chan int)
	fn := func() {}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	selfA := map[string]any{"n": 1}
	selfA["self"] = selfA
	selfB := map[string]any{"n": 1}
	selfB["self"] = selfB
	sliceA := []any{1, nil}
	sliceA[1] = sliceA
	sliceB := []any{1, nil}
	sliceB[1] = sliceB
	tests := []struct {
		name string
		eq   func() bool
		want bool
	}{
		{"both nil", func() bool { return EqualIgnoreHash[podTemplate](nil, nil) }, true},
		{"nil vs zero", func() bool { return EqualIgnoreHash(nil, &podTemplate{}) }, false},
		{"zero vs nil", func() bool { return EqualIgnoreHash(&podTemplate{}, nil) }, false},
		{"same pointer", func() bool { p := realisticTemplate(); return EqualIgnoreHash(&p, &p) }, true},
		{"equal rings", func() bool { a, b := ring("a", "b"), ring("a", "b"); return EqualIgnoreHash(&a, &b) }, true},
		{"rings differ", func() bool { a, b := ring("a", "b"), ring("a", "c"); return EqualIgnoreHash(&a, &b) }, false},
		{"maps containing themselves", func() bool { return EqualIgnoreHash(&selfA, &selfB) }, true},
		{"slices containing themselves", func() bool { return EqualIgnoreHash(&sliceA, &sliceB) }, true},
		{"NaN", func() bool { return EqualIgnoreHash(&odd{F: math.NaN()}, &odd{F: math.NaN()}) }, false},
		{"same func", func() bool { return EqualIgnoreHash(&odd{Fn: fn}, &odd{Fn: fn}) }, false},
		{"nil funcs", func() bool { return EqualIgnoreHash(&odd{}, &odd{}) }, true},
		{"same channel", func() bool { return EqualIgnoreHash(&odd{Ch: ch}, &odd{Ch: ch}) }, true},
		{"other channel", func() bool { return EqualIgnoreHash(&odd{Ch: ch}, &odd{Ch: make(chan int)}) }, false},
		{"interfaces, same dynamic value", func() bool { return EqualIgnoreHash(&odd{Any: 1}, &odd{Any: 1}) }, true},
		{"interfaces, other dynamic type", func() bool { return EqualIgnoreHash(&odd{Any: 1}, &odd{Any: int64(1)}) }, false},
		{"interface nil vs value", func() bool { return EqualIgnoreHash(&odd{}, &odd{Any: 0}) }, false},
		{"time.Time in an interface, other zone", func() bool {
			return EqualIgnoreHash(&odd{Any: t0}, &odd{Any: t0.In(time.FixedZone("X", 3600))})
		}, true},
		{"instant in an interface: pointer Equal unusable, offset counts", func() bool {
			return EqualIgnoreHash(&odd{Any: instant{1, 0}}, &odd{Any: instant{1, 60}})
		}, false},
		{"unexported time.Time, same", func() bool { return EqualIgnoreHash(&odd{hidden: t0}, &odd{hidden: t0}) }, true},
		{"unexported time.Time, other zone", func() bool {
			return EqualIgnoreHash(&odd{hidden: t0}, &odd{hidden: t0.In(time.FixedZone("X", 3600))})
		}, false},
		{"exported time.Time, other zone", func() bool {
			a, b := t0, t0.In(time.FixedZone("X", 3600))
			return EqualIgnoreHash(&a, &b)
		}, true},
		{"arrays of complex", func() bool {
			return EqualIgnoreHash(&odd{Arr: [2]complex128{1i, 2}}, &odd{Arr: [2]complex128{1i, 3}})
		}, false},
		{"Equal panics: unequal", func() bool { return EqualIgnoreHash(&panicky{1}, &panicky{2}) }, false},
		{"Equal panics but identical: equal without calling", func() bool { return EqualIgnoreHash(&panicky{1}, &panicky{1}) }, true},
		{"Equal with another signature is not used", func() bool { return EqualIgnoreHash(&wrongEqual{1}, &wrongEqual{2}) }, false},
		{"Equal decides", func() bool { return EqualIgnoreHash(&alwaysEqual{1}, &alwaysEqual{2}) }, true},
		{"Equal in a map value", func() bool {
			a, b := map[string]alwaysEqual{"k": {1}}, map[string]alwaysEqual{"k": {2}}
			return EqualIgnoreHash(&a, &b)
		}, true},
		{"Equal in a map value, other key", func() bool {
			a, b := map[string]alwaysEqual{"k": {1}}, map[string]alwaysEqual{"j": {1}}
			return EqualIgnoreHash(&a, &b)
		}, false},
	}
	for _, tt := range tests {
		if got := tt.eq(); got != tt.want {
			t.Errorf("EqualIgnoreHash(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestEqualIgnoreHashDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items, so allocations vary")
	}
	tests := []struct {
		name   string
		change func(*podTemplate)
	}{
		{"equal but for the hash label", func(p *podTemplate) { *p = withHash(*p, "5d4c8f7b9") }},
		{"other image", func(p *podTemplate) { p.Spec.Containers[2].Image = "fluent-bit:3.2" }},
		// A quantity that differs field by field is compared with its
		// Equal method, through reflection, which allocates: documented.
		{"other label", func(p *podTemplate) { p.Labels["tier"] = "backend" }},
	}
	for _, tt := range tests {
		a, b := realisticTemplate(), realisticTemplate()
		tt.change(&b)
		if n := testing.AllocsPerRun(100, func() { EqualIgnoreHash(&a, &b) }); n != 0 {
			t.Errorf("EqualIgnoreHash(realistic, %s) allocates %v times per call, want 0", tt.name, n)
		}
	}
}

func TestEqualIgnoreHashIsReflexive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "a")
		b := cloneTemplate(a)
		if !EqualIgnoreHash(&a, &a) {
			t.Fatalf("EqualIgnoreHash(&a, &a) = false, want true for a = %+v", a)
		}
		if !EqualIgnoreHash(&a, &b) {
			t.Fatalf("EqualIgnoreHash(a, deep copy of a) = false, want true for a = %+v", a)
		}
	})
}

func TestEqualIgnoreHashIsSymmetric(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "a")
		b := genVariant(a).Draw(t, "b")
		if ab, ba := EqualIgnoreHash(&a, &b), EqualIgnoreHash(&b, &a); ab != ba {
			t.Fatalf("EqualIgnoreHash(a, b) = %v but EqualIgnoreHash(b, a) = %v\na = %+v\nb = %+v", ab, ba, a, b)
		}
	})
}

func TestEqualIgnoreHashIsTransitive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "a")
		b := genVariant(a).Draw(t, "b")
		c := genVariant(b).Draw(t, "c")
		if EqualIgnoreHash(&a, &b) && EqualIgnoreHash(&b, &c) && !EqualIgnoreHash(&a, &c) {
			t.Fatalf("a == b and b == c but a != c\na = %+v\nb = %+v\nc = %+v", a, b, c)
		}
	})
}

func TestEqualIgnoreHashIgnoresHashLabel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate().Draw(t, "a")
		c := genVariant(a).Draw(t, "c")
		relabeled := cloneTemplate(a)
		switch op := rapid.SampledFrom([]string{"add or change", "remove"}).Draw(t, "op"); op {
		case "add or change":
			if relabeled.Labels == nil {
				relabeled.Labels = map[string]string{}
			}
			relabeled.Labels[HashLabel] = rapid.StringMatching(`[4-9bcdf]{1,10}`).Draw(t, "hash")
		case "remove":
			delete(relabeled.Labels, HashLabel)
		}
		if !EqualIgnoreHash(&a, &relabeled) {
			t.Fatalf("EqualIgnoreHash(a, a relabeled) = false\na = %+v\nrelabeled = %+v", a, relabeled)
		}
		if x, y := EqualIgnoreHash(&a, &c), EqualIgnoreHash(&relabeled, &c); x != y {
			t.Fatalf("EqualIgnoreHash(a, c) = %v but EqualIgnoreHash(a relabeled, c) = %v", x, y)
		}
	})
}

func TestEqualIgnoreHashMatchesReference(t *testing.T) {
	rapid.Check(t, equalMatchesReference)
}

// FuzzEqualIgnoreHash runs the reference property on fuzzer input.
func FuzzEqualIgnoreHash(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(equalMatchesReference))
}

func equalMatchesReference(t *rapid.T) {
	a := genTemplate().Draw(t, "a")
	b := genVariant(a).Draw(t, "b")
	if rapid.Bool().Draw(t, "independent") {
		b = genTemplate().Draw(t, "other")
	}
	if got, want := EqualIgnoreHash(&a, &b), referenceEqual(a, b); got != want {
		t.Fatalf("EqualIgnoreHash(a, b) = %v, want %v (reference)\na = %+v\nb = %+v", got, want, a, b)
	}
}
