package argorollouts

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

func ptr[T any](v T) *T { return &v }

// readFile reads testdata/name with Read.
func readFile(t *testing.T, names ...string) Objects {
	t.Helper()
	var o Objects
	for _, name := range names {
		f, err := os.Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		err = o.Read(f)
		f.Close()
		if err != nil {
			t.Fatalf("Read(%s): %v", name, err)
		}
	}
	return o
}

func TestReadKubectlCanaryManifests(t *testing.T) {
	o := readFile(t, "rollout-web.yaml", "replicasets-web.yaml")
	if len(o.Rollouts) != 1 || len(o.ReplicaSets) != 2 {
		t.Fatalf("Read gave %d Rollouts and %d ReplicaSets, want 1 and 2", len(o.Rollouts), len(o.ReplicaSets))
	}
	ro := &o.Rollouts[0]
	if ro.UID != "5b0f8c2e-4d1a-4c55-9a57-2f3e8d1c7a90" || ro.ResourceVersion != "1873312" || len(ro.ManagedFields) != 3 || ro.Labels["team"] != "storefront" {
		t.Errorf("metadata = %+v, want the manifest's uid, resourceVersion, 3 managedFields and label team", ro.ObjectMeta)
	}
	got, err := Rollout(ro)
	if err != nil {
		t.Fatalf("Rollout: %v", err)
	}
	pauseStart := time.Date(2026, 11, 24, 15, 41, 3, 0, time.UTC)
	want := argo.Rollout[Template]{
		Name:                 "web",
		Namespace:            "shop",
		Generation:           3,
		Replicas:             ptr[int32](10),
		Template:             ro.Spec.Template,
		RevisionHistoryLimit: ptr[int32](3),
		Strategy: argo.Strategy{Canary: &argo.Canary{
			MaxSurge:       ptr(intorpercent.FromString("20%")),
			MaxUnavailable: ptr(intorpercent.FromInt(0)),
			Steps: []argo.CanaryStep{
				{SetWeight: ptr[int32](20)},
				{Pause: &argo.RolloutPause{Duration: ptr(intorpercent.FromString("30s"))}},
				{SetWeight: ptr[int32](50)},
				{Pause: &argo.RolloutPause{}},
				{Analysis: []byte(`{"templates":[{"templateName":"success-rate"}]}`)},
			},
		}},
		Status: argo.Status{
			PauseConditions:    []argo.PauseCondition{{Reason: argo.PauseCanaryStep, StartTime: pauseStart}},
			CurrentPodHash:     "699fb74df4",
			CurrentStepHash:    "5f8d9c7b6",
			Replicas:           10,
			UpdatedReplicas:    2,
			ReadyReplicas:      10,
			AvailableReplicas:  10,
			CurrentStepIndex:   ptr[int32](1),
			ObservedGeneration: "3",
			HPAReplicas:        10,
			StableRS:           "875b8cbb4",
			Phase:              argo.PhasePaused,
			Message:            "CanaryPauseStep",
		},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("Rollout(rollout-web.yaml) mismatch (-want +got):\n%s", diff)
	}
	if c := ro.Spec.Template.Spec.Containers; len(c) != 1 || c[0].Image != "nginx:1.27" {
		t.Errorf("spec.template containers = %+v, want one nginx:1.27", c)
	}

	owned := Owned(ro, o.ReplicaSets)
	rss, err := ReplicaSets(owned)
	if err != nil {
		t.Fatalf("ReplicaSets: %v", err)
	}
	wantRSs := []argo.ReplicaSet[Template]{
		{Name: "web-875b8cbb4", PodTemplateHash: "875b8cbb4", Revision: 1, DesiredReplicas: ptr[int32](10), CreationTime: time.Date(2026, 11, 23, 9, 14, 2, 0, time.UTC), Replicas: 8, StatusReplicas: 8, ReadyReplicas: 8, AvailableReplicas: 8},
		{Name: "web-699fb74df4", PodTemplateHash: "699fb74df4", Revision: 2, DesiredReplicas: ptr[int32](10), CreationTime: time.Date(2026, 11, 24, 15, 40, 12, 0, time.UTC), Replicas: 2, StatusReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2},
	}
	for i := range rss {
		if l := rss[i].Template.Labels; len(l) != 1 || l["app"] != "web" {
			t.Errorf("rss[%d].Template.Labels = %v, want app=web alone (the hash label dropped)", i, l)
		}
		if owned[i].Spec.Template.Labels[argo.PodTemplateHashLabel] == "" {
			t.Errorf("ReplicaSets modified its input: rss[%d]'s template lost its hash label", i)
		}
		wantRSs[i].Template = rss[i].Template
	}
	if errs := argo.Validate(&got); len(errs) != 0 {
		t.Errorf("argo.Validate(rollout-web.yaml) = %v, want no errors", errs)
	}
	if diff := cmp.Diff(wantRSs, rss, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("ReplicaSets(replicasets-web.yaml) mismatch (-want +got):\n%s", diff)
	}
}

