package batchrelease

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// PartitionPercentLimit is the largest percent of replicas a step of a
// Partition-style Rollout may have when it also sets traffic or matches:
// the webhook's --partition-percent-limit flag, 50 by default.
// Upstream: PartitionReplicasLimitWithTraffic,
// pkg/webhook/rollout/validating/rollout_create_update_handler.go.
const PartitionPercentLimit = 50

// ValidationStyle is the style kruise-rollout's webhook validates ro's
// steps under: BlueGreen for a blue-green strategy, Canary for a canary
// strategy with enableExtraWorkloadForCanary on a Deployment, Partition
// otherwise (the flag is ignored for other kinds); 0 when neither
// strategy is set. Upstream: GetContextFromv1beta1Rollout and
// IsRealPartition, rollout_create_update_handler.go and api/v1beta1.
func ValidationStyle(ro *Rollout) RollingStyle {
	switch {
	case ro == nil || (ro.Canary == nil && ro.BlueGreen == nil):
		return 0
	case ro.BlueGreen != nil:
		return BlueGreen
	case ro.Canary.EnableExtraWorkloadForCanary && ro.WorkloadKind == Deployment:
		return Canary
	}
	return Partition
}

// Validate checks ro as kruise-rollout's Rollout webhook does on create,
// in its words and order: the workload kind, then the strategy (exactly
// one of canary and blueGreen, then its steps, then the number of
// traffic routings). The steps report their first failing rule alone
// ([ValidateSteps]). Validate returns nil for a valid Rollout, and a
// field.ErrorList otherwise.
//
// Where upstream prints a whole Go value that holds pointers (the step
// list, the workload reference, the traffic routings), the error has no
// value (its text omits it); every other part of the text is upstream's.
// Not checked: the traffic routings' own fields, the conflict with
// other Rollouts, and the rules of an update (immutable steps and style
// while progressing). Upstream: validateRolloutSpec,
// pkg/webhook/rollout/validating/rollout_create_update_handler.go.
func Validate(ro *Rollout) error {
	if ro == nil {
		return field.ErrorList{{Prefix: "batchrelease", Field: "rollout", Detail: "must not be nil", Err: field.ErrRequired}}
	}
	var errs field.ErrorList
	style := ValidationStyle(ro)
	switch {
	case ro.WorkloadKind < CloneSet || ro.WorkloadKind > Deployment:
		errs = append(errs, invalid("Spec.ObjectRef.WorkloadRef", "", "WorkloadRef kind is not supported", field.ErrUnsupported))
	case style == BlueGreen && ro.WorkloadKind != CloneSet && ro.WorkloadKind != Deployment:
		errs = append(errs, invalid("Spec.ObjectRef.WorkloadRef", "", "WorkloadRef kind is not supported for bluegreen style", field.ErrUnsupported))
	}
	switch {
	case ro.Canary == nil && ro.BlueGreen == nil:
		errs = append(errs, invalid("Spec.Strategy", `"null"`, "Canary and BlueGreen cannot both be empty", field.ErrRequired))
	case ro.Canary != nil && ro.BlueGreen != nil:
		errs = append(errs, invalid("Spec.Strategy", `"null"`, "Canary and BlueGreen cannot both be set", nil))
	default:
		s, path := ro.Canary, "Spec.Strategy.Canary"
		if ro.BlueGreen != nil {
			s, path = ro.BlueGreen, "Spec.Strategy.BlueGreen"
		}
		if err := ValidateSteps(s.Steps, style, path+".Steps"); err != nil {
			errs = append(errs, err)
		}
		if s.TrafficRoutings > 1 {
			errs = append(errs, invalid(path, "", "Rollout currently only support single TrafficRouting.", nil))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

func invalid(path, value, detail string, kind error) *field.Error {
	return &field.Error{Field: path, Type: field.TypeInvalid, Value: value, Detail: detail, Err: kind}
}

// ValidateSteps checks a strategy's steps as the webhook does for style
// (Partition, Canary or BlueGreen), with path the steps' path
// ("Spec.Strategy.Canary.Steps"), and returns the first failing rule
// alone, nil if none:
//
//   - at least one step: "The number of Canary.Steps cannot be empty";
//   - each step, in order: replicas set ("replicas cannot be empty"); its
//     replicas read strictly on 100 with ceil parse, are > 0 and, for a
//     string, <= 100 (a count may exceed 100); a step with traffic or
//     matches under Partition has a percent of at most
//     PartitionPercentLimit; its traffic is a percent in (0, 100] (in
//     [0, 100] for BlueGreen);
//   - consecutive steps of the same kind (count-count or
//     percent-percent) do not decrease; a mixed pair is not compared.
//
// Upstream: validateRolloutSpecCanarySteps, rollout_create_update_handler.go.
func ValidateSteps(steps []CanaryStep, style RollingStyle, path string) *field.Error {
	if len(steps) == 0 {
		v := "[]v1beta1.CanaryStep{}"
		if steps == nil {
			v = "[]v1beta1.CanaryStep(nil)"
		}
		return invalid(path, v, "The number of Canary.Steps cannot be empty", field.ErrRequired)
	}
	for i := range steps {
		s := &steps[i]
		stepPath := path + "[" + strconv.Itoa(i) + "]"
		if s.Replicas == nil {
			return invalid(stepPath+".steps", "", "replicas cannot be empty", field.ErrRequired)
		}
		n, ok := strictScaled(s.Replicas, 100, true)
		if !ok || n <= 0 || (n > 100 && s.Replicas.IsString) {
			kind := field.ErrRange
			if !ok {
				kind = field.ErrSyntax
			}
			return invalid(stepPath+".Replicas", goSyntax(s.Replicas),
				`replicas must be positive number, or a percentage with "0%" < canaryReplicas <= "100%"`, kind)
		}
		if s.Traffic == nil && len(s.Matches) == 0 {
			continue
		}
		if style == Partition && s.Replicas.IsString && n > PartitionPercentLimit {
			return invalid(stepPath+".steps", "", "For partition style rollout: step[x].replicas must not greater than partition-percent-limit if traffic specified", field.ErrRange)
		}
		if s.Traffic == nil {
			continue
		}
		t := intorpercent.FromString(*s.Traffic)
		w, ok := strictScaled(&t, 100, true)
		if style == BlueGreen {
			if !ok || w < 0 || w > 100 {
				return invalid(stepPath+".steps", "", `traffic must be percentage with "0%" <= traffic <= "100%" in blueGreen strategy`, field.ErrRange)
			}
		} else if !ok || w <= 0 || w > 100 {
			return invalid(stepPath+".steps", "", `traffic must be percentage with "0%" < traffic <= "100%" in canary strategy`, field.ErrRange)
		}
	}
	for i := 1; i < len(steps); i++ {
		prev, curr := steps[i-1].Replicas, steps[i].Replicas
		if isPercentType(prev) != isPercentType(curr) {
			continue
		}
		p, _ := strictScaled(prev, 100, true)
		c, _ := strictScaled(curr, 100, true)
		if c < p {
			return invalid(path+".CanaryReplicas", "", "Steps.CanaryReplicas must be a non decreasing sequence", field.ErrRange)
		}
	}
	return nil
}

// goSyntax renders an IntOrString as apimachinery's field errors print
// an *intstr.IntOrString (%#v of the struct: only its pointer has a
// String method).
func goSyntax(s *intorpercent.IntOrString) string {
	typ := "0"
	if s.IsString {
		typ = "1"
	}
	return "intstr.IntOrString{Type:" + typ + ", IntVal:" + strconv.FormatInt(int64(s.Int), 10) + ", StrVal:" + strconv.Quote(s.Str) + "}"
}
