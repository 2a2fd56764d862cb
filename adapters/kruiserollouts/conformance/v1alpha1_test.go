package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/openkruise/rollouts/api/v1alpha1"
	"github.com/openkruise/rollouts/api/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	gatewayv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
)

// The v1alpha1 conversion: upstream's v1alpha1 Rollout and BatchRelease,
// drawn at random, marshalled with encoding/json, read by
// kruiserollouts.Read (which converts them to the v1beta1 mirror) against
// upstream's own ConvertTo(v1beta1): the mirror's JSON read back by
// upstream's v1beta1 type equals upstream's conversion less the fields
// the mirror drops, and the two convert to the same batchrelease values.
// Objects upstream's conversion dereferences without a check (no
// workloadRef, no canary strategy: it panics) must be an error here.

func genV1alpha1Rollout(t *rapid.T) *v1alpha1.Rollout {
	r := &v1alpha1.Rollout{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1alpha1", Kind: "Rollout"},
		ObjectMeta: genMeta(t),
	}
	if r.Annotations == nil {
		r.Annotations = map[string]string{}
	}
	if v := rapid.SampledFrom([]string{"-", "partition", "Partition", "canary", "bluegreen", ""}).Draw(t, "rollingStyle"); v != "-" {
		r.Annotations[v1alpha1.RolloutStyleAnnotation] = v
	}
	if rapid.Bool().Draw(t, "trafficRoutingAnnotation") {
		r.Annotations[v1alpha1.TrafficRoutingAnnotation] = genName(t, "trafficRouting")
	}
	if rapid.IntRange(0, 19).Draw(t, "noWorkloadRef") > 0 {
		ref := genWorkloadRef(t)
		r.Spec.ObjectRef.WorkloadRef = &v1alpha1.WorkloadRef{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name}
	}
	r.Spec.DeprecatedRolloutID = rapid.SampledFrom([]string{"", "v1"}).Draw(t, "deprecatedRolloutID")
	r.Spec.Disabled = rapid.Bool().Draw(t, "disabled")
	r.Spec.Strategy.Paused = rapid.Bool().Draw(t, "paused")
	if rapid.IntRange(0, 19).Draw(t, "noCanary") > 0 {
		c := &v1alpha1.CanaryStrategy{
			FailureThreshold:             genIntOrStringPtr(t, "failureThreshold"),
			DisableGenerateCanaryService: rapid.Bool().Draw(t, "disableGenerateCanaryService"),
		}
		for n := rapid.IntRange(0, 4).Draw(t, "steps"); n > 0; n-- {
			var s v1alpha1.CanaryStep
			s.Replicas = genIntOrStringPtr(t, "replicas")
			s.Weight = genInt32Ptr(t, "weight")
			for j := rapid.IntRange(0, 2).Draw(t, "matches"); j > 0; j-- {
				exact := gatewayv1beta1.HeaderMatchExact
				s.Matches = append(s.Matches, v1alpha1.HttpRouteMatch{Headers: []gatewayv1beta1.HTTPHeaderMatch{
					{Type: &exact, Name: gatewayv1beta1.HTTPHeaderName(genName(t, "header")), Value: rapid.String().Draw(t, "headerValue")},
				}})
			}
			if rapid.Bool().Draw(t, "requestHeaderModifier") {
				s.RequestHeaderModifier = &gatewayv1beta1.HTTPHeaderFilter{Remove: []string{"x-debug"}}
			}
			s.Pause.Duration = genInt32Ptr(t, "pause")
			c.Steps = append(c.Steps, s)
		}
		for j := rapid.IntRange(0, 2).Draw(t, "trafficRoutings"); j > 0; j-- {
			tr := v1alpha1.TrafficRoutingRef{Service: genName(t, "service"), GracePeriodSeconds: rapid.Int32().Draw(t, "grace")}
			if rapid.Bool().Draw(t, "ingress") {
				tr.Ingress = &v1alpha1.IngressTrafficRouting{ClassType: "nginx", Name: genName(t, "ingress")}
			}
			if rapid.Bool().Draw(t, "customNetworkRefs") {
				tr.CustomNetworkRefs = []v1alpha1.CustomNetworkRef{{APIVersion: "networking.istio.io/v1beta1", Kind: "VirtualService", Name: "vs"}}
			}
			c.TrafficRoutings = append(c.TrafficRoutings, tr)
		}
		if rapid.Bool().Draw(t, "patchPodTemplateMetadata") {
			c.PatchPodTemplateMetadata = &v1alpha1.PatchPodTemplateMetadata{Labels: map[string]string{"canary": "true"}}
		}
		r.Spec.Strategy.Canary = c
	}
	r.Status.ObservedGeneration = rapid.Int64().Draw(t, "observedGeneration")
	if rapid.Bool().Draw(t, "canaryStatus") {
		cs := genCommonStatus(t)
		r.Status.CanaryStatus = &v1alpha1.CanaryStatus{
			ObservedWorkloadGeneration: cs.ObservedWorkloadGeneration, ObservedRolloutID: cs.ObservedRolloutID,
			RolloutHash: cs.RolloutHash, StableRevision: cs.StableRevision, CanaryRevision: genName(t, "canaryRevision"),
			PodTemplateHash: cs.PodTemplateHash, CanaryReplicas: rapid.Int32().Draw(t, "canaryReplicas"),
			CanaryReadyReplicas: rapid.Int32().Draw(t, "canaryReadyReplicas"), NextStepIndex: cs.NextStepIndex,
			CurrentStepIndex: cs.CurrentStepIndex, CurrentStepState: v1alpha1.CanaryStepState(cs.CurrentStepState),
			Message: cs.Message, LastUpdateTime: cs.LastUpdateTime, FinalisingStep: v1alpha1.FinalizeStateType(cs.FinalisingStep),
		}
	}
	for _, c := range genConditions(t) {
		r.Status.Conditions = append(r.Status.Conditions, v1alpha1.RolloutCondition{
			Type: v1alpha1.RolloutConditionType(c.Type), Status: c.Status, LastUpdateTime: c.LastUpdateTime,
			LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message,
		})
	}
	r.Status.Phase = v1alpha1.RolloutPhase(rapid.SampledFrom([]string{"", "Healthy", "Progressing"}).Draw(t, "phase"))
	r.Status.Message = rapid.String().Draw(t, "statusMessage")
	return r
}

