package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/openkruise/rollouts/api/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
	gatewayv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/rolloutmath/rolloutmath/adapters/kruiserollouts"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// The mirror proof: upstream's own v1beta1 types, filled at random
// (every field the mirror holds, and fields it drops), marshalled with
// encoding/json as a client would send them, read by
// kruiserollouts.Read, then (1) every mirrored field compared with
// upstream's, one by one, (2) the mirror marshalled back and decoded by
// upstream's types equal to the original once the fields the mirror
// drops are cleared, and (3) the conversion compared with the value
// built here from upstream's fields.

// genIntOrString draws an IntOrString as a manifest may hold it: ints of
// any sign, percents in and out of range, and malformed text.
func genIntOrString(t *rapid.T, label string) intstr.IntOrString {
	if rapid.Bool().Draw(t, label+".isString") {
		return intstr.FromString(rapid.SampledFrom([]string{
			"0%", "1%", "20%", "50%", "99%", "100%", "150%", "33.3%", "abc", "", "5", "-10%", "2147483648%",
		}).Draw(t, label+".str"))
	}
	return intstr.FromInt(int(rapid.Int32().Draw(t, label+".int")))
}

func genIntOrStringPtr(t *rapid.T, label string) *intstr.IntOrString {
	if rapid.Bool().Draw(t, label+".nil") {
		return nil
	}
	v := genIntOrString(t, label)
	return &v
}

func genStringPtr(t *rapid.T, label string, from ...string) *string {
	if rapid.Bool().Draw(t, label+".nil") {
		return nil
	}
	s := rapid.SampledFrom(from).Draw(t, label)
	return &s
}

func genInt32Ptr(t *rapid.T, label string) *int32 {
	if rapid.Bool().Draw(t, label+".nil") {
		return nil
	}
	v := rapid.Int32().Draw(t, label)
	return &v
}

// genTime draws a time at whole seconds in 2026, as the API server
// writes them (metav1.Time marshals to RFC 3339 seconds).
func genTime(t *rapid.T, label string) metav1.Time {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return metav1.NewTime(base.Add(time.Duration(rapid.Int64Range(0, 365*24*3600).Draw(t, label)) * time.Second))
}

func genTimePtr(t *rapid.T, label string) *metav1.Time {
	if rapid.Bool().Draw(t, label+".nil") {
		return nil
	}
	v := genTime(t, label)
	return &v
}

func genName(t *rapid.T, label string) string {
	return rapid.StringMatching(`[a-z][a-z0-9-]{0,12}`).Draw(t, label)
}

func genMeta(t *rapid.T) metav1.ObjectMeta {
	m := metav1.ObjectMeta{
		Name:              genName(t, "name"),
		Namespace:         rapid.SampledFrom([]string{"", "default", "shop"}).Draw(t, "namespace"),
		Generation:        rapid.Int64Range(0, 1<<40).Draw(t, "generation"),
		ResourceVersion:   rapid.StringMatching(`[0-9]{0,8}`).Draw(t, "resourceVersion"),
		UID:               types.UID(rapid.StringMatching(`[0-9a-f-]{0,36}`).Draw(t, "uid")),
		CreationTimestamp: genTime(t, "creationTimestamp"),
	}
	if rapid.Bool().Draw(t, "labels") {
		m.Labels = map[string]string{"app": genName(t, "app"), kruiserollouts.RolloutIDLabel: genName(t, "rolloutID")}
	}
	if rapid.Bool().Draw(t, "annotations") {
		m.Annotations = map[string]string{"note": rapid.String().Draw(t, "note")}
		if v := rapid.SampledFrom([]string{"-", "", "true", "false"}).Draw(t, "rollbackInBatch"); v != "-" {
			m.Annotations[kruiserollouts.RollbackInBatchAnnotation] = v
		}
	}
	if rapid.Bool().Draw(t, "finalizers") {
		m.Finalizers = []string{"rollouts.kruise.io/rollout"}
	}
	return m
}

