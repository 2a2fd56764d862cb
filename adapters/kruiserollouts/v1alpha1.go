package kruiserollouts

import (
	"encoding/json"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/field"
)

// APIVersionV1alpha1 is the apiVersion of the older Rollout and
// BatchRelease, which kruise-rollout v0.6.3 still serves and converts to
// v1beta1.
const APIVersionV1alpha1 = Group + "/v1alpha1"

// TrafficRoutingAnnotation is the v1alpha1 Rollout annotation that names
// a TrafficRouting object (spec.strategy.canary.trafficRoutingRef in
// v1beta1).
const TrafficRoutingAnnotation = "rollouts.kruise.io/trafficrouting"

// RolloutV1alpha1 mirrors the JSON of a rollouts.kruise.io/v1alpha1
// Rollout for the fields its conversion to v1beta1 carries into the
// mirror's Rollout (Rollout in github.com/openkruise/rollouts/api/v1alpha1).
// ToV1beta1 converts it.
type RolloutV1alpha1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// Spec holds the workload reference, the canary strategy and
	// disabled.
	Spec struct {
		// ObjectRef.WorkloadRef is the workload released.
		ObjectRef struct {
			WorkloadRef *ObjectRef `json:"workloadRef,omitempty"`
		} `json:"objectRef"`
		// Strategy holds the canary strategy (v1alpha1 has no blue-green).
		Strategy struct {
			Paused bool                    `json:"paused,omitempty"`
			Canary *CanaryStrategyV1alpha1 `json:"canary,omitempty"`
		} `json:"strategy"`
		// Disabled stops the Rollout from acting on its workload.
		Disabled bool `json:"disabled"`
	} `json:"spec,omitempty"`
	// Status holds the fields of RolloutStatus that v1alpha1 has: each
	// is the field of the same name there.
	Status struct {
		ObservedGeneration int64                 `json:"observedGeneration,omitempty"`
		CanaryStatus       *CanaryStatusV1alpha1 `json:"canaryStatus,omitempty"`
		Conditions         []Condition           `json:"conditions,omitempty"`
		Phase              string                `json:"phase,omitempty"`
		Message            string                `json:"message,omitempty"`
	} `json:"status,omitempty"`
}

// CanaryStrategyV1alpha1 is a v1alpha1 Rollout's spec.strategy.canary.
type CanaryStrategyV1alpha1 struct {
	// Steps are the release's steps, in order.
	Steps []CanaryStepV1alpha1 `json:"steps,omitempty"`
	// TrafficRoutings are kept as raw JSON (their v1alpha1 and v1beta1
	// forms are the same).
	TrafficRoutings []json.RawMessage `json:"trafficRoutings,omitempty"`
	// FailureThreshold is as in v1beta1.
	FailureThreshold *intstr.IntOrString `json:"failureThreshold,omitempty"`
}

// CanaryStepV1alpha1 is one step of a v1alpha1 Rollout: traffic as a
// weight (an int percent), and replicas that may be absent.
type CanaryStepV1alpha1 struct {
	// Weight is the traffic percent; it becomes v1beta1 traffic "n%"
	// and, when replicas is absent, replicas "n%".
	Weight *int32 `json:"weight,omitempty"`
	// Matches are kept as raw JSON; only their headers convert.
	Matches []json.RawMessage `json:"matches,omitempty"`
	// Replicas is as in v1beta1.
	Replicas *intstr.IntOrString `json:"replicas,omitempty"`
	// Pause is as in v1beta1.
	Pause RolloutPause `json:"pause,omitempty"`
}

