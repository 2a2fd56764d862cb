package ownership

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestValidLabelChecksAgreeWithTheirErrors(t *testing.T) {
	chars := rapid.SampledFrom([]rune("aZ9-_./ é"))
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOfN(chars, 0, 70, -1).Draw(t, "s")
		if rapid.IntRange(0, 3).Draw(t, "long") == 0 {
			// A prefix near the 253-character limit, then a name.
			n := rapid.IntRange(240, 260).Draw(t, "prefixLength")
			prefix := []byte(strings.Repeat("a", n))
			for i := 0; i < n; i += rapid.IntRange(2, 70).Draw(t, "labelLength") {
				if i > 0 && i < n-1 {
					prefix[i] = '.'
				}
			}
			s = string(prefix) + "/" + s
		}
		if got, want := validLabelKey(s), len(labelKeyErrors(s)) == 0; got != want {
			t.Fatalf("validLabelKey(%q) = %v, labelKeyErrors says %v", s, got, want)
		}
		if got, want := validLabelValue(s), len(labelValueErrors(s)) == 0; got != want {
			t.Fatalf("validLabelValue(%q) = %v, labelValueErrors says %v", s, got, want)
		}
	})
}

func TestMatchesAndClaimObjectDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	sel := &Selector{
		MatchLabels:      map[string]string{"app": "web", "example.com/team": "a"},
		MatchExpressions: []Requirement{{Key: "tier", Operator: NotIn, Values: []string{"canary"}}, {Key: "legacy", Operator: DoesNotExist}},
	}
	labels := map[string]string{"app": "web", "example.com/team": "a", "tier": "stable"}
	if n := testing.AllocsPerRun(100, func() { _, _ = sel.Matches(labels) }); n != 0 {
		t.Errorf("Matches allocates %v times per call, want 0", n)
	}
	c := &Controller{Namespace: "default", UID: "u", Selector: sel}
	objs := []Object{
		{Namespace: "default", Labels: labels},
		{Namespace: "default", Labels: labels, OwnerReferences: []OwnerReference{{UID: "u", Controller: true}}},
		{Namespace: "default", OwnerReferences: []OwnerReference{{UID: "u", Controller: true}}},
	}
	for i := range objs {
		if n := testing.AllocsPerRun(100, func() { _, _ = ClaimObject(c, &objs[i], nil) }); n != 0 {
			t.Errorf("ClaimObject on object %d allocates %v times per call, want 0", i, n)
		}
	}
}

func BenchmarkSelectorMatches(b *testing.B) {
	sel := &Selector{
		MatchLabels:      map[string]string{"app": "web", "example.com/team": "a"},
		MatchExpressions: []Requirement{{Key: "tier", Operator: In, Values: []string{"stable", "canary"}}},
	}
	labels := map[string]string{"app": "web", "example.com/team": "a", "tier": "stable", "pod-template-hash": "5d4c"}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = sel.Matches(labels)
	}
}

func BenchmarkClaimAll(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			c := &Controller{Namespace: "default", Name: "web", UID: "u-web", Selector: &Selector{MatchLabels: map[string]string{"app": "web"}}}
			objs := make([]Object, n)
			for i := range objs {
				objs[i] = Object{Namespace: "default", Name: fmt.Sprint("rs-", i), Labels: map[string]string{"app": "web", "pod-template-hash": fmt.Sprint(i)}}
				if i%2 == 0 {
					objs[i].OwnerReferences = []OwnerReference{{Kind: KindDeployment, Name: "web", UID: "u-web", Controller: true}}
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = ClaimAll(c, objs, nil)
			}
		})
	}
}
