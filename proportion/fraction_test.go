package proportion

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

func TestFraction(t *testing.T) {
	tests := []struct {
		name   string
		d      Deployment
		rs     ReplicaSet
		want   int32
		reason string
	}{
		// Upstream TestGetReplicaSetFraction
		// (pkg/controller/deployment/util/deployment_util_test.go).
		{name: "empty deployment scales to 0", d: Deployment{Replicas: 0}, rs: ReplicaSet{Replicas: 10}, want: -10},
		{name: "max-replicas missing, no status", d: Deployment{Replicas: 10}, rs: ReplicaSet{Replicas: 5}, want: 0,
			reason: "no annotation and status.replicas 0: nothing to scale from"},
		{name: "max-replicas 0, no status", d: Deployment{Replicas: 10}, rs: ReplicaSet{Replicas: 5, MaxReplicas: "0"}, want: 0},
		{name: "max-replicas missing, status fallback", d: Deployment{Replicas: 120, StatusReplicas: 100}, rs: ReplicaSet{Replicas: 50}, want: 10,
			reason: "50*120/100 = 60"},
		{name: "max-replicas 0, status fallback", d: Deployment{Replicas: 120, StatusReplicas: 100}, rs: ReplicaSet{Replicas: 50, MaxReplicas: "0"}, want: 10},
		{name: "max-replicas invalid, status fallback", d: Deployment{Replicas: 120, StatusReplicas: 100}, rs: ReplicaSet{Replicas: 50, MaxReplicas: "-100"}, want: 10},
		{name: "scale up by 1/5", d: Deployment{Replicas: 120}, rs: ReplicaSet{Replicas: 50, MaxReplicas: "100"}, want: 10},
		{name: "scale up by 1/5 with surge", d: Deployment{Replicas: 120, MaxSurge: 10}, rs: ReplicaSet{Replicas: 50, MaxReplicas: "110"}, want: 9,
			reason: "50*130/110 = 59.09 rounds to 59"},
		{name: "scale down by 1/6", d: Deployment{Replicas: 10}, rs: ReplicaSet{Replicas: 6, MaxReplicas: "12"}, want: -1},
		{name: "scale down by 1/6 with surge", d: Deployment{Replicas: 100, MaxSurge: 10}, rs: ReplicaSet{Replicas: 50, MaxReplicas: "130"}, want: -8,
			reason: "50*110/130 = 42.3 rounds to 42"},
		// Rounding.
		{name: "half rounds away from zero", d: Deployment{Replicas: 5}, rs: ReplicaSet{Replicas: 2, MaxReplicas: "4"}, want: 1,
			reason: "2*5/4 = 2.5 rounds to 3"},
		{name: "half rounds away from zero shrinking", d: Deployment{Replicas: 1}, rs: ReplicaSet{Replicas: 5, MaxReplicas: "2"}, want: -2,
			reason: "5*1/2 = 2.5 rounds to 3, so the ReplicaSet loses 2, not 3"},
		{name: "stale annotation shrinks while growing", d: Deployment{Replicas: 10}, rs: ReplicaSet{Replicas: 5, MaxReplicas: "12"}, want: -1,
			reason: "B5, a stale max-replicas: 5*10/12 = 4.17"},
		// Overflow (docs/deployment.md#b2-product-overflow-in-the-fraction):
		// upstream's int32 product wraps here.
		{name: "product beyond int32", d: Deployment{Replicas: 100000}, rs: ReplicaSet{Replicas: 50000, MaxReplicas: "50000"}, want: 50000,
			reason: "50000*100000 = 5e9 wraps upstream; 64-bit gives 100000"},
		{name: "huge surge saturates newMax", d: Deployment{Replicas: 10, MaxSurge: math.MaxInt32}, rs: ReplicaSet{Replicas: 3, MaxReplicas: "13"}, want: 495573146,
			reason: "newMax saturates at MaxInt32: 3*2147483647/13 = 495573149.3 rounds to 495573149, minus 3"},
		{name: "result saturates", d: Deployment{Replicas: math.MaxInt32}, rs: ReplicaSet{Replicas: math.MaxInt32, MaxReplicas: "1"}, want: math.MaxInt32,
			reason: "MaxInt32^2 - MaxInt32 clamps to MaxInt32"},
		{name: "R 0 with MaxInt32 replicas", d: Deployment{Replicas: 0}, rs: ReplicaSet{Replicas: math.MaxInt32}, want: -math.MaxInt32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fraction(tt.rs, tt.d); got != tt.want {
				t.Errorf("Fraction(%+v, %+v) = %d, want %d (%s)", tt.rs, tt.d, got, tt.want, tt.reason)
			}
		})
	}
}

