package intorpercent

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

func TestScaled(t *testing.T) {
	tests := []struct {
		name     string
		v        Value
		total    int32
		up, down int32
		reason   string
	}{
		{name: "quarter of ten", v: Percent(25), total: 10, up: 3, down: 2, reason: "2.5 rounds up to 3 for surge, down to 2 for unavailable"},
		{name: "third of three", v: Percent(33), total: 3, up: 1, down: 0, reason: "0.99"},
		{name: "one percent of one", v: Percent(1), total: 1, up: 1, down: 0, reason: "0.01"},
		{name: "zero percent", v: Percent(0), total: 10, up: 0, down: 0},
		{name: "hundred percent", v: Percent(100), total: 7, up: 7, down: 7},
		{name: "over a hundred percent", v: Percent(150), total: 10, up: 15, down: 15, reason: "surge may exceed the total"},
		{name: "odd total", v: Percent(50), total: 7, up: 4, down: 3},
		{name: "total zero", v: Percent(50), total: 0, up: 0, down: 0},
		{name: "negative percent", v: Percent(-15), total: 10, up: -1, down: -2, reason: "-1.5: ceiling -1, floor -2, as upstream"},
		{name: "int as is", v: Int(3), total: 10, up: 3, down: 3},
		{name: "int ignores total zero", v: Int(3), total: 0, up: 3, down: 3},
		{name: "negative int passes through", v: Int(-3), total: 10, up: -3, down: -3},
		{name: "large exact", v: Percent(100), total: math.MaxInt32, up: math.MaxInt32, down: math.MaxInt32},
		{name: "large rounding", v: Percent(1), total: math.MaxInt32, up: 21474837, down: 21474836, reason: "21474836.47"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				r    Rounding
				want int32
			}{{Up, tt.up}, {Down, tt.down}} {
				got, err := tt.v.Scaled(tt.total, c.r)
				if err != nil || got != c.want {
					t.Errorf("%v.Scaled(%d, %v) = %d, %v; want %d, nil (%s)", tt.v, tt.total, c.r, got, err, c.want, tt.reason)
				}
			}
		})
	}
}

func TestScaledErrors(t *testing.T) {
	tests := []struct {
		name    string
		v       Value
		total   int32
		r       Rounding
		want    int32
		wantErr error
		text    string
	}{
		{name: "negative total", v: Percent(25), total: -1, r: Up, want: 0, wantErr: ErrNegativeTotal,
			text: `intorpercent: scaling "25%" of -1: total must not be negative`},
		{name: "negative total with int", v: Int(3), total: -1, r: Up, want: 0, wantErr: ErrNegativeTotal,
			text: `intorpercent: scaling "3" of -1: total must not be negative`},
		{name: "overflow up", v: Percent(200), total: 2_000_000_000, r: Up, want: math.MaxInt32, wantErr: ErrOverflow,
			text: `intorpercent: scaling "200%" of 2000000000: scaled value overflows int32`},
		{name: "overflow max", v: Percent(math.MaxInt32), total: math.MaxInt32, r: Down, want: math.MaxInt32, wantErr: ErrOverflow,
			text: `intorpercent: scaling "2147483647%" of 2147483647: scaled value overflows int32`},
		{name: "overflow negative", v: Percent(math.MinInt32), total: 1000, r: Down, want: math.MinInt32, wantErr: ErrOverflow,
			text: `intorpercent: scaling "-2147483648%" of 1000: scaled value overflows int32`},
		{name: "unknown rounding", v: Percent(25), total: 10, r: Rounding(7), want: 0, wantErr: ErrRounding,
			text: `intorpercent: scaling "25%" of 10: unknown rounding`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.v.Scaled(tt.total, tt.r)
			if got != tt.want || !errors.Is(err, tt.wantErr) {
				t.Fatalf("%v.Scaled(%d, %v) = %d, %v; want %d, %v", tt.v, tt.total, tt.r, got, err, tt.want, tt.wantErr)
			}
			if err.Error() != tt.text {
				t.Errorf("%v.Scaled(%d, %v) error = %q, want %q", tt.v, tt.total, tt.r, err, tt.text)
			}
			var se *ScaleError
			if !errors.As(err, &se) || se.Value != tt.v || se.Total != tt.total {
				t.Errorf("%v.Scaled(%d, %v) error %#v is not a *ScaleError naming the inputs", tt.v, tt.total, tt.r, err)
			}
		})
	}
}

func TestScaledDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	v := Percent(25)
	var sink int32
	if n := testing.AllocsPerRun(100, func() {
		a, _ := v.Scaled(10, Up)
		b, _ := v.Scaled(1_000_001, Down)
		sink += a + b
	}); n != 0 {
		t.Errorf("Scaled allocates %v times per call, want 0", n)
	}
	_ = sink
}

func drawPercent(t *rapid.T, label string) Value {
	return Percent(rapid.Int32Range(0, 1000).Draw(t, label))
}

// bigScaled is the slow reference: p*total/100 with exact rationals,
// rounded by big.Int's floor division.
func bigScaled(p, total int32, r Rounding) *big.Int {
	num := new(big.Int).Mul(big.NewInt(int64(p)), big.NewInt(int64(total)))
	if r == Up {
		num.Add(num, big.NewInt(99))
	}
	q := new(big.Int)
	m := new(big.Int)
	q.DivMod(num, big.NewInt(100), m) // Euclidean: floor for a positive divisor
	return q
}

func TestScaledMatchesExactReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.Int32().Draw(t, "percent")
		total := rapid.Int32Range(0, math.MaxInt32).Draw(t, "total")
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		got, err := Percent(p).Scaled(total, r)
		want := bigScaled(p, total, r)
		if want.IsInt64() && want.Int64() >= math.MinInt32 && want.Int64() <= math.MaxInt32 {
			if err != nil || int64(got) != want.Int64() {
				t.Fatalf("Percent(%d).Scaled(%d, %v) = %d, %v; want %s", p, total, r, got, err, want)
			}
			return
		}
		if !errors.Is(err, ErrOverflow) {
			t.Fatalf("Percent(%d).Scaled(%d, %v) = %d, %v; want ErrOverflow for %s", p, total, r, got, err, want)
		}
		if (want.Sign() > 0 && got != math.MaxInt32) || (want.Sign() < 0 && got != math.MinInt32) {
			t.Fatalf("Percent(%d).Scaled(%d, %v) = %d, want saturated for %s", p, total, r, got, want)
		}
	})
}

// TestScaledMatchesUpstreamFloat checks the claim in the doc comment:
// wherever the result fits in an int32, the exact integer result equals
// upstream's float64 multiply-then-divide with Ceil or Floor.
func TestScaledMatchesUpstreamFloat(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.Int32().Draw(t, "percent")
		total := rapid.Int32Range(0, math.MaxInt32).Draw(t, "total")
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		got, err := Percent(p).Scaled(total, r)
		if err != nil {
			return // overflow: upstream wraps, documented difference
		}
		f := float64(p) * float64(total) / 100
		want := math.Floor(f)
		if r == Up {
			want = math.Ceil(f)
		}
		if float64(got) != want {
			t.Fatalf("Percent(%d).Scaled(%d, %v) = %d, upstream float formula gives %v", p, total, r, got, want)
		}
	})
}

func TestScaledRoundingDiffersByAtMostOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawPercent(t, "v")
		total := rapid.Int32Range(0, 1_000_000).Draw(t, "total")
		up, err1 := v.Scaled(total, Up)
		down, err2 := v.Scaled(total, Down)
		if err1 != nil || err2 != nil {
			t.Fatalf("Scaled(%v, %d): errors %v, %v", v, total, err1, err2)
		}
		if d := up - down; d != 0 && d != 1 {
			t.Fatalf("%v of %d: Up %d - Down %d = %d, want 0 or 1", v, total, up, down, d)
		}
		exact := int64(v.Number())*int64(total)%100 == 0
		if exact != (up == down) {
			t.Fatalf("%v of %d: Up %d, Down %d, but exact division is %v", v, total, up, down, exact)
		}
	})
}

func TestScaledHundredPercentIsTotal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		total := rapid.Int32Range(0, math.MaxInt32).Draw(t, "total")
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		if got, err := Percent(100).Scaled(total, r); err != nil || got != total {
			t.Fatalf("Percent(100).Scaled(%d, %v) = %d, %v; want %d", total, r, got, err, total)
		}
	})
}

func TestScaledMonotonicInTotal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawPercent(t, "v")
		a := rapid.Int32Range(0, 1_000_000).Draw(t, "total")
		b := rapid.Int32Range(a, 1_000_000).Draw(t, "larger")
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		x, _ := v.Scaled(a, r)
		y, _ := v.Scaled(b, r)
		if x > y {
			t.Fatalf("%v.Scaled(%d, %v) = %d > %v.Scaled(%d, %v) = %d", v, a, r, x, v, b, r, y)
		}
	})
}

func TestScaledMonotonicInPercent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.Int32Range(0, 1000).Draw(t, "percent")
		q := rapid.Int32Range(p, 1000).Draw(t, "larger")
		total := rapid.Int32Range(0, 1_000_000).Draw(t, "total")
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		x, _ := Percent(p).Scaled(total, r)
		y, _ := Percent(q).Scaled(total, r)
		if x > y {
			t.Fatalf("Percent(%d).Scaled(%d, %v) = %d > Percent(%d).Scaled = %d", p, total, r, x, q, y)
		}
	})
}

func TestScaledIntIgnoresTotal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.Int32().Draw(t, "n")
		total := rapid.Int32Range(0, math.MaxInt32).Draw(t, "total")
		r := rapid.SampledFrom([]Rounding{Down, Up}).Draw(t, "rounding")
		if got, err := Int(n).Scaled(total, r); err != nil || got != n {
			t.Fatalf("Int(%d).Scaled(%d, %v) = %d, %v; want %d", n, total, r, got, err, n)
		}
	})
}

func TestRoundingString(t *testing.T) {
	for r, want := range map[Rounding]string{Down: "Down", Up: "Up", Rounding(9): "Rounding(9)"} {
		if got := r.String(); got != want {
			t.Errorf("Rounding(%d).String() = %q, want %q", uint8(r), got, want)
		}
	}
}

func BenchmarkScaled(b *testing.B) {
	cases := []struct {
		name  string
		v     Value
		total int32
	}{
		{"percent/10", Percent(25), 10},
		{"percent/MaxInt32", Percent(100), math.MaxInt32},
		{"int", Int(3), 10},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var sink int32
			for b.Loop() {
				x, _ := c.v.Scaled(c.total, Up)
				sink += x
			}
			_ = sink
		})
	}
}
