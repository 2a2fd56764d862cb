package conformance

import (
	"encoding/json"
	"time"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// optInt32 draws nil or a value in [lo, hi].
func optInt32(t *rapid.T, label string, lo, hi int32) *int32 {
	if !rapid.Bool().Draw(t, label+"Set") {
		return nil
	}
	v := rapid.Int32Range(lo, hi).Draw(t, label)
	return &v
}

// intOrStringTexts are strings Argo's int-or-string fields meet: percents
// with and without '%', Go durations, malformed text.
var intOrStringTexts = []string{"25%", "0%", "100%", "20%", "33%", "150%", "25", "0", "2%5", "%", "", "abc", "-10%", "30s", "1h", "1.5s", "500ms", "-5", "10"}

// genIntOrString draws an int-or-string field as a manifest may hold it.
func genIntOrString(t *rapid.T, label string, lo, hi int32) intstr.IntOrString {
	if rapid.Bool().Draw(t, label+"IsString") {
		if rapid.IntRange(0, 3).Draw(t, label+"Free") == 0 {
			return intstr.FromString(rapid.StringMatching(`[-0-9%a-z.]{0,5}`).Draw(t, label+"Text"))
		}
		return intstr.FromString(rapid.SampledFrom(intOrStringTexts).Draw(t, label+"Text"))
	}
	return intstr.FromInt32(rapid.Int32Range(lo, hi).Draw(t, label+"Int"))
}

func optIntOrString(t *rapid.T, label string, lo, hi int32) *intstr.IntOrString {
	if !rapid.Bool().Draw(t, label+"Set") {
		return nil
	}
	v := genIntOrString(t, label, lo, hi)
	return &v
}

// genTime draws a whole-second UTC time in November 2026 (metav1.Time's
// JSON keeps whole seconds).
func genTime(t *rapid.T, label string) metav1.Time {
	base := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	return metav1.NewTime(base.Add(time.Duration(rapid.IntRange(0, 10*86400).Draw(t, label)) * time.Second))
}

func optTime(t *rapid.T, label string) *metav1.Time {
	if !rapid.Bool().Draw(t, label+"Set") {
		return nil
	}
	v := genTime(t, label)
	return &v
}

var (
	genName  = rapid.StringMatching(`[a-z]([a-z0-9-]{0,8}[a-z0-9])?`)
	genHash  = rapid.SampledFrom([]string{"", "6c8d7f9b5d", "7b9c5d4f8c", "58f7c9d6b4", "abc"})
	genLabel = rapid.MapOfN(rapid.SampledFrom([]string{"app", "team", "tier", "rollouts-pod-template-hash"}), genName, 0, 3)
)

// genArgoRollout draws an Argo v1alpha1.Rollout: every field rollout/argo
// reads, in every combination of set and unset, with values in and out of
// Argo's accepted ranges, and some fields the replica math never reads
// (they must survive the mirror untouched).
func genArgoRollout(t *rapid.T) *v1alpha1.Rollout {
	ro := &v1alpha1.Rollout{
		TypeMeta: metav1.TypeMeta{APIVersion: "argoproj.io/v1alpha1", Kind: "Rollout"},
		ObjectMeta: metav1.ObjectMeta{
			Name:              genName.Draw(t, "name"),
			Namespace:         rapid.SampledFrom([]string{"", "default", "shop"}).Draw(t, "namespace"),
			UID:               types.UID(rapid.SampledFrom([]string{"", "5b0f8c2e-4d1a-4c55-9a57-2f3e8d1c7a90"}).Draw(t, "uid")),
			Generation:        rapid.Int64Range(0, 1<<40).Draw(t, "generation"),
			ResourceVersion:   rapid.SampledFrom([]string{"", "1873312"}).Draw(t, "resourceVersion"),
			CreationTimestamp: genTime(t, "creationTimestamp"),
			Labels:            genLabel.Draw(t, "labels"),
			Annotations:       rapid.MapOfN(rapid.SampledFrom([]string{"rollout.argoproj.io/revision", "note"}), genName, 0, 2).Draw(t, "annotations"),
		},
	}
	if len(ro.Labels) == 0 {
		ro.Labels = nil
	}
	if len(ro.Annotations) == 0 {
		ro.Annotations = nil
	}
	s := &ro.Spec
	s.Replicas = optInt32(t, "replicas", -3, 1000)
	s.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	s.Template = corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: rapid.SampledFrom([]string{"nginx:1.25", "nginx:1.27"}).Draw(t, "image")}}},
	}
	if rapid.IntRange(0, 20).Draw(t, "workloadRef") == 0 {
		s.WorkloadRef = &v1alpha1.ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
	}
	s.MinReadySeconds = rapid.Int32Range(-2, 100).Draw(t, "minReadySeconds")
	if rapid.Bool().Draw(t, "rollbackWindowSet") {
		s.RollbackWindow = &v1alpha1.RollbackWindowSpec{Revisions: rapid.Int32Range(0, 5).Draw(t, "rollbackWindow")}
	}
	s.RevisionHistoryLimit = optInt32(t, "revisionHistoryLimit", -1, 20)
	s.Paused = rapid.Bool().Draw(t, "paused")
	s.ProgressDeadlineSeconds = optInt32(t, "progressDeadlineSeconds", -1, 1000)
	s.ProgressDeadlineAbort = rapid.Bool().Draw(t, "progressDeadlineAbort")
	s.RestartAt = optTime(t, "restartAt")
	if rapid.Bool().Draw(t, "analysisSet") {
		s.Analysis = &v1alpha1.AnalysisRunStrategy{SuccessfulRunHistoryLimit: optInt32(t, "successfulRunHistoryLimit", 0, 5)}
	}
	switch rapid.IntRange(0, 9).Draw(t, "strategy") {
	case 0:
	case 1, 2, 3:
		s.Strategy.BlueGreen = genBlueGreen(t)
	case 4:
		s.Strategy.BlueGreen = genBlueGreen(t)
		s.Strategy.Canary = genCanary(t)
	default:
		s.Strategy.Canary = genCanary(t)
	}
	ro.Status = genStatus(t)
	return ro
}