func TestShare(t *testing.T) {
	d := Deployment{Replicas: 10, RollingUpdate: true} // newMax 10
	rs := func(n int32, max string) ReplicaSet { return ReplicaSet{Replicas: n, MaxReplicas: max} }
	tests := []struct {
		name         string
		rs           ReplicaSet
		toAdd, added int32
		want         int32
		reason       string
	}{
		{name: "empty ReplicaSet", rs: rs(0, "7"), toAdd: 3, want: 0},
		{name: "nothing to add", rs: rs(3, "7"), toAdd: 0, want: 0},
		{name: "all added already", rs: rs(3, "7"), toAdd: 3, added: 3, want: 0},
		{name: "7 to 10, v2", rs: rs(3, "7"), toAdd: 3, want: 1, reason: "3*10/7 = 4.29"},
		{name: "7 to 10, v3 after v2", rs: rs(2, "7"), toAdd: 3, added: 1, want: 1, reason: "2*10/7 = 2.86"},
		{name: "capped by what is left to add", rs: rs(5, "5"), toAdd: 3, added: 1, want: 2, reason: "fraction 5, left 2"},
		{name: "capped by what is left to remove", rs: rs(10, "20"), toAdd: -3, added: -1, want: -2, reason: "fraction -5, left -2"},
		{name: "scale down", rs: rs(8, "13"), toAdd: -5, want: -2, reason: "8*10/13 = 6.15"},
		{name: "stale annotation shrinks during scale-up", rs: rs(6, "12"), toAdd: 2, want: -1, reason: "B5, a stale max-replicas: fraction -1 < left 2"},
		{name: "no wrap of toAdd-added", rs: rs(5, "5"), toAdd: math.MaxInt32, added: -10, want: 5},
		{name: "no wrap of toAdd-added shrinking", rs: ReplicaSet{Replicas: 5}, toAdd: math.MinInt32 + 1, added: 10, want: 0,
			reason: "no annotation or status: fraction 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Share(tt.rs, d, tt.toAdd, tt.added); got != tt.want {
				t.Errorf("Share(%+v, %+v, %d, %d) = %d, want %d (%s)", tt.rs, d, tt.toAdd, tt.added, got, tt.want, tt.reason)
			}
		})
	}
}

// upstreamFraction is getReplicaSetFraction's formula as upstream writes
// it, int32 product and float64 math.Round included; ok is false where
// the int32 product would wrap.
func upstreamFraction(spec, newMax, oldMax int32) (int32, bool) {
	p := int64(spec) * int64(newMax)
	if p != int64(int32(p)) {
		return 0, false
	}
	return int32(math.Round(float64(int32(p))/float64(oldMax))) - spec, true
}

// TestFractionMatchesUpstreamFloatWhereNoOverflow backs the claim in
// Fraction's doc comment: exact integer rounding equals upstream's
// float64 math.Round wherever upstream's int32 product does not wrap.
func TestFractionMatchesUpstreamFloatWhereNoOverflow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := rapid.OneOf(rapid.Int32Range(0, 100), rapid.Int32Range(0, math.MaxInt32)).Draw(t, "spec")
		r := rapid.OneOf(rapid.Int32Range(1, 100), rapid.Int32Range(1, math.MaxInt32)).Draw(t, "replicas")
		surge := rapid.OneOf(rapid.Int32Range(0, 10), rapid.Int32Range(0, math.MaxInt32)).Draw(t, "maxSurge")
		oldMax := rapid.OneOf(rapid.Int32Range(1, 100), rapid.Int32Range(1, math.MaxInt32)).Draw(t, "oldMax")
		d := Deployment{Replicas: r, MaxSurge: surge}
		rs := ReplicaSet{Replicas: spec, MaxReplicas: FormatReplicas(oldMax)}
		want, ok := upstreamFraction(spec, d.MaxReplicas(), oldMax)
		if !ok || int64(r)+int64(surge) > math.MaxInt32 {
			t.Skip("upstream overflows")
		}
		if got := Fraction(rs, d); got != want {
			t.Fatalf("Fraction(%+v, %+v) = %d, upstream float formula gives %d", rs, d, got, want)
		}
	})
}

