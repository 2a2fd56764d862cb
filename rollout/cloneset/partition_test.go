package cloneset

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

func TestCalculatePartitionReplicas(t *testing.T) {
	tests := []struct {
		name      string
		replicas  int32
		partition *intorpercent.IntOrString
		want      int32
		wantErr   string
		reason    string
	}{
		// kruise v1.9.1 pkg/util/tools_test.go TestCalculatePartitionReplicas.
		{name: "kruise: R0 99%", replicas: 0, partition: str("99%"), want: 0, reason: "ceil(99*0/100) = 0"},
		{name: "kruise: R10 nil", replicas: 10, partition: nil, want: 0},
		{name: "kruise: R9 99%", replicas: 9, partition: str("99%"), want: 8, reason: "ceil(8.91) = 9 = R, guard G2 gives R-1"},
		{name: "kruise: R10 90%", replicas: 10, partition: str("90%"), want: 9},
		{name: "kruise: R10 1%", replicas: 10, partition: str("1%"), want: 1, reason: "ceil(0.1) = 1: guard G1"},
		{name: "kruise: R99 99%", replicas: 99, partition: str("99%"), want: 98, reason: "ceil(98.01) = 99 = R, G2"},
		{name: "kruise: R99 100%", replicas: 99, partition: str("100%"), want: 99, reason: `literal "100%" skips G2`},
		{name: "kruise: R99 0%", replicas: 99, partition: str("0%"), want: 0},
		{name: "kruise: Rnil 100%", replicas: 1, partition: str("100%"), want: 1, reason: "nil replicas reads as 1"},
		{name: "kruise: Rnil nil", replicas: 1, partition: nil, want: 0},
		{name: "kruise: Rnil 1%", replicas: 1, partition: str("1%"), want: 1, reason: "no G2 at R = 1"},
		{name: "kruise: R10 int 5", replicas: 10, partition: num(5), want: 5},
		{name: "kruise: R10 int 1", replicas: 10, partition: num(1), want: 1},
		{name: "kruise: R10 int 0", replicas: 10, partition: num(0), want: 0},
		{name: "kruise: R10 int 10", replicas: 10, partition: num(10), want: 10, reason: "G2 only for strings"},
		{name: "kruise: R9 99 without %", replicas: 9, partition: str("99"), wantErr: `cloneset: spec.updateStrategy.partition: "99": invalid type: string is not a percentage`},
		{name: "kruise: R9 0.01%", replicas: 9, partition: str("0.01%"), want: 1, reason: "ceil(0.0009) = 1"},
		{name: "kruise: R999 99.99%", replicas: 999, partition: str("99.99%"), want: 998, reason: "ceil(998.9001) = 999 = R, G2"},
		// Observed by running kruise (docs/cloneset.md#partition).
		{name: "spec: R2 99%", replicas: 2, partition: str("99%"), want: 1, reason: "ceil(1.98) = 2 = R, G2"},
		{name: "spec: R1 50%", replicas: 1, partition: str("50%"), want: 1, reason: "no G2 at R = 1"},
		{name: "spec: R1 99%", replicas: 1, partition: str("99%"), want: 1},
		{name: "spec: R10 int 12", replicas: 10, partition: num(12), want: 10, reason: "clamped to R"},
		{name: "spec: R10 int -1", replicas: 10, partition: num(-1), want: 0, reason: "clamped to 0"},
		{name: "spec: R5 100.0%", replicas: 5, partition: str("100.0%"), want: 4, reason: `G2 compares the literal "100%" (S4)`},
		{name: "spec: R5 1e2%", replicas: 5, partition: str("1e2%"), want: 4, reason: "ParseFloat reads 1e2; literal compare"},
		{name: "spec: R5 150%", replicas: 5, partition: str("150%"), want: 5, reason: "ceil 7.5 = 8 is not R, so no G2; clamped"},
		{name: "spec: R0 50%", replicas: 0, partition: str("50%"), want: 0},
		{name: "spec: R10 -10%", replicas: 10, partition: str("-10%"), want: 0, reason: "ceil(-1) = -1, clamped"},
		// Edges of the float parser.
		{name: "R10 33.3%", replicas: 10, partition: str("33.3%"), want: 4, reason: "ceil(3.33)"},
		{name: "R10 1e1%", replicas: 10, partition: str("1e1%"), want: 1},
		{name: "R10 +5%", replicas: 10, partition: str("+5%"), want: 1},
		{name: "R10 .5%", replicas: 10, partition: str(".5%"), want: 1},
		{name: "R10 Inf%", replicas: 10, partition: str("Inf%"), want: 0, reason: "int(+Inf) is MinInt64 on amd64, clamped to 0"},
		{name: "R10 NaN%", replicas: 10, partition: str("NaN%"), want: 0, reason: "int(NaN) is MinInt64 on amd64"},
		{name: "R10 1e300%", replicas: 10, partition: str("1e300%"), want: 0, reason: "beyond int64: MinInt64 on amd64"},
		{name: "R10 1e17%", replicas: 10, partition: str("1e17%"), want: 10, reason: "1e16 fits in int64, clamped to R (not R, so no G2)"},
		{name: "R max 100%", replicas: 2147483647, partition: str("100%"), want: 2147483647},
		{name: "R max 99%", replicas: 2147483647, partition: str("99%"), want: 2126008811, reason: "ceil(2126008810.53)"},
		{name: "R max int max", replicas: 2147483647, partition: num(2147483647), want: 2147483647},
		{name: "R10 5%%", replicas: 10, partition: str("5%%"), wantErr: `cloneset: spec.updateStrategy.partition: "5%%": strconv.ParseFloat: parsing "5%": invalid syntax`},
		{name: "R10 %", replicas: 10, partition: str("%"), wantErr: `cloneset: spec.updateStrategy.partition: "%": strconv.ParseFloat: parsing "": invalid syntax`},
		{name: "R10 empty", replicas: 10, partition: str(""), wantErr: `cloneset: spec.updateStrategy.partition: "": invalid type: string is not a percentage`},
		{name: "R10 1e400%", replicas: 10, partition: str("1e400%"), wantErr: `cloneset: spec.updateStrategy.partition: "1e400%": strconv.ParseFloat: parsing "1e400": value out of range`},
		{name: "negative replicas", replicas: -1, partition: str("50%"), wantErr: "cloneset: replicas: -1: must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CalculatePartitionReplicas(tt.partition, tt.replicas)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("CalculatePartitionReplicas(%s, %d) error = %v, want %q", show(tt.partition), tt.replicas, err, tt.wantErr)
				}
				if got != 0 {
					t.Errorf("CalculatePartitionReplicas(%s, %d) = %d with an error, want 0", show(tt.partition), tt.replicas, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("CalculatePartitionReplicas(%s, %d) = %d, %v, want %d (%s)", show(tt.partition), tt.replicas, got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestCalculatePartitionReplicasErrorKinds(t *testing.T) {
	_, err := CalculatePartitionReplicas(str("25"), 10)
	var ve *field.Error
	if !errors.As(err, &ve) || ve.Field != PartitionField || !errors.Is(err, errNotPercentage) {
		t.Errorf(`CalculatePartitionReplicas("25", 10) error = %#v, want a *field.Error for %s wrapping errNotPercentage`, err, PartitionField)
	}
	_, err = CalculatePartitionReplicas(str("x%"), 10)
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		t.Errorf(`CalculatePartitionReplicas("x%%", 10) error = %#v, want one wrapping *strconv.NumError`, err)
	}
	_, err = CalculatePartitionReplicas(nil, -3)
	if !errors.Is(err, field.ErrNegative) {
		t.Errorf("CalculatePartitionReplicas(nil, -3) error = %v, want field.ErrNegative", err)
	}
}

func TestCalculatePartitionReplicasDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	p := str("99.99%")
	if n := testing.AllocsPerRun(100, func() { _, _ = CalculatePartitionReplicas(p, 999) }); n != 0 {
		t.Errorf("CalculatePartitionReplicas allocates %v times per call, want 0", n)
	}
}

func show(v *intorpercent.IntOrString) string {
	if v == nil {
		return "nil"
	}
	return written(*v)
}

// drawPartition draws a partition as users write them: counts (some
// negative or beyond replicas), whole and fractional percentages, and
// strings kruise cannot read.
func drawPartition(t *rapid.T, label string) *intorpercent.IntOrString {
	switch rapid.IntRange(0, 4).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		return num(rapid.Int32Range(-5, 300).Draw(t, label))
	case 2:
		return str(strconv.Itoa(rapid.IntRange(-10, 150).Draw(t, label)) + "%")
	case 3:
		return str(strconv.FormatFloat(rapid.Float64Range(0, 100).Draw(t, label), 'f', rapid.IntRange(0, 3).Draw(t, label+"Digits"), 64) + "%")
	}
	return str(rapid.StringMatching(`[0-9.%e+-]{0,6}`).Draw(t, label))
}

func TestPartitionWithinZeroAndReplicas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(0, 1000).Draw(t, "replicas")
		partition := drawPartition(t, "partition")
		got, err := CalculatePartitionReplicas(partition, replicas)
		if err != nil {
			if got != 0 {
				t.Fatalf("CalculatePartitionReplicas(%s, %d) = %d with error %v, want 0", show(partition), replicas, got, err)
			}
			return
		}
		if got < 0 || got > replicas {
			t.Fatalf("CalculatePartitionReplicas(%s, %d) = %d, outside [0, %d]", show(partition), replicas, got, replicas)
		}
	})
}

