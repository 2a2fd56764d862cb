package adapt

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Template is the pod template type the converted values carry.
type Template = corev1.PodTemplateSpec

const rollingUpdateField = "spec.strategy.rollingUpdate"

// Deployment converts d into the Deployment the rollout package reads:
// name, generation, deletion, annotations, spec (replicas, strategy,
// minReadySeconds, paused, progressDeadlineSeconds, revisionHistoryLimit,
// template), a pending rollback from the deprecated rollback annotation,
// and the status. A nil spec.replicas is the apps/v1 default 1; other nil
// fields keep their nil meaning (the apps/v1 defaults). The template
// and the annotations map are shared with d.
//
// maxSurge and maxUnavailable must be a count or a "N%" string with N
// within int32; anything else is reported as an intorpercent.ErrorList
// worded as the API server words it, and the result is then the zero
// Deployment. One value the API server accepts is rejected here: a
// maxSurge percentage beyond 2147483647% (say "30000000000%"), which
// rolloutmath cannot represent.
func Deployment(d *appsv1.Deployment) (rollout.Deployment[Template], error) {
	out, errs := convert(d)
	if len(errs) > 0 {
		return rollout.Deployment[Template]{}, errs
	}
	return out, nil
}

// convert is Deployment, except that an unrepresentable maxSurge or
// maxUnavailable is replaced by a stand-in that validates as the API server
// reads the value (0 where it counts as 0 for the both-zero rule, 1
// otherwise), and reported in errs.
func convert(d *appsv1.Deployment) (out rollout.Deployment[Template], errs intorpercent.ErrorList) {
	out = rollout.Deployment[Template]{
		Name:                    d.Name,
		Generation:              d.Generation,
		Deleting:                d.DeletionTimestamp != nil,
		Annotations:             d.Annotations,
		Replicas:                1,
		Strategy:                rollout.StrategyType(d.Spec.Strategy.Type),
		MinReadySeconds:         d.Spec.MinReadySeconds,
		Paused:                  d.Spec.Paused,
		ProgressDeadlineSeconds: d.Spec.ProgressDeadlineSeconds,
		RevisionHistoryLimit:    d.Spec.RevisionHistoryLimit,
		Template:                d.Spec.Template,
		Status:                  Status(&d.Status),
	}
	if d.Spec.Replicas != nil {
		out.Replicas = *d.Spec.Replicas
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		var err *intorpercent.FieldError
		if out.MaxUnavailable, err = value(ru.MaxUnavailable, rollingUpdateField+".maxUnavailable"); err != nil {
			errs = append(errs, err)
		}
		if out.MaxSurge, err = value(ru.MaxSurge, rollingUpdateField+".maxSurge"); err != nil {
			errs = append(errs, err)
		}
	}
	if n, ok := revision.RollbackTo(d.Annotations); ok {
		out.RollbackTo = &n
	}
	return out, errs
}

// value converts an IntOrString. nil stays nil (the 25% default). On
// error the result is the stand-in described on convert.
func value(v *intstr.IntOrString, field string) (*intorpercent.Value, *intorpercent.FieldError) {
	if v == nil {
		return nil, nil
	}
	if v.Type == intstr.Int {
		n := intorpercent.Int(v.IntVal)
		return &n, nil
	}
	p, err := intorpercent.Parse(v.StrVal)
	if err == nil && p.IsPercent() {
		return &p, nil
	}
	fe := &intorpercent.FieldError{Type: intorpercent.Invalid, Field: field, Value: strconv.Quote(v.StrVal)}
	// The API server counts a percentage as its number and any other
	// string as its Atoi value (0 when it has none): only whether that
	// is 0 matters to validation.
	var n int
	if isPercentString(v.StrVal) {
		n, _ = strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	} else {
		n, _ = strconv.Atoi(v.StrVal)
	}
	standIn := intorpercent.Int(0)
	if n != 0 {
		standIn = intorpercent.Int(1)
	}
	switch {
	case v.Type != intstr.String:
		fe.Detail = "must be an integer or percentage (e.g '5%')"
	case !isPercentString(v.StrVal):
		fe.Detail = percentRule
	default:
		// Digits and a '%', beyond int32: the API server takes it as a
		// maxSurge (no upper bound) and rejects it as a maxUnavailable.
		fe.Detail = "must not be greater than 100%"
		if field == rollingUpdateField+".maxSurge" {
			fe.Detail = "must not be greater than 2147483647% (rolloutmath keeps percentages in an int32)"
		}
	}
	return &standIn, fe
}

// percentRule is the API server's message for a string that is not a
// valid percentage.
const percentRule = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

// isPercentString reports whether s is digits followed by one '%', the
// API server's pattern for a percentage.
func isPercentString(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '%' {
		return false
	}
	for i := 0; i < len(s)-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// intOrString converts a Value back: a count as an Int, a percentage as
// its "N%" string.
func intOrString(v *intorpercent.Value) *intstr.IntOrString {
	if v == nil {
		return nil
	}
	var out intstr.IntOrString
	if v.IsPercent() {
		out = intstr.FromString(v.String())
	} else {
		out = intstr.FromInt32(v.Number())
	}
	return &out
}

// DeploymentObject returns a deep copy of base with the fields d models
// written back: annotations, generation, the spec fields Deployment reads
// (spec.replicas always set, rollingUpdate nil when d has neither bound),
// the template, and the status. A pending rollback is not written back
// (the annotation is kept as base has it). A nil base starts from an
// empty Deployment named d.Name, which then has no selector (the rollout
// math does not read it).
func DeploymentObject(d *rollout.Deployment[Template], base *appsv1.Deployment) *appsv1.Deployment {
	out := &appsv1.Deployment{}
	if base != nil {
		out = base.DeepCopy()
	} else {
		out.Name = d.Name
	}
	out.Generation = d.Generation
	out.Annotations = cloneMap(d.Annotations)
	r := d.Replicas
	out.Spec.Replicas = &r
	out.Spec.Strategy.Type = appsv1.DeploymentStrategyType(d.Strategy)
	out.Spec.Strategy.RollingUpdate = nil
	if d.MaxSurge != nil || d.MaxUnavailable != nil {
		out.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{
			MaxSurge:       intOrString(d.MaxSurge),
			MaxUnavailable: intOrString(d.MaxUnavailable),
		}
	}
	out.Spec.MinReadySeconds = d.MinReadySeconds
	out.Spec.Paused = d.Paused
	out.Spec.ProgressDeadlineSeconds = clonePtr(d.ProgressDeadlineSeconds)
	out.Spec.RevisionHistoryLimit = clonePtr(d.RevisionHistoryLimit)
	out.Spec.Template = *d.Template.DeepCopy()
	out.Status = StatusObject(&d.Status)
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
