package proportion

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/field"
)

// rsAnn is a ReplicaSet last sized by a deployment with replicas oldR and
// R+maxSurge oldMax, as upstream's TestScale fixtures are.
func rsAnn(name string, n int32, at time.Time, oldR, oldMax int32) ReplicaSet {
	return ReplicaSet{
		Name:            name,
		CreationTime:    at,
		Replicas:        n,
		DesiredReplicas: FormatReplicas(oldR),
		MaxReplicas:     FormatReplicas(oldMax),
	}
}

func rolling(r, surge int32) Deployment {
	return Deployment{Replicas: r, MaxSurge: surge, RollingUpdate: true}
}

type scaleCase struct {
	name     string
	d        Deployment
	rss      []ReplicaSet
	newRS    int
	mode     Mode
	want     []int32 // Targets[i].Replicas
	annotate []bool  // Targets[i].Annotate; nil: every active one for RuleProportional (the fixtures' annotations are stale), else where the size changes
	order    []int
	rule     Rule
	clamped  bool
	reason   string
}

func scaleCases() []scaleCase {
	at := func(h int) time.Time { return olderTime.Add(time.Duration(h) * time.Hour) }
	b1 := []ReplicaSet{rsAnn("new", 2, at(9), 8, 8)}
	for i, name := range []string{"a", "b", "c", "d", "e", "f"} {
		b1 = append(b1, rsAnn(name, 1, at(i), 8, 8))
	}
	saturatedNew := rsAnn("v2", 3, newTime, 3, 3)
	saturatedNew.AvailableReplicas = 3
	brokenNew := rsAnn("v2", 2, newTime, 2, 3)
	return []scaleCase{
		// Upstream TestScale (pkg/controller/deployment/sync_test.go), maxSurge
		// 0 unless noted.
		{name: "normal scaling event: 10 -> 12", d: rolling(12, 0), newRS: 0,
			rss: []ReplicaSet{rsAnn("v1", 10, newTime, 10, 10)}, want: []int32{12}, order: []int{0}, rule: RuleActiveOrLatest},
		{name: "normal scaling event: 10 -> 5", d: rolling(5, 0), newRS: 0,
			rss: []ReplicaSet{rsAnn("v1", 10, newTime, 10, 10)}, want: []int32{5}, order: []int{0}, rule: RuleActiveOrLatest},
		{name: "proportional scaling: 5 -> 10", d: rolling(10, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 2, newTime, 5, 5), rsAnn("v1", 3, oldTime, 5, 5)},
			want: []int32{4, 6}, order: []int{1, 0}, rule: RuleProportional},
		{name: "proportional scaling: 5 -> 3", d: rolling(3, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 2, newTime, 5, 5), rsAnn("v1", 3, oldTime, 5, 5)},
			want: []int32{1, 2}, order: []int{1, 0}, rule: RuleProportional, reason: "3*3/5 = 1.8 rounds to 2, 2*3/5 = 1.2 to 1"},
		{name: "proportional scaling: 9 -> 4", d: rolling(4, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 8, newTime, 9, 9), rsAnn("v1", 1, oldTime, 9, 9)},
			want: []int32{4, 0}, order: []int{0, 1}, rule: RuleProportional},
		{name: "proportional scaling: 7 -> 10", d: rolling(10, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v3", 2, newTime, 7, 7), rsAnn("v2", 3, oldTime, 7, 7), rsAnn("v1", 2, olderTime, 7, 7)},
			want: []int32{3, 4, 3}, order: []int{1, 0, 2}, rule: RuleProportional, reason: "each +1: 4.29, 2.86 and 2.86 round to 4, 3, 3"},
		{name: "proportional scaling: 13 -> 8", d: rolling(8, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v3", 2, newTime, 13, 13), rsAnn("v2", 8, oldTime, 13, 13), rsAnn("v1", 3, olderTime, 13, 13)},
			want: []int32{1, 5, 2}, order: []int{1, 2, 0}, rule: RuleProportional},
		{name: "leftover distribution: 3 -> 4", d: rolling(4, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v3", 1, newTime, 3, 3), rsAnn("v2", 1, oldTime, 3, 3), rsAnn("v1", 1, olderTime, 3, 3)},
			want: []int32{2, 1, 1}, order: []int{0, 1, 2}, rule: RuleProportional, reason: "fractions round to 0; the newest takes the leftover"},
		{name: "leftover distribution: 3 -> 2", d: rolling(2, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v3", 1, newTime, 3, 3), rsAnn("v2", 1, oldTime, 3, 3), rsAnn("v1", 1, olderTime, 3, 3)},
			want: []int32{1, 1, 0}, order: []int{2, 1, 0}, rule: RuleProportional, reason: "the oldest gives up the leftover"},
		{name: "no new ReplicaSet: 4 -> 5", d: rolling(5, 0), newRS: -1,
			rss:  []ReplicaSet{rsAnn("v2", 2, oldTime, 4, 4), rsAnn("v1", 2, olderTime, 4, 4)},
			want: []int32{3, 2}, order: []int{0, 1}, rule: RuleProportional, reason: "2*5/4 = 2.5 rounds to 3; nothing is left for v1"},
		{name: "scaling to 0: 6 -> 0", d: rolling(0, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v3", 3, newTime, 6, 6), rsAnn("v2", 2, oldTime, 6, 6), rsAnn("v1", 1, olderTime, 6, 6)},
			want: []int32{0, 0, 0}, order: []int{0, 1, 2}, rule: RuleProportional},
		{name: "scaling from 0: 0 -> 6", d: rolling(6, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v3", 0, newTime, 6, 6), rsAnn("v2", 0, oldTime, 6, 6), rsAnn("v1", 0, olderTime, 6, 6)},
			want: []int32{6, 0, 0}, order: []int{0}, rule: RuleActiveOrLatest, reason: "none active: the new ReplicaSet takes all"},
		{name: "surge pods: 10 -> 20", d: rolling(20, 2), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 6, newTime, 10, 12), rsAnn("v1", 6, oldTime, 10, 12)},
			want: []int32{11, 11}, order: []int{0, 1}, rule: RuleProportional, reason: "6*22/12 = 11"},
		{name: "change both surge and size", d: rolling(50, 6), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 5, newTime, 10, 13), rsAnn("v1", 8, oldTime, 10, 13)},
			want: []int32{22, 34}, order: []int{1, 0}, rule: RuleProportional},
		{name: "change both size and template", d: rolling(14, 0), newRS: -1,
			rss:  []ReplicaSet{rsAnn("v2", 7, newTime, 10, 10), rsAnn("v1", 3, oldTime, 10, 10)},
			want: []int32{10, 4}, order: []int{0, 1}, rule: RuleProportional},
		{name: "saturated but broken new ReplicaSet does not affect old pods", d: rolling(2, 1), newRS: 0,
			rss:  []ReplicaSet{brokenNew, rsAnn("v1", 1, oldTime, 2, 3)},
			want: []int32{2, 1}, annotate: []bool{false, false}, order: []int{1, 0}, rule: RuleProportional,
			reason: "not available, so not saturated; the total already equals R+maxSurge"},
		// Upstream's scale (pkg/controller/deployment/sync.go) with one active
		// ReplicaSet, a saturated new one, and R 0 (docs/deployment.md#proportional-scaling).
		{name: "single active ReplicaSet (paused): 5 -> 8", d: rolling(8, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("new", 0, newTime, 5, 5), rsAnn("old", 5, oldTime, 5, 5)},
			want: []int32{0, 8}, order: []int{1}, rule: RuleActiveOrLatest, reason: "the only active ReplicaSet takes R; the new one stays 0"},
		{name: "all at 0, no new ReplicaSet: the newest takes R", d: rolling(4, 0), newRS: -1,
			rss:  []ReplicaSet{rsAnn("v1", 0, olderTime, 3, 3), rsAnn("v3", 0, newTime, 3, 3), rsAnn("v2", 0, oldTime, 3, 3)},
			want: []int32{0, 4, 0}, order: []int{1}, rule: RuleActiveOrLatest},
		{name: "saturated new ReplicaSet", d: rolling(3, 0), newRS: 0,
			rss:  []ReplicaSet{saturatedNew, rsAnn("v1", 1, oldTime, 3, 3), rsAnn("v0", 0, olderTime, 3, 3)},
			want: []int32{3, 0, 0}, order: []int{1}, rule: RuleSaturated, reason: "old ReplicaSets with pods go to 0; empty ones are not touched"},
		{name: "R -> 0", d: rolling(0, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("new", 3, newTime, 7, 7), rsAnn("old", 4, oldTime, 7, 7)},
			want: []int32{0, 0}, order: []int{1, 0}, rule: RuleProportional},
		// Other paths.
		{name: "no ReplicaSets", d: rolling(3, 1), newRS: -1, rss: nil, want: []int32{}, order: []int{}, rule: RuleNoReplicaSets},
		{name: "Recreate with two active ReplicaSets (B8)", d: Deployment{Replicas: 10}, newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 3, newTime, 8, 8), rsAnn("v1", 5, oldTime, 8, 8)},
			want: []int32{3, 5}, order: []int{}, rule: RuleNotRollingUpdate, reason: "upstream skips the split for Recreate"},
		{name: "annotations refreshed without a size change", d: rolling(8, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 3, newTime, 8, 9), rsAnn("v1", 5, oldTime, 8, 8), rsAnn("v0", 0, olderTime, 1, 1)},
			want: []int32{3, 5, 0}, annotate: []bool{true, false, false}, order: []int{1, 0}, rule: RuleProportional,
			reason: "upstream updates v2 only for its stale max-replicas, and never touches the empty v0"},
		// Upstream's leftover clamp (docs/deployment.md#b1-leftover-clamp).
		{name: "B1: scale-down across small ReplicaSets, Upstream", d: rolling(4, 0), newRS: 0, rss: b1,
			want: []int32{0, 1, 1, 1, 1, 1, 1}, order: []int{0, 1, 2, 3, 4, 5, 6}, rule: RuleProportional, clamped: true,
			reason: "halves round away from zero, so the old ones keep 1; the leftover -3 zeroes the new one and the total stays 6"},
		{name: "B1: scale-down across small ReplicaSets, Conserving", d: rolling(4, 0), newRS: 0, rss: b1, mode: Conserving,
			want:  []int32{1, 1, 1, 1, 0, 0, 0},
			order: []int{1, 2, 3, 4, 5, 6, 0}, rule: RuleProportional,
			reason: "shares 1 and 0.5 each: the three oldest halves round up, in BySizeOlder order"},
		{name: "7 -> 10, Conserving", d: rolling(10, 0), newRS: 0, mode: Conserving,
			rss:  []ReplicaSet{rsAnn("v3", 2, newTime, 7, 7), rsAnn("v2", 3, oldTime, 7, 7), rsAnn("v1", 2, olderTime, 7, 7)},
			want: []int32{3, 4, 3}, order: []int{0, 2, 1}, rule: RuleProportional, reason: "same as upstream: remainders 6/7, 2/7, 6/7"},
		// Overflow (docs/deployment.md#b2-product-overflow-in-the-fraction,
		// docs/deployment.md#b3-unbounded-maxsurge).
		{name: "B2: product beyond int32", d: rolling(200000, 0), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 50000, newTime, 100000, 100000), rsAnn("v1", 50000, oldTime, 100000, 100000)},
			want: []int32{100000, 100000}, order: []int{0, 1}, rule: RuleProportional, reason: "upstream's int32 50000*200000 wraps"},
		{name: "B3: huge maxSurge saturates", d: rolling(10, math.MaxInt32), newRS: 0,
			rss:  []ReplicaSet{rsAnn("v2", 3, newTime, 10, 13), rsAnn("v1", 10, oldTime, 10, 13)},
			want: []int32{495573149, 1651910498}, order: []int{1, 0}, rule: RuleProportional,
			reason: "Allowed = MaxInt32 instead of upstream's wrapped -2147483639"},
	}
}