func TestV1alpha1RolloutConversionMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		up := genV1alpha1Rollout(t)
		js, err := json.Marshal(up)
		if err != nil {
			t.Fatal(err)
		}
		objs, readErr := kruiserollouts.Read(bytes.NewReader(js))
		if up.Spec.ObjectRef.WorkloadRef == nil || up.Spec.Strategy.Canary == nil {
			// Upstream's ConvertTo panics here; Read must refuse.
			field := "spec.objectRef.workloadRef"
			if up.Spec.ObjectRef.WorkloadRef != nil {
				field = "spec.strategy.canary"
			}
			want := fmt.Sprintf(`kruiserollouts: document 1: rollouts.kruise.io/v1alpha1 Rollout: kruiserollouts: invalid v1alpha1 Rollout %q: %s: required: kruise-rollout cannot convert a Rollout without it`, up.Name, field)
			if readErr == nil || readErr.Error() != want {
				t.Fatalf("Read error %v, want %s", readErr, want)
			}
			count("v1alpha1 Rollout.ConvertTo (mirror, read)", "agree")
			return
		}
		if readErr != nil {
			t.Fatalf("Read: %v", readErr)
		}
		conv := &v1beta1.Rollout{}
		if err := up.ConvertTo(conv); err != nil {
			t.Fatalf("ConvertTo: %v", err)
		}
		conv.TypeMeta = metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1beta1", Kind: "Rollout"}
		mjs, err := json.Marshal(objs.Rollouts[0])
		if err != nil {
			t.Fatal(err)
		}
		back := &v1beta1.Rollout{}
		if err := json.Unmarshal(mjs, back); err != nil {
			t.Fatal(err)
		}
		want := conv.DeepCopy()
		for i := range want.Spec.Strategy.Canary.Steps {
			want.Spec.Strategy.Canary.Steps[i].RequestHeaderModifier = nil
		}
		want.Spec.Strategy.Canary.PatchPodTemplateMetadata = nil
		sameConverted(t, "the mirror's conversion, read by upstream's v1beta1 type", back, want)

		// And both read as batchrelease does.
		direct := readOne(t, conv)
		got, err1 := kruiserollouts.ConvertRollout(objs.Rollouts[0])
		wantRO, err2 := kruiserollouts.ConvertRollout(direct.Rollouts[0])
		if fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("ConvertRollout errors: %v, upstream's conversion %v", err1, err2)
		}
		sameConverted(t, "ConvertRollout", got, wantRO)
		count("v1alpha1 Rollout.ConvertTo (mirror, read)", "agree")
	})
}

