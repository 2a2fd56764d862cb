package conformance

import (
	"fmt"
	"strconv"
	"time"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// scenario is one state of a Rollout as the controller sees it at the
// start of a reconcile, on both sides: Argo's types and rollout/argo's
// (converted by the adapter, whose mirror TestMirrorHoldsWhatArgos...
// proves).
type scenario struct {
	ro  *v1alpha1.Rollout
	all []*appsv1.ReplicaSet
	// newRS is the ReplicaSet whose hash is status.currentPodHash, stable
	// the one whose hash is status.stableRS (GetStableRS), others the
	// rest (GetOtherRSs); each may be nil / empty.
	newRS, stable *appsv1.ReplicaSet
	others        []*appsv1.ReplicaSet
	weights       *v1alpha1.TrafficWeights

	lro     argo.Rollout[argorollouts.Template]
	lall    []*argo.ReplicaSet[argorollouts.Template]
	lweight *argo.Weights
	// of maps Argo's ReplicaSet to ours.
	of map[*appsv1.ReplicaSet]*argo.ReplicaSet[argorollouts.Template]
}

// lrs returns our ReplicaSet for Argo's (nil for nil).
func (s *scenario) lrs(rs *appsv1.ReplicaSet) *argo.ReplicaSet[argorollouts.Template] {
	if rs == nil {
		return nil
	}
	return s.of[rs]
}

func (s *scenario) lrss(rss []*appsv1.ReplicaSet) []*argo.ReplicaSet[argorollouts.Template] {
	var out []*argo.ReplicaSet[argorollouts.Template]
	for _, rs := range rss {
		out = append(out, s.lrs(rs))
	}
	return out
}

func (s *scenario) String() string {
	out := fmt.Sprintf("replicas %v strategy %s status{index %v abort %v promoteFull %v stable %q current %q}", ptrText(s.ro.Spec.Replicas), strategyText(s.ro), ptrText(s.ro.Status.CurrentStepIndex), s.ro.Status.Abort, s.ro.Status.PromoteFull, s.ro.Status.StableRS, s.ro.Status.CurrentPodHash)
	for _, rs := range s.all {
		out += fmt.Sprintf("\n  rs %s rev %s spec %v actual %d avail %d", rs.Name, rs.Annotations["rollout.argoproj.io/revision"], ptrText(rs.Spec.Replicas), rs.Status.Replicas, rs.Status.AvailableReplicas)
	}
	if s.weights != nil {
		out += fmt.Sprintf("\n  weights canary %d stable %d", s.weights.Canary.Weight, s.weights.Stable.Weight)
	}
	return out
}

func ptrText[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func iosText(v *intstr.IntOrString) string {
	if v == nil {
		return "nil"
	}
	if v.Type == intstr.String {
		return strconv.Quote(v.StrVal)
	}
	return fmt.Sprint(v.IntVal)
}

func strategyText(ro *v1alpha1.Rollout) string {
	if b := ro.Spec.Strategy.BlueGreen; b != nil {
		return fmt.Sprintf("blueGreen{preview %v maxUnavailable %s}", ptrText(b.PreviewReplicaCount), iosText(b.MaxUnavailable))
	}
	c := ro.Spec.Strategy.Canary
	if c == nil {
		return "none"
	}
	out := fmt.Sprintf("canary{maxSurge %s maxUnavailable %s dynamic %v minPods %v abortDelay %v", iosText(c.MaxSurge), iosText(c.MaxUnavailable), c.DynamicStableScale, ptrText(c.MinPodsPerReplicaSet), ptrText(c.AbortScaleDownDelaySeconds))
	if c.TrafficRouting != nil {
		out += fmt.Sprintf(" trafficRouting{max %v}", ptrText(c.TrafficRouting.MaxTrafficWeight))
	}
	if t := c.ReplicaProgressThreshold; t != nil {
		out += fmt.Sprintf(" threshold{%s %d}", t.Type, t.Value)
	}
	out += " steps["
	for i, st := range c.Steps {
		if i > 0 {
			out += ", "
		}
		switch {
		case st.SetWeight != nil:
			out += fmt.Sprintf("setWeight %d", *st.SetWeight)
		case st.Pause != nil:
			out += "pause " + iosText(st.Pause.Duration)
		case st.SetCanaryScale != nil:
			sc := st.SetCanaryScale
			out += fmt.Sprintf("setCanaryScale{replicas %v weight %v match %v}", ptrText(sc.Replicas), ptrText(sc.Weight), sc.MatchTrafficWeight)
		default:
			out += "other"
		}
	}
	return out + "]}"
}

// hashes are the pod-template hashes scenarios use; "gone" names no
// ReplicaSet.
var hashes = []string{"h0", "h1", "h2", "h3"}

// genReplicas draws spec.replicas: mostly small, sometimes large.
func genReplicas(t *rapid.T, label string) int32 {
	switch rapid.IntRange(0, 9).Draw(t, label+"Size") {
	case 0:
		return rapid.Int32Range(0, 1000).Draw(t, label)
	case 1:
		return rapid.Int32Range(0, 1).Draw(t, label)
	default:
		return rapid.Int32Range(0, 12).Draw(t, label)
	}
}

// genFencepost draws maxSurge or maxUnavailable: nil, a count (negative
// ones too: Argo does not reject them), or a string.
func genFencepost(t *rapid.T, label string) *intstr.IntOrString {
	switch rapid.IntRange(0, 5).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1, 2:
		v := intstr.FromInt32(rapid.Int32Range(-1, 12).Draw(t, label+"Int"))
		return &v
	case 3:
		v := intstr.FromString(rapid.SampledFrom([]string{"abc", "2%5", "", "%", "25", "-10%", "1.5%", "200%"}).Draw(t, label+"Odd"))
		return &v
	default:
		v := intstr.FromString(strconv.Itoa(rapid.IntRange(0, 110).Draw(t, label+"Pct")) + "%")
		return &v
	}
}

// genScenario draws a Rollout, its ReplicaSets and the recorded traffic
// weights. canaryOnly forces a canary strategy.
func genScenario(t *rapid.T, canaryOnly bool) *scenario {
	r := genReplicas(t, "replicas")
	ro := &v1alpha1.Rollout{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}
	if r != 1 || rapid.Bool().Draw(t, "replicasSet") {
		ro.Spec.Replicas = &r
	}
	ro.Spec.Template = corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}}
	ro.Spec.Paused = rapid.IntRange(0, 9).Draw(t, "paused") == 0
	if canaryOnly || rapid.IntRange(0, 3).Draw(t, "blueGreen") != 0 {
		ro.Spec.Strategy.Canary = genMathCanary(t)
	} else {
		b := &v1alpha1.BlueGreenStrategy{
			ActiveService:               "web-active",
			PreviewReplicaCount:         optInt32(t, "previewReplicaCount", 0, 12),
			MaxUnavailable:              genFencepost(t, "bgMaxUnavailable"),
			ScaleDownDelaySeconds:       optInt32(t, "bgScaleDownDelaySeconds", 0, 60),
			ScaleDownDelayRevisionLimit: optInt32(t, "bgScaleDownDelayRevisionLimit", 0, 3),
			AbortScaleDownDelaySeconds:  optInt32(t, "bgAbortScaleDownDelaySeconds", 0, 60),
		}
		if rapid.Bool().Draw(t, "autoPromotionEnabledSet") {
			v := rapid.Bool().Draw(t, "autoPromotionEnabled")
			b.AutoPromotionEnabled = &v
		}
		ro.Spec.Strategy.BlueGreen = b
	}

	s := &scenario{ro: ro}
	created := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	n := rapid.IntRange(0, 4).Draw(t, "replicaSets")
	for i := 0; i < n; i++ {
		h := hashes[i]
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{
			Name:              "web-" + h,
			Namespace:         "shop",
			Labels:            map[string]string{"app": "web", argo.PodTemplateHashLabel: h},
			Annotations:       map[string]string{argo.RevisionAnnotation: strconv.Itoa(i + 1)},
			CreationTimestamp: metav1.NewTime(created.Add(time.Duration(i) * time.Minute)),
		}}
		// spec.replicas is always set: the API server defaults it to 1,
		// and Argo's functions dereference it (a nil one panics in
		// GetReplicasForScaleDown and GetReplicaCountForReplicaSets).
		spec := rapid.Int32Range(0, r+3).Draw(t, "spec"+h)
		rs.Spec.Replicas = &spec
		rs.Spec.Template = ro.Spec.Template
		rs.Status.Replicas = rapid.Int32Range(max(0, spec-2), spec+2).Draw(t, "actual"+h)
		rs.Status.ReadyReplicas = rapid.Int32Range(0, rs.Status.Replicas).Draw(t, "ready"+h)
		rs.Status.AvailableReplicas = rapid.Int32Range(0, rs.Status.ReadyReplicas).Draw(t, "avail"+h)
		s.all = append(s.all, rs)
	}
	pick := func(label string) string {
		return rapid.SampledFrom([]string{"", "h0", "h1", "h2", "h3", "gone"}).Draw(t, label)
	}
	st := &ro.Status
	st.CurrentPodHash = pick("currentPodHash")
	st.StableRS = pick("stableRS")
	if rapid.IntRange(0, 3).Draw(t, "sameHash") == 0 {
		st.StableRS = st.CurrentPodHash
	}
	st.Abort = rapid.IntRange(0, 3).Draw(t, "abort") == 0
	st.PromoteFull = rapid.IntRange(0, 5).Draw(t, "promoteFull") == 0
	if c := ro.Spec.Strategy.Canary; c != nil {
		if rapid.IntRange(0, 4).Draw(t, "indexSet") != 0 {
			i := rapid.Int32Range(0, int32(len(c.Steps))+1).Draw(t, "currentStepIndex")
			st.CurrentStepIndex = &i
		}
	}
	if rapid.IntRange(0, 4).Draw(t, "pauseConditions") == 0 {
		st.PauseConditions = []v1alpha1.PauseCondition{{Reason: v1alpha1.PauseReasonBlueGreenPause, StartTime: metav1.NewTime(created)}}
	}
	st.BlueGreen.ActiveSelector = pick("activeSelector")
	st.BlueGreen.ScaleUpPreviewCheckPoint = rapid.Bool().Draw(t, "scaleUpPreviewCheckPoint")
	if rapid.Bool().Draw(t, "weightsSet") {
		m := int32(100)
		if c := ro.Spec.Strategy.Canary; c != nil && c.TrafficRouting != nil && c.TrafficRouting.MaxTrafficWeight != nil {
			m = *c.TrafficRouting.MaxTrafficWeight
		}
		cw := rapid.Int32Range(0, m).Draw(t, "canaryWeight")
		s.weights = &v1alpha1.TrafficWeights{
			Canary: v1alpha1.WeightDestination{Weight: cw, PodTemplateHash: st.CurrentPodHash},
			Stable: v1alpha1.WeightDestination{Weight: rapid.Int32Range(0, m).Draw(t, "stableWeight"), PodTemplateHash: st.StableRS},
		}
	}
	ro.Status.Canary.Weights = s.weights

	for _, rs := range s.all {
		if rs.Labels[argo.PodTemplateHashLabel] == st.CurrentPodHash {
			s.newRS = rs
		}
	}
	s.finish(t)
	return s
}

