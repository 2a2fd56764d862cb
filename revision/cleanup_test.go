package revision

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// idle and busy build old ReplicaSets for the cleanup tests.
func idle(name, revision string, minutes int) ReplicaSet[tmpl] {
	return rs(name, revision, minutes, "nginx:"+name)
}

func busy(name, revision string, minutes int, replicas, statusReplicas int32) ReplicaSet[tmpl] {
	r := idle(name, revision, minutes)
	r.Replicas, r.StatusReplicas = replicas, statusReplicas
	return r
}

func TestToCleanUp(t *testing.T) {
	deleting := idle("del", "1", 0)
	deleting.Deleting = true
	unobserved := idle("gen", "1", 0)
	unobserved.Generation, unobserved.ObservedGeneration = 3, 2
	tests := []struct {
		name       string
		rss        []ReplicaSet[tmpl]
		newRS      int
		limit      *int32
		upstream   []string // names, in deletion order
		substitute []string
		reason     string
	}{
		// Upstream TestDeploymentController_cleanupDeployment.
		{name: "limit 1, three idle", limit: ptrTo[int32](1), newRS: -1,
			rss:      []ReplicaSet[tmpl]{idle("a", "1", 0), idle("b", "2", 1), idle("c", "3", 2)},
			upstream: []string{"a", "b"}, substitute: []string{"a", "b"}},
		{name: "only idle ones are deleted", limit: ptrTo[int32](0), newRS: -1,
			rss: []ReplicaSet[tmpl]{busy("spec", "1", 0, 1, 0), busy("status", "2", 1, 0, 1), idle("idle", "3", 2),
				busy("both", "4", 3, 2, 2)},
			upstream: []string{"idle"}, substitute: []string{"idle"}},
		{name: "deleting ones are not counted", limit: ptrTo[int32](1), newRS: -1,
			rss:      []ReplicaSet[tmpl]{deleting, idle("a", "2", 1), idle("b", "3", 2)},
			upstream: []string{"a"}, substitute: []string{"a"},
			reason: "two cleanable, limit 1: one to delete; the deleting one is left out"},
		{name: "no limit", limit: nil, newRS: -1,
			rss: []ReplicaSet[tmpl]{idle("a", "1", 0), idle("b", "2", 1)}},
		{name: "MaxInt32 limit", limit: ptrTo[int32](math.MaxInt32), newRS: -1,
			rss: []ReplicaSet[tmpl]{idle("a", "1", 0), idle("b", "2", 1)}},
		{name: "unobserved generation is skipped", limit: ptrTo[int32](0), newRS: -1,
			rss:      []ReplicaSet[tmpl]{unobserved, idle("b", "2", 1)},
			upstream: []string{"b"}, substitute: []string{"b"}},

		// Upstream TestDeploymentController_cleanupDeploymentOrder, in our words.
		{name: "by revision, not by age", limit: ptrTo[int32](1), newRS: -1,
			rss:      []ReplicaSet[tmpl]{idle("old-but-3", "3", 0), idle("new-but-1", "1", 5), idle("mid-2", "2", 3)},
			upstream: []string{"new-but-1", "mid-2"}, substitute: []string{"new-but-1", "mid-2"},
			reason: "after rollbacks creation order and revision order differ (upstream bug 82570)"},
		{name: "a missing revision sorts first", limit: ptrTo[int32](2), newRS: -1,
			rss:      []ReplicaSet[tmpl]{idle("r1", "1", 0), idle("none", "-", 5), idle("r2", "2", 1)},
			upstream: []string{"none"}, substitute: []string{"none"}},
		{name: "equal revisions: older first", limit: ptrTo[int32](1), newRS: -1,
			rss:      []ReplicaSet[tmpl]{idle("y", "2", 1), idle("x", "2", 0)},
			upstream: []string{"x"}, substitute: []string{"x"}},
		{name: "equal revisions and times: name", limit: ptrTo[int32](1), newRS: -1,
			rss:      []ReplicaSet[tmpl]{idle("y", "2", 0), idle("x", "2", 0)},
			upstream: []string{"x"}, substitute: []string{"x"}},
		{name: "busy lowest revision is not substituted upstream", limit: ptrTo[int32](2), newRS: -1,
			rss:      []ReplicaSet[tmpl]{busy("r1", "1", 0, 1, 1), idle("r2", "2", 1), idle("r3", "3", 2), idle("r4", "4", 3)},
			upstream: []string{"r2"}, substitute: []string{"r2", "r3"},
			reason: "diff is 2; upstream examines r1 and r2 only, so three old ReplicaSets remain"},
		{name: "the new ReplicaSet is never old", limit: ptrTo[int32](0), newRS: 0,
			rss:      []ReplicaSet[tmpl]{idle("new", "1", 0), idle("old", "2", 1)},
			upstream: []string{"old"}, substitute: []string{"old"}},
		{name: "negative limit counts as 0", limit: ptrTo[int32](-5), newRS: -1,
			rss:      []ReplicaSet[tmpl]{idle("a", "1", 0), busy("b", "2", 1, 1, 0)},
			upstream: []string{"a"}, substitute: []string{"a"},
			reason: "upstream would index past the end of its list"},
		{name: "nothing old", limit: ptrTo[int32](0), newRS: 0,
			rss: []ReplicaSet[tmpl]{idle("new", "1", 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, mode := range []CleanupMode{CleanupUpstream, CleanupSubstitute} {
				want := tt.upstream
				if mode == CleanupSubstitute {
					want = tt.substitute
				}
				before := slices.Clone(tt.rss)
				got := namesOf(tt.rss, ToCleanUp(tt.rss, tt.newRS, tt.limit, mode))
				if !slices.Equal(got, want) {
					t.Errorf("ToCleanUp(%s, %d, %v, %v) = %q, want %q (%s)", names(tt.rss), tt.newRS, deref(tt.limit), mode, got, want, tt.reason)
				}
				if !slices.EqualFunc(before, tt.rss, func(a, b ReplicaSet[tmpl]) bool { return a.Name == b.Name }) {
					t.Errorf("ToCleanUp reordered rss")
				}
			}
		})
	}
}

func namesOf(rss []ReplicaSet[tmpl], idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, rss[i].Name)
	}
	return out
}

