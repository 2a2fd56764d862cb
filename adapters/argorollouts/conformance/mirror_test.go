package conformance

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	"github.com/google/go-cmp/cmp"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/internal/tally"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// fromArgo is what Argo's own type holds, in rollout/argo's types: the
// model the mirror is checked against. It reads v1alpha1.Rollout's Go
// fields, never the mirror's.
func fromArgo(ro *v1alpha1.Rollout) argo.Rollout[argorollouts.Template] {
	s := &ro.Spec
	out := argo.Rollout[argorollouts.Template]{
		Name:                    ro.Name,
		Namespace:               ro.Namespace,
		Generation:              ro.Generation,
		Replicas:                s.Replicas,
		Template:                s.Template,
		MinReadySeconds:         s.MinReadySeconds,
		RevisionHistoryLimit:    s.RevisionHistoryLimit,
		Paused:                  s.Paused,
		ProgressDeadlineSeconds: s.ProgressDeadlineSeconds,
	}
	if s.RollbackWindow != nil {
		out.RollbackWindow = &argo.RollbackWindow{Revisions: s.RollbackWindow.Revisions}
	}
	if c := s.Strategy.Canary; c != nil {
		oc := &argo.Canary{
			CanaryService:               c.CanaryService,
			StableService:               c.StableService,
			MaxSurge:                    ios(c.MaxSurge),
			MaxUnavailable:              ios(c.MaxUnavailable),
			ScaleDownDelaySeconds:       c.ScaleDownDelaySeconds,
			ScaleDownDelayRevisionLimit: c.ScaleDownDelayRevisionLimit,
			AbortScaleDownDelaySeconds:  c.AbortScaleDownDelaySeconds,
			DynamicStableScale:          c.DynamicStableScale,
			MinPodsPerReplicaSet:        c.MinPodsPerReplicaSet,
		}
		if p := c.ReplicaProgressThreshold; p != nil {
			oc.ReplicaProgressThreshold = &argo.ReplicaProgressThreshold{Type: argo.ProgressType(p.Type), Value: p.Value}
		}
		for _, st := range c.Steps {
			os := argo.CanaryStep{
				SetWeight:      st.SetWeight,
				Experiment:     rawOf(st.Experiment),
				Analysis:       rawOf(st.Analysis),
				SetHeaderRoute: rawOf(st.SetHeaderRoute),
				SetMirrorRoute: rawOf(st.SetMirrorRoute),
				Plugin:         rawOf(st.Plugin),
			}
			if st.Pause != nil {
				os.Pause = &argo.RolloutPause{Duration: ios(st.Pause.Duration)}
			}
			if sc := st.SetCanaryScale; sc != nil {
				os.SetCanaryScale = &argo.SetCanaryScale{Weight: sc.Weight, Replicas: sc.Replicas, MatchTrafficWeight: sc.MatchTrafficWeight}
			}
			oc.Steps = append(oc.Steps, os)
		}
		if tr := c.TrafficRouting; tr != nil {
			oc.TrafficRouting = &argo.TrafficRouting{
				Istio:            istioOf(tr.Istio),
				Nginx:            routerOf(tr.Nginx != nil),
				ALB:              routerOf(tr.ALB != nil),
				SMI:              routerOf(tr.SMI != nil),
				Ambassador:       routerOf(tr.Ambassador != nil),
				AppMesh:          routerOf(tr.AppMesh != nil),
				Traefik:          routerOf(tr.Traefik != nil),
				Apisix:           routerOf(tr.Apisix != nil),
				Plugins:          tr.Plugins,
				MaxTrafficWeight: tr.MaxTrafficWeight,
			}
			if tr.ManagedRoutes != nil {
				oc.TrafficRouting.ManagedRoutes = []argo.ManagedRoute{}
				for _, r := range tr.ManagedRoutes {
					oc.TrafficRouting.ManagedRoutes = append(oc.TrafficRouting.ManagedRoutes, argo.ManagedRoute{Name: r.Name})
				}
			}
		}
		out.Strategy.Canary = oc
	}
	if b := s.Strategy.BlueGreen; b != nil {
		out.Strategy.BlueGreen = &argo.BlueGreen{
			ActiveService:               b.ActiveService,
			PreviewService:              b.PreviewService,
			PreviewReplicaCount:         b.PreviewReplicaCount,
			AutoPromotionEnabled:        b.AutoPromotionEnabled,
			AutoPromotionSeconds:        b.AutoPromotionSeconds,
			MaxUnavailable:              ios(b.MaxUnavailable),
			ScaleDownDelaySeconds:       b.ScaleDownDelaySeconds,
			ScaleDownDelayRevisionLimit: b.ScaleDownDelayRevisionLimit,
			AbortScaleDownDelaySeconds:  b.AbortScaleDownDelaySeconds,
		}
	}
	st := &ro.Status
	out.Status = argo.Status{
		Abort:              st.Abort,
		ControllerPause:    st.ControllerPause,
		CurrentPodHash:     st.CurrentPodHash,
		CurrentStepHash:    st.CurrentStepHash,
		Replicas:           st.Replicas,
		UpdatedReplicas:    st.UpdatedReplicas,
		ReadyReplicas:      st.ReadyReplicas,
		AvailableReplicas:  st.AvailableReplicas,
		CurrentStepIndex:   st.CurrentStepIndex,
		CollisionCount:     st.CollisionCount,
		ObservedGeneration: st.ObservedGeneration,
		BlueGreen: argo.BlueGreenStatus{
			PreviewSelector:          st.BlueGreen.PreviewSelector,
			ActiveSelector:           st.BlueGreen.ActiveSelector,
			ScaleUpPreviewCheckPoint: st.BlueGreen.ScaleUpPreviewCheckPoint,
		},
		HPAReplicas: st.HPAReplicas,
		StableRS:    st.StableRS,
		PromoteFull: st.PromoteFull,
		Phase:       argo.Phase(st.Phase),
		Message:     st.Message,
	}
	if st.AbortedAt != nil {
		t := st.AbortedAt.Time
		out.Status.AbortedAt = &t
	}
	for _, c := range st.PauseConditions {
		out.Status.PauseConditions = append(out.Status.PauseConditions, argo.PauseCondition{Reason: argo.PauseReason(c.Reason), StartTime: c.StartTime.Time})
	}
	if w := st.Canary.Weights; w != nil {
		dest := func(d v1alpha1.WeightDestination) argo.WeightDestination {
			return argo.WeightDestination{Weight: d.Weight, ServiceName: d.ServiceName, PodTemplateHash: d.PodTemplateHash}
		}
		ow := &argo.Weights{Canary: dest(w.Canary), Stable: dest(w.Stable), Verified: w.Verified}
		for _, d := range w.Additional {
			ow.Additional = append(ow.Additional, dest(d))
		}
		out.Status.Canary.Weights = ow
	}
	return out
}

