package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rolloutmath/rolloutmath/internal/argotable"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// writeSplit prints, for every weight 0..100, the canary/stable split a
// basic canary steps toward at ro's replicas and maxSurge
// (argo.SplitForWeight), and with traffic routing the pods a
// traffic-routed canary runs at that weight once the router carries it
// (argo.TrafficRoutedCanaryCounts).
func writeSplit(w io.Writer, cfg *config, ro *argo.Rollout[template]) error {
	c := ro.Strategy.Canary
	if c == nil {
		return fmt.Errorf("the split table is a canary's; drop -blue-green")
	}
	r := argo.ReplicasOrDefault(ro.Replicas)
	surge := argo.MaxSurge(ro)
	var b strings.Builder
	fmt.Fprintf(&b, "Rollout %s: %d replicas, maxSurge %s = %s\n", ro.Name, r, argotable.Written(c.MaxSurge), argotable.Pods(surge))
	fmt.Fprintln(&b, "Basic canary: the canary/stable split each setWeight steps toward: the split of")
	fmt.Fprintln(&b, "replicas (or replicas + 1 with maxSurge) whose canary share is closest to the")
	fmt.Fprintln(&b, "weight, keeping a pod on each side for weights strictly between 0 and 100.")
	if c.TrafficRouting != nil {
		if c.DynamicStableScale {
			fmt.Fprintln(&b, "Routed: with traffic routing and dynamicStableScale, ceil(weight * replicas / 100)")
			fmt.Fprintln(&b, "canary pods and ceil((100 - weight) * replicas / 100) stable pods, once the router")
			fmt.Fprintln(&b, "carries the weight.")
		} else {
			fmt.Fprintln(&b, "Routed: with traffic routing, ceil(weight * replicas / 100) canary pods; the stable")
			fmt.Fprintln(&b, "keeps every replica (no dynamicStableScale).")
		}
	}
	b.WriteByte('\n')
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	if c.TrafficRouting != nil {
		fmt.Fprintln(tw, "WEIGHT\tCANARY\tSTABLE\tPODS\tCANARY SHARE\tROUTED CANARY\tROUTED STABLE\tROUTED PODS")
	} else {
		fmt.Fprintln(tw, "WEIGHT\tCANARY\tSTABLE\tPODS\tCANARY SHARE")
	}
	for weight := int32(0); weight <= argo.DefaultMaxTrafficWeight; weight++ {
		canary, stable := argo.SplitForWeight(r, weight, argo.DefaultMaxTrafficWeight, surge)
		share := "-"
		if canary+stable > 0 {
			share = fmt.Sprintf("%.1f%%", float64(canary)*100/float64(canary+stable))
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%s", weight, canary, stable, canary+stable, share)
		if c.TrafficRouting != nil {
			rc, rs := routed(ro, weight)
			fmt.Fprintf(tw, "\t%d\t%d\t%d", rc, rs, rc+rs)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// routed returns argo.TrafficRoutedCanaryCounts for a traffic-routed
// canary of ro at a setWeight step of weight, with a stable and a canary
// ReplicaSet, once the router has been told the weight.
func routed(ro *argo.Rollout[template], weight int32) (canary, stable int32) {
	x := *ro
	c := *ro.Strategy.Canary
	c.Steps = []argo.CanaryStep{{SetWeight: &weight}}
	x.Strategy.Canary = &c
	zero := int32(0)
	x.Status = argo.Status{StableRS: "stable", CurrentPodHash: "canary", CurrentStepIndex: &zero}
	r := argo.ReplicasOrDefault(ro.Replicas)
	stableRS := &argo.ReplicaSet[template]{Name: ro.Name + "-stable", PodTemplateHash: "stable", Replicas: r, StatusReplicas: r, ReadyReplicas: r, AvailableReplicas: r}
	newRS := &argo.ReplicaSet[template]{Name: ro.Name + "-canary", PodTemplateHash: "canary"}
	weights := &argo.Weights{Canary: argo.WeightDestination{Weight: weight, PodTemplateHash: "canary"}, Stable: argo.WeightDestination{Weight: argo.DefaultMaxTrafficWeight - weight, PodTemplateHash: "stable"}}
	return argo.TrafficRoutedCanaryCounts(&x, newRS, stableRS, weights)
}