// workloadRefs are the references drawn: each kind kruise-rollout
// releases, and two it does not (for batchrelease).
var workloadRefs = []v1beta1.ObjectRef{
	{APIVersion: "apps/v1", Kind: "Deployment"},
	{APIVersion: "apps/v1", Kind: "StatefulSet"},
	{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
	{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet"},
	{APIVersion: "apps.kruise.io/v1alpha1", Kind: "StatefulSet"},
	{APIVersion: "apps.kruise.io/v1alpha1", Kind: "DaemonSet"},
	{APIVersion: "apps/v1", Kind: "ReplicaSet"},
}

func genWorkloadRef(t *rapid.T) v1beta1.ObjectRef {
	r := rapid.SampledFrom(workloadRefs).Draw(t, "workloadRef")
	r.Name = genName(t, "workloadName")
	return r
}

func genSteps(t *rapid.T) []v1beta1.CanaryStep {
	n := rapid.IntRange(-1, 5).Draw(t, "steps")
	if n < 0 {
		return nil
	}
	steps := make([]v1beta1.CanaryStep, n)
	for i := range steps {
		s := &steps[i]
		s.Replicas = genIntOrStringPtr(t, "replicas")
		s.Traffic = genStringPtr(t, "traffic", "0%", "5%", "50%", "100%", "101%", "abc")
		for j := rapid.IntRange(0, 2).Draw(t, "matches"); j > 0; j-- {
			exact := gatewayv1beta1.HeaderMatchExact
			s.Matches = append(s.Matches, v1beta1.HttpRouteMatch{Headers: []gatewayv1beta1.HTTPHeaderMatch{
				{Type: &exact, Name: gatewayv1beta1.HTTPHeaderName(genName(t, "header")), Value: rapid.String().Draw(t, "headerValue")},
			}})
		}
		if rapid.Bool().Draw(t, "requestHeaderModifier") {
			s.RequestHeaderModifier = &gatewayv1beta1.HTTPHeaderFilter{Remove: []string{"x-debug"}}
		}
		s.Pause.Duration = genInt32Ptr(t, "pause")
	}
	return steps
}

func genTrafficRoutings(t *rapid.T) []v1beta1.TrafficRoutingRef {
	var out []v1beta1.TrafficRoutingRef
	for j := rapid.IntRange(0, 2).Draw(t, "trafficRoutings"); j > 0; j-- {
		r := v1beta1.TrafficRoutingRef{Service: genName(t, "service"), GracePeriodSeconds: rapid.Int32().Draw(t, "grace")}
		if rapid.Bool().Draw(t, "ingress") {
			r.Ingress = &v1beta1.IngressTrafficRouting{ClassType: "nginx", Name: genName(t, "ingress")}
		}
		out = append(out, r)
	}
	return out
}

func genCommonStatus(t *rapid.T) v1beta1.CommonStatus {
	return v1beta1.CommonStatus{
		ObservedWorkloadGeneration: rapid.Int64().Draw(t, "observedWorkloadGeneration"),
		ObservedRolloutID:          rapid.SampledFrom([]string{"", "v1", "v2"}).Draw(t, "observedRolloutID"),
		RolloutHash:                rapid.StringMatching(`[a-z0-9]{0,16}`).Draw(t, "rolloutHash"),
		StableRevision:             rapid.StringMatching(`[a-z0-9]{0,10}`).Draw(t, "stableRevision"),
		PodTemplateHash:            rapid.StringMatching(`[a-z0-9]{0,10}`).Draw(t, "podTemplateHash"),
		CurrentStepIndex:           rapid.Int32().Draw(t, "currentStepIndex"),
		NextStepIndex:              rapid.Int32().Draw(t, "nextStepIndex"),
		FinalisingStep:             v1beta1.FinalisingStepType(rapid.SampledFrom([]string{"", "ResumeWorkload", "END"}).Draw(t, "finalisingStep")),
		CurrentStepState:           v1beta1.CanaryStepState(rapid.SampledFrom([]string{"", "StepUpgrade", "StepPaused", "Completed"}).Draw(t, "currentStepState")),
		Message:                    rapid.String().Draw(t, "message"),
		LastUpdateTime:             genTimePtr(t, "lastUpdateTime"),
	}
}

func genConditions(t *rapid.T) []v1beta1.RolloutCondition {
	var out []v1beta1.RolloutCondition
	for j := rapid.IntRange(0, 2).Draw(t, "conditions"); j > 0; j-- {
		out = append(out, v1beta1.RolloutCondition{
			Type:               v1beta1.RolloutConditionType(rapid.SampledFrom([]string{"Progressing", "Succeeded"}).Draw(t, "conditionType")),
			Status:             "True",
			LastUpdateTime:     genTime(t, "conditionUpdate"),
			LastTransitionTime: genTime(t, "conditionTransition"),
			Reason:             rapid.SampledFrom([]string{"InRolling", "Completed", ""}).Draw(t, "reason"),
			Message:            rapid.String().Draw(t, "conditionMessage"),
		})
	}
	return out
}

func genRollout(t *rapid.T) *v1beta1.Rollout {
	r := &v1beta1.Rollout{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1beta1", Kind: "Rollout"},
		ObjectMeta: genMeta(t),
	}
	r.Spec.WorkloadRef = genWorkloadRef(t)
	r.Spec.Disabled = rapid.Bool().Draw(t, "disabled")
	r.Spec.Strategy.Paused = rapid.Bool().Draw(t, "paused")
	switch rapid.IntRange(0, 3).Draw(t, "strategy") {
	case 0:
		r.Spec.Strategy.Canary = genCanary(t)
	case 1:
		r.Spec.Strategy.BlueGreen = genBlueGreen(t)
	case 2:
		r.Spec.Strategy.Canary, r.Spec.Strategy.BlueGreen = genCanary(t), genBlueGreen(t)
	}
	r.Status.ObservedGeneration = rapid.Int64().Draw(t, "observedGeneration")
	switch rapid.IntRange(0, 3).Draw(t, "status") {
	case 0:
		r.Status.CanaryStatus = &v1beta1.CanaryStatus{
			CommonStatus:        genCommonStatus(t),
			CanaryRevision:      genName(t, "canaryRevision"),
			CanaryReplicas:      rapid.Int32().Draw(t, "canaryReplicas"),
			CanaryReadyReplicas: rapid.Int32().Draw(t, "canaryReadyReplicas"),
		}
	case 1:
		r.Status.BlueGreenStatus = &v1beta1.BlueGreenStatus{
			CommonStatus:         genCommonStatus(t),
			UpdatedRevision:      genName(t, "updatedRevision"),
			UpdatedReplicas:      rapid.Int32().Draw(t, "updatedReplicas"),
			UpdatedReadyReplicas: rapid.Int32().Draw(t, "updatedReadyReplicas"),
		}
	case 2:
		r.Status.CanaryStatus = &v1beta1.CanaryStatus{CommonStatus: genCommonStatus(t)}
		r.Status.BlueGreenStatus = &v1beta1.BlueGreenStatus{CommonStatus: genCommonStatus(t)}
	}
	r.Status.Conditions = genConditions(t)
	r.Status.Phase = v1beta1.RolloutPhase(rapid.SampledFrom([]string{"", "Healthy", "Progressing"}).Draw(t, "phase"))
	r.Status.Message = rapid.String().Draw(t, "statusMessage")
	r.Status.CurrentStepIndex = rapid.Int32().Draw(t, "statusStepIndex")
	r.Status.CurrentStepState = v1beta1.CanaryStepState(rapid.SampledFrom([]string{"", "StepReady"}).Draw(t, "statusStepState"))
	return r
}

func genCanary(t *rapid.T) *v1beta1.CanaryStrategy {
	c := &v1beta1.CanaryStrategy{
		Steps:                        genSteps(t),
		TrafficRoutings:              genTrafficRoutings(t),
		FailureThreshold:             genIntOrStringPtr(t, "failureThreshold"),
		EnableExtraWorkloadForCanary: rapid.Bool().Draw(t, "enableExtraWorkloadForCanary"),
		TrafficRoutingRef:            rapid.SampledFrom([]string{"", "tr"}).Draw(t, "trafficRoutingRef"),
		DisableGenerateCanaryService: rapid.Bool().Draw(t, "disableGenerateCanaryService"),
	}
	if rapid.Bool().Draw(t, "patchPodTemplateMetadata") {
		c.PatchPodTemplateMetadata = &v1beta1.PatchPodTemplateMetadata{Labels: map[string]string{"canary": "true"}}
	}
	return c
}

func genBlueGreen(t *rapid.T) *v1beta1.BlueGreenStrategy {
	return &v1beta1.BlueGreenStrategy{
		Steps:                        genSteps(t),
		TrafficRoutings:              genTrafficRoutings(t),
		FailureThreshold:             genIntOrStringPtr(t, "failureThreshold"),
		TrafficRoutingRef:            rapid.SampledFrom([]string{"", "tr"}).Draw(t, "trafficRoutingRef"),
		DisableGenerateCanaryService: rapid.Bool().Draw(t, "disableGenerateCanaryService"),
	}
}

func genBatchRelease(t *rapid.T) *v1beta1.BatchRelease {
	br := &v1beta1.BatchRelease{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rollouts.kruise.io/v1beta1", Kind: "BatchRelease"},
		ObjectMeta: genMeta(t),
	}
	br.Spec.WorkloadRef = genWorkloadRef(t)
	p := &br.Spec.ReleasePlan
	if n := rapid.IntRange(-1, 5).Draw(t, "batches"); n >= 0 {
		p.Batches = make([]v1beta1.ReleaseBatch, n)
		for i := range p.Batches {
			p.Batches[i].CanaryReplicas = genIntOrString(t, "canaryReplicas")
		}
	}
	p.BatchPartition = genInt32Ptr(t, "batchPartition")
	p.RolloutID = rapid.SampledFrom([]string{"", "v1", "v2"}).Draw(t, "rolloutID")
	p.FailureThreshold = genIntOrStringPtr(t, "failureThreshold")
	p.FinalizingPolicy = v1beta1.FinalizingPolicyType(rapid.SampledFrom([]string{"", "WaitResume", "Immediate"}).Draw(t, "finalizingPolicy"))
	if rapid.Bool().Draw(t, "patchPodTemplateMetadata") {
		p.PatchPodTemplateMetadata = &v1beta1.PatchPodTemplateMetadata{Annotations: map[string]string{"a": "b"}}
	}
	p.RollingStyle = v1beta1.RollingStyleType(rapid.SampledFrom([]string{"", "Partition", "Canary", "BlueGreen", "Rolling"}).Draw(t, "rollingStyle"))
	p.EnableExtraWorkloadForCanary = rapid.Bool().Draw(t, "enableExtraWorkloadForCanary")
	s := &br.Status
	s.Conditions = genConditions(t)
	s.CanaryStatus = v1beta1.BatchReleaseCanaryStatus{
		CurrentBatchState:    v1beta1.BatchReleaseBatchStateType(rapid.SampledFrom([]string{"", "Upgrading", "Verifying", "Ready", "Done"}).Draw(t, "batchState")),
		CurrentBatch:         rapid.Int32().Draw(t, "currentBatch"),
		BatchReadyTime:       genTimePtr(t, "batchReadyTime"),
		UpdatedReplicas:      rapid.Int32().Draw(t, "updatedReplicas"),
		UpdatedReadyReplicas: rapid.Int32().Draw(t, "updatedReadyReplicas"),
		NoNeedUpdateReplicas: genInt32Ptr(t, "noNeedUpdateReplicas"),
	}
	s.StableRevision = genName(t, "stableRevision")
	s.UpdateRevision = genName(t, "updateRevision")
	s.ObservedGeneration = rapid.Int64().Draw(t, "observedGeneration")
	s.ObservedRolloutID = rapid.SampledFrom([]string{"", "v1"}).Draw(t, "observedRolloutID")
	s.ObservedWorkloadReplicas = rapid.Int32().Draw(t, "observedWorkloadReplicas")
	s.CollisionCount = genInt32Ptr(t, "collisionCount")
	s.ObservedReleasePlanHash = rapid.StringMatching(`[a-z0-9]{0,16}`).Draw(t, "planHash")
	s.Phase = v1beta1.RolloutPhase(rapid.SampledFrom([]string{"", "Preparing", "Progressing", "Finalizing", "Completed", "Initial"}).Draw(t, "phase"))
	s.Message = rapid.String().Draw(t, "message")
	return br
}

// tb is what *testing.T and *rapid.T share.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// readOne marshals obj as a client would and reads it back through
// kruiserollouts.Read.
func readOne(t tb, obj any) *kruiserollouts.Objects {
	t.Helper()
	js, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	objs, err := kruiserollouts.Read(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("Read(%s): %v", js, err)
	}
	return objs
}

// same fails the case when got and want differ.
func same(t *rapid.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: mirror %#v, upstream %#v", what, got, want)
	}
}

// sameRaw compares raw JSON kept by the mirror with upstream's value
// marshalled.
func sameRaw(t *rapid.T, what string, got []json.RawMessage, want any) {
	t.Helper()
	wantJS, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var gotItems []any
	var wantItems []any
	for _, g := range got {
		var v any
		if err := json.Unmarshal(g, &v); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		gotItems = append(gotItems, v)
	}
	if err := json.Unmarshal(wantJS, &wantItems); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotItems, wantItems) {
		t.Fatalf("%s: mirror %s, upstream %s", what, got, wantJS)
	}
}

