package rollout

import (
	"errors"
	"math"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
)

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		name   string
		edit   func(d *Deployment[tmpl])
		want   string // "" for valid
		reason string
	}{
		{name: "defaults are valid", edit: func(d *Deployment[tmpl]) {}},
		{name: "zero value strategy is RollingUpdate", edit: func(d *Deployment[tmpl]) { d.Strategy = "" }},
		{name: "negative replicas", edit: func(d *Deployment[tmpl]) { d.Replicas = -1 },
			want: "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{name: "both zero", edit: func(d *Deployment[tmpl]) { d.MaxSurge, d.MaxUnavailable = num(0), pct(0) },
			want: "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"},
		{name: "maxUnavailable above 100%", edit: func(d *Deployment[tmpl]) { d.MaxUnavailable = pct(101) },
			want: `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		{name: "100% with zero surge is valid", edit: func(d *Deployment[tmpl]) { d.MaxSurge, d.MaxUnavailable = num(0), pct(100) }},
		{name: "int maxUnavailable is not capped", edit: func(d *Deployment[tmpl]) { d.MaxSurge, d.MaxUnavailable = num(0), num(1000) }},
		{name: "maxSurge MaxInt32 is valid", edit: func(d *Deployment[tmpl]) { d.MaxSurge = num(math.MaxInt32) }},
		{name: "negative maxSurge", edit: func(d *Deployment[tmpl]) { d.MaxSurge = num(-1) },
			want: "spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0"},
		{name: "Recreate with rolling values", edit: func(d *Deployment[tmpl]) { d.Strategy, d.MaxSurge = Recreate, num(1) },
			want: "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{name: "Recreate without rolling values", edit: func(d *Deployment[tmpl]) { d.Strategy = Recreate }},
		{name: "unknown strategy", edit: func(d *Deployment[tmpl]) { d.Strategy = "Canary" },
			want: `spec.strategy: Unsupported value: {"Type":"Canary","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`},
		{name: "unknown strategy with one bound", edit: func(d *Deployment[tmpl]) { d.Strategy, d.MaxSurge, d.MaxUnavailable = "Canary", num(1), nil },
			want:   `spec.strategy: Unsupported value: {"Type":"Canary","RollingUpdate":{"MaxUnavailable":0,"MaxSurge":1}}: supported values: "Recreate", "RollingUpdate"`,
			reason: "the API server renders its internal strategy type, whose absent bound is the zero IntOrString"},
		{name: "negative minReadySeconds", edit: func(d *Deployment[tmpl]) { d.MinReadySeconds = -5 },
			want: "spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0"},
		{name: "negative revisionHistoryLimit", edit: func(d *Deployment[tmpl]) { d.RevisionHistoryLimit = ptr(int32(-1)) },
			want: "spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"},
		{name: "zero revisionHistoryLimit is valid", edit: func(d *Deployment[tmpl]) { d.RevisionHistoryLimit = ptr(int32(0)) }},
		{name: "deadline not above minReadySeconds", edit: func(d *Deployment[tmpl]) { d.MinReadySeconds, d.ProgressDeadlineSeconds = 30, ptr(int32(30)) },
			want: "spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds"},
		{name: "default deadline against a long minReadySeconds", edit: func(d *Deployment[tmpl]) { d.MinReadySeconds = 600 },
			want: "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"},
		{name: "negative deadline", edit: func(d *Deployment[tmpl]) { d.ProgressDeadlineSeconds = ptr(int32(-1)) },
			want: "[spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds]"},
		{name: "status counters", edit: func(d *Deployment[tmpl]) {
			d.Status = Status{Replicas: 3, UpdatedReplicas: 4, ReadyReplicas: 2, AvailableReplicas: 3, TerminatingReplicas: ptr(int32(-1))}
		}, want: "[status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0, status.updatedReplicas: Invalid value: 4: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas]"},
		{name: "negative collision count", edit: func(d *Deployment[tmpl]) { d.Status.CollisionCount = ptr(int32(-2)) },
			want: "status.collisionCount: Invalid value: -2: must be greater than or equal to 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := dep(10, nil, nil)
			tt.edit(d)
			err := Validate(d)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Validate(%s) = %q, want %q (%s)", tt.name, got, tt.want, tt.reason)
			}
			if err != nil {
				var fe *field.Error
				if !errors.As(err, &fe) {
					t.Errorf("Validate(%s) error has no *field.Error", tt.name)
				}
			}
		})
	}
	if err := Validate[tmpl](nil); err == nil || err.Error() != "deployment: Required value" {
		t.Errorf("Validate(nil) = %v, want %q", err, "deployment: Required value")
	}
}

