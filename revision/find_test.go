package revision

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestFindNew(t *testing.T) {
	deployment := image("nginx:2")
	tests := []struct {
		name   string
		rss    []ReplicaSet[tmpl]
		want   int
		wantOK bool
		reason string
	}{
		{name: "different hash, same template", want: 1, wantOK: true,
			rss: []ReplicaSet[tmpl]{rs("old", "1", 0, "nginx:1"), rs("new", "2", 1, "nginx:2")}},
		{name: "two matches: the oldest", want: 2, wantOK: true,
			rss:    []ReplicaSet[tmpl]{rs("old", "1", 0, "nginx:1"), rs("dup", "3", 5, "nginx:2"), rs("new", "2", 1, "nginx:2")},
			reason: "upstream sorts by creation time and takes the first match"},
		{name: "no match", want: -1, wantOK: false,
			rss: []ReplicaSet[tmpl]{rs("old", "1", 0, "nginx:1")}},
		{name: "empty", want: -1, wantOK: false},
		{name: "same time: smaller name", want: 1, wantOK: true,
			rss: []ReplicaSet[tmpl]{rs("b", "1", 0, "nginx:2"), rs("a", "2", 0, "nginx:2")}},
		{name: "same time and name: first", want: 0, wantOK: true,
			rss: []ReplicaSet[tmpl]{rs("a", "1", 0, "nginx:2"), rs("a", "2", 0, "nginx:2")}},
		{name: "deleting ReplicaSets count", want: 0, wantOK: true,
			rss: func() []ReplicaSet[tmpl] {
				r := rs("gone", "1", 0, "nginx:2")
				r.Deleting = true
				return []ReplicaSet[tmpl]{r, rs("new", "2", 1, "nginx:2")}
			}(),
			reason: "upstream does not filter deleting ReplicaSets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.rss)
			got, ok := FindNew(&deployment, tt.rss)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("FindNew(nginx:2, %s) = %d, %v, want %d, %v (%s)", names(tt.rss), got, ok, tt.want, tt.wantOK, tt.reason)
			}
			if diff := cmp.Diff(before, tt.rss); diff != "" {
				t.Errorf("FindNew modified rss (-before +after):\n%s", diff)
			}
		})
	}
}

func TestFindOld(t *testing.T) {
	deployment := image("nginx:2")
	scaled := func(r ReplicaSet[tmpl], n int32) ReplicaSet[tmpl] { r.Replicas = n; return r }
	tests := []struct {
		name        string
		rss         []ReplicaSet[tmpl]
		all, active []int
	}{
		{name: "old and new",
			rss: []ReplicaSet[tmpl]{scaled(rs("new", "2", 1, "nginx:2"), 3), scaled(rs("old", "1", 0, "nginx:1"), 2)},
			all: []int{1}, active: []int{1}},
		{name: "no new ReplicaSet",
			rss: []ReplicaSet[tmpl]{scaled(rs("old", "1", 0, "nginx:1"), 2)},
			all: []int{0}, active: []int{0}},
		{name: "two new ReplicaSets: the younger is old",
			rss: []ReplicaSet[tmpl]{scaled(rs("dup", "3", 5, "nginx:2"), 1), rs("new", "2", 1, "nginx:2"), rs("old", "1", 0, "nginx:1")},
			all: []int{0, 2}, active: []int{0}},
		{name: "only the new ReplicaSet",
			rss: []ReplicaSet[tmpl]{rs("new", "2", 1, "nginx:2")}},
		{name: "same UID as the new one",
			rss: func() []ReplicaSet[tmpl] {
				a, b := rs("new", "2", 1, "nginx:2"), scaled(rs("copy", "1", 0, "nginx:1"), 1)
				b.UID = a.UID
				return []ReplicaSet[tmpl]{a, b, rs("old", "1", 0, "nginx:1")}
			}(),
			all: []int{2}},
		{name: "empty UIDs do not match each other",
			rss: func() []ReplicaSet[tmpl] {
				a, b := rs("new", "2", 1, "nginx:2"), rs("old", "1", 0, "nginx:1")
				a.UID, b.UID = "", ""
				return []ReplicaSet[tmpl]{a, b}
			}(),
			all: []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all, active := FindOld(&deployment, tt.rss)
			if !slices.Equal(all, tt.all) || !slices.Equal(active, tt.active) {
				t.Errorf("FindOld(nginx:2, %s) = %v, %v, want %v, %v", names(tt.rss), all, active, tt.all, tt.active)
			}
		})
	}
}

func TestFindNewIsIndependentOfOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "n")
		rss := make([]ReplicaSet[tmpl], n)
		for i := range rss {
			rss[i] = rs("rs"+string(rune('a'+i)), "1",
				rapid.IntRange(0, 3).Draw(t, "minutes"),
				rapid.SampledFrom([]string{"nginx:1", "nginx:2"}).Draw(t, "image"))
		}
		deployment := image("nginx:2")
		perm := rapid.Permutation(rss).Draw(t, "permutation")
		i, ok := FindNew(&deployment, rss)
		j, okP := FindNew(&deployment, perm)
		if ok != okP || ok && rss[i].Name != perm[j].Name {
			t.Fatalf("FindNew found %v (%v) in %s but %v (%v) in %s", nameAt(rss, i), ok, names(rss), nameAt(perm, j), okP, names(perm))
		}
		if ok {
			for k := range rss {
				if EqualIgnoreHash(&deployment, &rss[k].Template) && createdBefore(&rss[k], &rss[i]) {
					t.Fatalf("FindNew chose %s but %s matches and is older", rss[i].Name, rss[k].Name)
				}
			}
		}
	})
}

func names(rss []ReplicaSet[tmpl]) string {
	var s []string
	for _, r := range rss {
		s = append(s, r.Name)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func nameAt(rss []ReplicaSet[tmpl], i int) string {
	if i < 0 {
		return "none"
	}
	return rss[i].Name
}