func genBlueGreen(t *rapid.T) *v1alpha1.BlueGreenStrategy {
	b := &v1alpha1.BlueGreenStrategy{
		ActiveService:               rapid.SampledFrom([]string{"", "web-active"}).Draw(t, "activeService"),
		PreviewService:              rapid.SampledFrom([]string{"", "web-preview"}).Draw(t, "previewService"),
		PreviewReplicaCount:         optInt32(t, "previewReplicaCount", -1, 20),
		AutoPromotionSeconds:        rapid.Int32Range(-1, 100).Draw(t, "autoPromotionSeconds"),
		MaxUnavailable:              optIntOrString(t, "bgMaxUnavailable", -2, 20),
		ScaleDownDelaySeconds:       optInt32(t, "bgScaleDownDelaySeconds", -1, 100),
		ScaleDownDelayRevisionLimit: optInt32(t, "bgScaleDownDelayRevisionLimit", -1, 20),
		AbortScaleDownDelaySeconds:  optInt32(t, "bgAbortScaleDownDelaySeconds", -1, 100),
	}
	if rapid.Bool().Draw(t, "autoPromotionEnabledSet") {
		v := rapid.Bool().Draw(t, "autoPromotionEnabled")
		b.AutoPromotionEnabled = &v
	}
	if rapid.Bool().Draw(t, "prePromotionAnalysisSet") {
		b.PrePromotionAnalysis = &v1alpha1.RolloutAnalysis{Templates: []v1alpha1.AnalysisTemplateRef{{TemplateName: "smoke"}}}
	}
	if rapid.Bool().Draw(t, "previewMetadataSet") {
		b.PreviewMetadata = &v1alpha1.PodTemplateMetadata{Labels: map[string]string{"role": "preview"}}
	}
	return b
}