func TestPartitionPositivePercentKeepsAtLeastOneOldPod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(1, 100000).Draw(t, "replicas")
		p := rapid.Float64Range(0.001, 100).Draw(t, "percent")
		partition := str(strconv.FormatFloat(p, 'f', -1, 64) + "%")
		got, err := CalculatePartitionReplicas(partition, replicas)
		if err != nil || got < 1 {
			t.Fatalf("CalculatePartitionReplicas(%s, %d) = %d, %v, want at least 1", show(partition), replicas, got, err)
		}
	})
}

func TestPartitionBelowLiteral100PercentUpdatesAtLeastOnePod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(2, 100000).Draw(t, "replicas")
		p := rapid.Float64Range(0, 100).Draw(t, "percent")
		text := strconv.FormatFloat(p, 'f', -1, 64) + "%"
		if text == "100%" {
			return
		}
		got, err := CalculatePartitionReplicas(str(text), replicas)
		if err != nil || got > replicas-1 {
			t.Fatalf("CalculatePartitionReplicas(%q, %d) = %d, %v, want at most %d", text, replicas, got, err, replicas-1)
		}
	})
}

func TestPartitionErrorsExactlyWhenUnreadable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.Int32Range(0, 1000).Draw(t, "replicas")
		partition := drawPartition(t, "partition")
		_, err := CalculatePartitionReplicas(partition, replicas)
		want := false
		if partition != nil && partition.IsString {
			s, ok := strings.CutSuffix(partition.Str, "%")
			_, perr := strconv.ParseFloat(s, 64)
			want = !ok || perr != nil
		}
		if (err != nil) != want {
			t.Fatalf("CalculatePartitionReplicas(%s, %d) error = %v, want an error: %v", show(partition), replicas, err, want)
		}
	})
}

