package conformance

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	appspub "github.com/openkruise/kruise/apis/apps/pub"
	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	"github.com/openkruise/kruise/pkg/webhook/cloneset/validating"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// validTemplate is a pod template as the API server stores it after
// defaulting, so that the webhook's pod-template rules (which the library
// does not model) find nothing to report.
func validTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyAlways,
			DNSPolicy:     corev1.DNSClusterFirst,
			Containers: []corev1.Container{{
				Name: "app", Image: "nginx:1.25",
				ImagePullPolicy:          corev1.PullIfNotPresent,
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			}},
		},
	}
}

// TestValidateMatchesKruiseWebhook sends generated CloneSets to kruise's
// validating webhook handler (a Create admission request, or an Update
// from a valid CloneSet with the same template, with a fake client
// holding the pods that podsToDelete names) and compares its message with
// the aggregate of Validate's errors, text for text.
func TestValidateMatchesKruiseWebhook(t *testing.T) {
	decoder := admission.NewDecoder(kruiseScheme)
	rapid.Check(t, func(t *rapid.T) {
		s := genState(4).Draw(t, "state")
		cs := s.cs.DeepCopy()
		cs.Spec.Template = validTemplate()
		cs.Spec.Lifecycle = nil
		if rapid.IntRange(0, 5).Draw(t, "negativeReplicas") == 0 {
			r := rapid.Int32Range(-3, -1).Draw(t, "replicas")
			cs.Spec.Replicas = &r
		}
		// The webhook runs after defaulting, which fills in type,
		// partition, maxUnavailable and maxSurge when absent.
		us := &cs.Spec.UpdateStrategy
		if us.Type == "" {
			us.Type = appsv1alpha1.RecreateCloneSetUpdateStrategyType
		}
		us.Type = appsv1alpha1.CloneSetUpdateStrategyType(rapid.SampledFrom([]string{string(us.Type), string(us.Type), "Rolling"}).Draw(t, "type"))
		if us.Partition == nil {
			v := intstr.FromInt32(0)
			us.Partition = &v
		}
		if us.MaxUnavailable == nil {
			v := intstr.FromString("20%")
			us.MaxUnavailable = &v
		}
		if us.MaxSurge == nil {
			v := intstr.FromInt32(0)
			us.MaxSurge = &v
		}
		us.PriorityStrategy = priorityStrategy(t)
		if us.PriorityStrategy != nil && rapid.IntRange(0, 5).Draw(t, "badPriority") == 0 {
			switch rapid.IntRange(0, 2).Draw(t, "badPriorityKind") {
			case 0:
				us.PriorityStrategy.OrderPriority = append(us.PriorityStrategy.OrderPriority, appspub.UpdatePriorityOrderTerm{OrderedKey: "x"})
				us.PriorityStrategy.WeightPriority = append(us.PriorityStrategy.WeightPriority, appspub.UpdatePriorityWeightTerm{Weight: 1, MatchSelector: metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}})
			case 1:
				us.PriorityStrategy.WeightPriority = []appspub.UpdatePriorityWeightTerm{{Weight: rapid.SampledFrom([]int32{-1, 101, 50}).Draw(t, "badWeight")}}
				us.PriorityStrategy.OrderPriority = nil
			case 2:
				us.PriorityStrategy.OrderPriority = []appspub.UpdatePriorityOrderTerm{{OrderedKey: ""}}
				us.PriorityStrategy.WeightPriority = nil
			}
		}
		if rapid.IntRange(0, 3).Draw(t, "hasScatter") == 0 {
			us.ScatterStrategy = appsv1alpha1.UpdateScatterStrategy{{Key: "zone", Value: "a"}}
			switch rapid.IntRange(0, 3).Draw(t, "badScatter") {
			case 0:
				us.ScatterStrategy = append(us.ScatterStrategy, appsv1alpha1.UpdateScatterTerm{Key: "zone", Value: "a"})
			case 1:
				us.ScatterStrategy = append(us.ScatterStrategy, appsv1alpha1.UpdateScatterTerm{Key: "", Value: "b"})
			}
		}
		if rapid.IntRange(0, 3).Draw(t, "hasDeadline") == 0 {
			d := rapid.SampledFrom([]int32{-1, 0, 5, 10, 600, math.MaxInt32}).Draw(t, "progressDeadlineSeconds")
			cs.Spec.ProgressDeadlineSeconds = &d
		}
		if len(s.pods) > 0 && rapid.IntRange(0, 3).Draw(t, "podsToDelete") == 0 {
			n := s.pods[0].Name
			cs.Spec.ScaleStrategy.PodsToDelete = []string{n}
			if rapid.Bool().Draw(t, "duplicate") {
				cs.Spec.ScaleStrategy.PodsToDelete = append(cs.Spec.ScaleStrategy.PodsToDelete, n)
			}
		}

		objs := make([]client.Object, len(s.pods))
		for i, p := range s.pods {
			objs[i] = p.DeepCopy()
		}
		h := &validating.CloneSetCreateUpdateHandler{Client: fake.NewClientBuilder().WithScheme(kruiseScheme).WithObjects(objs...).Build(), Decoder: decoder}
		raw, err := json.Marshal(cs)
		if err != nil {
			t.Fatal(err)
		}
		req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
			Operation: admissionv1.Create, Object: runtime.RawExtension{Raw: raw}, Namespace: cs.Namespace, Name: cs.Name,
		}}
		op := "create"
		if rapid.Bool().Draw(t, "update") {
			// An update from a valid CloneSet with the same metadata and
			// template: validateCloneSetUpdate then adds nothing to the
			// spec rules (the fields that changed may change, and the
			// InPlaceOnly images-only rule sees no template change).
			cs.ResourceVersion = "7"
			if raw, err = json.Marshal(cs); err != nil {
				t.Fatal(err)
			}
			req.Object = runtime.RawExtension{Raw: raw}
			old := cs.DeepCopy()
			old.ResourceVersion = "6"
			r := int32(1)
			old.Spec.Replicas = &r
			old.Spec.UpdateStrategy = appsv1alpha1.CloneSetUpdateStrategy{Type: appsv1alpha1.RecreateCloneSetUpdateStrategyType}
			old.Spec.ScaleStrategy = appsv1alpha1.CloneSetScaleStrategy{}
			old.Spec.ProgressDeadlineSeconds = nil
			oldRaw, err := json.Marshal(old)
			if err != nil {
				t.Fatal(err)
			}
			req.Operation, req.OldObject = admissionv1.Update, runtime.RawExtension{Raw: oldRaw}
			op = "update"
		}
		resp := h.Handle(context.TODO(), req)
		want := ""
		if !resp.Allowed {
			want = resp.Result.Message
		}

		got := ""
		if err := cloneset.Validate(ourCloneSet(cs)); err != nil {
			got = utilerrors.NewAggregate(unwrapAll(err)).Error()
		}
		if got != want {
			t.Fatalf("Validate:\n  ours   %q\n  kruise %q\nspec %s", got, want, raw)
		}
		class := "accepted"
		if want != "" {
			class = "rejected"
		}
		count("validating webhook Handle ("+op+"): "+class, "agree")
	})
}

// unwrapAll returns the errors err joins, or err alone.
func unwrapAll(err error) []error {
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		return u.Unwrap()
	}
	return []error{err}
}