func ios(v *intstr.IntOrString) *intorpercent.IntOrString {
	if v == nil {
		return nil
	}
	if v.Type == intstr.String {
		s := intorpercent.FromString(v.StrVal)
		return &s
	}
	i := intorpercent.FromInt(v.IntVal)
	return &i
}

// rawOf is the JSON of a step kind rollout/argo keeps as written; nil
// for a nil pointer.
func rawOf[T any](p *T) json.RawMessage {
	if p == nil {
		return nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	return b
}

// istioOf is what rollout/argo keeps of Argo's Istio settings: their
// presence and whether a destinationRule is named.
func istioOf(i *v1alpha1.IstioTrafficRouting) *argo.Istio {
	if i == nil {
		return nil
	}
	out := &argo.Istio{}
	if i.DestinationRule != nil {
		out.DestinationRule = &argo.IstioDestinationRule{}
	}
	return out
}

func routerOf(present bool) *argo.Router {
	if !present {
		return nil
	}
	return &argo.Router{}
}

// sameJSON compares two JSON texts as values (key order and spacing
// aside).
func sameJSON(a, b []byte) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

var cmpOpts = []cmp.Option{
	cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) }),
	cmp.Comparer(func(a, b json.RawMessage) bool { return sameJSON(a, b) }),
	cmp.Comparer(func(a, b argorollouts.Template) bool { return apiequality.Semantic.DeepEqual(a, b) }),
}