func genCanary(t *rapid.T) *v1alpha1.CanaryStrategy {
	c := &v1alpha1.CanaryStrategy{
		CanaryService:               rapid.SampledFrom([]string{"", "web-canary"}).Draw(t, "canaryService"),
		StableService:               rapid.SampledFrom([]string{"", "web-stable"}).Draw(t, "stableService"),
		MaxUnavailable:              optIntOrString(t, "maxUnavailable", -2, 20),
		MaxSurge:                    optIntOrString(t, "maxSurge", -2, 20),
		ScaleDownDelaySeconds:       optInt32(t, "scaleDownDelaySeconds", -1, 100),
		ScaleDownDelayRevisionLimit: optInt32(t, "scaleDownDelayRevisionLimit", -1, 20),
		AbortScaleDownDelaySeconds:  optInt32(t, "abortScaleDownDelaySeconds", -1, 100),
		DynamicStableScale:          rapid.Bool().Draw(t, "dynamicStableScale"),
		MinPodsPerReplicaSet:        optInt32(t, "minPodsPerReplicaSet", -1, 10),
	}
	if rapid.Bool().Draw(t, "replicaProgressThresholdSet") {
		c.ReplicaProgressThreshold = &v1alpha1.ReplicaProgressThreshold{
			Type:  v1alpha1.ProgressType(rapid.SampledFrom([]string{"Percent", "Pods", "", "pods"}).Draw(t, "thresholdType")),
			Value: rapid.Int32Range(-100, 200).Draw(t, "thresholdValue"),
		}
	}
	if rapid.Bool().Draw(t, "canaryMetadataSet") {
		c.CanaryMetadata = &v1alpha1.PodTemplateMetadata{Labels: map[string]string{"role": "canary"}}
	}
	if rapid.Bool().Draw(t, "trafficRoutingSet") {
		tr := &v1alpha1.RolloutTrafficRouting{MaxTrafficWeight: optInt32(t, "maxTrafficWeight", -1, 1000)}
		if rapid.Bool().Draw(t, "istio") {
			tr.Istio = &v1alpha1.IstioTrafficRouting{VirtualService: &v1alpha1.IstioVirtualService{Name: "web"}}
		}
		if rapid.Bool().Draw(t, "nginx") {
			tr.Nginx = &v1alpha1.NginxTrafficRouting{StableIngress: "web"}
		}
		if rapid.Bool().Draw(t, "alb") {
			tr.ALB = &v1alpha1.ALBTrafficRouting{Ingress: "web", ServicePort: 80}
		}
		if rapid.Bool().Draw(t, "smi") {
			tr.SMI = &v1alpha1.SMITrafficRouting{}
		}
		if rapid.Bool().Draw(t, "ambassador") {
			tr.Ambassador = &v1alpha1.AmbassadorTrafficRouting{Mappings: []string{"web"}}
		}
		if rapid.Bool().Draw(t, "appMesh") {
			tr.AppMesh = &v1alpha1.AppMeshTrafficRouting{}
		}
		if rapid.Bool().Draw(t, "traefik") {
			tr.Traefik = &v1alpha1.TraefikTrafficRouting{WeightedTraefikServiceName: "web"}
		}
		if rapid.Bool().Draw(t, "apisix") {
			tr.Apisix = &v1alpha1.ApisixTrafficRouting{Route: &v1alpha1.ApisixRoute{Name: "web"}}
		}
		if rapid.Bool().Draw(t, "managedRoutes") {
			tr.ManagedRoutes = []v1alpha1.MangedRoutes{{Name: "header"}}
		}
		if rapid.Bool().Draw(t, "plugins") {
			tr.Plugins = map[string]json.RawMessage{"argoproj-labs/gatewayAPI": json.RawMessage(`{"httpRoute":"web","namespace":"shop"}`)}
		}
		c.TrafficRouting = tr
	}
	n := rapid.IntRange(0, 6).Draw(t, "steps")
	for i := 0; i < n; i++ {
		c.Steps = append(c.Steps, genStep(t))
	}
	return c
}

// genStep draws a canary step: usually one kind, sometimes none or two
// (which Validate rejects, and the mirror must still carry).
func genStep(t *rapid.T) v1alpha1.CanaryStep {
	var st v1alpha1.CanaryStep
	kinds := rapid.SliceOfN(rapid.IntRange(0, 7), 0, 2).Draw(t, "stepKinds")
	for _, k := range kinds {
		switch k {
		case 0:
			st.SetWeight = optInt32(t, "setWeight", -5, 1100)
			if st.SetWeight == nil {
				v := rapid.Int32Range(0, 100).Draw(t, "setWeightValue")
				st.SetWeight = &v
			}
		case 1:
			st.Pause = &v1alpha1.RolloutPause{Duration: optIntOrString(t, "pauseDuration", -5, 3600)}
		case 2:
			sc := &v1alpha1.SetCanaryScale{
				Weight:             optInt32(t, "canaryScaleWeight", -1, 200),
				Replicas:           optInt32(t, "canaryScaleReplicas", -1, 20),
				MatchTrafficWeight: rapid.Bool().Draw(t, "matchTrafficWeight"),
			}
			st.SetCanaryScale = sc
		case 3:
			st.Experiment = &v1alpha1.RolloutExperimentStep{Duration: "1h", Templates: []v1alpha1.RolloutExperimentTemplate{{Name: "baseline", SpecRef: v1alpha1.StableSpecRef}}}
		case 4:
			st.Analysis = &v1alpha1.RolloutAnalysis{Templates: []v1alpha1.AnalysisTemplateRef{{TemplateName: "success-rate"}}}
		case 5:
			st.SetHeaderRoute = &v1alpha1.SetHeaderRoute{Name: "header"}
		case 6:
			st.SetMirrorRoute = &v1alpha1.SetMirrorRoute{Name: "mirror"}
		case 7:
			st.Plugin = &v1alpha1.PluginStep{Name: "argoproj-labs/step", Config: json.RawMessage(`{"a":1}`)}
		}
	}
	return st
}

