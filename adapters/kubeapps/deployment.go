package kubeapps

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/field"
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
// within int32; anything else is reported as an field.ErrorList
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
// maxUnavailable is replaced by a stand-in, 0, which only marks the field
// as set (Validate reports the value as written instead), and reported in
// errs.
func convert(d *appsv1.Deployment) (out rollout.Deployment[Template], errs field.ErrorList) {
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
		Selector:                Selector(d.Spec.Selector),
		Template:                d.Spec.Template,
		Status:                  Status(&d.Status),
	}
	if d.Spec.Replicas != nil {
		out.Replicas = *d.Spec.Replicas
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		var unavailableOK, surgeOK bool
		out.MaxUnavailable, unavailableOK = value(ru.MaxUnavailable)
		out.MaxSurge, surgeOK = value(ru.MaxSurge)
		if !unavailableOK || !surgeOK {
			// Report what the API server says about the values that
			// cannot be converted, and nothing about the others.
			for _, e := range validateBounds(d) {
				if (!unavailableOK && e.Field == rollingUpdateField+".maxUnavailable") ||
					(!surgeOK && e.Field == rollingUpdateField+".maxSurge") {
					errs = append(errs, e)
				}
			}
		}
	}
	if n, ok := revision.RollbackTo(d.Annotations); ok {
		out.RollbackTo = &n
	}
	return out, errs
}

// value converts an IntOrString: nil stays nil (the 25% default), and a
// value intorpercent.IntOrString.Value rejects becomes the stand-in 0,
// with false.
func value(v *intstr.IntOrString) (*intorpercent.Value, bool) {
	if v == nil {
		return nil, true
	}
	n, ok := written(v).Value()
	return &n, ok
}

// written returns v as intorpercent holds a value as written.
func written(v *intstr.IntOrString) intorpercent.IntOrString {
	return intorpercent.IntOrString{IsString: v.Type == intstr.String, Int: v.IntVal, Str: v.StrVal}
}

// validateBounds applies the API server's rolling-update rules to d's
// maxUnavailable and maxSurge as written, a missing one defaulted to
// "25%" as apps/v1 defaulting does.
func validateBounds(d *appsv1.Deployment) field.ErrorList {
	unavailable, surge := intstr.FromString("25%"), intstr.FromString("25%")
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		if ru.MaxUnavailable != nil {
			unavailable = *ru.MaxUnavailable
		}
		if ru.MaxSurge != nil {
			surge = *ru.MaxSurge
		}
	}
	return intorpercent.ValidateRollingUpdateIntOrString(written(&unavailable), written(&surge), rollingUpdateField)
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
