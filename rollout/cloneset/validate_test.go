package cloneset

import (
	"math"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

func validationTexts(l intorpercent.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Error())
	}
	return out
}

func TestValidateUpdateType(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		reason   string
	}{
		{name: "recreate", in: "ReCreate"},
		{name: "in place if possible", in: "InPlaceIfPossible"},
		{name: "in place only", in: "InPlaceOnly"},
		{name: "on delete", in: "OnDelete", reason: "SPEC §1.2 V1: rejected although the controller implements it",
			want: []string{`spec.updateStrategy.type: Invalid value: "OnDelete": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`}},
		{name: "empty", in: "", reason: "kruise test invalid-update-type; defaulting fills ReCreate first",
			want: []string{`spec.updateStrategy.type: Invalid value: "": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`}},
		{name: "case matters", in: "Recreate",
			want: []string{`spec.updateStrategy.type: Invalid value: "Recreate": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`}},
	}
	for _, tt := range tests {
		got := validationTexts(validateUpdateType(tt.in, "spec.updateStrategy.type"))
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("validateUpdateType(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestValidateProgressDeadline(t *testing.T) {
	i32 := func(n int32) *int32 { return &n }
	const f = "spec.progressDeadlineSeconds"
	tests := []struct {
		name     string
		deadline *int32
		minReady int32
		want     []string
		reason   string
	}{
		{name: "nil", deadline: nil, minReady: 10},
		{name: "greater", deadline: i32(600), minReady: 10},
		{name: "no deadline", deadline: i32(math.MaxInt32), minReady: math.MaxInt32, reason: "MaxInt32 disables the deadline"},
		{name: "equal", deadline: i32(10), minReady: 10, reason: "SPEC §1.2 V10, kruise test invalid-progressDeadlineSeconds-equals-to-minReadySeconds",
			want: []string{f + `: Invalid value: 10: must be greater than minReadySeconds`}},
		{name: "zero", deadline: i32(0), minReady: 0,
			want: []string{f + `: Invalid value: 0: must be greater than minReadySeconds`}},
		{name: "negative", deadline: i32(-1), minReady: 0, reason: "kruise test invalid-negative-progressDeadlineSeconds: both rules",
			want: []string{f + `: Invalid value: -1: must be greater than or equal to 0`, f + `: Invalid value: -1: must be greater than minReadySeconds`}},
		{name: "negative below a negative minReady", deadline: i32(-1), minReady: -5, reason: "the webhook does not check minReadySeconds",
			want: []string{f + `: Invalid value: -1: must be greater than or equal to 0`}},
	}
	for _, tt := range tests {
		got := validationTexts(validateProgressDeadline(tt.deadline, tt.minReady, f))
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: validateProgressDeadline = %q, want %q (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}
