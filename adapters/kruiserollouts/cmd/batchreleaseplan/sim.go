package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/brtable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// simulation is a whole release from the manifests' state.
type simulation struct {
	trace batchrelease.Trace
	// model says how the pods were modelled, in lines for the output.
	model []string
	// oldRS and newRS are a Deployment's ReplicaSets as modelled.
	oldRS, newRS brtable.ReplicaSet
}

// simConfig is the simulation's timing and options: the Rollout's timed
// pauses (a manual pause counts as 0).
func simConfig(cfg *config, in *input) batchrelease.Config {
	return batchrelease.Config{Start: in.now, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, MaxSyncs: cfg.maxSyncs,
		Pauses: in.pauses, Options: cfg.options}
}

// split is how the modelled pods divide: updated and stable, each with
// its ready ones, from the workload's status (clamped so that no count
// is negative or above the pods).
func split(ws *batchrelease.WorkloadStatus) (updated, updatedReady, stable, stableReady int32) {
	total := max(ws.Replicas, 0)
	updated = min(max(ws.UpdatedReplicas, 0), total)
	updatedReady = min(max(ws.UpdatedReadyReplicas, 0), updated)
	stable = total - updated
	stableReady = min(max(ws.ReadyReplicas-updatedReady, 0), stable)
	return updated, updatedReady, stable, stableReady
}

// simulate runs the whole release of a CloneSet or a Deployment.
func simulate(cfg *config, in *input) (*simulation, error) {
	w := &in.workload
	if n := max(w.Replicas, w.Status.Replicas); n > cfg.maxPods {
		return nil, fmt.Errorf("%v %q has %d replicas, more than -max-pods %d: raise -max-pods to simulate it, or plan one reconcile with -once", w.Kind, w.Name, n, cfg.maxPods)
	}
	switch in.workload.Kind {
	case batchrelease.CloneSet:
		return simulateCloneSet(cfg, in)
	case batchrelease.Deployment:
		return simulateDeployment(cfg, in)
	}
	return nil, fmt.Errorf("the whole release of a %v is not simulated (package batchrelease has no StatefulSet simulation): use -once", in.workload.Kind)
}

// simulateCloneSet models the CloneSet's pods on its status (see the
// usage text) and runs batchrelease.Simulate.
func simulateCloneSet(cfg *config, in *input) (*simulation, error) {
	src, w := in.cs, &in.workload
	raw, err := json.Marshal(src.Spec.Template)
	if err != nil {
		return nil, err
	}
	var collision int32
	if src.Status.CollisionCount != nil {
		collision = *src.Status.CollisionCount
	}
	upd, err := cloneset.NewRevision(src.Name, json.RawMessage(raw), 2, collision)
	if err != nil {
		return nil, err
	}
	hashed := upd.Name
	if n := src.Status.UpdateRevision; n != "" {
		// The manifest's name for the revision of its template: pods and
		// the release's status use it.
		upd.Name = n
	}
	stableName := src.Status.CurrentRevision
	if stableName == "" || stableName == upd.Name {
		stableName = src.Name + "-stable"
	}
	// The stable template is not in the manifests: its revision holds a
	// placeholder that no template equals, and every update is a
	// recreation.
	stable := cloneset.ControllerRevision{Name: stableName, Number: 1, Data: []byte(`{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"batchreleaseplan":"stable template not in the manifests"}}}}}`)}
	cs := &cloneset.CloneSet[json.RawMessage]{Name: src.Name, Generation: src.Generation, Replicas: w.Replicas, MinReadySeconds: src.Spec.MinReadySeconds,
		Template:       json.RawMessage(raw),
		UpdateStrategy: cloneset.UpdateStrategy{Type: cloneset.ReCreate, Partition: w.Partition, MaxSurge: w.MaxSurge, MaxUnavailable: w.MaxUnavailable, Paused: w.Paused}}
	updated, updatedReady, stablePods, stableReady := split(&w.Status)
	var pods []cloneset.Pod
	add := func(prefix, rev string, n, ready int32, created time.Time) {
		for i := int32(0); i < n; i++ {
			p := cloneset.Pod{Name: fmt.Sprintf("%s-%s-%d", src.Name, prefix, i+1), Revision: rev, Phase: cloneset.PodRunning, NodeName: "node-1",
				CreationTime: created.Add(time.Duration(i) * time.Second), Lifecycle: cloneset.Normal}
			if i < ready {
				p.Ready, p.ReadySince = true, p.CreationTime
			}
			if rev == upd.Name && in.release.RolloutID != "" {
				p.Labels = map[string]string{batchrelease.RolloutIDLabel: in.release.RolloutID}
			}
			pods = append(pods, p)
		}
	}
	add("stable", stable.Name, stablePods, stableReady, in.now.Add(-2*time.Hour))
	add("updated", upd.Name, updated, updatedReady, in.now.Add(-time.Hour))
	cs.Status = cloneset.Status{ObservedGeneration: src.Status.ObservedGeneration, Replicas: int32(len(pods)), ReadyReplicas: stableReady + updatedReady,
		AvailableReplicas: stableReady + updatedReady, UpdatedReplicas: updated, UpdatedReadyReplicas: updatedReady, UpdatedAvailableReplicas: updatedReady,
		CurrentRevision: stable.Name, UpdateRevision: upd.Name, CollisionCount: src.Status.CollisionCount}
	sim := &simulation{model: []string{
		fmt.Sprintf("pods modelled on the status: %d at the stable revision %s (%d ready), %d at the update revision %s (%d ready); recreated on update (ReCreate)",
			stablePods, stable.Name, stableReady, updated, upd.Name, updatedReady),
		timing(cfg, in),
	}}
	if hashed != upd.Name {
		sim.model = append(sim.model[:1], "the update revision's name is status.updateRevision; kruise's hash of the template as the manifest holds it is "+hashed, sim.model[1])
	}
	tr, err := batchrelease.Simulate(&in.release, cs, pods, []cloneset.ControllerRevision{stable, upd}, simConfig(cfg, in))
	if err != nil {
		return nil, err
	}
	sim.trace = tr
	return sim, nil
}