// perturb adds, at every level the mirror names, a field no Argo version
// has, and JSON nulls for absent optional objects (a router, a step kind,
// a strategy): Argo's decoder ignores the first and reads the second as
// nil, and so must the mirror's.
func perturb(t *rapid.T, js []byte) []byte {
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	future := map[string]any{"knob": 1, "list": []any{"a"}}
	add := func(m map[string]any, label string) {
		if m != nil && rapid.Bool().Draw(t, label) {
			m["fieldFromTheFuture"] = future
		}
	}
	null := func(m map[string]any, key string) {
		if _, ok := m[key]; m != nil && !ok && rapid.Bool().Draw(t, "null:"+key) {
			m[key] = nil
		}
	}
	obj := func(m map[string]any, key string) map[string]any {
		if m == nil {
			return nil
		}
		v, _ := m[key].(map[string]any)
		return v
	}
	add(doc, "top")
	add(obj(doc, "metadata"), "metadata")
	spec := obj(doc, "spec")
	add(spec, "spec")
	null(spec, "workloadRef")
	strategy := obj(spec, "strategy")
	add(strategy, "strategy")
	null(strategy, "blueGreen")
	null(strategy, "canary")
	add(obj(strategy, "blueGreen"), "blueGreen")
	canary := obj(strategy, "canary")
	add(canary, "canary")
	null(canary, "trafficRouting")
	null(canary, "replicaProgressThreshold")
	tr := obj(canary, "trafficRouting")
	add(tr, "trafficRouting")
	for _, k := range []string{"istio", "nginx", "alb", "smi", "ambassador", "appMesh", "traefik", "apisix", "plugins"} {
		null(tr, k)
	}
	if steps, ok := canary["steps"].([]any); ok {
		for _, s := range steps {
			m, _ := s.(map[string]any)
			add(m, "step")
			for _, k := range []string{"setWeight", "pause", "experiment", "analysis", "setCanaryScale", "setHeaderRoute", "setMirrorRoute", "plugin"} {
				null(m, k)
			}
			add(obj(m, "pause"), "pause")
			add(obj(m, "setCanaryScale"), "setCanaryScale")
		}
	}
	status := obj(doc, "status")
	add(status, "status")
	add(obj(status, "canary"), "statusCanary")
	add(obj(status, "blueGreen"), "statusBlueGreen")
	null(status, "abortedAt")
	null(status, "currentStepIndex")
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMirrorHoldsWhatArgosRolloutTypeHolds: a random v1alpha1.Rollout
// (Argo's type), encoded by encoding/json, with unknown fields and nulls
// sometimes added, is decoded by argorollouts.Read and converted by
// argorollouts.Rollout; the result is, field by field, what Argo's type
// holds after decoding the same text. A Rollout with workloadRef is the
// one the adapter refuses, with its error.
func TestMirrorHoldsWhatArgosRolloutTypeHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		orig := genArgoRollout(t)
		js, err := json.Marshal(orig)
		if err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "perturb") {
			js = perturb(t, js)
		}
		var theirs v1alpha1.Rollout
		if err := json.Unmarshal(js, &theirs); err != nil {
			t.Fatalf("Argo's type does not decode its own JSON: %v\n%s", err, js)
		}
		objs, err := argorollouts.Read(bytes.NewReader(js))
		if err != nil || len(objs.Rollouts) != 1 {
			t.Fatalf("Read = %d Rollouts, %v; want 1\n%s", len(objs.Rollouts), err, js)
		}
		mine := &objs.Rollouts[0]
		if !apiequality.Semantic.DeepEqual(mine.ObjectMeta, theirs.ObjectMeta) || mine.TypeMeta != theirs.TypeMeta {
			t.Fatalf("metadata: mirror %+v, Argo %+v", mine.ObjectMeta, theirs.ObjectMeta)
		}
		got, err := argorollouts.Rollout(mine)
		if theirs.Spec.WorkloadRef != nil {
			want := `argorollouts: Rollout "` + theirs.Name + `": spec.workloadRef: a Rollout that takes its template from another workload is not supported: copy the workload's template into spec.template`
			if err == nil || err.Error() != want {
				t.Fatalf("Rollout(workloadRef) error = %v, want %s", err, want)
			}
			count("mirror: Rollout (workloadRef refused)", tally.Agree)
			return
		}
		if err != nil {
			t.Fatalf("Rollout: %v\n%s", err, js)
		}
		want := fromArgo(&theirs)
		if diff := cmp.Diff(want, got, cmpOpts...); diff != "" {
			t.Fatalf("Rollout mismatch (-Argo's type +mirror):\n%s\n%s", diff, js)
		}
		count("mirror: Rollout", tally.Agree)
	})
}

// TestMirrorLosesNothing: the reverse direction. A random
// v1alpha1.Rollout encoded by encoding/json, decoded into the mirror and
// encoded again is the same JSON value (so every field, read or not, with
// the same JSON names and omitempty rules), and Argo's type decodes it to
// what it held.
func TestMirrorLosesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		orig := genArgoRollout(t)
		js, err := json.Marshal(orig)
		if err != nil {
			t.Fatal(err)
		}
		var mine argorollouts.RolloutObject
		if err := json.Unmarshal(js, &mine); err != nil {
			t.Fatal(err)
		}
		back, err := json.Marshal(&mine)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(js, back) {
			t.Fatalf("the mirror changes the JSON:\nArgo:   %s\nmirror: %s", js, back)
		}
		var a, b v1alpha1.Rollout
		if json.Unmarshal(js, &a) != nil || json.Unmarshal(back, &b) != nil || !apiequality.Semantic.DeepEqual(a, b) {
			t.Fatalf("Argo's type decodes the mirror's JSON differently:\n%s\n%s", js, back)
		}
		count("mirror: JSON round trip", tally.Agree)
	})
}
