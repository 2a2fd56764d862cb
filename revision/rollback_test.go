package revision

import (
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pgregory.net/rapid"
)

func TestRollbackTo(t *testing.T) {
	tests := []struct {
		annotations map[string]string
		want        int64
		wantOK      bool
	}{
		{nil, 0, false},
		{map[string]string{RollbackToAnnotation: ""}, 0, false},
		{map[string]string{RollbackToAnnotation: "abc"}, 0, false},
		{map[string]string{RollbackToAnnotation: "0"}, 0, true},
		{map[string]string{RollbackToAnnotation: "3"}, 3, true},
		{map[string]string{RollbackToAnnotation: "-1"}, -1, true},
	}
	for _, tt := range tests {
		if got, ok := RollbackTo(tt.annotations); got != tt.want || ok != tt.wantOK {
			t.Errorf("RollbackTo(%v) = %d, %v, want %d, %v", tt.annotations, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestRollbackTarget(t *testing.T) {
	history := []ReplicaSet[tmpl]{rs("v1", "1", 0, "nginx:1"), rs("v2", "2", 1, "nginx:2"), rs("v3", "3", 2, "nginx:3")}
	current := image("nginx:3")
	tests := []struct {
		name       string
		current    tmpl
		rss        []ReplicaSet[tmpl]
		toRevision int64
		want       Rollback
		message    string
	}{
		{name: "previous revision", current: current, rss: history, toRevision: 0,
			want:    Rollback{Outcome: RolledBack, Revision: 2, Index: 1},
			message: `Rolled back deployment "web" to revision 2`},
		{name: "named revision", current: current, rss: history, toRevision: 1,
			want:    Rollback{Outcome: RolledBack, Revision: 1, Index: 0},
			message: `Rolled back deployment "web" to revision 1`},
		{name: "same template", current: current, rss: history, toRevision: 3,
			want:    Rollback{Outcome: RollbackUnchanged, Revision: 3, Index: 2},
			message: `The rollback revision contains the same template as current deployment "web"`},
		{name: "nothing to roll back to", current: current, rss: history[:1], toRevision: 0,
			want:    Rollback{Outcome: RollbackNoPrevious, Index: -1},
			message: "Unable to find last revision."},
		{name: "no ReplicaSets", current: current, toRevision: 0,
			want:    Rollback{Outcome: RollbackNoPrevious, Index: -1},
			message: "Unable to find last revision."},
		{name: "revision not found", current: current, rss: history, toRevision: 7,
			want:    Rollback{Outcome: RollbackNotFound, Revision: 7, Index: -1},
			message: "Unable to find the revision to rollback to."},
		{name: "negative revision is looked for", current: current, toRevision: -3,
			rss:     []ReplicaSet[tmpl]{rs("neg", "-3", 0, "nginx:1")},
			want:    Rollback{Outcome: RolledBack, Revision: -3, Index: 0},
			message: `Rolled back deployment "web" to revision -3`},
		{name: "unparsable skipped, first match wins", current: current, toRevision: 2,
			rss:  []ReplicaSet[tmpl]{rs("x", "x", 0, "nginx:1"), rs("a", "2", 1, "nginx:1"), rs("b", "2", 2, "nginx:2")},
			want: Rollback{Outcome: RolledBack, Revision: 2, Index: 1}, message: `Rolled back deployment "web" to revision 2`},
		{name: "shared revision: the older old one wins whatever the order", current: current, toRevision: 2,
			rss:  []ReplicaSet[tmpl]{rs("late", "2", 5, "nginx:2"), rs("early", "2", 1, "nginx:1")},
			want: Rollback{Outcome: RolledBack, Revision: 2, Index: 1}, message: `Rolled back deployment "web" to revision 2`},
		{name: "shared revision: an old one wins over an older new one", current: current, toRevision: 3,
			rss:  []ReplicaSet[tmpl]{rs("new", "3", 0, "nginx:3"), rs("old", "3", 4, "nginx:1")},
			want: Rollback{Outcome: RolledBack, Revision: 3, Index: 1}, message: `Rolled back deployment "web" to revision 3`},
		{name: "duplicated highest: previous is the same number", current: image("nginx:9"), toRevision: 0,
			rss:  []ReplicaSet[tmpl]{rs("a", "3", 0, "nginx:1"), rs("b", "3", 1, "nginx:2")},
			want: Rollback{Outcome: RolledBack, Revision: 3, Index: 0}, message: `Rolled back deployment "web" to revision 3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RollbackTarget(&tt.current, tt.rss, tt.toRevision)
			if got != tt.want {
				t.Errorf("RollbackTarget(%s, %s, %d) = %+v, want %+v", tt.current.Spec, names(tt.rss), tt.toRevision, got, tt.want)
			}
			if m := got.Message("web"); m != tt.message {
				t.Errorf("RollbackTarget(...).Message(%q) = %q, want %q", "web", m, tt.message)
			}
		})
	}
}

func TestRollbackOutcome(t *testing.T) {
	tests := []struct {
		o              RollbackOutcome
		str, reason    string
		messageIfEmpty bool
	}{
		{RolledBack, "RolledBack", "DeploymentRollback", false},
		{RollbackUnchanged, "RollbackUnchanged", "DeploymentRollbackTemplateUnchanged", false},
		{RollbackNoPrevious, "RollbackNoPrevious", "DeploymentRollbackRevisionNotFound", false},
		{RollbackNotFound, "RollbackNotFound", "DeploymentRollbackRevisionNotFound", false},
		{0, "RollbackOutcome(0)", "", true},
		{9, "RollbackOutcome(9)", "", true},
	}
	for _, tt := range tests {
		if got := tt.o.String(); got != tt.str {
			t.Errorf("RollbackOutcome(%d).String() = %q, want %q", uint8(tt.o), got, tt.str)
		}
		if got := tt.o.Reason(); got != tt.reason {
			t.Errorf("RollbackOutcome(%d).Reason() = %q, want %q", uint8(tt.o), got, tt.reason)
		}
		if got := (Rollback{Outcome: tt.o}).Message("web"); (got == "") != tt.messageIfEmpty {
			t.Errorf("Rollback{Outcome: %v}.Message = %q", tt.o, got)
		}
	}
}

func TestWithoutHashLabel(t *testing.T) {
	t.Run("plain template", func(t *testing.T) {
		in := rs("v1", "1", 0, "nginx:1").Template
		labels0 := maps.Clone(in.Labels)
		got := WithoutHashLabel(&in)
		if diff := cmp.Diff(image("nginx:1"), got); diff != "" {
			t.Errorf("WithoutHashLabel mismatch (-want +got):\n%s", diff)
		}
		if !maps.Equal(labels0, in.Labels) {
			t.Errorf("WithoutHashLabel modified the input labels: %v", in.Labels)
		}
	})
	t.Run("nil labels become empty", func(t *testing.T) {
		got := WithoutHashLabel(&tmpl{Spec: "x"})
		if got.Labels == nil || len(got.Labels) != 0 {
			t.Errorf("WithoutHashLabel(nil labels).Labels = %#v, want an empty map", got.Labels)
		}
	})
	t.Run("embedded ObjectMeta", func(t *testing.T) {
		in := embeddedMeta{ObjectMeta{Name: "n", Labels: map[string]string{"app": "a", HashLabel: "h"}}, "s"}
		got := WithoutHashLabel(&in)
		want := embeddedMeta{ObjectMeta{Name: "n", Labels: map[string]string{"app": "a"}}, "s"}
		if !reflect.DeepEqual(got, want) || len(in.Labels) != 2 {
			t.Errorf("WithoutHashLabel(%+v) = %+v, want %+v", in, got, want)
		}
	})
	t.Run("named label types", func(t *testing.T) {
		in := namedLabels{map[labelKey]labelKey{"app": "a", HashLabel: "h"}, "s"}
		got := WithoutHashLabel(&in)
		if want := (namedLabels{map[labelKey]labelKey{"app": "a"}, "s"}); !reflect.DeepEqual(got, want) {
			t.Errorf("WithoutHashLabel(%+v) = %+v, want %+v", in, got, want)
		}
	})
	t.Run("no labels map", func(t *testing.T) {
		in := "spec"
		if got := WithoutHashLabel(&in); got != "spec" {
			t.Errorf("WithoutHashLabel(&%q) = %q", in, got)
		}
	})
	t.Run("promoted through an unexported embedded struct", func(t *testing.T) {
		// in.Labels is legal Go, so the labels are found and replaced.
		in := hiddenMeta{objectMeta{map[string]string{HashLabel: "h", "app": "a"}}, "s"}
		got := WithoutHashLabel(&in)
		if want := (hiddenMeta{objectMeta{map[string]string{"app": "a"}}, "s"}); !reflect.DeepEqual(got, want) {
			t.Errorf("WithoutHashLabel(%+v) = %+v, want %+v", in, got, want)
		}
	})
	t.Run("nil", func(t *testing.T) {
		if got := WithoutHashLabel[tmpl](nil); !reflect.DeepEqual(got, tmpl{}) {
			t.Errorf("WithoutHashLabel(nil) = %+v, want the zero template", got)
		}
	})
}

func FuzzRollbackTo(f *testing.F) {
	for _, s := range []string{"", "0", "3", "-1", "abc", "+2", " 1", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := RollbackTo(map[string]string{RollbackToAnnotation: s})
		want, err := strconv.ParseInt(s, 10, 64)
		if ok != (err == nil) || ok && got != want || !ok && got != 0 {
			t.Fatalf("RollbackTo(%q) = %d, %v; strconv.ParseInt gives %d, %v", s, got, ok, want, err)
		}
	})
}

// TestRollbackTargetIsIndependentOfInputOrder: every permutation of rss
// gives the same target ReplicaSet and outcome.
func TestRollbackTargetIsIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 6).Draw(t, "n")
		rss := make([]ReplicaSet[tmpl], n)
		for i := range rss {
			rev := rapid.SampledFrom([]string{"1", "2", "3", "x"}).Draw(t, "revision")
			minutes := rapid.IntRange(0, 3).Draw(t, "minutes")
			spec := rapid.SampledFrom([]string{"nginx:1", "nginx:2", "nginx:3"}).Draw(t, "image")
			rss[i] = rs(fmt.Sprintf("rs-%d", i), rev, minutes, spec)
		}
		current := image(rapid.SampledFrom([]string{"nginx:1", "nginx:2", "nginx:3"}).Draw(t, "current"))
		toRevision := rapid.Int64Range(0, 3).Draw(t, "toRevision")
		want := RollbackTarget(&current, rss, toRevision)
		perm := rapid.Permutation(rss).Draw(t, "permutation")
		got := RollbackTarget(&current, perm, toRevision)
		if got.Outcome != want.Outcome || got.Revision != want.Revision || (got.Index >= 0) != (want.Index >= 0) ||
			got.Index >= 0 && perm[got.Index].Name != rss[want.Index].Name {
			t.Fatalf("RollbackTarget on a permutation = %+v (%s), on the original %+v (%s)", got, names(perm), want, names(rss))
		}
	})
}
