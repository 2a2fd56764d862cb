package cloneset

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// parseLabels reads kruise's test notation "k=v,k2=v2"; parts without '='
// are ignored, as in kruise's test.
func parseLabels(s string) map[string]string {
	l := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(part, "="); ok {
			l[k] = v
		}
	}
	return l
}

// Cases of kruise's TestScatterPodsByRule (pkg/util/updatesort), plus the
// floor variant (docs/cloneset.md#s2-scatter-round-clumping).
func TestScatterByTerm(t *testing.T) {
	term := ScatterTerm{Key: "labelA", Value: "AAA"}
	tests := []struct {
		name     string
		labels   []string
		grouping ScatterGrouping
		want     []int
	}{
		{name: "no label", labels: []string{""}, want: []int{0}},
		{name: "only one scattered pod", labels: []string{"labelA=AAA"}, want: []int{0}},
		{name: "odd scattered + odd ordinary", labels: []string{"labelA=AAA", "bbb"}, want: []int{0, 1}},
		{name: "even scattered + even ordinary", labels: []string{"", "", "", "", "labelA=AAA", "labelA=AAA"}, want: []int{4, 0, 1, 2, 3, 5}},
		{name: "odd scattered + odd ordinary", labels: []string{"", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"}, want: []int{3, 0, 1, 4, 2, 5}},
		{name: "even scattered + odd ordinary", labels: []string{"", "", "", "labelA=AAA", "", "", "labelA=AAA"}, want: []int{3, 0, 1, 2, 4, 5, 6}},
		{name: "odd scattered + even ordinary", labels: []string{"", "", "", "", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"}, want: []int{6, 0, 1, 2, 7, 3, 4, 5, 8}},
		{name: "more scattered than ordinary (S2 clumping)", labels: []string{"", "", "labelA=AAA", "labelA=AAA", "labelA=AAA", "labelA=AAA"}, want: []int{2, 3, 0, 4, 1, 5}},
		{name: "S2 with ScatterFloor", labels: []string{"", "", "labelA=AAA", "labelA=AAA", "labelA=AAA", "labelA=AAA"}, grouping: ScatterFloor, want: []int{2, 0, 3, 1, 4, 5}},
		{name: "odd + odd, more scattered", labels: []string{"", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"}, want: []int{3, 0, 1, 4, 2, 5}},
		{name: "even + odd, more scattered", labels: []string{"", "", "labelA=AAA", "", "labelA=AAA", "labelA=AAA", "labelA=AAA", "labelA=AAA", "labelA=AAA"}, want: []int{2, 4, 0, 5, 6, 1, 7, 3, 8}},
		{name: "odd + even, more scattered", labels: []string{"", "labelA=AAA", "", "labelA=AAA", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"}, want: []int{1, 0, 3, 2, 6, 4, 7, 5, 8}},
		{name: "invalid label", labels: []string{"", "", "", "", "ee", "a", "", "labelA=AAA", "labelA=AAA", "labelA=AAA,labelB=BBB"}, want: []int{7, 0, 1, 2, 3, 8, 4, 5, 6, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ls := make([]map[string]string, len(tt.labels))
			for i, s := range tt.labels {
				ls[i] = parseLabels(s)
			}
			pods := labelled(ls...)
			got := scatterByTerm(term, tt.grouping, pods, allIndexes(len(pods)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scatterByTerm mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Cases of kruise's TestSort and TestGenerateRules: the first
// len(want) pods are the candidates (a nil label set is a pod kruise's
// list does not hold, here an inactive pod), the rest only count toward
// the totals.
func TestScatterSort(t *testing.T) {
	A := ScatterTerm{Key: "labelA", Value: "AAA"}
	B := ScatterTerm{Key: "labelB", Value: "BBB"}
	C := ScatterTerm{Key: "labelC", Value: "CCC"}
	none := map[string]string{}
	a := map[string]string{"labelA": "AAA"}
	b := map[string]string{"labelB": "BBB"}
	c := map[string]string{"labelC": "CCC"}
	ab := map[string]string{"labelA": "AAA", "labelB": "BBB"}
	ac := map[string]string{"labelA": "AAA", "labelC": "CCC"}
	bc := map[string]string{"labelB": "BBB", "labelC": "CCC"}
	x := map[string]string{"sdfb": "eee"}
	y := map[string]string{"dsf": "same"}
	xa := map[string]string{"sdfb": "eee", "labelA": "AAA"}
	tests := []struct {
		name   string
		labels []map[string]string
		terms  []ScatterTerm
		want   []int
	}{
		{name: "a scattered pod", labels: []map[string]string{ab}, terms: []ScatterTerm{A}, want: []int{0}},
		{name: "all ordinary pods", labels: []map[string]string{none, none, none, none, none, none}, terms: nil, want: []int{0, 1, 2, 3, 4, 5}},
		{name: "one pod one label", labels: []map[string]string{none, none, none, none, a, a}, terms: []ScatterTerm{A}, want: []int{4, 0, 1, 2, 3, 5}},
		{name: "one pod more labels", labels: []map[string]string{none, none, none, none, x, y, b, a, a, ab}, terms: []ScatterTerm{B}, want: []int{6, 0, 1, 2, 3, 4, 5, 7, 8, 9}},
		{name: "2 dimensions, one label each", labels: []map[string]string{b, b, none, none, a, a}, terms: []ScatterTerm{A, B}, want: []int{0, 4, 2, 3, 5, 1}},
		{name: "2 dimensions, pod with both", labels: []map[string]string{none, none, none, b, ab, a}, terms: []ScatterTerm{A, B}, want: []int{4, 0, 1, 2, 5, 3}},
		{name: "2 dimensions, B then A", labels: []map[string]string{none, none, none, none, x, y, b, a, a, b}, terms: []ScatterTerm{B, A}, want: []int{7, 6, 0, 1, 2, 3, 4, 5, 9, 8}},
		{name: "2 dimensions, A then B", labels: []map[string]string{none, none, none, none, x, y, b, a, a, b}, terms: []ScatterTerm{A, B}, want: []int{6, 7, 0, 1, 2, 3, 4, 5, 8, 9}},
		{name: "same pods both labels, even+even", labels: []map[string]string{none, none, none, none, x, y, ab, none, none, ab}, terms: []ScatterTerm{A, B}, want: []int{6, 0, 1, 2, 3, 4, 5, 7, 8, 9}},
		{name: "same pods both labels, even+odd", labels: []map[string]string{none, none, none, x, y, ab, none, none, ab}, terms: []ScatterTerm{A, B}, want: []int{5, 0, 1, 2, 3, 4, 6, 7, 8}},
		{name: "odd+odd, two non-candidates", labels: []map[string]string{none, none, none, a, x, y, ab, none, none, none}, terms: []ScatterTerm{A, B}, want: []int{3, 0, 1, 2, 4, 5, 7, 6}},
		{name: "odd+odd, one non-candidate", labels: []map[string]string{none, none, none, a, none, none, x, y, ab, none, none, ab}, terms: []ScatterTerm{A, B}, want: []int{0, 1, 2, 4, 3, 5, 6, 7, 9, 10, 8}},
		{name: "more scattered, even+even", labels: []map[string]string{none, none, none, a, xa, y, ab, none, none, ab}, terms: []ScatterTerm{A, B}, want: []int{6, 3, 0, 1, 4, 2, 5, 7, 8, 9}},
		{name: "more scattered, even+odd", labels: []map[string]string{none, a, a, x, y, ab, none, none, ab}, terms: []ScatterTerm{A, B}, want: []int{5, 1, 0, 3, 2, 4, 6, 7, 8}},
		{name: "more scattered, odd+odd", labels: []map[string]string{a, none, none, a, xa, y, ab, none, none, ab}, terms: []ScatterTerm{A, B}, want: []int{1, 0, 2, 3, 5, 4, 7, 6}},
		{name: "more scattered, odd+odd, 11 candidates", labels: []map[string]string{none, none, a, a, none, a, x, y, ab, none, none, ab}, terms: []ScatterTerm{A, B}, want: []int{0, 2, 1, 4, 3, 6, 7, 5, 9, 10, 8}},
		{name: "3 dimensions, one label each", labels: []map[string]string{none, a, a, b, b, c, c, c, c, c}, terms: []ScatterTerm{A, B, C}, want: []int{3, 1, 5, 0, 6, 7, 8, 9, 2, 4}},
		{name: "3 dimensions, more labels", labels: []map[string]string{none, a, ac, bc, b, none, none, c, c, c}, terms: []ScatterTerm{A, B, C}, want: []int{3, 2, 0, 7, 8, 5, 6, 9, 1, 4}},
		{name: "continuous sort 1", labels: []map[string]string{none, none, none, none, a, a, a}, terms: []ScatterTerm{A}, want: []int{0, 1, 4, 2, 3, 5}},
		{name: "continuous sort 2", labels: []map[string]string{a, a, none, none, none, none, none, none, none, a}, terms: []ScatterTerm{A}, want: []int{2, 0, 3, 4, 5, 6, 1}},
		{name: "an inactive pod in the list", labels: []map[string]string{none, a, ac, bc, b, nil, none, none, c, c, c}, terms: []ScatterTerm{A, B, C}, want: []int{3, 2, 0, 8, 9, 6, 7, 10, 1, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pods := labelled(tt.labels...)
			var idx []int
			inactive := 0
			for i := range pods {
				if tt.labels[i] == nil {
					pods[i].Terminating = true
					inactive++
					continue
				}
				if i < len(tt.want)+inactive {
					idx = append(idx, i)
				}
			}
			got := scatterSort(tt.terms, ScatterRound, pods, idx)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scatterSort mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScatterTerms(t *testing.T) {
	A := ScatterTerm{Key: "labelA", Value: "AAA"}
	B := ScatterTerm{Key: "labelB", Value: "BBB"}
	tests := []struct {
		name   string
		labels []map[string]string
		terms  []ScatterTerm
		want   []ScatterTerm
	}{
		{name: "kruise: one term", labels: []map[string]string{{}, {}, {}, {}, {"labelA": "AAA"}, {"labelA": "AAA"}}, terms: []ScatterTerm{A}, want: []ScatterTerm{A}},
		{name: "kruise: tie keeps spec order", labels: []map[string]string{{}, {}, {"labelB": "B"}, {"labelB": "BBB"}, {"labelA": "AAA"}, {"labelA": "AAA"}}, terms: []ScatterTerm{A, B}, want: []ScatterTerm{A, B}},
		{name: "more matches first", labels: []map[string]string{{"labelB": "BBB"}, {"labelB": "BBB"}, {"labelA": "AAA"}}, terms: []ScatterTerm{A, B}, want: []ScatterTerm{B, A}},
		{name: "unmatched terms dropped", labels: []map[string]string{{"labelB": "BBB"}}, terms: []ScatterTerm{A, B}, want: []ScatterTerm{B}},
		{name: "one term used even if nothing matches", labels: []map[string]string{{}}, terms: []ScatterTerm{A}, want: []ScatterTerm{A}},
	}
	for _, tt := range tests {
		pods := labelled(tt.labels...)
		got := scatterTerms(tt.terms, pods, allIndexes(len(pods)))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: scatterTerms mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestScatterKeepsOrderWithinGroups: a scatter term only interleaves; the
// matching candidates keep their relative order, and so do the others.
func TestScatterKeepsOrderWithinGroups(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "pods")
		ls := make([]map[string]string, n)
		for i := range ls {
			ls[i] = map[string]string{}
			if rapid.Bool().Draw(t, "matches") {
				ls[i]["zone"] = "b"
			}
		}
		pods := labelled(ls...)
		for i := range pods {
			pods[i].Terminating = rapid.IntRange(0, 9).Draw(t, "inactive") == 0
		}
		var idx []int
		for i := range pods {
			if !pods[i].Terminating && rapid.Bool().Draw(t, "candidate") {
				idx = append(idx, i)
			}
		}
		idx = rapid.Permutation(idx).Draw(t, "order")
		grouping := rapid.SampledFrom([]ScatterGrouping{ScatterRound, ScatterFloor}).Draw(t, "grouping")
		got := scatterByTerm(ScatterTerm{Key: "zone", Value: "b"}, grouping, pods, idx)
		split := func(order []int) (m, u []int) {
			for _, i := range order {
				if pods[i].Labels["zone"] == "b" {
					m = append(m, i)
				} else {
					u = append(u, i)
				}
			}
			return m, u
		}
		m1, u1 := split(idx)
		m2, u2 := split(got)
		if !cmp.Equal(m1, m2) || !cmp.Equal(u1, u2) {
			t.Fatalf("scatter reordered within a group: %v -> %v", idx, got)
		}
		if len(m1) > 1 && len(u1) > 1 && got[len(got)-1] != m1[len(m1)-1] {
			t.Fatalf("the last matching candidate %d is not last in %v", m1[len(m1)-1], got)
		}
	})
}