func genStatus(t *rapid.T) v1alpha1.RolloutStatus {
	s := v1alpha1.RolloutStatus{
		Abort:              rapid.Bool().Draw(t, "abort"),
		ControllerPause:    rapid.Bool().Draw(t, "controllerPause"),
		AbortedAt:          optTime(t, "abortedAt"),
		CurrentPodHash:     genHash.Draw(t, "currentPodHash"),
		CurrentStepHash:    rapid.SampledFrom([]string{"", "5f8d9c7b6"}).Draw(t, "currentStepHash"),
		Replicas:           rapid.Int32Range(0, 30).Draw(t, "statusReplicas"),
		UpdatedReplicas:    rapid.Int32Range(0, 30).Draw(t, "updatedReplicas"),
		ReadyReplicas:      rapid.Int32Range(0, 30).Draw(t, "readyReplicas"),
		AvailableReplicas:  rapid.Int32Range(0, 30).Draw(t, "availableReplicas"),
		CurrentStepIndex:   optInt32(t, "currentStepIndex", -1, 8),
		CollisionCount:     optInt32(t, "collisionCount", 0, 3),
		ObservedGeneration: rapid.SampledFrom([]string{"", "3", "abc"}).Draw(t, "observedGeneration"),
		HPAReplicas:        rapid.Int32Range(0, 30).Draw(t, "HPAReplicas"),
		Selector:           rapid.SampledFrom([]string{"", "app=web"}).Draw(t, "selector"),
		StableRS:           genHash.Draw(t, "stableRS"),
		RestartedAt:        optTime(t, "restartedAt"),
		PromoteFull:        rapid.Bool().Draw(t, "promoteFull"),
		Phase:              v1alpha1.RolloutPhase(rapid.SampledFrom([]string{"", "Healthy", "Paused", "Progressing", "Degraded"}).Draw(t, "phase")),
		Message:            rapid.SampledFrom([]string{"", "CanaryPauseStep"}).Draw(t, "message"),
	}
	for i, n := 0, rapid.IntRange(0, 2).Draw(t, "pauseConditions"); i < n; i++ {
		s.PauseConditions = append(s.PauseConditions, v1alpha1.PauseCondition{
			Reason:    v1alpha1.PauseReason(rapid.SampledFrom([]string{"CanaryPauseStep", "BlueGreenPause", "InconclusiveAnalysisRun", "InconclusiveExperiment"}).Draw(t, "pauseReason")),
			StartTime: genTime(t, "pauseStart"),
		})
	}
	if rapid.Bool().Draw(t, "conditions") {
		s.Conditions = []v1alpha1.RolloutCondition{{Type: v1alpha1.RolloutAvailable, Status: corev1.ConditionTrue, LastUpdateTime: genTime(t, "conditionUpdate"), LastTransitionTime: genTime(t, "conditionTransition"), Reason: "AvailableReason", Message: "ok"}}
	}
	if rapid.Bool().Draw(t, "weightsSet") {
		w := &v1alpha1.TrafficWeights{
			Canary: v1alpha1.WeightDestination{Weight: rapid.Int32Range(-1, 1000).Draw(t, "canaryWeight"), PodTemplateHash: genHash.Draw(t, "canaryWeightHash"), ServiceName: "web-canary"},
			Stable: v1alpha1.WeightDestination{Weight: rapid.Int32Range(-1, 1000).Draw(t, "stableWeight"), PodTemplateHash: genHash.Draw(t, "stableWeightHash")},
		}
		if rapid.Bool().Draw(t, "additional") {
			w.Additional = []v1alpha1.WeightDestination{{Weight: 5, ServiceName: "exp", PodTemplateHash: "abc"}}
		}
		if rapid.Bool().Draw(t, "verifiedSet") {
			v := rapid.Bool().Draw(t, "verified")
			w.Verified = &v
		}
		s.Canary.Weights = w
	}
	s.Canary.CurrentExperiment = rapid.SampledFrom([]string{"", "web-exp"}).Draw(t, "currentExperiment")
	s.BlueGreen = v1alpha1.BlueGreenStatus{
		PreviewSelector:          genHash.Draw(t, "previewSelector"),
		ActiveSelector:           genHash.Draw(t, "activeSelector"),
		ScaleUpPreviewCheckPoint: rapid.Bool().Draw(t, "scaleUpPreviewCheckPoint"),
	}
	return s
}