func TestScale(t *testing.T) {
	for _, tt := range scaleCases() {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Scale(tt.d, tt.rss, tt.newRS, tt.mode)
			if err != nil {
				t.Fatalf("Scale(%+v, %v, %d, %v) error: %v", tt.d, names(tt.rss), tt.newRS, tt.mode, err)
			}
			want := Result{
				Targets:         make([]Target, len(tt.want)),
				Order:           tt.order,
				DesiredReplicas: tt.d.Replicas,
				MaxReplicas:     tt.d.MaxReplicas(),
				Allowed:         tt.d.Allowed(),
				Rule:            tt.rule,
				Clamped:         tt.clamped,
			}
			for i, n := range tt.want {
				want.Targets[i] = Target{Replicas: n, Annotate: n != tt.rss[i].Replicas}
				if tt.rule == RuleProportional {
					want.Targets[i].Annotate = tt.rss[i].Replicas > 0
				}
				if tt.annotate != nil {
					want.Targets[i].Annotate = tt.annotate[i]
				}
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Scale(%+v, %v, %d, %v) mismatch (-want +got):\n%s\nreason: %s", tt.d, names(tt.rss), tt.newRS, tt.mode, diff, tt.reason)
			}
		})
	}
}

func TestScaleErrors(t *testing.T) {
	two := []ReplicaSet{{Name: "a", Replicas: 1}, {Name: "b", Replicas: 1}}
	tests := []struct {
		name  string
		d     Deployment
		rss   []ReplicaSet
		newRS int
		mode  Mode
		err   string
		is    error
	}{
		{name: "negative replicas", d: Deployment{Replicas: -1}, rss: two, newRS: 0,
			err: "proportion: d.Replicas: -1 must not be negative", is: field.ErrNegative},
		{name: "negative maxSurge", d: Deployment{Replicas: 1, MaxSurge: -2}, rss: two, newRS: 0,
			err: "proportion: d.MaxSurge: -2 must not be negative", is: field.ErrNegative},
		{name: "negative status replicas", d: Deployment{StatusReplicas: math.MinInt32}, rss: two, newRS: 0,
			err: "proportion: d.StatusReplicas: -2147483648 must not be negative", is: field.ErrNegative},
		{name: "unknown mode", rss: two, newRS: 0, mode: 7,
			err: "proportion: mode: Mode(7) is neither Upstream nor Conserving", is: field.ErrUnsupported},
		{name: "index out of range", rss: two, newRS: 2,
			err: "proportion: newRS: 2 is out of range [-1, 2)", is: field.ErrIndex},
		{name: "negative ReplicaSet size", rss: []ReplicaSet{{Name: "a", Replicas: -5}}, newRS: -1,
			err: "proportion: rss[0].Replicas: -5 must not be negative", is: field.ErrNegative},
		{name: "duplicate names", rss: []ReplicaSet{{Name: "web-1"}, {Name: "web-2"}, {Name: "web-3"}, {Name: "web-4"}, {Name: "web-1"}}, newRS: -1,
			err: `proportion: rss[4].Name: "web-1" duplicates rss[0].Name`, is: field.ErrDuplicate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Scale(tt.d, tt.rss, tt.newRS, tt.mode)
			if err == nil || err.Error() != tt.err {
				t.Fatalf("Scale(%+v, %v, %d, %v) error = %v, want %q", tt.d, names(tt.rss), tt.newRS, tt.mode, err, tt.err)
			}
			var ie *field.Error
			if !errors.As(err, &ie) || !errors.Is(err, tt.is) {
				t.Errorf("Scale(...) error %#v is not an *field.Error wrapping %v", err, tt.is)
			}
			if got.Targets != nil || got.Order != nil || got.Rule != 0 {
				t.Errorf("Scale(...) with an error returned %+v, want the zero Result", got)
			}
		})
	}
}

