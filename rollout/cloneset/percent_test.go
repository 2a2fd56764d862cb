package cloneset

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

func TestFractionalScaled(t *testing.T) {
	tests := []struct {
		name    string
		in      *intorpercent.IntOrString
		total   int64
		up      bool
		want    int64
		wantErr string
	}{
		// kruise v1.9.1 pkg/util/tools_test.go TestGetScaledValueFromIntOrPercent.
		{name: "int 123", in: num(123), want: 123},
		{name: "90% of 100 up", in: str("90%"), total: 100, up: true, want: 90},
		{name: "90% of 95 up", in: str("90%"), total: 95, up: true, want: 86},
		{name: "90% of 95 down", in: str("90%"), total: 95, want: 85},
		{name: "99.99% of 999 down", in: str("99.99%"), total: 999, want: 998},
		{name: "99.99% of 999 up", in: str("99.99%"), total: 999, up: true, want: 999},
		{name: "0.01% of 95 down", in: str("0.01%"), total: 95, want: 0},
		{name: "0.01% of 95 up", in: str("0.01%"), total: 95, up: true, want: 1},
		{name: "%", in: str("%"), wantErr: `strconv.ParseFloat: parsing "": invalid syntax`},
		{name: "90#", in: str("90#"), wantErr: "invalid type: string is not a percentage"},
		{name: "#%", in: str("#%"), wantErr: `strconv.ParseFloat: parsing "#": invalid syntax`},
		{name: "90", in: str("90"), wantErr: "invalid type: string is not a percentage"},
		// Observed by running kruise's reader (docs/cloneset.md#percent-readers).
		{name: "33.3% of 10 up", in: str("33.3%"), total: 10, up: true, want: 4},
		{name: "1e1% of 10 up", in: str("1e1%"), total: 10, up: true, want: 1},
		{name: "5%%", in: str("5%%"), total: 10, up: true, wantErr: `strconv.ParseFloat: parsing "5%": invalid syntax`},
		{name: "25", in: str("25"), total: 10, up: true, wantErr: "invalid type: string is not a percentage"},
		// Values beyond int64 become MinInt64, as on amd64.
		{name: "Inf%", in: str("Inf%"), total: 10, up: true, want: math.MinInt64},
		{name: "NaN%", in: str("NaN%"), total: 10, up: true, want: math.MinInt64},
		{name: "-Inf%", in: str("-Inf%"), total: 10, want: math.MinInt64},
		{name: "Inf% of 0", in: str("Inf%"), total: 0, up: true, want: math.MinInt64}, // Inf*0 is NaN,
		{name: "hex float", in: str("0x1p4%"), total: 100, up: true, want: 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fractionalScaled(*tt.in, tt.total, tt.up)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("fractionalScaled(%s, %d, %v) error = %v, want %q", show(tt.in), tt.total, tt.up, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("fractionalScaled(%s, %d, %v) = %d, %v, want %d", show(tt.in), tt.total, tt.up, got, err, tt.want)
			}
		})
	}
}

func TestLegacyScaled(t *testing.T) {
	tests := []struct {
		name    string
		in      *intorpercent.IntOrString
		total   int64
		up      bool
		want    int64
		wantErr string
	}{
		// Observed by running apimachinery's GetValueFromIntOrPercent
		// (docs/cloneset.md#percent-readers).
		{name: "25 without % is a percent", in: str("25"), total: 10, up: true, want: 3},
		{name: "every % is removed", in: str("2%5"), total: 10, up: true, want: 3},
		{name: "+25% down", in: str("+25%"), total: 10, want: 2},
		{name: "120% of 5", in: str("120%"), total: 5, up: true, want: 6},
		{name: "-10% of 10 up", in: str("-10%"), total: 10, up: true, want: -1},
		{name: "33.3% is an error", in: str("33.3%"), total: 10, up: true, wantErr: `strconv.Atoi: parsing "33.3": invalid syntax`},
		{name: "% is an error", in: str("%"), total: 10, up: true, wantErr: `strconv.Atoi: parsing "": invalid syntax`},
		{name: "int passes through", in: num(-4), total: 10, want: -4},
		{name: "20% of 5 up", in: str("20%"), total: 5, up: true, want: 1},
		{name: "40% of 5 down", in: str("40%"), total: 5, want: 2},
		{name: "30% of 5 down", in: str("30%"), total: 5, want: 1},
		{name: "leading zeros", in: str("007%"), total: 100, up: true, want: 7},
		{name: "beyond int64 after scaling", in: str("9223372036854775807%"), total: 1000, up: true, want: math.MinInt64},
		{name: "beyond int64 before scaling", in: str("9223372036854775808%"), total: 10, up: true, wantErr: `strconv.Atoi: parsing "9223372036854775808": value out of range`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := legacyScaled(*tt.in, tt.total, tt.up)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("legacyScaled(%s, %d, %v) error = %v, want %q", show(tt.in), tt.total, tt.up, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("legacyScaled(%s, %d, %v) = %d, %v, want %d", show(tt.in), tt.total, tt.up, got, err, tt.want)
			}
		})
	}
}