// finish derives stable and others as Argo's controller does and
// converts everything to rollout/argo's types.
func (s *scenario) finish(t *rapid.T) {
	s.stable = getStableRS(s.ro, s.newRS, s.all)
	s.others = getOtherRSs(s.ro, s.newRS, s.stable, s.all)
	s.lro = fromArgo(s.ro)
	s.lall = nil
	s.of = map[*appsv1.ReplicaSet]*argo.ReplicaSet[argorollouts.Template]{}
	for _, rs := range s.all {
		l, err := argorollouts.ReplicaSet(rs)
		if err != nil {
			t.Fatalf("argorollouts.ReplicaSet: %v", err)
		}
		s.of[rs] = &l
		s.lall = append(s.lall, &l)
	}
	if w := s.weights; w != nil {
		s.lweight = &argo.Weights{
			Canary: argo.WeightDestination{Weight: w.Canary.Weight, PodTemplateHash: w.Canary.PodTemplateHash},
			Stable: argo.WeightDestination{Weight: w.Stable.Weight, PodTemplateHash: w.Stable.PodTemplateHash},
		}
	}
}

// genMathCanary draws a canary strategy with the fields the replica math
// reads.
func genMathCanary(t *rapid.T) *v1alpha1.CanaryStrategy {
	c := &v1alpha1.CanaryStrategy{
		MaxSurge:       genFencepost(t, "maxSurge"),
		MaxUnavailable: genFencepost(t, "maxUnavailable"),
	}
	m := int32(100)
	if rapid.Bool().Draw(t, "trafficRouting") {
		tr := &v1alpha1.RolloutTrafficRouting{}
		switch rapid.IntRange(0, 4).Draw(t, "router") {
		case 0:
			tr.Nginx = &v1alpha1.NginxTrafficRouting{StableIngress: "web"}
		case 1:
			tr.Istio = &v1alpha1.IstioTrafficRouting{VirtualService: &v1alpha1.IstioVirtualService{Name: "web"}}
		case 2:
			tr.Istio = &v1alpha1.IstioTrafficRouting{VirtualService: &v1alpha1.IstioVirtualService{Name: "web"}, DestinationRule: &v1alpha1.IstioDestinationRule{Name: "web", CanarySubsetName: "canary", StableSubsetName: "stable"}}
		case 3:
			// No pingPong: rollout/argo does not model ping-pong services
			// (see README.md).
			tr.ALB = &v1alpha1.ALBTrafficRouting{Ingress: "web", ServicePort: 80}
		default:
			tr.SMI = &v1alpha1.SMITrafficRouting{}
		}
		if rapid.IntRange(0, 3).Draw(t, "maxTrafficWeightSet") == 0 {
			v := rapid.SampledFrom([]int32{100, 1000, 50, 3, 1}).Draw(t, "maxTrafficWeight")
			tr.MaxTrafficWeight = &v
			m = v
		}
		c.TrafficRouting = tr
		c.DynamicStableScale = rapid.Bool().Draw(t, "dynamicStableScale")
		c.MinPodsPerReplicaSet = optInt32(t, "minPodsPerReplicaSet", 0, 5)
		c.AbortScaleDownDelaySeconds = optInt32(t, "abortScaleDownDelaySeconds", 0, 30)
	}
	if rapid.IntRange(0, 3).Draw(t, "thresholdSet") == 0 {
		c.ReplicaProgressThreshold = &v1alpha1.ReplicaProgressThreshold{
			Type:  v1alpha1.ProgressType(rapid.SampledFrom([]string{"Percent", "Pods", "pods"}).Draw(t, "thresholdType")),
			Value: rapid.Int32Range(-5, 110).Draw(t, "thresholdValue"),
		}
	}
	n := rapid.IntRange(0, 5).Draw(t, "steps")
	for i := 0; i < n; i++ {
		var st v1alpha1.CanaryStep
		switch rapid.IntRange(0, 5).Draw(t, "stepKind") {
		case 0, 1, 2:
			w := rapid.Int32Range(0, m).Draw(t, "setWeight")
			st.SetWeight = &w
		case 3:
			st.Pause = &v1alpha1.RolloutPause{}
		default:
			sc := &v1alpha1.SetCanaryScale{}
			switch rapid.IntRange(0, 2).Draw(t, "canaryScaleKind") {
			case 0:
				sc.Replicas = optInt32(t, "canaryScaleReplicas", 0, 12)
			case 1:
				sc.Weight = optInt32(t, "canaryScaleWeight", 0, 200)
			default:
				sc.MatchTrafficWeight = true
			}
			st.SetCanaryScale = sc
		}
		c.Steps = append(c.Steps, st)
	}
	return c
}