// timing says when syncs run and how long pods and pauses take.
func timing(cfg *config, in *input) string {
	s := fmt.Sprintf("a sync every %v after now; a pod not ready becomes ready %v after now (a created one %v after it starts)", cfg.interval, cfg.readyDelay, cfg.readyDelay)
	if in.rollout == nil {
		return s + "; no Rollout: no pauses between batches"
	}
	var ps []string
	for i, p := range in.pauses {
		if i == len(in.pauses)-1 {
			break
		}
		if p.Duration == nil {
			ps = append(ps, fmt.Sprintf("step %d manual (taken as resumed)", i+1))
		} else {
			ps = append(ps, fmt.Sprintf("step %d %ds", i+1, *p.Duration))
		}
	}
	if len(ps) == 0 {
		return s
	}
	return s + "; pauses: " + joinComma(ps)
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// simulateDeployment models the Deployment's ReplicaSets on its status
// (see the usage text) and runs batchrelease.SimulateDeployment.
func simulateDeployment(cfg *config, in *input) (*simulation, error) {
	w := &in.workload
	name := w.Name
	oldHash := w.Status.StableRevision
	if oldHash == "" {
		oldHash = "stable"
	}
	newHash := in.podTemplateHash
	if newHash == "" {
		newHash = in.release.Status.UpdateRevision
	}
	if newHash == "" || newHash == oldHash {
		newHash = "update"
	}
	oldName, newName := name+"-"+oldHash, name+"-"+newHash
	updated, updatedReady, stablePods, stableReady := split(&w.Status)
	strategy := batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{MaxSurge: w.MaxSurge, MaxUnavailable: w.MaxUnavailable}, Paused: w.Paused}
	if w.Partition != nil {
		strategy.RollingStyle, strategy.Partition = batchrelease.Partition, *w.Partition
	}
	d := &batchrelease.AdvancedDeployment{Name: name, Replicas: w.Replicas, NewReplicaSet: newName, Strategy: strategy, StatusReplicas: w.Status.Replicas}
	replicas := w.Replicas
	rss := []batchrelease.ReplicaSet{{Name: oldName, Revision: "1", CreationTime: in.now.Add(-2 * time.Hour), Replicas: stablePods,
		StatusReplicas: stablePods, ReadyReplicas: stableReady, AvailableReplicas: stableReady, DesiredReplicas: &replicas}}
	if updated > 0 {
		rss = append(rss, batchrelease.ReplicaSet{Name: newName, Revision: "2", CreationTime: in.now.Add(-time.Hour), Replicas: updated,
			StatusReplicas: updated, ReadyReplicas: updatedReady, AvailableReplicas: updatedReady, DesiredReplicas: &replicas})
	}
	part := "none"
	if w.Partition != nil {
		part = w.Partition.String()
	}
	sim := &simulation{
		model: []string{fmt.Sprintf("ReplicaSets modelled on the status: %s with %d pods (%d ready), %s with %d (%d ready); strategy partition %s, maxSurge %s, maxUnavailable %s",
			oldName, stablePods, stableReady, newName, updated, updatedReady, part, written(w.MaxSurge), written(w.MaxUnavailable)), timing(cfg, in)},
		oldRS: brtable.ReplicaSet{Name: oldName, Desired: stablePods, Current: stablePods, Ready: stableReady},
		newRS: brtable.ReplicaSet{Name: newName, Desired: updated, Current: updated, Ready: updatedReady},
	}
	tr, err := batchrelease.SimulateDeployment(&in.release, d, rss, simConfig(cfg, in))
	if err != nil {
		return nil, err
	}
	sim.trace = tr
	return sim, nil
}

func written(v *intorpercent.IntOrString) string {
	if v == nil {
		return "unset"
	}
	return v.String()
}