func sameMeta(t *rapid.T, got, want *metav1.ObjectMeta) {
	t.Helper()
	same(t, "metadata.name", got.Name, want.Name)
	same(t, "metadata.namespace", got.Namespace, want.Namespace)
	same(t, "metadata.generation", got.Generation, want.Generation)
	same(t, "metadata.resourceVersion", got.ResourceVersion, want.ResourceVersion)
	same(t, "metadata.uid", got.UID, want.UID)
	same(t, "metadata.creationTimestamp", got.CreationTimestamp.UTC(), want.CreationTimestamp.UTC())
	same(t, "metadata.labels", got.Labels, want.Labels)
	same(t, "metadata.annotations", got.Annotations, want.Annotations)
	same(t, "metadata.finalizers", got.Finalizers, want.Finalizers)
}

func sameSteps(t *rapid.T, path string, got []kruiserollouts.CanaryStep, want []v1beta1.CanaryStep) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d steps, upstream %d", path, len(got), len(want))
	}
	for i := range want {
		p := fmt.Sprintf("%s[%d]", path, i)
		same(t, p+".replicas", got[i].Replicas, want[i].Replicas)
		same(t, p+".traffic", got[i].Traffic, want[i].Traffic)
		sameRaw(t, p+".matches", got[i].Matches, want[i].Matches)
		same(t, p+".pause.duration", got[i].Pause.Duration, want[i].Pause.Duration)
	}
}