// CanaryStatusV1alpha1 is a v1alpha1 Rollout's status.canaryStatus: one
// struct where v1beta1 has CommonStatus inside CanaryStatus; each field
// is the CommonStatus or CanaryStatus field of the same name.
type CanaryStatusV1alpha1 struct {
	ObservedWorkloadGeneration int64        `json:"observedWorkloadGeneration,omitempty"`
	ObservedRolloutID          string       `json:"observedRolloutID,omitempty"`
	RolloutHash                string       `json:"rolloutHash,omitempty"`
	StableRevision             string       `json:"stableRevision,omitempty"`
	CanaryRevision             string       `json:"canaryRevision"`
	PodTemplateHash            string       `json:"podTemplateHash"`
	CanaryReplicas             int32        `json:"canaryReplicas"`
	CanaryReadyReplicas        int32        `json:"canaryReadyReplicas"`
	NextStepIndex              int32        `json:"nextStepIndex"`
	CurrentStepIndex           int32        `json:"currentStepIndex"`
	CurrentStepState           string       `json:"currentStepState"`
	Message                    string       `json:"message,omitempty"`
	LastUpdateTime             *metav1.Time `json:"lastUpdateTime,omitempty"`
	FinalisingStep             string       `json:"finalisingStep"`
}

// ToV1beta1 converts r as kruise-rollout's conversion webhook does
// (Rollout.ConvertTo, api/v1alpha1/conversion.go): metadata as is; the
// workload reference; a step's weight n becomes traffic "n%", and also
// replicas "n%" when replicas is absent; matches keep their headers
// only; enableExtraWorkloadForCanary is true unless the
// rollouts.kruise.io/rolling-style annotation is "partition" (any case),
// so that a v1alpha1 Rollout of a Deployment without the annotation is
// a Canary-style release; the rollouts.kruise.io/trafficrouting
// annotation becomes trafficRoutingRef; the canary status and conditions
// carry over. The result's apiVersion is v1beta1.
//
// Upstream dereferences spec.objectRef.workloadRef and
// spec.strategy.canary and panics when either is absent; here that is an
// error (a *field.Error wrapping field.ErrRequired), as is a match that
// is not a JSON object.
func (r *RolloutV1alpha1) ToV1beta1() (*Rollout, error) {
	prefix := "kruiserollouts: invalid v1alpha1 Rollout " + strconv.Quote(r.Name)
	if r.Spec.ObjectRef.WorkloadRef == nil {
		return nil, &field.Error{Prefix: prefix, Field: "spec.objectRef.workloadRef", Detail: "required: kruise-rollout cannot convert a Rollout without it", Err: field.ErrRequired}
	}
	c := r.Spec.Strategy.Canary
	if c == nil {
		return nil, &field.Error{Prefix: prefix, Field: "spec.strategy.canary", Detail: "required: kruise-rollout cannot convert a Rollout without it", Err: field.ErrRequired}
	}
	out := &Rollout{
		TypeMeta:   metav1.TypeMeta{APIVersion: APIVersion, Kind: "Rollout"},
		ObjectMeta: r.ObjectMeta,
	}
	out.Spec.WorkloadRef = *r.Spec.ObjectRef.WorkloadRef
	out.Spec.Disabled = r.Spec.Disabled
	out.Spec.Strategy.Paused = r.Spec.Strategy.Paused
	oc := &CanaryStrategy{
		FailureThreshold:             c.FailureThreshold,
		TrafficRoutings:              c.TrafficRoutings,
		EnableExtraWorkloadForCanary: !strings.EqualFold(r.Annotations[RollingStyleAnnotation], string(Partition)),
		TrafficRoutingRef:            r.Annotations[TrafficRoutingAnnotation],
	}
	for i, s := range c.Steps {
		step := CanaryStep{Replicas: s.Replicas, Pause: RolloutPause{Duration: s.Pause.Duration}}
		if s.Weight != nil {
			pct := strconv.Itoa(int(*s.Weight)) + "%"
			step.Traffic = &pct
			if s.Replicas == nil {
				v := intstr.FromString(pct)
				step.Replicas = &v
			}
		}
		for j, m := range s.Matches {
			var headers struct {
				Headers json.RawMessage `json:"headers,omitempty"`
			}
			if err := json.Unmarshal(m, &headers); err != nil {
				return nil, &field.Error{Prefix: prefix, Field: "spec.strategy.canary.steps[" + strconv.Itoa(i) + "].matches[" + strconv.Itoa(j) + "]",
					Detail: "not a match: " + err.Error(), Err: field.ErrSyntax}
			}
			js, err := json.Marshal(headers)
			if err != nil {
				return nil, err
			}
			step.Matches = append(step.Matches, js)
		}
		oc.Steps = append(oc.Steps, step)
	}
	out.Spec.Strategy.Canary = oc
	out.Status.ObservedGeneration = r.Status.ObservedGeneration
	out.Status.Phase = r.Status.Phase
	out.Status.Message = r.Status.Message
	out.Status.Conditions = r.Status.Conditions
	if s := r.Status.CanaryStatus; s != nil {
		out.Status.CanaryStatus = &CanaryStatus{
			CommonStatus: CommonStatus{
				ObservedWorkloadGeneration: s.ObservedWorkloadGeneration,
				ObservedRolloutID:          s.ObservedRolloutID,
				RolloutHash:                s.RolloutHash,
				StableRevision:             s.StableRevision,
				PodTemplateHash:            s.PodTemplateHash,
				CurrentStepIndex:           s.CurrentStepIndex,
				NextStepIndex:              s.NextStepIndex,
				FinalisingStep:             s.FinalisingStep,
				CurrentStepState:           s.CurrentStepState,
				Message:                    s.Message,
				LastUpdateTime:             s.LastUpdateTime,
			},
			CanaryRevision:      s.CanaryRevision,
			CanaryReplicas:      s.CanaryReplicas,
			CanaryReadyReplicas: s.CanaryReadyReplicas,
		}
	}
	return out, nil
}