// genInput draws a Deployment and its ReplicaSets: small or huge
// counts, distinct names, creation times with ties, annotations that are
// consistent, stale, invalid or absent, and sometimes a saturated new
// ReplicaSet.
func genInput(t *rapid.T) (Deployment, []ReplicaSet, int) {
	huge := rapid.Bool().Draw(t, "huge")
	count := rapid.Int32Range(0, 12)
	if huge {
		count = rapid.OneOf(rapid.Int32Range(0, 12), rapid.Int32Range(0, math.MaxInt32))
	}
	d := Deployment{
		Replicas:       count.Draw(t, "replicas"),
		MaxSurge:       count.Draw(t, "maxSurge"),
		StatusReplicas: count.Draw(t, "statusReplicas"),
		RollingUpdate:  rapid.IntRange(0, 4).Draw(t, "strategy") > 0,
	}
	n := rapid.IntRange(0, 7).Draw(t, "n")
	perm := rapid.Permutation([]string{"a", "b", "c", "d", "e", "f", "g"}).Draw(t, "names")
	oldR := count.Draw(t, "oldReplicas")
	oldMax := rapid.SampledFrom([]string{"", "0", "-1", "x", FormatReplicas(oldR), FormatReplicas(oldR + 1)}).Draw(t, "oldMax")
	rss := make([]ReplicaSet, n)
	for i := range rss {
		rss[i] = ReplicaSet{
			Name:            perm[i],
			CreationTime:    olderTime.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "hour")) * time.Hour),
			Replicas:        count.Draw(t, "rsReplicas"),
			DesiredReplicas: FormatReplicas(oldR),
			MaxReplicas:     oldMax,
		}
		if rapid.IntRange(0, 5).Draw(t, "tamper") == 0 {
			rss[i].MaxReplicas = rapid.SampledFrom([]string{"", "0", "1", "+3", "2147483648", FormatReplicas(count.Draw(t, "max"))}).Draw(t, "rsMax")
		}
		rss[i].AvailableReplicas = rapid.Int32Range(0, rss[i].Replicas).Draw(t, "available")
	}
	newRS := rapid.IntRange(-1, n-1).Draw(t, "newRS")
	if newRS >= 0 && rapid.IntRange(0, 4).Draw(t, "saturate") == 0 {
		rss[newRS].Replicas, rss[newRS].AvailableReplicas = d.Replicas, d.Replicas
		rss[newRS].DesiredReplicas = FormatReplicas(d.Replicas)
	}
	return d, rss, newRS
}