func sameCommon(t *rapid.T, path string, got *kruiserollouts.CommonStatus, want *v1beta1.CommonStatus) {
	t.Helper()
	same(t, path+".observedWorkloadGeneration", got.ObservedWorkloadGeneration, want.ObservedWorkloadGeneration)
	same(t, path+".observedRolloutID", got.ObservedRolloutID, want.ObservedRolloutID)
	same(t, path+".rolloutHash", got.RolloutHash, want.RolloutHash)
	same(t, path+".stableRevision", got.StableRevision, want.StableRevision)
	same(t, path+".podTemplateHash", got.PodTemplateHash, want.PodTemplateHash)
	same(t, path+".currentStepIndex", got.CurrentStepIndex, want.CurrentStepIndex)
	same(t, path+".nextStepIndex", got.NextStepIndex, want.NextStepIndex)
	same(t, path+".finalisingStep", got.FinalisingStep, string(want.FinalisingStep))
	same(t, path+".currentStepState", got.CurrentStepState, string(want.CurrentStepState))
	same(t, path+".message", got.Message, want.Message)
	same(t, path+".lastUpdateTime", timePtr(got.LastUpdateTime), timePtr(want.LastUpdateTime))
}

func timePtr(p *metav1.Time) *time.Time {
	if p == nil {
		return nil
	}
	u := p.UTC()
	return &u
}

