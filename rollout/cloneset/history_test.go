package cloneset

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

func histLimit(v int32) *int32 { return &v }

// podsAt returns one running pod at each revision.
func podsAt(revisions ...string) []Pod {
	pods := make([]Pod, len(revisions))
	for i, r := range revisions {
		pods[i] = Pod{Name: fmt.Sprintf("p%d", i), Revision: r, Phase: PodRunning}
	}
	return pods
}

func TestHistoryToDelete(t *testing.T) {
	six := []ControllerRevision{
		crev("cs-6", 6, "6"), crev("cs-2", 2, "2"), crev("cs-4", 4, "4"),
		crev("cs-1", 1, "1"), crev("cs-5", 5, "5"), crev("cs-3", 3, "3"),
	}
	tests := []struct {
		name            string
		revisions       []ControllerRevision
		current, update string
		pods            []Pod
		limit           *int32
		want            []string
		reason          string
	}{
		{
			name: "limit 2: the oldest non-live revision goes", revisions: six, current: "cs-5", update: "cs-6", pods: podsAt("cs-2"), limit: histLimit(2),
			want: []string{"cs-1"}, reason: "non-live {1,3,4}, keep 2: delete the oldest",
		},
		{
			name: "limit 0 deletes every non-live revision", revisions: six, current: "cs-5", update: "cs-6", pods: podsAt("cs-2"), limit: histLimit(0),
			want: []string{"cs-1", "cs-3", "cs-4"},
		},
		{
			name: "nil limit keeps 10", revisions: six, current: "cs-6", update: "cs-6", limit: nil,
			want: nil, reason: "5 non-live revisions are within the default",
		},
		{
			name: "short-hash pod label keeps its revision", revisions: six, current: "cs-6", update: "cs-6", pods: podsAt("1", "other-3"), limit: histLimit(0),
			want: []string{"cs-2", "cs-4", "cs-5"}, reason: "labels match by the part after the last '-'",
		},
		{
			name: "equal numbers ordered by creation then name",
			revisions: []ControllerRevision{
				{Name: "cs-b", Number: 1, CreatedUnixNano: 5}, {Name: "cs-a", Number: 1, CreatedUnixNano: 5},
				{Name: "cs-c", Number: 1, CreatedUnixNano: 2}, {Name: "cs-z", Number: 2},
			},
			current: "cs-z", update: "cs-z", limit: histLimit(1),
			want: []string{"cs-c", "cs-a"},
		},
		{
			name: "inactive pods do not keep a revision", revisions: six, current: "cs-6", update: "cs-6", limit: histLimit(0),
			pods: []Pod{{Name: "a", Revision: "cs-1", Terminating: true}, {Name: "b", Revision: "cs-2", Phase: PodSucceeded}, {Name: "c", Revision: "cs-3", Phase: PodFailed}},
			want: []string{"cs-1", "cs-2", "cs-3", "cs-4", "cs-5"},
		},
		{name: "empty history", current: "cs-1", update: "cs-1", limit: histLimit(0), want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := HistoryToDelete(tt.revisions, tt.current, tt.update, tt.pods, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, i := range got {
				names = append(names, tt.revisions[i].Name)
			}
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("HistoryToDelete mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestHistoryToDeleteErrors(t *testing.T) {
	tests := []struct {
		name      string
		revisions []ControllerRevision
		limit     *int32
		want      string
	}{
		{name: "negative limit", limit: histLimit(-1), want: "cloneset: spec.revisionHistoryLimit: -1: must not be negative"},
		{name: "duplicate name", revisions: []ControllerRevision{crev("a", 1, ""), crev("a", 2, "")}, want: `cloneset: revisions[1].name: duplicate name "a"`},
	}
	for _, tt := range tests {
		got, err := HistoryToDelete(tt.revisions, "x", "x", nil, tt.limit)
		if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) || got != nil {
			t.Errorf("%s: HistoryToDelete = %v, %v, want nil, %q", tt.name, got, err, tt.want)
		}
	}
}

// TestHistoryToDeleteKeepsLiveAndLimit checks the cleanup's contract on
// random histories: live revisions are never deleted, exactly
// max(nonLive-limit, 0) are, they are the oldest non-live ones, and the
// answer does not depend on the input order.
func TestHistoryToDeleteKeepsLiveAndLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		revs := drawRevisions(t)
		names := []string{"none"}
		for _, r := range revs {
			names = append(names, r.Name)
		}
		current := rapid.SampledFrom(names).Draw(t, "current")
		update := rapid.SampledFrom(names).Draw(t, "update")
		podRevs := rapid.SliceOfN(rapid.SampledFrom(append(names, "788944f45", "zzz")), 0, 4).Draw(t, "podRevisions")
		pods := podsAt(podRevs...)
		for i := range pods {
			pods[i].Terminating = rapid.Bool().Draw(t, "terminating")
		}
		limit := histLimit(rapid.Int32Range(0, 6).Draw(t, "limit"))
		got, err := HistoryToDelete(revs, current, update, pods, limit)
		if err != nil {
			t.Fatal(err)
		}
		live := func(name string) bool {
			if name == current || name == update {
				return true
			}
			for i := range pods {
				if IsPodActive(&pods[i]) && IsPodAtRevision(&pods[i], name) {
					return true
				}
			}
			return false
		}
		order, _ := SortRevisions(revs)
		var nonLive []int
		for _, i := range order {
			if !live(revs[i].Name) {
				nonLive = append(nonLive, i)
			}
		}
		want := max(len(nonLive)-int(*limit), 0)
		if len(got) != want {
			t.Fatalf("deleted %d revisions, want %d (non-live %d, limit %d)", len(got), want, len(nonLive), *limit)
		}
		if !slices.Equal(got, nonLive[:want]) {
			t.Fatalf("deleted %v, want the oldest non-live %v", got, nonLive[:want])
		}
		perm := rapid.Permutation(revs).Draw(t, "permutation")
		got2, err := HistoryToDelete(perm, current, update, pods, limit)
		if err != nil {
			t.Fatal(err)
		}
		var a, b []string
		for _, i := range got {
			a = append(a, revs[i].Name)
		}
		for _, i := range got2 {
			b = append(b, perm[i].Name)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("HistoryToDelete depends on input order: %v vs %v", a, b)
		}
	})
}