func mustScale(t *rapid.T, d Deployment, rss []ReplicaSet, newRS int, mode Mode) Result {
	res, err := Scale(d, rss, newRS, mode)
	if err != nil {
		t.Fatalf("Scale(%+v, %+v, %d, %v) error: %v", d, rss, newRS, mode, err)
	}
	return res
}

func sumTargets(ts []Target) int64 {
	var s int64
	for _, t := range ts {
		s += int64(t.Replicas)
	}
	return s
}

func TestScaleTargetsNeverNegative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss, newRS := genInput(t)
		mode := rapid.SampledFrom([]Mode{Upstream, Conserving}).Draw(t, "mode")
		res := mustScale(t, d, rss, newRS, mode)
		for i, tg := range res.Targets {
			if tg.Replicas < 0 {
				t.Fatalf("Scale(%+v, %+v, %d, %v).Targets[%d] = %d, want >= 0", d, rss, newRS, mode, i, tg.Replicas)
			}
		}
	})
}

func TestConservingSumsToAllowedWithinOneOfShare(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss, newRS := genInput(t)
		d.RollingUpdate = true
		res := mustScale(t, d, rss, newRS, Conserving)
		if res.Rule != RuleProportional {
			t.Skip("a shortcut decided")
		}
		if got := sumTargets(res.Targets); got != int64(res.Allowed) {
			t.Fatalf("Scale(%+v, %+v, %d, Conserving) targets sum to %d, want Allowed %d", d, rss, newRS, got, res.Allowed)
		}
		var s int64
		for _, rs := range rss {
			s += int64(rs.Replicas)
		}
		for i, rs := range rss {
			share := new(big.Rat).SetFrac(big.NewInt(int64(res.Allowed)*int64(rs.Replicas)), big.NewInt(s))
			diff := new(big.Rat).Sub(new(big.Rat).SetInt64(int64(res.Targets[i].Replicas)), share)
			if diff.Abs(diff).Cmp(big.NewRat(1, 1)) >= 0 {
				t.Fatalf("Scale(%+v, %+v, %d, Conserving).Targets[%d] = %d, exact share %v: off by 1 or more",
					d, rss, newRS, i, res.Targets[i].Replicas, share.FloatString(3))
			}
		}
	})
}