func TestValidateReplicaSet(t *testing.T) {
	good := rs("a", 1, 3, 3)
	if err := ValidateReplicaSet(&good); err != nil {
		t.Errorf("ValidateReplicaSet(valid) = %v, want nil", err)
	}
	bad := ReplicaSet[tmpl]{Replicas: -1, StatusReplicas: 2, ReadyReplicas: 3, AvailableReplicas: 1}
	want := "[spec.replicas: Invalid value: -1: must be greater than or equal to 0, status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas]"
	if err := ValidateReplicaSet(&bad); err == nil || err.Error() != want {
		t.Errorf("ValidateReplicaSet(bad) = %v, want %q", err, want)
	}
}

// TestValidateReplicaSetOrder pins the API server's order of the status
// rules: observedGeneration is checked before terminatingReplicas.
func TestValidateReplicaSetOrder(t *testing.T) {
	minus := int32(-1)
	bad := ReplicaSet[tmpl]{ObservedGeneration: -1, TerminatingReplicas: &minus}
	want := "[status.observedGeneration: Invalid value: -1: must be greater than or equal to 0, status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0]"
	if err := ValidateReplicaSet(&bad); err == nil || err.Error() != want {
		t.Errorf("ValidateReplicaSet(observedGeneration -1, terminating -1) = %v, want %q", err, want)
	}
}

func TestPlanRejectsInvalidInput(t *testing.T) {
	d := dep(-3, nil, nil)
	_, err := Plan(d, nil, t0)
	var ie *field.Error
	want := `rollout: invalid Deployment "web": spec.replicas: Invalid value: -3: must be greater than or equal to 0`
	if !errors.As(err, &ie) || !errors.Is(err, field.ErrInvalid) || err.Error() != want {
		t.Errorf("Plan(replicas -3) error = %v, want %q", err, want)
	}
	r := rs("broken", 1, 2, 2)
	r.AvailableReplicas = -1
	_, err = Plan(dep(3, nil, nil), []ReplicaSet[tmpl]{r}, t0)
	want = `rollout: invalid ReplicaSet "broken": status.availableReplicas: Invalid value: -1: must be greater than or equal to 0`
	if !errors.Is(err, field.ErrInvalid) || err.Error() != want {
		t.Errorf("Plan(available -1) error = %v, want %q", err, want)
	}
	if _, err := Plan[tmpl](nil, nil, t0); !errors.Is(err, field.ErrInvalid) {
		t.Errorf("Plan(nil) error = %v, want field.ErrInvalid", err)
	}
}

func TestNothingPanicsOnNilOrExtremeInput(t *testing.T) {
	var d *Deployment[tmpl]
	var rss []ReplicaSet[tmpl]
	if _, err := NewReplicas(d, rss, -1); !errors.Is(err, field.ErrInvalid) {
		t.Errorf("NewReplicas(nil) error = %v, want field.ErrInvalid", err)
	}
	if _, err := ReconcileNew(d, rss, 0); !errors.Is(err, field.ErrInvalid) {
		t.Errorf("ReconcileNew(nil) error = %v, want field.ErrInvalid", err)
	}
	_ = MaxScaledDown(d, rss, 5)
	_, _ = CleanupUnhealthy(rss, 7, 3, nil)
	_, _ = ScaleDownOld(d, rss, -1, nil)
	_, _ = ReconcileOld(d, rss, -1, nil)
	_ = IsSaturated(d, nil)
	if s := CalculateStatus(d, rss, 0, t0); s.Conditions != nil {
		t.Errorf("CalculateStatus(nil) = %+v, want zero", s)
	}
	_ = RolloutStatus(d, rss, 3, t0)
	if Complete(d, nil) || Progressing(d, nil) || TimedOut(d, nil, t0) {
		t.Errorf("predicates on nil = true, want false")
	}
	if _, ok := Requeue(d, nil, t0); ok {
		t.Errorf("Requeue(nil) = ok, want not")
	}
	if _, changed := PausedConditions(d, t0); changed {
		t.Errorf("PausedConditions(nil) changed")
	}
	if _, err := Simulate(d, rss, Config[tmpl]{}); !errors.Is(err, field.ErrInvalid) {
		t.Errorf("Simulate(nil) error = %v, want field.ErrInvalid", err)
	}
	// Values near MaxInt32 never wrap.
	big := dep(math.MaxInt32, num(math.MaxInt32), num(math.MaxInt32))
	huge := []ReplicaSet[tmpl]{rs("a", 3, math.MaxInt32, math.MaxInt32), rs("b", 2, math.MaxInt32, 0)}
	if n, err := NewReplicas(big, huge, 1); err != nil || n != math.MaxInt32 {
		t.Errorf("NewReplicas(MaxInt32 everywhere) = (%d, %v), want (MaxInt32, nil)", n, err)
	}
	s := CalculateStatus(big, huge, 1, t0)
	if s.Replicas != math.MaxInt32 || s.UnavailableReplicas != math.MaxInt32 {
		t.Errorf("CalculateStatus(MaxInt32 everywhere) = %+v, want saturated counters", s)
	}
	if _, err := Plan(big, huge, t0); err != nil {
		t.Errorf("Plan(MaxInt32 everywhere) error = %v", err)
	}
}
