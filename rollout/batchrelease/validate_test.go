package batchrelease

import (
	"errors"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
)

func steps(replicas ...any) []CanaryStep {
	var out []CanaryStep
	for _, r := range replicas {
		out = append(out, CanaryStep{Replicas: isp(r)})
	}
	return out
}

func canaryRollout(kind Kind, s []CanaryStep) *Rollout {
	return &Rollout{Name: "demo", WorkloadKind: kind, Canary: &Strategy{Steps: s}}
}

func TestCase55StepValidation(t *testing.T) {
	traffic := func(s []CanaryStep, i int, t string) []CanaryStep { s[i].Traffic = &t; return s }
	tests := []struct {
		name string
		ro   *Rollout
		want string
	}{
		{"replicas 0%", canaryRollout(CloneSet, steps("0%")),
			`Spec.Strategy.Canary.Steps[0].Replicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`},
		{"int 150", canaryRollout(CloneSet, steps(150)), ""},
		{"101%", canaryRollout(CloneSet, steps("101%")),
			`Spec.Strategy.Canary.Steps[0].Replicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`},
		{"partition, traffic 10%, replicas 60%", canaryRollout(CloneSet, traffic(steps("60%"), 0, "10%")),
			`Spec.Strategy.Canary.Steps[0].steps: Invalid value: For partition style rollout: step[x].replicas must not greater than partition-percent-limit if traffic specified`},
		{"canary style, traffic 10%, replicas 60%", &Rollout{WorkloadKind: Deployment, Canary: &Strategy{EnableExtraWorkloadForCanary: true, Steps: traffic(steps("60%"), 0, "10%")}}, ""},
		{"extra workload on a CloneSet is partition", &Rollout{WorkloadKind: CloneSet, Canary: &Strategy{EnableExtraWorkloadForCanary: true, Steps: traffic(steps("60%"), 0, "10%")}},
			`Spec.Strategy.Canary.Steps[0].steps: Invalid value: For partition style rollout: step[x].replicas must not greater than partition-percent-limit if traffic specified`},
		{"traffic 0% canary", canaryRollout(CloneSet, traffic(steps("20%"), 0, "0%")),
			`Spec.Strategy.Canary.Steps[0].steps: Invalid value: traffic must be percentage with "0%" < traffic <= "100%" in canary strategy`},
		{"traffic 0% blue-green", &Rollout{WorkloadKind: CloneSet, BlueGreen: &Strategy{Steps: traffic(steps("20%"), 0, "0%")}}, ""},
		{"steps [3, 2]", canaryRollout(CloneSet, steps(3, 2)),
			`Spec.Strategy.Canary.Steps.CanaryReplicas: Invalid value: Steps.CanaryReplicas must be a non decreasing sequence`},
		{`steps ["50%", 2]`, canaryRollout(CloneSet, steps("50%", 2)), ""},
		{"no steps", canaryRollout(CloneSet, nil),
			`Spec.Strategy.Canary.Steps: Invalid value: []v1beta1.CanaryStep(nil): The number of Canary.Steps cannot be empty`},
		{"replicas nil", canaryRollout(CloneSet, []CanaryStep{{}}),
			`Spec.Strategy.Canary.Steps[0].steps: Invalid value: replicas cannot be empty`},
		{"no strategy", &Rollout{WorkloadKind: CloneSet},
			`Spec.Strategy: Invalid value: "null": Canary and BlueGreen cannot both be empty`},
		{"both strategies", &Rollout{WorkloadKind: CloneSet, Canary: &Strategy{Steps: steps(1)}, BlueGreen: &Strategy{Steps: steps(1)}},
			`Spec.Strategy: Invalid value: "null": Canary and BlueGreen cannot both be set`},
		{"blue-green StatefulSet", &Rollout{WorkloadKind: StatefulSet, BlueGreen: &Strategy{Steps: steps(1)}},
			`Spec.ObjectRef.WorkloadRef: Invalid value: WorkloadRef kind is not supported for bluegreen style`},
		{"first failing step alone", canaryRollout(CloneSet, steps("0%", "abc", 3, 2)),
			`Spec.Strategy.Canary.Steps[0].Replicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`},
	}
	for _, tt := range tests {
		err := Validate(tt.ro)
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, field.ErrInvalid) {
				t.Errorf("%s: %v does not wrap field.ErrInvalid", tt.name, err)
			}
		}
		if got != tt.want {
			t.Errorf("%s: Validate = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestReleaseForErrors(t *testing.T) {
	tests := []struct {
		name string
		ro   *Rollout
		want string
	}{
		{"nil", nil, "batchrelease: rollout: must not be nil"},
		{"no strategy", &Rollout{Name: "demo"}, `batchrelease: invalid Rollout "demo": spec.strategy: one of canary and blueGreen must be set`},
		{"step without replicas", &Rollout{Name: "demo", BlueGreen: &Strategy{Steps: []CanaryStep{{Replicas: isp(1)}, {}}}},
			`batchrelease: invalid Rollout "demo": spec.strategy.blueGreen.steps[1].replicas: must be set`},
	}
	for _, tt := range tests {
		_, err := ReleaseFor(tt.ro)
		if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) {
			t.Errorf("%s: ReleaseFor error %v, want %q", tt.name, err, tt.want)
		}
	}
	rel, err := ReleaseFor(&Rollout{Name: "demo", WorkloadKind: Deployment, RolloutID: "r2", CurrentStepIndex: 0,
		BlueGreen: &Strategy{Steps: steps("50%", "100%"), FailureThreshold: isp("10%")}})
	if err != nil || rel.RollingStyle != BlueGreen || *rel.BatchPartition != 0 || rel.RolloutID != "r2" || *rel.FailureThreshold != is("10%") || len(rel.Batches) != 2 {
		t.Errorf("ReleaseFor blue-green: %+v, %v", rel, err)
	}
}
