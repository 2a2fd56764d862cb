package statefulset

import (
	"errors"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// TestPlanRejectsBadInput: every bad input is a field error with the
// full text below, wrapping field.ErrInvalid and its kind.
func TestPlanRejectsBadInput(t *testing.T) {
	tests := []struct {
		name string
		w    *world
		mod  func(w *world)
		kind error
		want string
	}{
		{"negative replicas", newWorld(3, false), func(w *world) { w.set.Replicas = -1 }, field.ErrNegative,
			`statefulset: invalid StatefulSet "web": spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"no name", newWorld(3, false), func(w *world) { w.set.Name = "" }, field.ErrRequired,
			`statefulset: metadata.name: must not be empty`},
		{"too many replicas", newWorld(MaxReplicas+1, false), nil, field.ErrRange,
			`statefulset: spec.replicas: 10000001: must not be greater than 10000000 (this package keeps one slot per replica)`},
		{"ordinals beyond int32", newWorld(3, false), func(w *world) { w.set.Ordinals.Start = 2147483647 }, field.ErrRange,
			`statefulset: spec.ordinals.start: 2147483647: the last ordinal, start + replicas - 1, must not pass 2147483647 (a pod name beyond it has no ordinal)`},
		{"selector without uid", newWorld(3, false), func(w *world) { w.set.Selector, w.set.UID = &ownership.Selector{}, "" }, field.ErrRequired,
			`statefulset: metadata.uid: must not be empty`},
		{"pod without name", newWorld(3, false, "0:r"), func(w *world) { w.pods[0].Name = "" }, field.ErrRequired,
			`statefulset: pods[0].name: must not be empty`},
		{"pod without phase", newWorld(3, false, "0:r"), func(w *world) { w.pods[0].Phase = "" }, field.ErrRequired,
			`statefulset: pods[0].phase: must not be empty`},
		{"duplicate slot pod", newWorld(3, false, "0:r", "0:u"), nil, field.ErrDuplicate,
			`statefulset: pods[1].name: duplicate name "web-0"`},
		{"duplicate condemned pod", newWorld(3, false, "5:r", "5:u"), nil, field.ErrDuplicate,
			`statefulset: pods[1].name: duplicate name "web-5"`},
		{"leading zero", newWorld(3, false, "0:r"), func(w *world) { w.pods[0].Name = "web-01" }, field.ErrSyntax,
			`statefulset: pods[0].name: "web-01": ordinal 1 is not written as the controller writes it ("web-1")`},
		{"duplicate revision", newWorld(3, false), func(w *world) { w.revisions = append(w.revisions, revO) }, field.ErrDuplicate,
			`statefulset: revisions[1].name: duplicate name "web-7886d5f998"`},
		{"revision without name", newWorld(3, false), func(w *world) { w.revisions[0].Name = "" }, field.ErrRequired,
			`statefulset: revisions[0].name: must not be empty`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.mod != nil {
				tt.mod(tt.w)
			}
			_, err := PlanWith(&tt.w.set, tt.w.pods, tt.w.revisions, t0, tt.w.opts)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("PlanWith error = %v\nwant %s", err, tt.want)
			}
			if !errors.Is(err, field.ErrInvalid) || !errors.Is(err, tt.kind) {
				t.Errorf("PlanWith error does not wrap field.ErrInvalid and %v", tt.kind)
			}
		})
	}
	if _, err := Plan[tmpl](nil, nil, nil, t0); err == nil || err.Error() != "statefulset: Required value" || !errors.Is(err, field.ErrRequired) {
		t.Errorf("Plan(nil) = %v, want statefulset: Required value", err)
	}
}

func TestMaxUnavailableErrors(t *testing.T) {
	tests := []struct {
		in   string
		kind error
		want string
	}{
		{"5", field.ErrSyntax, `statefulset: spec.updateStrategy.rollingUpdate.maxUnavailable: "5": invalid value for IntOrString: invalid type: string is not a percentage`},
		{"1.5%", field.ErrSyntax, `statefulset: spec.updateStrategy.rollingUpdate.maxUnavailable: "1.5%": invalid value for IntOrString: invalid value "1.5%": strconv.Atoi: parsing "1.5": invalid syntax`},
		{"30000000000%", field.ErrRange, `statefulset: spec.updateStrategy.rollingUpdate.maxUnavailable: "30000000000%": resolves beyond int32 against 10 replicas`},
	}
	for _, tt := range tests {
		v := intorpercent.FromString(tt.in)
		_, err := MaxUnavailable(&v, 10)
		if err == nil || err.Error() != tt.want || !errors.Is(err, tt.kind) {
			t.Errorf("MaxUnavailable(%q, 10) = %v\nwant %s", tt.in, err, tt.want)
		}
	}
	// Read as upstream reads it: a sign is accepted.
	v := intorpercent.FromString("+50%")
	if n, err := MaxUnavailable(&v, 10); n != 5 || err != nil {
		t.Errorf(`MaxUnavailable("+50%%", 10) = %d, %v; want 5`, n, err)
	}
}