func TestV1alpha1BatchReleaseConversionMatchesUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBatchRelease(t) // a v1beta1 one, moved to v1alpha1 below
		up := &v1alpha1.BatchRelease{
			TypeMeta:   metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1alpha1", Kind: "BatchRelease"},
			ObjectMeta: b.ObjectMeta,
		}
		if up.Annotations == nil {
			up.Annotations = map[string]string{}
		}
		if v := rapid.SampledFrom([]string{"-", "partition", "Canary", "bluegreen", "BlueGreen", "rolling"}).Draw(t, "rollingStyleAnnotation"); v != "-" {
			up.Annotations[v1alpha1.RolloutStyleAnnotation] = v
		}
		if rapid.IntRange(0, 19).Draw(t, "noWorkloadRef") > 0 {
			ref := b.Spec.WorkloadRef
			up.Spec.TargetRef.WorkloadRef = &v1alpha1.WorkloadRef{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name}
		}
		p := &b.Spec.ReleasePlan
		up.Spec.ReleasePlan = v1alpha1.ReleasePlan{
			BatchPartition: p.BatchPartition, RolloutID: p.RolloutID, FailureThreshold: p.FailureThreshold,
			FinalizingPolicy: v1alpha1.FinalizingPolicyType(p.FinalizingPolicy), RollingStyle: v1alpha1.RollingStyleType(p.RollingStyle),
			EnableExtraWorkloadForCanary: p.EnableExtraWorkloadForCanary,
		}
		for _, x := range p.Batches {
			up.Spec.ReleasePlan.Batches = append(up.Spec.ReleasePlan.Batches, v1alpha1.ReleaseBatch{CanaryReplicas: x.CanaryReplicas})
		}
		if p.Batches != nil && up.Spec.ReleasePlan.Batches == nil {
			up.Spec.ReleasePlan.Batches = []v1alpha1.ReleaseBatch{}
		}
		s := &b.Status
		up.Status = v1alpha1.BatchReleaseStatus{
			CanaryStatus: v1alpha1.BatchReleaseCanaryStatus{
				CurrentBatchState: v1alpha1.BatchReleaseBatchStateType(s.CanaryStatus.CurrentBatchState), CurrentBatch: s.CanaryStatus.CurrentBatch,
				BatchReadyTime: s.CanaryStatus.BatchReadyTime, UpdatedReplicas: s.CanaryStatus.UpdatedReplicas,
				UpdatedReadyReplicas: s.CanaryStatus.UpdatedReadyReplicas, NoNeedUpdateReplicas: s.CanaryStatus.NoNeedUpdateReplicas,
			},
			StableRevision: s.StableRevision, UpdateRevision: s.UpdateRevision, ObservedGeneration: s.ObservedGeneration,
			ObservedRolloutID: s.ObservedRolloutID, ObservedWorkloadReplicas: s.ObservedWorkloadReplicas, CollisionCount: s.CollisionCount,
			ObservedReleasePlanHash: s.ObservedReleasePlanHash, Phase: v1alpha1.RolloutPhase(s.Phase),
		}
		for _, c := range s.Conditions {
			up.Status.Conditions = append(up.Status.Conditions, v1alpha1.RolloutCondition{
				Type: v1alpha1.RolloutConditionType(c.Type), Status: c.Status, LastUpdateTime: c.LastUpdateTime,
				LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message,
			})
		}
		js, err := json.Marshal(up)
		if err != nil {
			t.Fatal(err)
		}
		objs, readErr := kruiserollouts.Read(bytes.NewReader(js))
		if up.Spec.TargetRef.WorkloadRef == nil {
			want := fmt.Sprintf(`kruiserollouts: document 1: rollouts.kruise.io/v1alpha1 BatchRelease: kruiserollouts: invalid v1alpha1 BatchRelease %q: spec.targetReference.workloadRef: required: kruise-rollout cannot convert a BatchRelease without it`, up.Name)
			if readErr == nil || readErr.Error() != want {
				t.Fatalf("Read error %v, want %s", readErr, want)
			}
			count("v1alpha1 BatchRelease.ConvertTo (mirror, read)", "agree")
			return
		}
		if readErr != nil {
			t.Fatalf("Read: %v", readErr)
		}
		conv := &v1beta1.BatchRelease{}
		if err := up.ConvertTo(conv); err != nil {
			t.Fatalf("ConvertTo: %v", err)
		}
		conv.TypeMeta = metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1beta1", Kind: "BatchRelease"}
		mjs, err := json.Marshal(objs.BatchReleases[0])
		if err != nil {
			t.Fatal(err)
		}
		back := &v1beta1.BatchRelease{}
		if err := json.Unmarshal(mjs, back); err != nil {
			t.Fatal(err)
		}
		want := conv.DeepCopy()
		want.Spec.ReleasePlan.PatchPodTemplateMetadata = nil
		sameConverted(t, "the mirror's conversion, read by upstream's v1beta1 type", back, want)
		direct := readOne(t, conv)
		got, err1 := kruiserollouts.ConvertBatchRelease(objs.BatchReleases[0])
		wantBR, err2 := kruiserollouts.ConvertBatchRelease(direct.BatchReleases[0])
		if fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("ConvertBatchRelease errors: %v, upstream's conversion %v", err1, err2)
		}
		sameConverted(t, "ConvertBatchRelease", got, wantBR)
		count("v1alpha1 BatchRelease.ConvertTo (mirror, read)", "agree")
	})
}