// exactScaled is the slow reference: ceil or floor of p*total/100 in
// exact rational arithmetic.
func exactScaled(p, total int64, up bool) int64 {
	q := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(p), big.NewInt(total)), big.NewInt(100))
	n := new(big.Int).Quo(q.Num(), q.Denom()) // truncates toward zero
	if !q.IsInt() {
		if up && q.Sign() > 0 {
			n.Add(n, big.NewInt(1))
		}
		if !up && q.Sign() < 0 {
			n.Sub(n, big.NewInt(1))
		}
	}
	return n.Int64()
}

func TestPercentParsersMatchExactArithmeticOnWholePercents(t *testing.T) {
	// With |p*total| below 2^53 both of kruise's float computations are
	// exact before rounding, so they must agree with the exact reference.
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.Int64Range(-1000, 1_000_000).Draw(t, "percent")
		total := rapid.Int64Range(0, math.MaxInt32).Draw(t, "total")
		up := rapid.Bool().Draw(t, "up")
		want := exactScaled(p, total, up)
		text := strconv.FormatInt(p, 10) + "%"
		if got, err := legacyScaled(*str(text), total, up); err != nil || got != want {
			t.Fatalf("legacyScaled(%q, %d, %v) = %d, %v, want %d", text, total, up, got, err, want)
		}
		if got, err := fractionalScaled(*str(text), total, up); err != nil || got != want {
			t.Fatalf("fractionalScaled(%q, %d, %v) = %d, %v, want %d", text, total, up, got, err, want)
		}
	})
}

func TestFloatToIntMatchesConversionInRange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := math.Trunc(rapid.Float64Range(-9e18, 9e18).Draw(t, "x"))
		if got := floatToInt(x); got != int64(x) {
			t.Fatalf("floatToInt(%v) = %d, want %d", x, got, int64(x))
		}
	})
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1 << 63, -(1 << 64)} {
		if got := floatToInt(x); got != math.MinInt64 {
			t.Errorf("floatToInt(%v) = %d, want MinInt64 as on amd64", x, got)
		}
	}
	if got := floatToInt(-(1 << 63)); got != math.MinInt64 {
		t.Errorf("floatToInt(-2^63) = %d, want MinInt64", got)
	}
}

func FuzzFractionalScaled(f *testing.F) {
	for _, s := range []string{"90%", "99.99%", "0.01%", "%", "90#", "#%", "90", "33.3%", "1e1%", "5%%", "Inf%", "NaN%", "0x1p4%", "-0%"} {
		f.Add(s, int64(999), true)
	}
	f.Fuzz(func(t *testing.T, s string, total int64, up bool) {
		got, err := fractionalScaled(*str(s), total, up)
		rest, ok := strings.CutSuffix(s, "%")
		v, perr := strconv.ParseFloat(rest, 64)
		if (err != nil) != (!ok || perr != nil) {
			t.Fatalf("fractionalScaled(%q) error = %v, want an error: %v", s, err, !ok || perr != nil)
		}
		if err != nil {
			return
		}
		x := v * float64(total) / 100
		if up {
			x = math.Ceil(x)
		} else {
			x = math.Floor(x)
		}
		if math.Abs(x) < 1<<62 && got != int64(x) {
			t.Fatalf("fractionalScaled(%q, %d, %v) = %d, want %v", s, total, up, got, x)
		}
	})
}

func FuzzLegacyScaled(f *testing.F) {
	for _, s := range []string{"25", "2%5", "+25%", "120%", "-10%", "33.3%", "%", "007%", "%%%1"} {
		f.Add(s, int64(10), true)
	}
	f.Fuzz(func(t *testing.T, s string, total int64, up bool) {
		got, err := legacyScaled(*str(s), total, up)
		n, aerr := strconv.Atoi(strings.ReplaceAll(s, "%", ""))
		if (err != nil) != (aerr != nil) {
			t.Fatalf("legacyScaled(%q) error = %v, want an error: %v", s, err, aerr != nil)
		}
		if err != nil {
			return
		}
		if n > -1<<20 && n < 1<<20 && total > -1<<30 && total < 1<<30 {
			if want := exactScaled(int64(n), total, up); got != want {
				t.Fatalf("legacyScaled(%q, %d, %v) = %d, want %d", s, total, up, got, want)
			}
		}
	})
}