func sameConditions(t *rapid.T, path string, got []kruiserollouts.Condition, want []v1beta1.RolloutCondition) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d conditions, upstream %d", path, len(got), len(want))
	}
	for i := range want {
		p := fmt.Sprintf("%s[%d]", path, i)
		same(t, p+".type", got[i].Type, string(want[i].Type))
		same(t, p+".status", got[i].Status, string(want[i].Status))
		same(t, p+".lastUpdateTime", got[i].LastUpdateTime.UTC(), want[i].LastUpdateTime.UTC())
		same(t, p+".lastTransitionTime", got[i].LastTransitionTime.UTC(), want[i].LastTransitionTime.UTC())
		same(t, p+".reason", got[i].Reason, want[i].Reason)
		same(t, p+".message", got[i].Message, want[i].Message)
	}
}

// convertIntOrString is the conversion the adapter must make, written
// from upstream's intstr here.
func convertIntOrString(v *intstr.IntOrString) *intorpercent.IntOrString {
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

// wantKind is the workload kind of ref, read as kruise-rollout's
// executor dispatches (getReleaseController); ok is false for the kinds
// batchrelease does not model.
func wantKind(ref v1beta1.ObjectRef) (batchrelease.Kind, bool) {
	switch ref.APIVersion + " " + ref.Kind {
	case "apps/v1 Deployment":
		return batchrelease.Deployment, true
	case "apps/v1 StatefulSet":
		return batchrelease.StatefulSet, true
	case "apps.kruise.io/v1alpha1 CloneSet":
		return batchrelease.CloneSet, true
	case "apps.kruise.io/v1beta1 StatefulSet", "apps.kruise.io/v1alpha1 StatefulSet":
		return batchrelease.AdvancedStatefulSet, true
	}
	return 0, false
}

func wantStrategy(steps []v1beta1.CanaryStep, routings int, threshold *intstr.IntOrString) *batchrelease.Strategy {
	s := &batchrelease.Strategy{FailureThreshold: convertIntOrString(threshold), TrafficRoutings: int32(routings)}
	// steps is omitempty upstream: an empty list is not in the JSON.
	for _, st := range steps {
		var matches []json.RawMessage
		for _, m := range st.Matches {
			js, _ := json.Marshal(m)
			matches = append(matches, js)
		}
		s.Steps = append(s.Steps, batchrelease.CanaryStep{
			Replicas: convertIntOrString(st.Replicas),
			Traffic:  st.Traffic,
			Matches:  matches,
			Pause:    batchrelease.Pause{Duration: st.Pause.Duration},
		})
	}
	return s
}

// sameConverted compares two conversions through their JSON (matches
// are raw JSON whose spacing is not part of the value).
func sameConverted(t *rapid.T, what string, got, want any) {
	t.Helper()
	g, err1 := json.Marshal(got)
	w, err2 := json.Marshal(want)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s: marshal: %v %v", what, err1, err2)
	}
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	_ = json.Unmarshal(w, &wv)
	if !reflect.DeepEqual(gv, wv) {
		t.Fatalf("%s:\n got  %s\n want %s", what, g, w)
	}
}

func TestRolloutMirrorReadsUpstreamJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		up := genRollout(t)
		objs := readOne(t, up)
		if len(objs.Rollouts) != 1 {
			t.Fatalf("Read: %d rollouts, want 1", len(objs.Rollouts))
		}
		m := objs.Rollouts[0]

		// (1) Field by field.
		same(t, "apiVersion", m.APIVersion, up.APIVersion)
		same(t, "kind", m.Kind, up.Kind)
		sameMeta(t, &m.ObjectMeta, &up.ObjectMeta)
		same(t, "spec.workloadRef", [3]string{m.Spec.WorkloadRef.APIVersion, m.Spec.WorkloadRef.Kind, m.Spec.WorkloadRef.Name},
			[3]string{up.Spec.WorkloadRef.APIVersion, up.Spec.WorkloadRef.Kind, up.Spec.WorkloadRef.Name})
		same(t, "spec.disabled", m.Spec.Disabled, up.Spec.Disabled)
		same(t, "spec.strategy.paused", m.Spec.Strategy.Paused, up.Spec.Strategy.Paused)
		same(t, "spec.strategy.canary set", m.Spec.Strategy.Canary != nil, up.Spec.Strategy.Canary != nil)
		if c := up.Spec.Strategy.Canary; c != nil {
			mc := m.Spec.Strategy.Canary
			sameSteps(t, "spec.strategy.canary.steps", mc.Steps, c.Steps)
			sameRaw(t, "spec.strategy.canary.trafficRoutings", mc.TrafficRoutings, c.TrafficRoutings)
			same(t, "spec.strategy.canary.failureThreshold", mc.FailureThreshold, c.FailureThreshold)
			same(t, "spec.strategy.canary.enableExtraWorkloadForCanary", mc.EnableExtraWorkloadForCanary, c.EnableExtraWorkloadForCanary)
			same(t, "spec.strategy.canary.trafficRoutingRef", mc.TrafficRoutingRef, c.TrafficRoutingRef)
		}
		same(t, "spec.strategy.blueGreen set", m.Spec.Strategy.BlueGreen != nil, up.Spec.Strategy.BlueGreen != nil)
		if b := up.Spec.Strategy.BlueGreen; b != nil {
			mb := m.Spec.Strategy.BlueGreen
			sameSteps(t, "spec.strategy.blueGreen.steps", mb.Steps, b.Steps)
			sameRaw(t, "spec.strategy.blueGreen.trafficRoutings", mb.TrafficRoutings, b.TrafficRoutings)
			same(t, "spec.strategy.blueGreen.failureThreshold", mb.FailureThreshold, b.FailureThreshold)
			same(t, "spec.strategy.blueGreen.trafficRoutingRef", mb.TrafficRoutingRef, b.TrafficRoutingRef)
		}
		same(t, "status.observedGeneration", m.Status.ObservedGeneration, up.Status.ObservedGeneration)
		same(t, "status.canaryStatus set", m.Status.CanaryStatus != nil, up.Status.CanaryStatus != nil)
		if c := up.Status.CanaryStatus; c != nil {
			mc := m.Status.CanaryStatus
			sameCommon(t, "status.canaryStatus", &mc.CommonStatus, &c.CommonStatus)
			same(t, "status.canaryStatus.canaryRevision", mc.CanaryRevision, c.CanaryRevision)
			same(t, "status.canaryStatus.canaryReplicas", mc.CanaryReplicas, c.CanaryReplicas)
			same(t, "status.canaryStatus.canaryReadyReplicas", mc.CanaryReadyReplicas, c.CanaryReadyReplicas)
		}
		same(t, "status.blueGreenStatus set", m.Status.BlueGreenStatus != nil, up.Status.BlueGreenStatus != nil)
		if b := up.Status.BlueGreenStatus; b != nil {
			mb := m.Status.BlueGreenStatus
			sameCommon(t, "status.blueGreenStatus", &mb.CommonStatus, &b.CommonStatus)
			same(t, "status.blueGreenStatus.updatedRevision", mb.UpdatedRevision, b.UpdatedRevision)
			same(t, "status.blueGreenStatus.updatedReplicas", mb.UpdatedReplicas, b.UpdatedReplicas)
			same(t, "status.blueGreenStatus.updatedReadyReplicas", mb.UpdatedReadyReplicas, b.UpdatedReadyReplicas)
		}
		sameConditions(t, "status.conditions", m.Status.Conditions, up.Status.Conditions)
		same(t, "status.phase", m.Status.Phase, string(up.Status.Phase))
		same(t, "status.message", m.Status.Message, up.Status.Message)
		same(t, "status.currentStepIndex", m.Status.CurrentStepIndex, up.Status.CurrentStepIndex)
		same(t, "status.currentStepState", m.Status.CurrentStepState, string(up.Status.CurrentStepState))

		// (2) Back: the mirror's JSON is upstream's, less the fields it
		// drops.
		js, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back := &v1beta1.Rollout{}
		if err := json.Unmarshal(js, back); err != nil {
			t.Fatalf("upstream cannot read the mirror's JSON %s: %v", js, err)
		}
		want := up.DeepCopy()
		for _, steps := range [][]v1beta1.CanaryStep{stepsOf(want.Spec.Strategy.Canary), stepsOfBG(want.Spec.Strategy.BlueGreen)} {
			for i := range steps {
				steps[i].RequestHeaderModifier = nil
			}
		}
		if c := want.Spec.Strategy.Canary; c != nil {
			c.PatchPodTemplateMetadata, c.DisableGenerateCanaryService = nil, false
		}
		if b := want.Spec.Strategy.BlueGreen; b != nil {
			b.DisableGenerateCanaryService = false
		}
		sameConverted(t, "upstream's reading of the mirror's JSON", back, want)

		// (3) The conversion.
		got, err := kruiserollouts.ConvertRollout(m)
		kind, ok := wantKind(up.Spec.WorkloadRef)
		if !ok {
			wantErr := fmt.Sprintf(`kruiserollouts: invalid Rollout %q: spec.workloadRef.kind: "%s/%s": supported workloads: apps/v1 Deployment or StatefulSet, apps.kruise.io/v1alpha1 CloneSet, apps.kruise.io/v1alpha1 or v1beta1 StatefulSet`,
				up.Name, up.Spec.WorkloadRef.APIVersion, up.Spec.WorkloadRef.Kind)
			if err == nil || err.Error() != wantErr {
				t.Fatalf("ConvertRollout error %v, want %s", err, wantErr)
			}
			count("Rollout JSON (mirror, read, convert)", "agree")
			return
		}
		if err != nil {
			t.Fatalf("ConvertRollout: %v", err)
		}
		wantRO := batchrelease.Rollout{Name: up.Name, WorkloadKind: kind}
		if c := up.Spec.Strategy.Canary; c != nil {
			wantRO.Canary = wantStrategy(c.Steps, len(c.TrafficRoutings), c.FailureThreshold)
			wantRO.Canary.EnableExtraWorkloadForCanary = c.EnableExtraWorkloadForCanary
		}
		if b := up.Spec.Strategy.BlueGreen; b != nil {
			wantRO.BlueGreen = wantStrategy(b.Steps, len(b.TrafficRoutings), b.FailureThreshold)
		}
		if sub := up.Status.GetSubStatus(); sub != nil {
			wantRO.RolloutID, wantRO.CurrentStepIndex = sub.ObservedRolloutID, sub.CurrentStepIndex
		}
		sameConverted(t, "ConvertRollout", got, wantRO)
		count("Rollout JSON (mirror, read, convert)", "agree")
	})
}