func TestUpstreamSumsToAllowedUnlessClamped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss, newRS := genInput(t)
		d.RollingUpdate = true
		res := mustScale(t, d, rss, newRS, Upstream)
		if res.Rule != RuleProportional {
			t.Skip("a shortcut decided")
		}
		got := sumTargets(res.Targets)
		switch {
		case !res.Clamped && got != int64(res.Allowed):
			t.Fatalf("Scale(%+v, %+v, %d, Upstream) targets sum to %d without a clamp, want Allowed %d", d, rss, newRS, got, res.Allowed)
		case res.Clamped && (got < int64(res.Allowed) || res.Targets[res.Order[0]].Replicas != 0):
			t.Fatalf("Scale(%+v, %+v, %d, Upstream) clamped: sum %d, Targets[Order[0]] %d; want sum >= %d and 0",
				d, rss, newRS, got, res.Targets[res.Order[0]].Replicas, res.Allowed)
		}
	})
}

func TestScaleUpNeverShrinksScaleDownNeverGrows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss, newRS := genInput(t)
		d.RollingUpdate = true
		mode := rapid.SampledFrom([]Mode{Upstream, Conserving}).Draw(t, "mode")
		var s int64
		for _, rs := range rss {
			s += int64(rs.Replicas)
		}
		if s > math.MaxInt32 {
			t.Skip("no annotation can record this total")
		}
		for i := range rss { // consistent: every ReplicaSet was sized for the current total
			rss[i].MaxReplicas = FormatReplicas(int32(s))
		}
		res := mustScale(t, d, rss, newRS, mode)
		if res.Rule != RuleProportional {
			t.Skip("a shortcut decided")
		}
		toAdd := int64(res.Allowed) - s
		for i, rs := range rss {
			got := res.Targets[i].Replicas
			if (toAdd > 0 && got < rs.Replicas) || (toAdd < 0 && got > rs.Replicas) {
				t.Fatalf("Scale(%+v, %+v, %d, %v): toAdd %d moves rss[%d] from %d to %d", d, rss, newRS, mode, toAdd, i, rs.Replicas, got)
			}
		}
	})
}

func TestScaleIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss, newRS := genInput(t)
		mode := rapid.SampledFrom([]Mode{Upstream, Conserving}).Draw(t, "mode")
		perm := rapid.Permutation(indices(len(rss))).Draw(t, "perm") // shuffled[k] = rss[perm[k]]
		shuffled := make([]ReplicaSet, len(rss))
		where := make([]int, len(rss)) // where[i]: position of rss[i] in shuffled
		for k, i := range perm {
			shuffled[k] = rss[i]
			where[i] = k
		}
		newShuffled := -1
		if newRS >= 0 {
			newShuffled = where[newRS]
		}
		a := mustScale(t, d, rss, newRS, mode)
		b := mustScale(t, d, shuffled, newShuffled, mode)
		for i := range rss {
			if a.Targets[i] != b.Targets[where[i]] {
				t.Fatalf("Scale of a permutation gives rss[%d] (%s) %+v, the original order %+v", i, rss[i].Name, b.Targets[where[i]], a.Targets[i])
			}
		}
		mapped := make([]int, len(a.Order))
		for k, i := range a.Order {
			mapped[k] = where[i]
		}
		if !slices.Equal(mapped, b.Order) {
			t.Fatalf("Scale of a permutation visits %v, want the original order mapped: %v", b.Order, mapped)
		}
		a.Targets, a.Order, b.Targets, b.Order = nil, nil, nil, nil
		if diff := cmp.Diff(a, b); diff != "" {
			t.Fatalf("Scale of a permutation differs from the original order (-original +permuted):\n%s", diff)
		}
	})
}

func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestScaleNeverModifiesInputs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss, newRS := genInput(t)
		mode := rapid.SampledFrom([]Mode{Upstream, Conserving}).Draw(t, "mode")
		before := slices.Clone(rss)
		dBefore := d
		dst := Result{Targets: make([]Target, 0, 2), Order: make([]int, 0, 9)}
		if _, err := ScaleInto(dst, d, rss, newRS, mode); err != nil {
			t.Fatalf("ScaleInto error: %v", err)
		}
		if diff := cmp.Diff(before, rss); diff != "" || d != dBefore {
			t.Fatalf("Scale modified its input (-before +after):\n%s", diff)
		}
	})
}

