package kruiserollouts

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// WorkloadKind returns the kind of workload ref names, as kruise-rollout
// v0.6.3 tells them apart by apiVersion and kind
// (Executor.getReleaseController in
// pkg/controller/batchrelease/batchrelease_executor.go): apps/v1
// Deployment and StatefulSet, apps.kruise.io/v1alpha1 CloneSet, and
// apps.kruise.io/v1alpha1 or v1beta1 StatefulSet (Advanced StatefulSet).
// Any other reference (DaemonSets included, which package batchrelease
// does not model) is an error, a *field.Error wrapping
// field.ErrUnsupported whose Field is path plus ".kind".
func WorkloadKind(ref ObjectRef, path string) (batchrelease.Kind, error) {
	switch {
	case ref.APIVersion == "apps/v1" && ref.Kind == "Deployment":
		return batchrelease.Deployment, nil
	case ref.APIVersion == "apps/v1" && ref.Kind == "StatefulSet":
		return batchrelease.StatefulSet, nil
	case ref.APIVersion == "apps.kruise.io/v1alpha1" && ref.Kind == "CloneSet":
		return batchrelease.CloneSet, nil
	case (ref.APIVersion == "apps.kruise.io/v1alpha1" || ref.APIVersion == "apps.kruise.io/v1beta1") && ref.Kind == "StatefulSet":
		return batchrelease.AdvancedStatefulSet, nil
	}
	return 0, &field.Error{
		Field:  path + ".kind",
		Value:  strconv.Quote(ref.APIVersion + "/" + ref.Kind),
		Detail: `supported workloads: apps/v1 Deployment or StatefulSet, apps.kruise.io/v1alpha1 CloneSet, apps.kruise.io/v1alpha1 or v1beta1 StatefulSet`,
		Err:    field.ErrUnsupported,
	}
}

// ConvertRollout returns the Rollout as package batchrelease reads it:
// its name, the kind of its workload, its canary or blue-green strategy
// (steps, failure threshold, whether it asks for an extra canary
// Deployment, how many traffic routings), and, from
// status.canaryStatus (or status.blueGreenStatus), the observed rollout
// ID and the 1-based current step index.
//
// Int-or-percent fields are copied as written; whether they parse is
// batchrelease.Validate's question, answered in the webhook's words.
// The error, a *field.Error prefixed `kruiserollouts: invalid Rollout
// "name"`, reports a nil r, a workload kind batchrelease does not model,
// or a strategy with more traffic routings than an int32 holds.
// The result shares the steps' matches with r.
func ConvertRollout(r *Rollout) (batchrelease.Rollout, error) {
	if r == nil {
		return batchrelease.Rollout{}, &field.Error{Prefix: "kruiserollouts", Field: "rollout", Detail: "must not be nil", Err: field.ErrRequired}
	}
	prefix := fmt.Sprintf("kruiserollouts: invalid Rollout %q", r.Name)
	kind, err := WorkloadKind(r.Spec.WorkloadRef, "spec.workloadRef")
	if err != nil {
		return batchrelease.Rollout{}, withPrefix(err, prefix)
	}
	out := batchrelease.Rollout{Name: r.Name, WorkloadKind: kind}
	if c := r.Spec.Strategy.Canary; c != nil {
		s, err := strategy(c.Steps, c.TrafficRoutings, c.FailureThreshold, "spec.strategy.canary")
		if err != nil {
			return batchrelease.Rollout{}, withPrefix(err, prefix)
		}
		s.EnableExtraWorkloadForCanary = c.EnableExtraWorkloadForCanary
		out.Canary = &s
	}
	if b := r.Spec.Strategy.BlueGreen; b != nil {
		s, err := strategy(b.Steps, b.TrafficRoutings, b.FailureThreshold, "spec.strategy.blueGreen")
		if err != nil {
			return batchrelease.Rollout{}, withPrefix(err, prefix)
		}
		out.BlueGreen = &s
	}
	var common *CommonStatus
	switch {
	case r.Status.CanaryStatus != nil:
		common = &r.Status.CanaryStatus.CommonStatus
	case r.Status.BlueGreenStatus != nil:
		common = &r.Status.BlueGreenStatus.CommonStatus
	}
	if common != nil {
		out.RolloutID = common.ObservedRolloutID
		out.CurrentStepIndex = common.CurrentStepIndex
	}
	return out, nil
}

// strategy converts the steps and settings shared by the canary and the
// blue-green strategies.
func strategy(steps []CanaryStep, routings []json.RawMessage, threshold *intstr.IntOrString, path string) (batchrelease.Strategy, error) {
	if int64(len(routings)) > math.MaxInt32 {
		return batchrelease.Strategy{}, &field.Error{Field: path + ".trafficRoutings", Value: strconv.Itoa(len(routings)), Detail: "more items than an int32 counts", Err: field.ErrRange}
	}
	out := batchrelease.Strategy{
		FailureThreshold: intOrString(threshold),
		TrafficRoutings:  int32(len(routings)),
	}
	if steps != nil {
		out.Steps = make([]batchrelease.CanaryStep, len(steps))
	}
	for i := range steps {
		s := &steps[i]
		out.Steps[i] = batchrelease.CanaryStep{
			Replicas: intOrString(s.Replicas),
			Traffic:  clonePtr(s.Traffic),
			Matches:  s.Matches,
			Pause:    batchrelease.Pause{Duration: clonePtr(s.Pause.Duration)},
		}
	}
	return out, nil
}