// TestFractionMatchesUpstreamFloatNearHalves covers the cases rapid is
// unlikely to draw: quotients at and next to a half, with large divisors.
func TestFractionMatchesUpstreamFloatNearHalves(t *testing.T) {
	for _, oldMax := range []int32{2, 4, 1<<15 + 1, 46340, math.MaxInt32 / 2, math.MaxInt32 - 1} {
		for _, spec := range []int32{1, 3, 7, 46339, 46340} {
			for _, newMax := range []int32{oldMax/2 - 1, oldMax / 2, oldMax/2 + 1, oldMax + 1, 3 * (oldMax / 2)} {
				want, ok := upstreamFraction(spec, newMax, oldMax)
				if !ok || newMax <= 0 {
					continue
				}
				d := Deployment{Replicas: newMax}
				rs := ReplicaSet{Replicas: spec, MaxReplicas: FormatReplicas(oldMax)}
				if got := Fraction(rs, d); got != want {
					t.Errorf("Fraction(%+v, %+v) = %d, upstream float formula gives %d", rs, d, got, want)
				}
			}
		}
	}
}

// refRoundDiv is p/q rounded half away from zero with math/big.
func refRoundDiv(p, q int64) *big.Int {
	x := new(big.Rat).SetFrac(big.NewInt(p), big.NewInt(q))
	neg := x.Sign() < 0
	x.Abs(x)
	x.Add(x, big.NewRat(1, 2))
	n := new(big.Int).Quo(x.Num(), x.Denom()) // floor for non-negative
	if neg {
		n.Neg(n)
	}
	return n
}

func TestRoundDivMatchesExactReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.Int32().Draw(t, "a")
		b := rapid.Int32().Draw(t, "b")
		q := rapid.Int32().Filter(func(q int32) bool { return q != 0 }).Draw(t, "q")
		p := int64(a) * int64(b)
		if got, want := roundDiv(p, int64(q)), refRoundDiv(p, int64(q)); want.Cmp(big.NewInt(got)) != 0 {
			t.Fatalf("roundDiv(%d, %d) = %d, want %v", p, q, got, want)
		}
	})
}

func TestScalarFunctionsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	d := Deployment{Replicas: 100000, MaxSurge: 25000, StatusReplicas: 90000, RollingUpdate: true}
	rs := ReplicaSet{Name: "web-5d4c8f7b9", Replicas: 50000, AvailableReplicas: 50000, DesiredReplicas: "100000", MaxReplicas: "125000"}
	rss := []ReplicaSet{rs, rs, rs}
	funcs := map[string]func(){
		"Fraction":              func() { Fraction(rs, d) },
		"Share":                 func() { Share(rs, d, 1000, 10) },
		"IsScalingEvent":        func() { IsScalingEvent(d, rss) },
		"IsSaturated":           func() { IsSaturated(d, rs) },
		"DesiredAnnotation":     func() { DesiredAnnotation(rs) },
		"MaxAnnotation":         func() { MaxAnnotation(rs) },
		"AnnotationsNeedUpdate": func() { AnnotationsNeedUpdate(rs, 123456, 1234567) },
		"ParseReplicas":         func() { ParseReplicas("2147483647") },
		"BySizeNewer":           func() { BySizeNewer(rs, rs) },
		"Deployment.Allowed":    func() { d.Allowed() },
	}
	for name, f := range funcs {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", name, n)
		}
	}
}

func BenchmarkShare(b *testing.B) {
	d := Deployment{Replicas: 20, MaxSurge: 5, RollingUpdate: true}
	rs := ReplicaSet{Name: "web-5d4c8f7b9", Replicas: 6, DesiredReplicas: "10", MaxReplicas: "13"}
	b.ReportAllocs()
	var sink int32
	for b.Loop() {
		sink += Share(rs, d, 12, 3)
	}
	_ = sink
}

func BenchmarkFraction(b *testing.B) {
	d := Deployment{Replicas: 20, MaxSurge: 5, RollingUpdate: true}
	rs := ReplicaSet{Name: "web-5d4c8f7b9", Replicas: 6, DesiredReplicas: "10", MaxReplicas: "13"}
	b.ReportAllocs()
	var sink int32
	for b.Loop() {
		sink += Fraction(rs, d)
	}
	_ = sink
}
