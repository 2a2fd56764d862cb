package argo

import (
	"encoding/json"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// Argo's validation messages, verbatim.
const (
	msgNonNegative      = "must be greater than or equal to 0"
	msgDeadline         = "must be greater than minReadySeconds"
	msgMissingStrategy  = "Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'"
	msgMultipleStrategy = "Multiple Strategies can not be listed"
	msgDupBlueGreen     = "This rollout uses the same service for the active and preview services, but two different services are required."
	msgDupCanary        = "This rollout uses the same service for the stable and canary services, but two different services are required."
	msgRevisionLimit    = "This rollout's revision history limit can not be smaller than the rollout's scale down limit"
	msgTrafficServices  = "Canary service and Stable service must to be set to use Traffic Routing"
	msgSurgeUnavailable = "MaxSurge and MaxUnavailable both can not be zero"
	msgScaleDownDelay   = "Canary scaleDownDelaySeconds can only be used with traffic routing"
	msgDynamic          = "Canary dynamicStableScale can only be used with traffic routing"
	msgDynamicWithDelay = "Canary dynamicStableScale cannot be used with scaleDownDelaySeconds"
	msgMaxWeight        = "Canary maxTrafficWeight in traffic routing only supported in Nginx and Plugins"
	msgStep             = "Step must have one of the following set: experiment, setWeight, setCanaryScale, plugin or pause"
	msgSetWeight        = "SetWeight needs to be between 0 and "
	msgDuration         = "Duration needs to be greater than 0"
	msgSetCanaryScale   = "SetCanaryScale requires TrafficRouting to be set"
	msgSetHeaderRoute   = "SetHeaderRoute requires TrafficRouting, supports Istio and ALB and Apisix"
	msgSetMirrorRoute   = "SetMirrorRoute requires TrafficRouting, supports Istio and Plugins"
	msgManagedRoutes    = "Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'"
	msgRouteNotManaged  = "Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes"
)

// Validate checks ro as the Argo Rollouts controller does on every sync
// (there is no admission webhook: an invalid Rollout gets the
// InvalidSpec condition and nothing is scaled), in its order and words.
// Strategy fields are reported under spec.strategy.<field>, without
// the strategy's name, as Argo reports them:
//
//	spec.replicas: Invalid value: -1: must be greater than or equal to 0
//	spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds
//	spec.strategy.maxSurge: Invalid value: "0%": MaxSurge and MaxUnavailable both can not be zero
//	spec.strategy.steps[0].setWeight: Invalid value: 101: SetWeight needs to be between 0 and 100
//	spec.strategy.steps[1].pause.duration: Invalid value: -1: Duration needs to be greater than 0
//	spec.strategy.trafficRouting: Required value: SetCanaryScale requires TrafficRouting to be set
//	spec.strategy.scaleDownDelaySeconds: Invalid value: 60: Canary scaleDownDelaySeconds can only be used with traffic routing
//	spec.strategy.scaleDownDelayRevisionLimit: Invalid value: 11: This rollout's revision history limit can not be smaller than the rollout's scale down limit
//
// What Argo does not check is not checked here either: negative maxSurge
// or maxUnavailable numbers, unparsable percent strings when the other
// field is not zero ("abc" reads as 0 here), setCanaryScale's range,
// minPodsPerReplicaSet, previewReplicaCount. Not modelled: the
// selector and the pod template (T is the caller's), analysis and
// experiment arguments, ping-pong services, and the header and mirror
// routes' match rules. With traffic routing, the canary and stable
// Services are required when a router other than plugins is configured,
// except Istio with a destinationRule (which splits by subset: Istio
// alone with one requires them not); a setHeaderRoute or setMirrorRoute step
// requires trafficRouting.managedRoutes (one Required error per step)
// and, when it is present, its route name among them:
//
//	spec.strategy.trafficRouting.managedRoutes: Required value: Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'
//	spec.strategy.steps[2].setHeaderRoute: Invalid value: "h": Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes
//
// A nil ro is one Required error.
// Upstream: ValidateRollout, pkg/apis/rollouts/validation/validation.go.
func Validate[T any](ro *Rollout[T]) field.ErrorList {
	if ro == nil {
		return field.ErrorList{{Type: field.TypeRequired, Field: "rollout", Err: field.ErrRequired}}
	}
	var list field.ErrorList
	nonNegative := func(path string, v int32) {
		if v < 0 {
			list = append(list, &field.Error{Type: field.TypeInvalid, Field: path, Value: strconv.Itoa(int(v)), Detail: msgNonNegative, Err: field.ErrNegative})
		}
	}
	nonNegative("spec.replicas", ReplicasOrDefault(ro.Replicas))
	nonNegative("spec.minReadySeconds", ro.MinReadySeconds)
	nonNegative("spec.revisionHistoryLimit", RevisionHistoryLimitOrDefault(ro))
	pds := ProgressDeadlineSecondsOrDefault(ro)
	nonNegative("spec.progressDeadlineSeconds", pds)
	if pds <= ro.MinReadySeconds {
		list = append(list, invalid("spec.progressDeadlineSeconds", strconv.Itoa(int(pds)), msgDeadline, field.ErrRange))
	}
	const sp = "spec.strategy"
	st := ro.Strategy
	switch {
	case st.BlueGreen == nil && st.Canary == nil:
		list = append(list, &field.Error{Type: field.TypeRequired, Field: sp + ".strategy", Detail: msgMissingStrategy, Err: field.ErrRequired})
	case st.BlueGreen != nil && st.Canary != nil:
		list = append(list, invalid(sp+".strategy", strconv.Quote("blueGreen: true canary: true"), msgMultipleStrategy, field.ErrUnsupported))
	case st.BlueGreen != nil:
		b := st.BlueGreen
		if b.ActiveService == b.PreviewService {
			list = append(list, invalid(sp+".activeService", strconv.Quote(b.ActiveService), msgDupBlueGreen, field.ErrDuplicate))
		}
		if b.ScaleDownDelayRevisionLimit != nil && RevisionHistoryLimitOrDefault(ro) < *b.ScaleDownDelayRevisionLimit {
			list = append(list, invalid(sp+".scaleDownDelayRevisionLimit", strconv.Itoa(int(*b.ScaleDownDelayRevisionLimit)), msgRevisionLimit, field.ErrRange))
		}
	default:
		list = validateCanary(ro, list)
	}
	return list
}

// invalid builds an Invalid-value error in Argo's words.
func invalid(path, value, detail string, kind error) *field.Error {
	return &field.Error{Type: field.TypeInvalid, Field: path, Value: value, Detail: detail, Err: kind}
}

// validateCanary appends the canary strategy's errors to list.
// Upstream: ValidateRolloutStrategyCanary.
func validateCanary[T any](ro *Rollout[T], list field.ErrorList) field.ErrorList {
	const sp = "spec.strategy"
	c := ro.Strategy.Canary
	surge, unav := MaxSurgeOrDefault(ro), MaxUnavailableOrDefault(ro)
	if intOrPercentValue(surge) == 0 && intOrPercentValue(unav) == 0 {
		// Both zero means maxSurge was written (its default is "25").
		list = append(list, invalid(sp+".maxSurge", writtenJSON(surge), msgSurgeUnavailable, field.ErrRange))
	}
	if c.CanaryService != "" && c.StableService != "" && c.CanaryService == c.StableService {
		list = append(list, invalid(sp+".stableService", strconv.Quote(c.StableService), msgDupCanary, field.ErrDuplicate))
	}
	tr := c.TrafficRouting
	if tr != nil && (tr.ALB != nil || (tr.Istio != nil && tr.Istio.DestinationRule == nil) || tr.SMI != nil || tr.Apisix != nil || tr.Ambassador != nil || tr.Nginx != nil || tr.AppMesh != nil || tr.Traefik != nil) {
		if c.StableService == "" {
			list = append(list, invalid(sp+".stableService", `""`, msgTrafficServices, field.ErrRequired))
		}
		if c.CanaryService == "" {
			list = append(list, invalid(sp+".canaryService", `""`, msgTrafficServices, field.ErrRequired))
		}
	}
	if tr == nil {
		if c.ScaleDownDelaySeconds != nil {
			list = append(list, invalid(sp+".scaleDownDelaySeconds", strconv.Itoa(int(*c.ScaleDownDelaySeconds)), msgScaleDownDelay, field.ErrUnsupported))
		}
		if c.DynamicStableScale {
			list = append(list, invalid(sp+".dynamicStableScale", "true", msgDynamic, field.ErrUnsupported))
		}
	} else {
		if c.ScaleDownDelaySeconds != nil && c.DynamicStableScale {
			list = append(list, invalid(sp+".dynamicStableScale", "true", msgDynamicWithDelay, field.ErrUnsupported))
		}
		if tr.MaxTrafficWeight != nil && tr.Nginx == nil && len(tr.Plugins) == 0 {
			list = append(list, invalid(sp+".trafficRouting.maxTrafficWeight", strconv.Itoa(int(*tr.MaxTrafficWeight)), msgMaxWeight, field.ErrUnsupported))
		}
	}
	m := MaxTrafficWeight(ro)
	for i, s := range c.Steps {
		path := stepPath(i)
		if n := b2i(s.SetWeight != nil) + b2i(s.Pause != nil) + b2i(s.Experiment != nil) + b2i(s.Analysis != nil); n > 1 {
			v := "step.Experiment: " + strconv.FormatBool(s.Experiment != nil) + " step.Pause: " + strconv.FormatBool(s.Pause != nil) +
				" step.SetWeight: " + strconv.FormatBool(s.SetWeight != nil) + " step.Analysis: " + strconv.FormatBool(s.Analysis != nil)
			list = append(list, invalid(path, strconv.Quote(v), msgStep, field.ErrUnsupported))
		}
		if s.Experiment == nil && s.Pause == nil && s.SetWeight == nil && s.Analysis == nil && s.SetCanaryScale == nil &&
			s.SetHeaderRoute == nil && s.SetMirrorRoute == nil && s.Plugin == nil {
			v := "step.Experiment: true step.Pause: true step.SetWeight: true step.Analysis: true step.SetCanaryScale: true step.SetHeaderRoute: true step.SetMirrorRoute: true step.Plugin: true"
			list = append(list, invalid(path, strconv.Quote(v), msgStep, field.ErrRequired))
		}
		if s.SetWeight != nil && (*s.SetWeight < 0 || *s.SetWeight > m) {
			list = append(list, invalid(path+".setWeight", strconv.Itoa(int(*s.SetWeight)), msgSetWeight+strconv.Itoa(int(m)), field.ErrRange))
		}
		if s.Pause != nil {
			if d := DurationSeconds(*s.Pause); d < 0 {
				list = append(list, invalid(path+".pause.duration", strconv.Itoa(int(d)), msgDuration, field.ErrRange))
			}
		}
		if s.SetCanaryScale != nil && tr == nil {
			list = append(list, &field.Error{Type: field.TypeRequired, Field: sp + ".trafficRouting", Detail: msgSetCanaryScale, Err: field.ErrRequired})
		}
		if s.SetHeaderRoute != nil && (tr == nil || (tr.Istio == nil && tr.ALB == nil && tr.Apisix == nil && len(tr.Plugins) == 0)) {
			list = append(list, invalid(path+".setHeaderRoute", string(s.SetHeaderRoute), msgSetHeaderRoute, field.ErrUnsupported))
		}
		if s.SetMirrorRoute != nil && (tr == nil || (tr.Istio == nil && len(tr.Plugins) == 0)) {
			list = append(list, invalid(path+".setMirrorRoute", string(s.SetMirrorRoute), msgSetMirrorRoute, field.ErrUnsupported))
		}
		if tr != nil && (s.SetHeaderRoute != nil || s.SetMirrorRoute != nil) {
			if tr.ManagedRoutes == nil {
				list = append(list, &field.Error{Type: field.TypeRequired, Field: sp + ".trafficRouting.managedRoutes", Detail: msgManagedRoutes, Err: field.ErrRequired})
			} else {
				if s.SetHeaderRoute != nil {
					list = managedRoute(list, path+".setHeaderRoute", s.SetHeaderRoute, tr.ManagedRoutes)
				}
				if s.SetMirrorRoute != nil {
					list = managedRoute(list, path+".setMirrorRoute", s.SetMirrorRoute, tr.ManagedRoutes)
				}
			}
		}
	}
	return list
}

// managedRoute appends an error to list unless the route a
// setHeaderRoute or setMirrorRoute step names (its "name" field; an
// object without one names "") is one of routes.
// Upstream: ValidateStepRouteFoundInManagedRoute.
func managedRoute(list field.ErrorList, path string, step json.RawMessage, routes []ManagedRoute) field.ErrorList {
	var named struct {
		Name string `json:"name"`
	}
	// Text that is not a JSON object names no route, as an empty object.
	_ = json.Unmarshal(step, &named)
	for _, r := range routes {
		if r.Name == named.Name {
			return list
		}
	}
	return append(list, invalid(path, strconv.Quote(named.Name), msgRouteNotManaged, field.ErrUnsupported))
}

// stepPath is a step's field path, "spec.strategy.steps[i]"; the common
// indexes need no allocation.
func stepPath(i int) string {
	if i < len(stepPaths) {
		return stepPaths[i]
	}
	return "spec.strategy.steps[" + strconv.Itoa(i) + "]"
}

var stepPaths = func() []string {
	p := make([]string, 64)
	for i := range p {
		p[i] = "spec.strategy.steps[" + strconv.Itoa(i) + "]"
	}
	return p
}()

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// intOrPercentValue is how Argo's validation reads maxSurge and
// maxUnavailable: the number in a valid "N%" string ("[0-9]+%"), else
// apimachinery's IntValue (a count as is, a string through Atoi, 0 when
// it does not parse). Upstream: getIntOrPercentValue.
func intOrPercentValue(v intorpercent.IntOrString) int64 {
	if !v.IsString {
		return int64(v.Int)
	}
	s := v.Str
	if n := len(s); n >= 2 && s[n-1] == '%' && allDigits(s[:n-1]) {
		// Atoi's result on a range error is the clamped value, which
		// upstream keeps (it ignores the error).
		x, _ := strconv.ParseInt(s[:n-1], 10, 64)
		return x
	}
	x, _ := strconv.ParseInt(s, 10, 64)
	return x
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// writtenJSON renders an int-or-string as apimachinery's field errors
// do: its JSON (0, "0%").
func writtenJSON(v intorpercent.IntOrString) string {
	b, _ := json.Marshal(v)
	return string(b)
}