// ConvertBatchRelease returns the BatchRelease as package batchrelease
// reads it: name, generation, the kind of its workload, the release plan,
// whether it carries the rollouts.kruise.io/rollback-in-batch annotation
// (any value but "", as the executor tests it), and the status.
//
// An empty spec.releasePlan.rollingStyle with enableExtraWorkloadForCanary
// set is the Canary style, as kruise-rollout's executor reads it; empty
// without the flag stays the zero value, which batchrelease releases as
// Partition. An empty status.canaryStatus.batchState stays the zero
// value too (released as Upgrading), as does an empty status.phase
// (the release starts over from Preparing).
//
// The error, a *field.Error prefixed `kruiserollouts: invalid
// BatchRelease "name"`, reports a nil br, a workload kind batchrelease
// does not model, or a rolling style, batch state or phase
// kruise-rollout v0.6.3 does not have (wrapping field.ErrUnsupported).
func ConvertBatchRelease(br *BatchRelease) (batchrelease.Release, error) {
	if br == nil {
		return batchrelease.Release{}, &field.Error{Prefix: "kruiserollouts", Field: "batchRelease", Detail: "must not be nil", Err: field.ErrRequired}
	}
	prefix := fmt.Sprintf("kruiserollouts: invalid BatchRelease %q", br.Name)
	kind, err := WorkloadKind(br.Spec.WorkloadRef, "spec.workloadRef")
	if err != nil {
		return batchrelease.Release{}, withPrefix(err, prefix)
	}
	plan := &br.Spec.ReleasePlan
	out := batchrelease.Release{
		Name:             br.Name,
		Generation:       br.Generation,
		WorkloadKind:     kind,
		BatchPartition:   clonePtr(plan.BatchPartition),
		RolloutID:        plan.RolloutID,
		FailureThreshold: intOrString(plan.FailureThreshold),
		RollbackInBatch:  br.Annotations[RollbackInBatchAnnotation] != "",
	}
	if plan.Batches != nil {
		out.Batches = make([]batchrelease.Batch, len(plan.Batches))
	}
	for i, b := range plan.Batches {
		out.Batches[i] = batchrelease.Batch{CanaryReplicas: *intOrString(&b.CanaryReplicas)}
	}
	style := plan.RollingStyle
	if style == "" && plan.EnableExtraWorkloadForCanary {
		style = Canary
	}
	if style != "" {
		if err := out.RollingStyle.UnmarshalText([]byte(style)); err != nil {
			return batchrelease.Release{}, &field.Error{
				Prefix: prefix, Field: "spec.releasePlan.rollingStyle", Value: strconv.Quote(string(style)),
				Detail: `supported values: "Partition", "Canary", "BlueGreen"`, Err: field.ErrUnsupported,
			}
		}
	}
	cs := &br.Status.CanaryStatus
	out.Status = batchrelease.ReleaseStatus{
		ObservedGeneration:       br.Status.ObservedGeneration,
		ObservedWorkloadReplicas: br.Status.ObservedWorkloadReplicas,
		ObservedRolloutID:        br.Status.ObservedRolloutID,
		CurrentBatch:             cs.CurrentBatch,
		UpdatedReplicas:          cs.UpdatedReplicas,
		UpdatedReadyReplicas:     cs.UpdatedReadyReplicas,
		NoNeedUpdateReplicas:     clonePtr(cs.NoNeedUpdateReplicas),
		UpdateRevision:           br.Status.UpdateRevision,
		StableRevision:           br.Status.StableRevision,
	}
	if cs.CurrentBatchState != "" {
		if err := out.Status.BatchState.UnmarshalText([]byte(cs.CurrentBatchState)); err != nil {
			return batchrelease.Release{}, &field.Error{
				Prefix: prefix, Field: "status.canaryStatus.batchState", Value: strconv.Quote(cs.CurrentBatchState),
				Detail: `supported values: "Upgrading", "Verifying", "Ready"`, Err: field.ErrUnsupported,
			}
		}
	}
	if br.Status.Phase != "" {
		if err := out.Status.Phase.UnmarshalText([]byte(br.Status.Phase)); err != nil {
			return batchrelease.Release{}, &field.Error{
				Prefix: prefix, Field: "status.phase", Value: strconv.Quote(br.Status.Phase),
				Detail: `supported values: "Preparing", "Progressing", "Finalizing", "Completed"`, Err: field.ErrUnsupported,
			}
		}
	}
	return out, nil
}

// withPrefix sets the prefix of a *field.Error (the only error the
// converters' helpers return) and returns it.
func withPrefix(err error, prefix string) error {
	if fe, ok := err.(*field.Error); ok {
		fe.Prefix = prefix
	}
	return err
}

// intOrString converts an IntOrString as written; nil stays nil. Only
// the member its type selects is copied, as its JSON carries only that
// one.
func intOrString(v *intstr.IntOrString) *intorpercent.IntOrString {
	if v == nil {
		return nil
	}
	if v.Type == intstr.String {
		s := intorpercent.FromString(v.StrVal)
		return &s
	}
	n := intorpercent.FromInt(v.IntVal)
	return &n
}

// clonePtr returns a pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
