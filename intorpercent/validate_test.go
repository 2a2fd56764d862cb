package intorpercent

import (
	"errors"
	"math"
	"testing"
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
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Type != Invalid {
				t.Errorf("errors.As(%v, *FieldError) found %v, want an Invalid field error", err, fe)
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

func TestFieldErrorText(t *testing.T) {
	tests := []struct {
		e    FieldError
		want string
	}{
		{FieldError{Type: Required, Field: "spec.strategy.rollingUpdate", Detail: "this should be defaulted and never be nil"},
			"spec.strategy.rollingUpdate: Required value: this should be defaulted and never be nil"},
		{FieldError{Type: Forbidden, Field: "spec.strategy.rollingUpdate", Value: "x", Detail: "may not be specified when strategy `type` is 'Recreate'"},
			"spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{FieldError{Type: NotSupported, Field: "spec.strategy.type", Value: `"Blue"`, Detail: `supported values: "Recreate", "RollingUpdate"`},
			`spec.strategy.type: Unsupported value: "Blue": supported values: "Recreate", "RollingUpdate"`},
		{FieldError{Type: Invalid, Field: "spec.replicas", Value: "-1"}, "spec.replicas: Invalid value: -1"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%#v.Error() = %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestErrorListToErrorEmptyIsNil(t *testing.T) {
	var l ErrorList
	if err := l.ToError(); err != nil {
		t.Errorf("ErrorList(nil).ToError() = %#v, want nil", err)
	}
	if err := (ErrorList{}).ToError(); err != nil {
		t.Errorf("ErrorList{}.ToError() = %#v, want nil", err)
	}
}