// genCleanupInput draws old ReplicaSets with parsable revisions, some
// busy, some deleting, and a new ReplicaSet index.
func genCleanupInput(t *rapid.T) ([]ReplicaSet[tmpl], int, *int32) {
	n := rapid.IntRange(0, 10).Draw(t, "n")
	rss := make([]ReplicaSet[tmpl], n)
	for i := range rss {
		r := idle("rs"+strconv.Itoa(i), strconv.Itoa(rapid.IntRange(0, 12).Draw(t, "revision")), rapid.IntRange(0, 5).Draw(t, "minutes"))
		r.Replicas = rapid.SampledFrom([]int32{0, 0, 0, 2}).Draw(t, "replicas")
		r.StatusReplicas = rapid.SampledFrom([]int32{0, 0, 0, 1}).Draw(t, "statusReplicas")
		r.Generation = rapid.Int64Range(1, 2).Draw(t, "generation")
		r.ObservedGeneration = rapid.Int64Range(1, 2).Draw(t, "observedGeneration")
		r.Deleting = rapid.IntRange(0, 5).Draw(t, "deleting") == 0
		rss[i] = r
	}
	newRS := rapid.IntRange(-1, n-1).Draw(t, "newRS")
	limit := rapid.Ptr(rapid.Int32Range(-1, 6), true).Draw(t, "limit")
	return rss, newRS, limit
}

func TestCleanupNeverSelectsBusyDeletingOrNewReplicaSets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss, newRS, limit := genCleanupInput(t)
		mode := rapid.SampledFrom([]CleanupMode{CleanupUpstream, CleanupSubstitute}).Draw(t, "mode")
		got := ToCleanUp(rss, newRS, limit, mode)
		seen := map[int]bool{}
		for _, i := range got {
			r := rss[i]
			switch {
			case seen[i]:
				t.Fatalf("ToCleanUp selected %s twice", r.Name)
			case i == newRS:
				t.Fatalf("ToCleanUp selected the new ReplicaSet %s", r.Name)
			case r.Deleting:
				t.Fatalf("ToCleanUp selected %s, which is being deleted", r.Name)
			case r.Replicas != 0 || r.StatusReplicas != 0:
				t.Fatalf("ToCleanUp selected %s, which has replicas (%d/%d)", r.Name, r.Replicas, r.StatusReplicas)
			case r.Generation > r.ObservedGeneration:
				t.Fatalf("ToCleanUp selected %s, whose generation is not observed", r.Name)
			}
			seen[i] = true
		}
		if limit == nil && got != nil {
			t.Fatalf("ToCleanUp with no limit = %v, want nil", got)
		}
	})
}

func TestCleanupSubstituteKeepsTheLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss, newRS, limit := genCleanupInput(t)
		if limit == nil {
			limit = ptrTo[int32](0)
		}
		upstream := ToCleanUp(rss, newRS, limit, CleanupUpstream)
		substitute := ToCleanUp(rss, newRS, limit, CleanupSubstitute)
		cleanable, deletable := 0, 0
		for i, r := range rss {
			if i == newRS || r.Deleting {
				continue
			}
			cleanable++
			if r.Replicas == 0 && r.StatusReplicas == 0 && r.Generation <= r.ObservedGeneration {
				deletable++
			}
		}
		diff := max(cleanable-max(int(*limit), 0), 0)
		if want := min(diff, deletable); len(substitute) != want {
			t.Fatalf("CleanupSubstitute selected %d, want min(diff %d, deletable %d)", len(substitute), diff, deletable)
		}
		if len(upstream) > len(substitute) || !slices.Equal(upstream, substitute[:len(upstream)]) {
			t.Fatalf("CleanupUpstream %v is not a prefix of CleanupSubstitute %v", upstream, substitute)
		}
		if want := referenceCleanup(rss, newRS, int(*limit)); !slices.Equal(upstream, want) {
			t.Fatalf("CleanupUpstream = %v, reference = %v", upstream, want)
		}
	})
}

// referenceCleanup is upstream's cleanup written plainly, for inputs
// whose revisions all parse: sort a copy stably by (revision, creation
// time, name) and look at the first diff.
func referenceCleanup(rss []ReplicaSet[tmpl], newRS, limit int) []int {
	var old []int
	for i, r := range rss {
		if i != newRS && !r.Deleting {
			old = append(old, i)
		}
	}
	diff := len(old) - max(limit, 0)
	if diff <= 0 {
		return nil
	}
	sort.SliceStable(old, func(a, b int) bool {
		ra, _ := Revision(rss[old[a]].Annotations)
		rb, _ := Revision(rss[old[b]].Annotations)
		if ra != rb {
			return ra < rb
		}
		return createdBefore(&rss[old[a]], &rss[old[b]])
	})
	var out []int
	for _, i := range old[:diff] {
		r := rss[i]
		if r.Replicas == 0 && r.StatusReplicas == 0 && r.Generation <= r.ObservedGeneration {
			out = append(out, i)
		}
	}
	return out
}
