package rollout

import (
	"errors"
	"math"
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

func TestFenceposts(t *testing.T) {
	P, I := intorpercent.Percent, intorpercent.Int
	for _, tt := range []struct {
		name                      string
		surge, unavailable        intorpercent.Value
		desired                   int32
		wantSurge, wantUnavailabe int32
		reason                    string
	}{
		{name: "defaults of 10", surge: P(25), unavailable: P(25), desired: 10, wantSurge: 3, wantUnavailabe: 2, reason: "surge rounds up, unavailable down"},
		{name: "defaults of 4", surge: P(25), unavailable: P(25), desired: 4, wantSurge: 1, wantUnavailabe: 1},
		{name: "defaults of 1", surge: P(25), unavailable: P(25), desired: 1, wantSurge: 1, wantUnavailabe: 0},
		{name: "defaults of 0", surge: P(25), unavailable: P(25), desired: 0, wantSurge: 0, wantUnavailabe: 1, reason: "both-zero rule applies even at 0 replicas"},
		{name: "both zero ints", surge: I(0), unavailable: I(0), desired: 10, wantSurge: 0, wantUnavailabe: 1, reason: "both-zero rule"},
		{name: "both zero percents", surge: P(0), unavailable: P(0), desired: 0, wantSurge: 0, wantUnavailabe: 1},
		{name: "1% of 10", surge: P(1), unavailable: P(1), desired: 10, wantSurge: 1, wantUnavailabe: 0},
		{name: "zero surge, 1% rounds to 0", surge: I(0), unavailable: P(1), desired: 10, wantSurge: 0, wantUnavailabe: 1, reason: "zero from rounding counts too"},
		{name: "zero surge, 10% of 5", surge: I(0), unavailable: P(10), desired: 5, wantSurge: 0, wantUnavailabe: 1},
		{name: "100% of 3", surge: P(100), unavailable: P(100), desired: 3, wantSurge: 3, wantUnavailabe: 3},
		{name: "150% surge of 3", surge: P(150), unavailable: I(0), desired: 3, wantSurge: 5, wantUnavailabe: 0, reason: "ceil(4.5)"},
		{name: "39% of 10", surge: P(39), unavailable: P(39), desired: 10, wantSurge: 4, wantUnavailabe: 3},
		{name: "zero surge (upstream nil)", surge: I(0), unavailable: P(39), desired: 10, wantSurge: 0, wantUnavailabe: 3},
		{name: "zero unavailable (upstream nil)", surge: P(39), unavailable: I(0), desired: 10, wantSurge: 4, wantUnavailabe: 0},
		{name: "huge percent saturates", surge: P(math.MaxInt32), unavailable: I(0), desired: 1000, wantSurge: math.MaxInt32, wantUnavailabe: 0, reason: "upstream truncates to a negative number"},
		{name: "MaxInt32 count", surge: I(math.MaxInt32), unavailable: I(0), desired: 10, wantSurge: math.MaxInt32, wantUnavailabe: 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, u, err := Fenceposts(tt.surge, tt.unavailable, tt.desired)
			if err != nil || s != tt.wantSurge || u != tt.wantUnavailabe {
				t.Errorf("Fenceposts(%v, %v, %d) = (%d, %d, %v), want (%d, %d, nil) (%s)", tt.surge, tt.unavailable, tt.desired, s, u, err, tt.wantSurge, tt.wantUnavailabe, tt.reason)
			}
		})
	}
}

func TestFencepostsNegativeDesired(t *testing.T) {
	s, u, err := Fenceposts(intorpercent.Percent(25), intorpercent.Percent(25), -1)
	if !errors.Is(err, intorpercent.ErrNegativeTotal) || s != 0 || u != 0 {
		t.Errorf("Fenceposts(25%%, 25%%, -1) = (%d, %d, %v), want (0, 0, ErrNegativeTotal)", s, u, err)
	}
}

func TestMaxSurgeMaxUnavailableMinAvailable(t *testing.T) {
	recreate := dep(10, nil, nil)
	recreate.Strategy = Recreate
	for _, tt := range []struct {
		name                              string
		d                                 *Deployment[tmpl]
		wantSurge, wantUnavail, wantAvail int32
		reason                            string
	}{
		{name: "R10 defaults", d: dep(10, nil, nil), wantSurge: 3, wantUnavail: 2, wantAvail: 8},
		{name: "R10 25%/25%", d: dep(10, pct(25), pct(25)), wantSurge: 3, wantUnavail: 2, wantAvail: 8},
		{name: "R5 surge 1 unavailable 10", d: dep(5, num(1), num(10)), wantSurge: 1, wantUnavail: 5, wantAvail: 0, reason: "maxUnavailable clamps to R"},
		{name: "R0 surge 3 unavailable 10", d: dep(0, num(3), num(10)), wantSurge: 3, wantUnavail: 0, wantAvail: 0, reason: "maxSurge is not clamped, maxUnavailable is 0 at R = 0"},
		{name: "R1 defaults", d: dep(1, nil, nil), wantSurge: 1, wantUnavail: 0, wantAvail: 1},
		{name: "R3 both zero", d: dep(3, num(0), num(0)), wantSurge: 0, wantUnavail: 1, wantAvail: 2, reason: "both-zero rule"},
		{name: "Recreate", d: recreate, wantSurge: 0, wantUnavail: 0, wantAvail: 0},
		{name: "R10 unavailable 5", d: dep(10, num(0), num(5)), wantSurge: 0, wantUnavail: 5, wantAvail: 5},
		{name: "R10 unavailable 10", d: dep(10, num(0), num(10)), wantSurge: 0, wantUnavail: 10, wantAvail: 0},
		{name: "R5 unavailable 10", d: dep(5, num(0), num(10)), wantSurge: 0, wantUnavail: 5, wantAvail: 0},
		{name: "R10 unavailable 60%", d: dep(10, num(0), pct(60)), wantSurge: 0, wantUnavail: 6, wantAvail: 4},
		{name: "R10 50%/100%", d: dep(10, pct(50), pct(100)), wantSurge: 5, wantUnavail: 10, wantAvail: 0},
		{name: "R0 defaults", d: dep(0, nil, nil), wantSurge: 0, wantUnavail: 0, wantAvail: 0},
		{name: "huge surge saturates", d: dep(10, num(math.MaxInt32), num(0)), wantSurge: math.MaxInt32, wantUnavail: 0, wantAvail: 10},
		{name: "MaxInt32 replicas", d: dep(math.MaxInt32, pct(100), pct(100)), wantSurge: math.MaxInt32, wantUnavail: math.MaxInt32, wantAvail: 0},
		{name: "nil deployment", d: nil, wantSurge: 0, wantUnavail: 0, wantAvail: 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := MaxSurge(tt.d); got != tt.wantSurge {
				t.Errorf("MaxSurge(%s) = %d, want %d (%s)", tt.name, got, tt.wantSurge, tt.reason)
			}
			if got := MaxUnavailable(tt.d); got != tt.wantUnavail {
				t.Errorf("MaxUnavailable(%s) = %d, want %d (%s)", tt.name, got, tt.wantUnavail, tt.reason)
			}
			if got := MinAvailable(tt.d); got != tt.wantAvail {
				t.Errorf("MinAvailable(%s) = %d, want %d (%s)", tt.name, got, tt.wantAvail, tt.reason)
			}
		})
	}
}