func stepsOf(c *v1beta1.CanaryStrategy) []v1beta1.CanaryStep {
	if c == nil {
		return nil
	}
	return c.Steps
}

func stepsOfBG(b *v1beta1.BlueGreenStrategy) []v1beta1.CanaryStep {
	if b == nil {
		return nil
	}
	return b.Steps
}

func TestBatchReleaseMirrorReadsUpstreamJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		up := genBatchRelease(t)
		objs := readOne(t, up)
		if len(objs.BatchReleases) != 1 {
			t.Fatalf("Read: %d batch releases, want 1", len(objs.BatchReleases))
		}
		m := objs.BatchReleases[0]

		// (1) Field by field.
		same(t, "apiVersion", m.APIVersion, up.APIVersion)
		same(t, "kind", m.Kind, up.Kind)
		sameMeta(t, &m.ObjectMeta, &up.ObjectMeta)
		same(t, "spec.workloadRef", [3]string{m.Spec.WorkloadRef.APIVersion, m.Spec.WorkloadRef.Kind, m.Spec.WorkloadRef.Name},
			[3]string{up.Spec.WorkloadRef.APIVersion, up.Spec.WorkloadRef.Kind, up.Spec.WorkloadRef.Name})
		p, mp := &up.Spec.ReleasePlan, &m.Spec.ReleasePlan
		if len(mp.Batches) != len(p.Batches) {
			t.Fatalf("spec.releasePlan.batches: %d, upstream %d", len(mp.Batches), len(p.Batches))
		}
		for i := range p.Batches {
			same(t, fmt.Sprintf("spec.releasePlan.batches[%d].canaryReplicas", i), mp.Batches[i].CanaryReplicas, p.Batches[i].CanaryReplicas)
		}
		same(t, "spec.releasePlan.batchPartition", mp.BatchPartition, p.BatchPartition)
		same(t, "spec.releasePlan.rolloutID", mp.RolloutID, p.RolloutID)
		same(t, "spec.releasePlan.failureThreshold", mp.FailureThreshold, p.FailureThreshold)
		same(t, "spec.releasePlan.finalizingPolicy", mp.FinalizingPolicy, string(p.FinalizingPolicy))
		same(t, "spec.releasePlan.rollingStyle", string(mp.RollingStyle), string(p.RollingStyle))
		same(t, "spec.releasePlan.enableExtraWorkloadForCanary", mp.EnableExtraWorkloadForCanary, p.EnableExtraWorkloadForCanary)
		s, ms := &up.Status, &m.Status
		sameConditions(t, "status.conditions", ms.Conditions, s.Conditions)
		same(t, "status.canaryStatus.batchState", ms.CanaryStatus.CurrentBatchState, string(s.CanaryStatus.CurrentBatchState))
		same(t, "status.canaryStatus.currentBatch", ms.CanaryStatus.CurrentBatch, s.CanaryStatus.CurrentBatch)
		same(t, "status.canaryStatus.batchReadyTime", timePtr(ms.CanaryStatus.BatchReadyTime), timePtr(s.CanaryStatus.BatchReadyTime))
		same(t, "status.canaryStatus.updatedReplicas", ms.CanaryStatus.UpdatedReplicas, s.CanaryStatus.UpdatedReplicas)
		same(t, "status.canaryStatus.updatedReadyReplicas", ms.CanaryStatus.UpdatedReadyReplicas, s.CanaryStatus.UpdatedReadyReplicas)
		same(t, "status.canaryStatus.noNeedUpdateReplicas", ms.CanaryStatus.NoNeedUpdateReplicas, s.CanaryStatus.NoNeedUpdateReplicas)
		same(t, "status.stableRevision", ms.StableRevision, s.StableRevision)
		same(t, "status.updateRevision", ms.UpdateRevision, s.UpdateRevision)
		same(t, "status.observedGeneration", ms.ObservedGeneration, s.ObservedGeneration)
		same(t, "status.observedRolloutID", ms.ObservedRolloutID, s.ObservedRolloutID)
		same(t, "status.observedWorkloadReplicas", ms.ObservedWorkloadReplicas, s.ObservedWorkloadReplicas)
		same(t, "status.collisionCount", ms.CollisionCount, s.CollisionCount)
		same(t, "status.observedReleasePlanHash", ms.ObservedReleasePlanHash, s.ObservedReleasePlanHash)
		same(t, "status.phase", ms.Phase, string(s.Phase))
		same(t, "status.message", ms.Message, s.Message)

		// (2) Back.
		js, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back := &v1beta1.BatchRelease{}
		if err := json.Unmarshal(js, back); err != nil {
			t.Fatalf("upstream cannot read the mirror's JSON %s: %v", js, err)
		}
		want := up.DeepCopy()
		want.Spec.ReleasePlan.PatchPodTemplateMetadata = nil
		sameConverted(t, "upstream's reading of the mirror's JSON", back, want)

		// (3) The conversion.
		got, err := kruiserollouts.ConvertBatchRelease(m)
		kind, ok := wantKind(up.Spec.WorkloadRef)
		style := p.RollingStyle
		if style == "" && p.EnableExtraWorkloadForCanary {
			style = v1beta1.CanaryRollingStyle
		}
		var wantErr string
		switch {
		case !ok:
			wantErr = fmt.Sprintf(`kruiserollouts: invalid BatchRelease %q: spec.workloadRef.kind: "%s/%s": supported workloads: apps/v1 Deployment or StatefulSet, apps.kruise.io/v1alpha1 CloneSet, apps.kruise.io/v1alpha1 or v1beta1 StatefulSet`,
				up.Name, up.Spec.WorkloadRef.APIVersion, up.Spec.WorkloadRef.Kind)
		case style != "" && style != v1beta1.PartitionRollingStyle && style != v1beta1.CanaryRollingStyle && style != v1beta1.BlueGreenRollingStyle:
			wantErr = fmt.Sprintf(`kruiserollouts: invalid BatchRelease %q: spec.releasePlan.rollingStyle: %q: supported values: "Partition", "Canary", "BlueGreen"`, up.Name, style)
		case s.CanaryStatus.CurrentBatchState == "Done":
			wantErr = fmt.Sprintf(`kruiserollouts: invalid BatchRelease %q: status.canaryStatus.batchState: "Done": supported values: "Upgrading", "Verifying", "Ready"`, up.Name)
		case s.Phase == "Initial":
			wantErr = fmt.Sprintf(`kruiserollouts: invalid BatchRelease %q: status.phase: "Initial": supported values: "Preparing", "Progressing", "Finalizing", "Completed"`, up.Name)
		}
		if wantErr != "" {
			if err == nil || err.Error() != wantErr {
				t.Fatalf("ConvertBatchRelease error %v, want %s", err, wantErr)
			}
			count("BatchRelease JSON (mirror, read, convert)", "agree")
			return
		}
		if err != nil {
			t.Fatalf("ConvertBatchRelease: %v", err)
		}
		wantBR := batchrelease.Release{
			Name: up.Name, Generation: up.Generation, WorkloadKind: kind,
			BatchPartition: p.BatchPartition, RolloutID: p.RolloutID, FailureThreshold: convertIntOrString(p.FailureThreshold),
			// The executor tests the annotation against "".
			RollbackInBatch: up.Annotations[v1beta1.RollbackInBatchAnnotation] != "",
			Status: batchrelease.ReleaseStatus{
				ObservedGeneration: s.ObservedGeneration, ObservedRolloutID: s.ObservedRolloutID,
				ObservedWorkloadReplicas: s.ObservedWorkloadReplicas,
				CurrentBatch:             s.CanaryStatus.CurrentBatch, UpdatedReplicas: s.CanaryStatus.UpdatedReplicas,
				UpdatedReadyReplicas: s.CanaryStatus.UpdatedReadyReplicas, NoNeedUpdateReplicas: s.CanaryStatus.NoNeedUpdateReplicas,
				UpdateRevision: s.UpdateRevision, StableRevision: s.StableRevision,
			},
		}
		if p.Batches != nil {
			wantBR.Batches = []batchrelease.Batch{}
		}
		for _, b := range p.Batches {
			wantBR.Batches = append(wantBR.Batches, batchrelease.Batch{CanaryReplicas: *convertIntOrString(&b.CanaryReplicas)})
		}
		switch style {
		case v1beta1.PartitionRollingStyle:
			wantBR.RollingStyle = batchrelease.Partition
		case v1beta1.CanaryRollingStyle:
			wantBR.RollingStyle = batchrelease.Canary
		case v1beta1.BlueGreenRollingStyle:
			wantBR.RollingStyle = batchrelease.BlueGreen
		}
		switch s.CanaryStatus.CurrentBatchState {
		case v1beta1.UpgradingBatchState:
			wantBR.Status.BatchState = batchrelease.Upgrading
		case v1beta1.VerifyingBatchState:
			wantBR.Status.BatchState = batchrelease.Verifying
		case v1beta1.ReadyBatchState:
			wantBR.Status.BatchState = batchrelease.Ready
		}
		switch s.Phase {
		case v1beta1.RolloutPhasePreparing:
			wantBR.Status.Phase = batchrelease.Preparing
		case v1beta1.RolloutPhaseProgressing:
			wantBR.Status.Phase = batchrelease.Progressing
		case v1beta1.RolloutPhaseFinalizing:
			wantBR.Status.Phase = batchrelease.Finalizing
		case v1beta1.RolloutPhaseCompleted:
			wantBR.Status.Phase = batchrelease.Completed
		}
		sameConverted(t, "ConvertBatchRelease", got, wantBR)
		count("BatchRelease JSON (mirror, read, convert)", "agree")
	})
}
