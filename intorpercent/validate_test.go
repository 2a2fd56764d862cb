package intorpercent

import (
	"errors"
	"math"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
)

const ru = "spec.strategy.rollingUpdate"

func TestValidateRollingUpdate(t *testing.T) {
	tests := []struct {
		name                     string
		maxUnavailable, maxSurge Value
		want                     string // "" for valid
		reason                   string
	}{
		{name: "defaults", maxUnavailable: Percent(25), maxSurge: Percent(25)},
		{name: "hundred percent and zero", maxUnavailable: Percent(100), maxSurge: Int(0)},
		{name: "int unavailable is not capped", maxUnavailable: Int(1000), maxSurge: Int(0), reason: "runtime clamps it to replicas"},
		{name: "huge surge is valid", maxUnavailable: Int(0), maxSurge: Int(math.MaxInt32), reason: "maxSurge has no upper bound"},
		{name: "huge percent surge is valid", maxUnavailable: Int(1), maxSurge: Percent(math.MaxInt32)},
		{name: "both zero", maxUnavailable: Percent(0), maxSurge: Int(0),
			want: ru + `.maxUnavailable: Invalid value: "0%": may not be 0 when ` + "`maxSurge`" + ` is 0`},
		{name: "both zero ints", maxUnavailable: Int(0), maxSurge: Percent(0),
			want: ru + `.maxUnavailable: Invalid value: 0: may not be 0 when ` + "`maxSurge`" + ` is 0`},
		{name: "over a hundred percent", maxUnavailable: Percent(101), maxSurge: Int(0),
			want: ru + `.maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		{name: "negative unavailable", maxUnavailable: Int(-1), maxSurge: Int(1),
			want: ru + `.maxUnavailable: Invalid value: -1: must be greater than or equal to 0`},
		{name: "negative surge", maxUnavailable: Int(1), maxSurge: Int(-2),
			want: ru + `.maxSurge: Invalid value: -2: must be greater than or equal to 0`},
		{name: "negative percent reads as zero", maxUnavailable: Percent(-1), maxSurge: Int(0),
			want: "[" + ru + `.maxUnavailable: Invalid value: "-1%": ` + percentRule + ", " +
				ru + `.maxUnavailable: Invalid value: "-1%": may not be 0 when ` + "`maxSurge`" + ` is 0]`,
			reason: "upstream reads a percent failing its pattern as 0, so both rules fire"},
		{name: "every rule", maxUnavailable: Percent(200), maxSurge: Int(-1),
			want: "[" + ru + `.maxSurge: Invalid value: -1: must be greater than or equal to 0, ` +
				ru + `.maxUnavailable: Invalid value: "200%": must not be greater than 100%]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := ValidateRollingUpdate(tt.maxUnavailable, tt.maxSurge, ru)
			err := errs.ToError()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("ValidateRollingUpdate(%v, %v) = %v, want valid", tt.maxUnavailable, tt.maxSurge, err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("ValidateRollingUpdate(%v, %v) = %v\nwant %s (%s)", tt.maxUnavailable, tt.maxSurge, err, tt.want, tt.reason)
			}
			var fe *field.Error
			if !errors.As(err, &fe) || fe.Type != field.TypeInvalid {
				t.Errorf("errors.As(%v, *field.Error) found %v, want an Invalid field error", err, fe)
			}
		})
	}
}

func TestValidateNonNegative(t *testing.T) {
	if e := ValidateNonNegative(Int(0), "f"); e != nil {
		t.Errorf("ValidateNonNegative(0) = %v, want nil", e)
	}
	if e := ValidateNonNegative(Percent(0), "f"); e != nil {
		t.Errorf("ValidateNonNegative(0%%) = %v, want nil", e)
	}
	want := `spec.replicas: Invalid value: -3: must be greater than or equal to 0`
	if e := ValidateNonNegative(Int(-3), "spec.replicas"); e == nil || e.Error() != want {
		t.Errorf("ValidateNonNegative(-3) = %v, want %s", e, want)
	}
}

func TestValidateNotMoreThan100Percent(t *testing.T) {
	for _, v := range []Value{Percent(100), Percent(0), Int(500)} {
		if e := ValidateNotMoreThan100Percent(v, "f"); e != nil {
			t.Errorf("ValidateNotMoreThan100Percent(%v) = %v, want nil", v, e)
		}
	}
	want := `f: Invalid value: "120%": must not be greater than 100%`
	if e := ValidateNotMoreThan100Percent(Percent(120), "f"); e == nil || e.Error() != want {
		t.Errorf("ValidateNotMoreThan100Percent(120%%) = %v, want %s", e, want)
	}
}
