package revision_test

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/revision"
)

// registeredSpec is a template type only this file registers a comparator
// for, so that no other test sees it.
type registeredSpec struct {
	Images []string
}

type registeredTemplate = revision.Template[registeredSpec]

// typedEqualImages is a typed comparator for registeredTemplate with
// EqualIgnoreHash's rules, counting its calls.
func typedEqualImages(calls *int) func(a, b *registeredTemplate) bool {
	return func(a, b *registeredTemplate) bool {
		*calls++
		return maps.Equal(withoutHash(a.Labels), withoutHash(b.Labels)) && maps.Equal(a.Annotations, b.Annotations) &&
			slices.Equal(a.Spec.Images, b.Spec.Images)
	}
}

// withoutHash returns a copy of labels without the HashLabel entry.
func withoutHash(labels map[string]string) map[string]string {
	out := maps.Clone(labels)
	delete(out, revision.HashLabel)
	return out
}

// TestRegisteredComparatorIsWhatEqualIgnoreHashCalls registers a typed
// comparator, checks that EqualIgnoreHash and FindNew use it (and that
// its answer is the one they return), that nil templates and a template
// compared with itself never reach it, and that registering nil goes back
// to reflection with the same answers.
func TestRegisteredComparatorIsWhatEqualIgnoreHashCalls(t *testing.T) {
	var calls int
	revision.RegisterEqualIgnoreHash(typedEqualImages(&calls))
	defer revision.RegisterEqualIgnoreHash[registeredTemplate](nil)

	rapid.Check(t, func(t *rapid.T) {
		images := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b"}), 0, 2)
		labels := rapid.MapOfN(rapid.SampledFrom([]string{"app", revision.HashLabel}), rapid.SampledFrom([]string{"x", "y"}), 0, 2)
		a := registeredTemplate{Labels: labels.Draw(t, "labelsA"), Spec: registeredSpec{images.Draw(t, "imagesA")}}
		b := registeredTemplate{Labels: labels.Draw(t, "labelsB"), Spec: registeredSpec{images.Draw(t, "imagesB")}}

		calls = 0
		got := revision.EqualIgnoreHash(&a, &b)
		if calls != 1 {
			t.Fatalf("EqualIgnoreHash called the registered comparator %d times, want 1", calls)
		}
		var typedCalls int
		if want := typedEqualImages(&typedCalls)(&a, &b); got != want {
			t.Fatalf("EqualIgnoreHash = %v, the registered comparator says %v", got, want)
		}

		calls = 0
		if !revision.EqualIgnoreHash(&a, &a) || revision.EqualIgnoreHash(&a, nil) || revision.EqualIgnoreHash(nil, &b) ||
			!revision.EqualIgnoreHash[registeredTemplate](nil, nil) {
			t.Fatal("nil templates or a template compared with itself got a wrong answer")
		}
		if calls != 0 {
			t.Fatalf("the registered comparator was given nil or identical templates %d times", calls)
		}

		calls = 0
		rss := []revision.ReplicaSet[registeredTemplate]{{Name: "rs", Template: b}}
		if _, found := revision.FindNew(&a, rss); found != got || calls == 0 {
			t.Fatalf("FindNew found %v after %d calls of the registered comparator, want %v", found, calls, got)
		}

		revision.RegisterEqualIgnoreHash[registeredTemplate](nil)
		calls = 0
		if reflective := revision.EqualIgnoreHash(&a, &b); reflective != got || calls != 0 {
			t.Fatalf("unregistered: EqualIgnoreHash = %v after %d calls of the old comparator, want %v by reflection",
				reflective, calls, got)
		}
		revision.RegisterEqualIgnoreHash(typedEqualImages(&calls))
	})
}
