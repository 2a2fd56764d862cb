package conformance

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// TestConversionFillsEveryField: a Rollout with every field
// rollout/argo's types have set to a non-zero value, written as Argo
// writes it, converts (through the mirror) to an argo.Rollout with no
// zero field left. It fails when rollout/argo gains a field the adapter
// does not copy: the random properties compare the adapter with a model
// that could miss the same field.
func TestConversionFillsEveryField(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	yes := true
	at := metav1.NewTime(time.Date(2026, 11, 24, 15, 41, 3, 0, time.UTC))
	pct := intstr.FromString("20%")
	ro := &v1alpha1.Rollout{
		TypeMeta:   metav1.TypeMeta{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", Generation: 3},
		Spec: v1alpha1.RolloutSpec{
			Replicas:                i32(10),
			Template:                corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}},
			MinReadySeconds:         5,
			RollbackWindow:          &v1alpha1.RollbackWindowSpec{Revisions: 2},
			RevisionHistoryLimit:    i32(3),
			Paused:                  true,
			ProgressDeadlineSeconds: i32(600),
			Strategy: v1alpha1.RolloutStrategy{
				Canary: &v1alpha1.CanaryStrategy{
					CanaryService:  "web-canary",
					StableService:  "web-stable",
					MaxSurge:       &pct,
					MaxUnavailable: &pct,
					Steps: []v1alpha1.CanaryStep{{
						SetWeight:      i32(20),
						Pause:          &v1alpha1.RolloutPause{Duration: &pct},
						Experiment:     &v1alpha1.RolloutExperimentStep{Duration: "1h"},
						Analysis:       &v1alpha1.RolloutAnalysis{Templates: []v1alpha1.AnalysisTemplateRef{{TemplateName: "a"}}},
						SetCanaryScale: &v1alpha1.SetCanaryScale{Weight: i32(1), Replicas: i32(1), MatchTrafficWeight: true},
						SetHeaderRoute: &v1alpha1.SetHeaderRoute{Name: "h"},
						SetMirrorRoute: &v1alpha1.SetMirrorRoute{Name: "m"},
						Plugin:         &v1alpha1.PluginStep{Name: "p"},
					}},
					TrafficRouting: &v1alpha1.RolloutTrafficRouting{
						Istio:            &v1alpha1.IstioTrafficRouting{DestinationRule: &v1alpha1.IstioDestinationRule{Name: "web"}},
						ManagedRoutes:    []v1alpha1.MangedRoutes{{Name: "h"}},
						Nginx:            &v1alpha1.NginxTrafficRouting{},
						ALB:              &v1alpha1.ALBTrafficRouting{},
						SMI:              &v1alpha1.SMITrafficRouting{},
						Ambassador:       &v1alpha1.AmbassadorTrafficRouting{},
						AppMesh:          &v1alpha1.AppMeshTrafficRouting{},
						Traefik:          &v1alpha1.TraefikTrafficRouting{},
						Apisix:           &v1alpha1.ApisixTrafficRouting{},
						Plugins:          map[string]json.RawMessage{"p": json.RawMessage(`{}`)},
						MaxTrafficWeight: i32(1000),
					},
					ScaleDownDelaySeconds:       i32(30),
					ScaleDownDelayRevisionLimit: i32(2),
					AbortScaleDownDelaySeconds:  i32(30),
					DynamicStableScale:          true,
					MinPodsPerReplicaSet:        i32(2),
					ReplicaProgressThreshold:    &v1alpha1.ReplicaProgressThreshold{Type: "Percent", Value: 90},
				},
				BlueGreen: &v1alpha1.BlueGreenStrategy{
					ActiveService:               "web-active",
					PreviewService:              "web-preview",
					PreviewReplicaCount:         i32(1),
					AutoPromotionEnabled:        &yes,
					AutoPromotionSeconds:        30,
					MaxUnavailable:              &pct,
					ScaleDownDelaySeconds:       i32(30),
					ScaleDownDelayRevisionLimit: i32(2),
					AbortScaleDownDelaySeconds:  i32(30),
				},
			},
		},
		Status: v1alpha1.RolloutStatus{
			Abort:              true,
			PauseConditions:    []v1alpha1.PauseCondition{{Reason: "CanaryPauseStep", StartTime: at}},
			ControllerPause:    true,
			AbortedAt:          &at,
			CurrentPodHash:     "h1",
			CurrentStepHash:    "s1",
			Replicas:           11,
			UpdatedReplicas:    2,
			ReadyReplicas:      10,
			AvailableReplicas:  10,
			CurrentStepIndex:   i32(1),
			CollisionCount:     i32(1),
			ObservedGeneration: "3",
			Canary: v1alpha1.CanaryStatus{Weights: &v1alpha1.TrafficWeights{
				Canary:     v1alpha1.WeightDestination{Weight: 20, ServiceName: "web-canary", PodTemplateHash: "h1"},
				Stable:     v1alpha1.WeightDestination{Weight: 80, ServiceName: "web-stable", PodTemplateHash: "h0"},
				Additional: []v1alpha1.WeightDestination{{Weight: 1, ServiceName: "x", PodTemplateHash: "h2"}},
				Verified:   &yes,
			}},
			BlueGreen:   v1alpha1.BlueGreenStatus{PreviewSelector: "h1", ActiveSelector: "h0", ScaleUpPreviewCheckPoint: true},
			HPAReplicas: 11,
			StableRS:    "h0",
			PromoteFull: true,
			Phase:       "Paused",
			Message:     "m",
		},
	}
	js, err := json.Marshal(ro)
	if err != nil {
		t.Fatal(err)
	}
	var mine argorollouts.RolloutObject
	if err := json.Unmarshal(js, &mine); err != nil {
		t.Fatal(err)
	}
	got, err := argorollouts.Rollout(&mine)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range zeroFields(reflect.ValueOf(got), "Rollout") {
		t.Errorf("argorollouts.Rollout leaves %s zero although the manifest sets it", path)
	}
}

// zeroFields lists the paths of the zero fields of v, looking into
// structs, pointers, the first element of slices and every map value.
func zeroFields(v reflect.Value, path string) []string {
	if v.Kind() == reflect.Struct && v.Type() == reflect.TypeOf(time.Time{}) {
		if v.Interface().(time.Time).IsZero() {
			return []string{path}
		}
		return nil
	}
	if v.Kind() == reflect.Struct && strings.HasSuffix(v.Type().PkgPath(), "k8s.io/api/core/v1") {
		return nil // the pod template: copied whole, and compared whole by the mirror property
	}
	if v.IsZero() {
		return []string{path}
	}
	if v.Type() == reflect.TypeOf(intorpercent.IntOrString{}) {
		return nil // a number or a text: one of its fields is zero
	}
	var out []string
	switch v.Kind() {
	case reflect.Pointer:
		if v.Type().Elem().Size() == 0 {
			return nil // a marker such as *argo.Router: present is non-nil
		}
		out = zeroFields(v.Elem(), path)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.Type.Size() == 0 && f.Type.Kind() == reflect.Struct {
				continue // a marker type such as argo.Router: its presence is the pointer
			}
			out = append(out, zeroFields(v.Field(i), path+"."+f.Name)...)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			out = zeroFields(v.Index(0), path+"[0]")
		}
	}
	return out
}