func TestScaleAgreesWithSlowReference(t *testing.T) {
	rapid.Check(t, checkAgainstReference)
}

// FuzzScale runs the reference comparison on fuzzer-chosen inputs.
func FuzzScale(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(checkAgainstReference))
}

func checkAgainstReference(t *rapid.T) {
	if strconv.IntSize != 64 {
		t.Skip("the reference reads IsSaturated's annotation with a 64-bit Atoi")
	}
	d, rss, newRS := genInput(t)
	mode := rapid.SampledFrom([]Mode{Upstream, Conserving}).Draw(t, "mode")
	got := mustScale(t, d, rss, newRS, mode)
	want := refScale(d, rss, newRS, mode)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("Scale(%+v, %+v, %d, %v) mismatch with the reference (-reference +Scale):\n%s", d, rss, newRS, mode, diff)
	}
}

// benchInput is n ReplicaSets in the middle of a rollout being resized
// from 10 per ReplicaSet to 13: every one is active, so the split runs.
func benchInput(n int) (Deployment, []ReplicaSet) {
	rss := make([]ReplicaSet, n)
	for i := range rss {
		rss[i] = ReplicaSet{
			Name:            "web-" + strconv.Itoa(i),
			CreationTime:    olderTime.Add(time.Duration(i%7) * time.Minute),
			Replicas:        int32(5 + i%11),
			DesiredReplicas: strconv.Itoa(10 * n),
			MaxReplicas:     strconv.Itoa(12 * n),
		}
	}
	return Deployment{Replicas: int32(13 * n), MaxSurge: int32(3 * n), RollingUpdate: true}, rss
}

func TestScaleAllocatesOnlyItsResult(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	for _, n := range []int{3, 10, 100} {
		d, rss := benchInput(n)
		for _, mode := range []Mode{Upstream, Conserving} {
			for _, r := range []int32{d.Replicas, 0, 1} { // grow, shrink to 0, shrink
				d := d
				d.Replicas = r
				if got := testing.AllocsPerRun(50, func() { Scale(d, rss, n-1, mode) }); got > 2 {
					t.Errorf("Scale(%d ReplicaSets, R %d, %v) allocates %v times, want at most 2 (Targets and Order)", n, r, mode, got)
				}
				dst, _ := Scale(d, rss, n-1, mode)
				if got := testing.AllocsPerRun(50, func() { ScaleInto(dst, d, rss, n-1, mode) }); got != 0 {
					t.Errorf("ScaleInto(previous Result, %d ReplicaSets, R %d, %v) allocates %v times, want 0", n, r, mode, got)
				}
			}
		}
	}
	small := []ReplicaSet{{Name: "a", Replicas: 1}, {Name: "b"}}
	if got := testing.AllocsPerRun(50, func() { ActiveOrLatest(small, 1) }); got != 0 {
		t.Errorf("ActiveOrLatest allocates %v times, want 0", got)
	}
}

func TestScaleIntoReusesBuffers(t *testing.T) {
	d, rss := benchInput(10)
	first, err := Scale(d, rss, 9, Upstream)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ScaleInto(first, d, rss, 9, Upstream)
	if err != nil {
		t.Fatal(err)
	}
	if &again.Targets[0] != &first.Targets[0] || &again.Order[:1][0] != &first.Order[:1][0] {
		t.Errorf("ScaleInto(previous Result, ...) did not reuse its slices")
	}
	fresh, _ := Scale(d, rss, 9, Upstream)
	if diff := cmp.Diff(fresh, again); diff != "" {
		t.Errorf("ScaleInto(previous Result, ...) differs from Scale (-Scale +ScaleInto):\n%s", diff)
	}
}

func BenchmarkScale(b *testing.B) {
	for _, n := range []int{3, 10, 100} {
		d, rss := benchInput(n)
		for _, mode := range []Mode{Upstream, Conserving} {
			b.Run(strconv.Itoa(n)+"/"+mode.String(), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Scale(d, rss, n-1, mode); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkScaleInto(b *testing.B) {
	for _, n := range []int{3, 10, 100} {
		d, rss := benchInput(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			var res Result
			for b.Loop() {
				var err error
				if res, err = ScaleInto(res, d, rss, n-1, Upstream); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