// BatchReleaseV1alpha1 mirrors the JSON of a rollouts.kruise.io/v1alpha1
// BatchRelease (BatchRelease in github.com/openkruise/rollouts/api/v1alpha1):
// spec.targetReference.workloadRef instead of spec.workloadRef, the
// rolling style in an annotation. ToV1beta1 converts it.
type BatchReleaseV1alpha1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// Spec holds the workload reference (targetReference.workloadRef)
	// and the release plan, whose JSON is v1beta1's.
	Spec struct {
		TargetRef struct {
			WorkloadRef *ObjectRef `json:"workloadRef,omitempty"`
		} `json:"targetReference"`
		ReleasePlan ReleasePlan `json:"releasePlan"`
	} `json:"spec,omitempty"`
	// Status is as in v1beta1, less the message v1alpha1 does not have.
	Status BatchReleaseStatus `json:"status,omitempty"`
}

// ToV1beta1 converts b as kruise-rollout's conversion webhook does
// (BatchRelease.ConvertTo, api/v1alpha1/conversion.go): metadata as is;
// the workload reference; the release plan, except that the rolling
// style comes from the rollouts.kruise.io/rolling-style annotation
// ("partition", "canary" or "bluegreen", any case; anything else is
// none) and spec.releasePlan.rollingStyle is dropped, as upstream drops
// it; the status but its message, which upstream does not carry. The
// result's apiVersion is v1beta1.
//
// Upstream dereferences spec.targetReference.workloadRef and panics when
// it is absent; here that is an error wrapping field.ErrRequired.
func (b *BatchReleaseV1alpha1) ToV1beta1() (*BatchRelease, error) {
	if b.Spec.TargetRef.WorkloadRef == nil {
		return nil, &field.Error{Prefix: "kruiserollouts: invalid v1alpha1 BatchRelease " + strconv.Quote(b.Name),
			Field: "spec.targetReference.workloadRef", Detail: "required: kruise-rollout cannot convert a BatchRelease without it", Err: field.ErrRequired}
	}
	out := &BatchRelease{
		TypeMeta:   metav1.TypeMeta{APIVersion: APIVersion, Kind: "BatchRelease"},
		ObjectMeta: b.ObjectMeta,
		Status:     b.Status,
	}
	out.Status.Message = "" // not carried by upstream's conversion
	out.Spec.WorkloadRef = *b.Spec.TargetRef.WorkloadRef
	out.Spec.ReleasePlan = b.Spec.ReleasePlan
	if len(out.Spec.ReleasePlan.Batches) == 0 {
		out.Spec.ReleasePlan.Batches = nil // upstream appends batch by batch
	}
	out.Spec.ReleasePlan.RollingStyle = ""
	for _, s := range []RollingStyle{Partition, Canary, BlueGreen} {
		if strings.EqualFold(b.Annotations[RollingStyleAnnotation], string(s)) {
			out.Spec.ReleasePlan.RollingStyle = s
		}
	}
	return out, nil
}