func FuzzCalculatePartitionReplicas(f *testing.F) {
	for _, s := range []string{"99%", "100%", "100.0%", "1e2%", "0.01%", "99.99%", "99", "5%%", "%", "", "Inf%", "NaN%", "-10%", "150%", "0x1p4%"} {
		f.Add(s, true, int32(0), int32(999))
	}
	f.Add("", false, int32(-1), int32(10))
	f.Add("", false, int32(12), int32(10))
	f.Fuzz(func(t *testing.T, s string, isString bool, n, replicas int32) {
		v := &intorpercent.IntOrString{IsString: isString, Str: s, Int: n}
		got, err := CalculatePartitionReplicas(v, replicas)
		switch {
		case replicas < 0:
			if !errors.Is(err, field.ErrNegative) {
				t.Fatalf("CalculatePartitionReplicas(%s, %d) error = %v, want field.ErrNegative", show(v), replicas, err)
			}
		case err != nil:
			var ve *field.Error
			if !errors.As(err, &ve) || !isString {
				t.Fatalf("CalculatePartitionReplicas(%s, %d) error = %v, want a *field.Error for a string", show(v), replicas, err)
			}
		case got < 0 || got > replicas:
			t.Fatalf("CalculatePartitionReplicas(%s, %d) = %d, outside [0, %d]", show(v), replicas, got, replicas)
		case !isString && got != min(max(n, 0), replicas):
			t.Fatalf("CalculatePartitionReplicas(%d, %d) = %d, want the count clamped", n, replicas, got)
		}
	})
}