func TestReadJSONBlueGreen(t *testing.T) {
	o := readFile(t, "rollout-checkout-bluegreen.json")
	if len(o.Rollouts) != 1 || len(o.ReplicaSets) != 0 {
		t.Fatalf("Read gave %d Rollouts and %d ReplicaSets, want 1 and 0", len(o.Rollouts), len(o.ReplicaSets))
	}
	got, err := Rollout(&o.Rollouts[0])
	if err != nil {
		t.Fatal(err)
	}
	want := &argo.BlueGreen{
		ActiveService:               "checkout-active",
		PreviewService:              "checkout-preview",
		PreviewReplicaCount:         ptr[int32](1),
		AutoPromotionEnabled:        ptr(false),
		ScaleDownDelaySeconds:       ptr[int32](60),
		ScaleDownDelayRevisionLimit: ptr[int32](1),
	}
	if diff := cmp.Diff(want, got.Strategy.BlueGreen); diff != "" || got.Strategy.Canary != nil {
		t.Errorf("Rollout(checkout).Strategy mismatch (-want +got):\n%s (canary %v)", diff, got.Strategy.Canary)
	}
	wantBG := argo.BlueGreenStatus{ActiveSelector: "58f7c9d6b4", PreviewSelector: "7d4b9c8f6a"}
	if got.Status.BlueGreen != wantBG || !got.Status.ControllerPause || got.Status.HPAReplicas != 6 {
		t.Errorf("Rollout(checkout).Status = %+v, want blueGreen %+v, controllerPause and HPAReplicas 6", got.Status, wantBG)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{
			name: "another kind",
			in:   "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n",
			want: `argorollouts: document 1: kind "Service" (v1): want an argoproj.io/v1alpha1 Rollout, an apps/v1 ReplicaSet or a List of them`,
		},
		{
			name: "another kind in a list, second document",
			in:   "# rollout\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n",
			want: `argorollouts: document 2: items[0]: kind "Pod" (v1): want an argoproj.io/v1alpha1 Rollout, an apps/v1 ReplicaSet or a List of them`,
		},
		{
			name: "a string for replicas",
			in:   "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: web}\nspec:\n  replicas: \"3\"\n",
			want: "argorollouts: document 1: Rollout: json: cannot unmarshal string into Go struct field RolloutSpec.spec.replicas of type int32",
		},
		{
			name: "an object for a step",
			in:   "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: web}\nspec:\n  strategy:\n    canary:\n      steps:\n      - setWeight: ten\n",
			want: "argorollouts: document 1: Rollout: json: cannot unmarshal string into Go struct field CanaryStep.spec.strategy.canary.steps.setWeight of type int32",
		},
		{
			name: "bad YAML",
			in:   "apiVersion: [\n",
			want: "argorollouts: document 1: yaml: line 1: did not find expected node content",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in))
			if err == nil || err.Error() != tt.want {
				t.Errorf("Read(%q) error = %v, want %s", tt.in, err, tt.want)
			}
		})
	}
}

func TestReadToleratesUnknownFieldsAndNulls(t *testing.T) {
	in := `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: web}
spec:
  fieldFromANewerArgo: {a: 1}
  strategy:
    canary:
      newKnob: true
      trafficRouting:
        istio: null
        nginx: {stableIngress: web}
      steps:
      - setWeight: 10
        experiment: null
      - pause: {duration: 10}
status:
  someNewStatus: 3
`
	o, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Rollout(&o.Rollouts[0])
	if err != nil {
		t.Fatal(err)
	}
	c := got.Strategy.Canary
	if c.TrafficRouting.Istio != nil || c.TrafficRouting.Nginx == nil {
		t.Errorf("trafficRouting = %+v, want nginx only (istio: null is absent)", c.TrafficRouting)
	}
	if c.Steps[0].Experiment != nil || *c.Steps[0].SetWeight != 10 || *c.Steps[1].Pause.Duration != intorpercent.FromInt(10) {
		t.Errorf("steps = %+v, want setWeight 10 without experiment, then pause 10", c.Steps)
	}
}

func TestRolloutErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   *RolloutObject
		want string
		kind error
	}{
		{"nil", nil, "argorollouts: rollout: must not be nil", field.ErrRequired},
		{"deployment", &RolloutObject{}, "", nil},
		{"workloadRef", &RolloutObject{Spec: RolloutSpec{WorkloadRef: []byte(`{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}`)}}, `argorollouts: Rollout "": spec.workloadRef: a Rollout that takes its template from another workload is not supported: copy the workload's template into spec.template`, field.ErrUnsupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Rollout(tt.in)
			if tt.want == "" {
				if err != nil {
					t.Errorf("Rollout = %v, want no error", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want || !errors.Is(err, field.ErrInvalid) || !errors.Is(err, tt.kind) {
				t.Errorf("Rollout error = %v, want %s wrapping field.ErrInvalid and %v", err, tt.want, tt.kind)
			}
		})
	}
	ro := &RolloutObject{}
	ro.APIVersion, ro.Kind = "argoproj.io/v1alpha1", "Deployment"
	if _, err := Rollout(ro); err == nil || err.Error() != `argorollouts: kind: Unsupported value: "Deployment": supported values: "Rollout"` {
		t.Errorf("Rollout(kind Deployment) error = %v", err)
	}
	ro.APIVersion = "argoproj.io/v1beta1"
	if _, err := Rollout(ro); err == nil || err.Error() != `argorollouts: apiVersion: Unsupported value: "argoproj.io/v1beta1": supported values: "argoproj.io/v1alpha1"` {
		t.Errorf("Rollout(apiVersion v1beta1) error = %v", err)
	}
	_ = corev1.PodTemplateSpec{}
}
