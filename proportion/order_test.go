package proportion

import (
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/field"
)

var (
	olderTime = time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	oldTime   = time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	newTime   = time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
)

func names(rss []ReplicaSet) []string {
	var out []string
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

// TestSortProbe checks the orders of upstream's ReplicaSetsBySizeNewer and
// ReplicaSetsBySizeOlder (pkg/controller/controller_utils.go) on
// x(2,t1) y(5,t2) z(2,t3) w(2,t3), as in docs/deployment.md#proportional-scaling.
func TestSortProbe(t *testing.T) {
	t1, t2, t3 := olderTime, oldTime, newTime
	in := []ReplicaSet{
		{Name: "x", Replicas: 2, CreationTime: t1},
		{Name: "y", Replicas: 5, CreationTime: t2},
		{Name: "z", Replicas: 2, CreationTime: t3},
		{Name: "w", Replicas: 2, CreationTime: t3},
	}
	tests := []struct {
		name string
		cmp  func(a, b ReplicaSet) int
		want []string
	}{
		{name: "BySizeNewer", cmp: BySizeNewer, want: []string{"y", "z", "w", "x"}},
		{name: "BySizeOlder", cmp: BySizeOlder, want: []string{"y", "x", "w", "z"}},
		{name: "ByCreation", cmp: ByCreation, want: []string{"x", "y", "w", "z"}},
	}
	for _, tt := range tests {
		got := slices.Clone(in)
		slices.SortFunc(got, tt.cmp)
		if diff := cmp.Diff(tt.want, names(got)); diff != "" {
			t.Errorf("slices.SortFunc(probe, %s) mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestByCreationComparesInstants(t *testing.T) {
	a := ReplicaSet{Name: "a", CreationTime: oldTime}
	b := ReplicaSet{Name: "b", CreationTime: oldTime.In(time.FixedZone("UTC+2", 2*3600))}
	if got := ByCreation(a, b); got >= 0 {
		t.Errorf("ByCreation(a, b) with the same instant in two zones = %d, want < 0 (by name)", got)
	}
	if got := ByCreation(a, a); got != 0 {
		t.Errorf("ByCreation(a, a) = %d, want 0", got)
	}
}

func TestActiveOrLatest(t *testing.T) {
	rs := func(name string, n int32, at time.Time) ReplicaSet {
		return ReplicaSet{Name: name, Replicas: n, CreationTime: at}
	}
	tests := []struct {
		name   string
		rss    []ReplicaSet
		newRS  int
		want   int
		wantOK bool
	}{
		{name: "nil", rss: nil, newRS: -1, want: -1, wantOK: false},
		{name: "only new, active", rss: []ReplicaSet{rs("v1", 3, newTime)}, newRS: 0, want: 0, wantOK: true},
		{name: "only new, empty", rss: []ReplicaSet{rs("v1", 0, newTime)}, newRS: 0, want: 0, wantOK: true},
		{name: "single active old", rss: []ReplicaSet{rs("v2", 0, newTime), rs("v1", 5, oldTime)}, newRS: 0, want: 1, wantOK: true},
		{name: "none active: new", rss: []ReplicaSet{rs("v1", 0, olderTime), rs("v3", 0, newTime), rs("v2", 0, oldTime)}, newRS: 0, want: 0, wantOK: true},
		{name: "none active, no new: newest old", rss: []ReplicaSet{rs("v1", 0, olderTime), rs("v3", 0, newTime), rs("v2", 0, oldTime)}, newRS: -1, want: 1, wantOK: true},
		{name: "none active, no new, same time: larger name", rss: []ReplicaSet{rs("b", 0, oldTime), rs("c", 0, oldTime), rs("a", 0, oldTime)}, newRS: -1, want: 1, wantOK: true},
		{name: "two active", rss: []ReplicaSet{rs("v2", 1, newTime), rs("v1", 5, oldTime)}, newRS: 0, want: -1, wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.rss)
			got, ok, err := ActiveOrLatest(tt.rss, tt.newRS)
			if err != nil || got != tt.want || ok != tt.wantOK {
				t.Errorf("ActiveOrLatest(%v, %d) = %d, %v, %v; want %d, %v, nil", names(tt.rss), tt.newRS, got, ok, err, tt.want, tt.wantOK)
			}
			if diff := cmp.Diff(before, tt.rss); diff != "" {
				t.Errorf("ActiveOrLatest modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

func TestActiveOrLatestErrors(t *testing.T) {
	two := []ReplicaSet{{Name: "a", Replicas: 1}, {Name: "b", Replicas: 1}}
	tests := []struct {
		name  string
		rss   []ReplicaSet
		newRS int
		err   string
		is    error
	}{
		{name: "index too large", rss: two, newRS: 2, err: "proportion: newRS: 2 is out of range [-1, 2)", is: field.ErrIndex},
		{name: "index too small", rss: two, newRS: -2, err: "proportion: newRS: -2 is out of range [-1, 2)", is: field.ErrIndex},
		{name: "index into nil", rss: nil, newRS: 0, err: "proportion: newRS: 0 is out of range [-1, 0)", is: field.ErrIndex},
		{name: "negative replicas", rss: []ReplicaSet{{Name: "a"}, {Name: "b", Replicas: -1}}, newRS: -1,
			err: "proportion: rss[1].Replicas: -1 must not be negative", is: field.ErrNegative},
		{name: "negative available", rss: []ReplicaSet{{Name: "a", AvailableReplicas: -3}}, newRS: -1,
			err: "proportion: rss[0].AvailableReplicas: -3 must not be negative", is: field.ErrNegative},
		{name: "duplicate", rss: []ReplicaSet{{Name: "a"}, {Name: "b"}, {Name: "a"}}, newRS: -1,
			err: `proportion: rss[2].Name: "a" duplicates rss[0].Name`, is: field.ErrDuplicate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := ActiveOrLatest(tt.rss, tt.newRS)
			if err == nil || err.Error() != tt.err || !errors.Is(err, tt.is) || got != -1 || ok {
				t.Errorf("ActiveOrLatest(%v, %d) = %d, %v, %v; want -1, false, %q wrapping %v", names(tt.rss), tt.newRS, got, ok, err, tt.err, tt.is)
			}
		})
	}
}

// TestDuplicateNameReportsFirstInIndexOrder checks that the pairwise
// check (small inputs) and the sorting check (large inputs) name the same
// pair: the smallest later index and the first ReplicaSet with its name.
func TestDuplicateNameReportsFirstInIndexOrder(t *testing.T) {
	for _, n := range []int{5, 40} {
		rss := make([]ReplicaSet, n)
		for i := range rss {
			rss[i].Name = "rs-" + strconv.Itoa(i)
		}
		rss[n-1].Name = "rs-1" // later duplicate of a different name
		rss[3].Name = "rs-2"   // the first duplicate in index order
		want := `proportion: rss[3].Name: "rs-2" duplicates rss[2].Name`
		for _, scratch := range [][]int{nil, make([]int, n)} {
			if err := checkNames(rss, scratch); err == nil || err.Error() != want {
				t.Errorf("checkNames(%d ReplicaSets, scratch %d) = %v, want %q", n, len(scratch), err, want)
			}
		}
	}
}
