package argo

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
)

// TestValidateTexts checks every rule Validate applies, with the full
// text, the order of the list and the kind each error wraps.
func TestValidateTexts(t *testing.T) {
	canaryWith := func(f func(ro *Rollout[tmpl])) *Rollout[tmpl] { ro := basic(10, 10, nil, nil); f(ro); return ro }
	routedWith := func(f func(ro *Rollout[tmpl])) *Rollout[tmpl] { ro := routed(10, setWeight(10)); f(ro); return ro }
	raw := json.RawMessage(`{"name":"h"}`)
	tests := []struct {
		name string
		ro   *Rollout[tmpl]
		want []string
		kind error
	}{
		{"nil", nil, []string{"rollout: Required value"}, field.ErrRequired},
		{"negative counts", canaryWith(func(ro *Rollout[tmpl]) {
			ro.Replicas, ro.MinReadySeconds, ro.RevisionHistoryLimit = i32(-1), -2, i32(-3)
		}), []string{
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			"spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0",
			"spec.revisionHistoryLimit: Invalid value: -3: must be greater than or equal to 0",
		}, field.ErrNegative},
		{"deadline not above minReadySeconds", canaryWith(func(ro *Rollout[tmpl]) { ro.MinReadySeconds = 600 }),
			[]string{"spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"}, field.ErrRange},
		{"negative deadline", canaryWith(func(ro *Rollout[tmpl]) { ro.ProgressDeadlineSeconds = i32(-1) }), []string{
			"spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
			"spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds",
		}, field.ErrNegative},
		{"no strategy", canaryWith(func(ro *Rollout[tmpl]) { ro.Strategy = Strategy{} }),
			[]string{"spec.strategy.strategy: Required value: Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'"}, field.ErrRequired},
		{"two strategies", canaryWith(func(ro *Rollout[tmpl]) { ro.Strategy.BlueGreen = &BlueGreen{ActiveService: "a"} }),
			[]string{`spec.strategy.strategy: Invalid value: "blueGreen: true canary: true": Multiple Strategies can not be listed`}, field.ErrUnsupported},
		{"blue-green same services", &Rollout[tmpl]{Strategy: Strategy{BlueGreen: &BlueGreen{ActiveService: "svc", PreviewService: "svc"}}},
			[]string{`spec.strategy.activeService: Invalid value: "svc": This rollout uses the same service for the active and preview services, but two different services are required.`}, field.ErrDuplicate},
		{"canary same services", canaryWith(func(ro *Rollout[tmpl]) { ro.Strategy.Canary.CanaryService, ro.Strategy.Canary.StableService = "s", "s" }),
			[]string{`spec.strategy.stableService: Invalid value: "s": This rollout uses the same service for the stable and canary services, but two different services are required.`}, field.ErrDuplicate},
		{"nginx without services", routedWith(func(ro *Rollout[tmpl]) { ro.Strategy.Canary.CanaryService, ro.Strategy.Canary.StableService = "", "" }), []string{
			`spec.strategy.stableService: Invalid value: "": Canary service and Stable service must to be set to use Traffic Routing`,
			`spec.strategy.canaryService: Invalid value: "": Canary service and Stable service must to be set to use Traffic Routing`,
		}, field.ErrRequired},
		{"dynamic with delay", routedWith(func(ro *Rollout[tmpl]) {
			ro.Strategy.Canary.DynamicStableScale, ro.Strategy.Canary.ScaleDownDelaySeconds = true, i32(30)
		}), []string{"spec.strategy.dynamicStableScale: Invalid value: true: Canary dynamicStableScale cannot be used with scaleDownDelaySeconds"}, field.ErrUnsupported},
		{"maxTrafficWeight with istio", routedWith(func(ro *Rollout[tmpl]) {
			ro.Strategy.Canary.TrafficRouting = &TrafficRouting{Istio: &Istio{}, MaxTrafficWeight: i32(1000)}
		}), []string{"spec.strategy.trafficRouting.maxTrafficWeight: Invalid value: 1000: Canary maxTrafficWeight in traffic routing only supported in Nginx and Plugins"}, field.ErrUnsupported},
		{"two kinds in one step", canaryWith(func(ro *Rollout[tmpl]) {
			ro.Strategy.Canary.Steps = []CanaryStep{{SetWeight: i32(10), Pause: &RolloutPause{}}}
		}), []string{`spec.strategy.steps[0]: Invalid value: "step.Experiment: false step.Pause: true step.SetWeight: true step.Analysis: false": Step must have one of the following set: experiment, setWeight, setCanaryScale, plugin or pause`}, field.ErrUnsupported},
		{"empty step", canaryWith(func(ro *Rollout[tmpl]) { ro.Strategy.Canary.Steps = []CanaryStep{{}} }),
			[]string{`spec.strategy.steps[0]: Invalid value: "step.Experiment: true step.Pause: true step.SetWeight: true step.Analysis: true step.SetCanaryScale: true step.SetHeaderRoute: true step.SetMirrorRoute: true step.Plugin: true": Step must have one of the following set: experiment, setWeight, setCanaryScale, plugin or pause`}, field.ErrRequired},
		{"negative setWeight", canaryWith(func(ro *Rollout[tmpl]) { ro.Strategy.Canary.Steps = []CanaryStep{setWeight(-1)} }),
			[]string{"spec.strategy.steps[0].setWeight: Invalid value: -1: SetWeight needs to be between 0 and 100"}, field.ErrRange},
		{"pause -5", canaryWith(func(ro *Rollout[tmpl]) { ro.Strategy.Canary.Steps = []CanaryStep{pauseFor("-5")} }),
			[]string{"spec.strategy.steps[0].pause.duration: Invalid value: -5: Duration needs to be greater than 0"}, field.ErrRange},
		{"header route without router", canaryWith(func(ro *Rollout[tmpl]) { ro.Strategy.Canary.Steps = []CanaryStep{{SetHeaderRoute: raw}} }),
			[]string{`spec.strategy.steps[0].setHeaderRoute: Invalid value: {"name":"h"}: SetHeaderRoute requires TrafficRouting, supports Istio and ALB and Apisix`}, field.ErrUnsupported},
		{"mirror route with nginx", routedWith(func(ro *Rollout[tmpl]) { ro.Strategy.Canary.Steps = []CanaryStep{{SetMirrorRoute: raw}} }), []string{
			`spec.strategy.steps[0].setMirrorRoute: Invalid value: {"name":"h"}: SetMirrorRoute requires TrafficRouting, supports Istio and Plugins`,
			"spec.strategy.trafficRouting.managedRoutes: Required value: Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'",
		}, field.ErrUnsupported},
		{"istio without destinationRule nor services", routedWith(func(ro *Rollout[tmpl]) {
			c := ro.Strategy.Canary
			c.TrafficRouting, c.CanaryService, c.StableService = &TrafficRouting{Istio: &Istio{}}, "", ""
		}), []string{
			`spec.strategy.stableService: Invalid value: "": Canary service and Stable service must to be set to use Traffic Routing`,
			`spec.strategy.canaryService: Invalid value: "": Canary service and Stable service must to be set to use Traffic Routing`,
		}, field.ErrRequired},
		{"istio with destinationRule needs no services", routedWith(func(ro *Rollout[tmpl]) {
			c := ro.Strategy.Canary
			c.TrafficRouting, c.CanaryService, c.StableService = &TrafficRouting{Istio: &Istio{DestinationRule: &IstioDestinationRule{}}}, "", ""
		}), nil, nil},
		{"istio with destinationRule and nginx needs the stable service", routedWith(func(ro *Rollout[tmpl]) {
			c := ro.Strategy.Canary
			c.TrafficRouting, c.StableService = &TrafficRouting{Istio: &Istio{DestinationRule: &IstioDestinationRule{}}, Nginx: &Router{}}, ""
		}), []string{`spec.strategy.stableService: Invalid value: "": Canary service and Stable service must to be set to use Traffic Routing`}, field.ErrRequired},
		{"plugins alone need no services", routedWith(func(ro *Rollout[tmpl]) {
			c := ro.Strategy.Canary
			c.TrafficRouting, c.CanaryService, c.StableService = &TrafficRouting{Plugins: map[string]json.RawMessage{"p": json.RawMessage(`{}`)}}, "", ""
		}), nil, nil},
		{"header and mirror steps without managedRoutes: one error per step", routedWith(func(ro *Rollout[tmpl]) {
			c := ro.Strategy.Canary
			c.TrafficRouting = &TrafficRouting{Istio: &Istio{}}
			c.Steps = []CanaryStep{{SetHeaderRoute: raw}, setWeight(10), {SetMirrorRoute: raw}, {SetHeaderRoute: raw, SetMirrorRoute: raw}}
		}), []string{
			"spec.strategy.trafficRouting.managedRoutes: Required value: Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'",
			"spec.strategy.trafficRouting.managedRoutes: Required value: Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'",
			"spec.strategy.trafficRouting.managedRoutes: Required value: Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'",
		}, field.ErrRequired},
		{"routes not among managedRoutes", routedWith(func(ro *Rollout[tmpl]) {
			c := ro.Strategy.Canary
			c.TrafficRouting = &TrafficRouting{Istio: &Istio{}, ManagedRoutes: []ManagedRoute{{Name: "header"}, {Name: "mirror"}}}
			c.Steps = []CanaryStep{
				{SetHeaderRoute: json.RawMessage(`{"name":"header"}`)},
				{SetHeaderRoute: raw, SetMirrorRoute: json.RawMessage(`{"name":"m"}`)},
				{SetMirrorRoute: json.RawMessage(`{"name":"mirror","percentage":50}`)},
				{SetHeaderRoute: json.RawMessage(`{}`)},
			}
		}), []string{
			`spec.strategy.steps[1].setHeaderRoute: Invalid value: "h": Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes`,
			`spec.strategy.steps[1].setMirrorRoute: Invalid value: "m": Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes`,
			`spec.strategy.steps[3].setHeaderRoute: Invalid value: "": Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes`,
		}, field.ErrUnsupported},
		{"empty managedRoutes is present: the route is not found", routedWith(func(ro *Rollout[tmpl]) {
			c := ro.Strategy.Canary
			c.TrafficRouting = &TrafficRouting{Istio: &Istio{}, ManagedRoutes: []ManagedRoute{}}
			c.Steps = []CanaryStep{{SetHeaderRoute: raw}}
		}), []string{`spec.strategy.steps[0].setHeaderRoute: Invalid value: "h": Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes`}, field.ErrUnsupported},
		{"header route with nginx: the router error, then managedRoutes", routedWith(func(ro *Rollout[tmpl]) {
			ro.Strategy.Canary.Steps = []CanaryStep{{SetHeaderRoute: raw}}
		}), []string{
			`spec.strategy.steps[0].setHeaderRoute: Invalid value: {"name":"h"}: SetHeaderRoute requires TrafficRouting, supports Istio and ALB and Apisix`,
			"spec.strategy.trafficRouting.managedRoutes: Required value: Rollout has missing field 'spec.strategy.canary.trafficRouting.managedRoutes'",
		}, field.ErrUnsupported},
		{"legacy 25 and 0% pass", basic(10, 10, ios("25"), ios("0%")), nil, nil},
		{"a one-digit percent is not zero", basic(10, 10, ioi(0), ios("5%")), nil, nil},
		{"abc with default maxUnavailable passes", basic(10, 10, ios("abc"), nil), nil, nil},
		{"negative maxSurge passes", basic(10, 10, ioi(-1), ioi(1)), nil, nil},
		{"setCanaryScale weight 200 passes", routed(4, CanaryStep{SetCanaryScale: &SetCanaryScale{Weight: i32(200)}}), nil, nil},
	}
	for _, tt := range tests {
		list := Validate(tt.ro)
		if len(list) != len(tt.want) {
			t.Errorf("%s: Validate = %v, want %d errors %q", tt.name, list, len(tt.want), tt.want)
			continue
		}
		for i, e := range list {
			if e.Error() != tt.want[i] {
				t.Errorf("%s: error %d =\n %s\nwant\n %s", tt.name, i, e.Error(), tt.want[i])
			}
		}
		if len(list) > 0 && !(errors.Is(list[0], tt.kind) && errors.Is(list[0], field.ErrInvalid)) {
			t.Errorf("%s: the first error does not wrap %v and field.ErrInvalid", tt.name, tt.kind)
		}
	}
}
