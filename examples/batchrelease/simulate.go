package main

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/brtable"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/revision"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// template is the pod template as encoding/json writes a
// corev1.PodTemplateSpec with one container.
type template struct {
	Metadata struct {
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Containers []container `json:"containers"`
	} `json:"spec"`
}

type container struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

func nginx(image string) template {
	var t template
	t.Metadata.Labels = map[string]string{"app": "demo"}
	t.Spec.Containers = []container{{Name: "nginx", Image: image}}
	return t
}

const fromImage, toImage = "nginx:1.25", "nginx:1.26"

// result is one simulated release.
type result struct {
	kind    batchrelease.Kind
	release batchrelease.Release
	// trace is the simulation; nil for a StatefulSet (the plan only).
	trace *batchrelease.Trace
	rows  []brtable.Row
	// For a CloneSet: the revisions before and after.
	oldRev, newRev string
	// For a Deployment: the old and new ReplicaSets' names and the
	// strategy the release copies into its annotation.
	oldRS, newRS string
	strategy     batchrelease.DeploymentStrategy
	// before is the workload's pods before the release: total, updated
	// and ready.
	before struct{ pods, updated, ready int32 }
}

// rollout is the Rollout whose steps the flags describe, at its first
// step: the webhook validates it, and batchrelease.ReleaseFor turns it
// into the BatchRelease it creates.
func rollout(cfg *config, kind batchrelease.Kind) batchrelease.Rollout {
	ro := batchrelease.Rollout{Name: cfg.name, WorkloadKind: kind, CurrentStepIndex: 1, Canary: &batchrelease.Strategy{FailureThreshold: cfg.failureThreshold}}
	for i := range cfg.batches {
		b := cfg.batches[i]
		step := batchrelease.CanaryStep{Replicas: &b}
		if i < len(cfg.batches)-1 {
			d := int32(cfg.pause / time.Second)
			step.Pause.Duration = &d
		}
		ro.Canary.Steps = append(ro.Canary.Steps, step)
	}
	return ro
}

// simConfig is the simulation's timing.
func simConfig(cfg *config) batchrelease.Config {
	c := batchrelease.Config{Start: cfg.now, Interval: cfg.interval, ReadyDelay: cfg.readyDelay, MaxSyncs: cfg.maxSyncs}
	for i := 0; i+1 < len(cfg.batches); i++ {
		d := int32(cfg.pause / time.Second)
		c.Pauses = append(c.Pauses, batchrelease.Pause{Duration: &d})
	}
	return c
}

// simulate validates the steps and releases one workload.
func simulate(cfg *config, kind batchrelease.Kind) (*result, error) {
	ro := rollout(cfg, kind)
	if err := batchrelease.Validate(&ro); err != nil {
		return nil, fmt.Errorf("admission webhook \"vrollout.kb.io\" denied the request: %v", err)
	}
	rel, err := batchrelease.ReleaseFor(&ro)
	if err != nil {
		return nil, err
	}
	rel.Generation = 1
	r := &result{kind: kind, release: rel}
	switch kind {
	case batchrelease.CloneSet:
		err = simulateCloneSet(cfg, r)
	case batchrelease.Deployment:
		err = simulateDeployment(cfg, r)
	default:
		err = planStatefulSet(cfg, r)
	}
	if err != nil {
		return nil, err
	}
	if r.trace != nil {
		r.rows = brtable.Rows(&r.release, r.kind, r.trace)
	}
	return r, nil
}

// simulateCloneSet settles the CloneSet on nginx:1.25 with the CloneSet
// engine (an hour before the start), changes its template to nginx:1.26
// and releases it. With -rollback-no-need-update N it first moves all but
// N pods to nginx:1.26 (partition N), then sets the template back to
// nginx:1.25: a rollback in batches.
func simulateCloneSet(cfg *config, r *result) error {
	cs := &cloneset.CloneSet[template]{Name: cfg.name, Replicas: cfg.replicas, Generation: 1, Template: nginx(fromImage)}
	rest, err := cloneset.Simulate(cs, nil, nil, cloneset.Config[template]{Start: cfg.now.Add(-time.Hour), Interval: 10 * time.Second, MaxSyncs: cfg.maxSyncs})
	if err != nil {
		return err
	}
	if rest.Outcome != cloneset.OutcomeComplete {
		return fmt.Errorf("batchrelease: creating the CloneSet's pods: %v after %d syncs", rest.Outcome, rest.Syncs)
	}
	before, pods, revs := rest.CloneSet, rest.Pods, rest.Revisions
	r.oldRev = before.Status.UpdateRevision
	if cfg.noNeedUpdate > 0 {
		keep := intorpercent.FromInt(cfg.noNeedUpdate)
		mid, err := cloneset.Simulate(&before, pods, revs, cloneset.Config[template]{Start: cfg.now.Add(-30 * time.Minute), Interval: 10 * time.Second,
			MaxSyncs: cfg.maxSyncs, Events: []cloneset.Event[template]{{Sync: 1, Kind: cloneset.SetTemplate, Template: nginx(toImage)},
				{Sync: 1, Kind: cloneset.SetPartition, Partition: &keep}}})
		if err != nil {
			return err
		}
		if mid.Outcome != cloneset.OutcomePartitioned {
			return fmt.Errorf("batchrelease: moving %d pods to %s before the rollback: %v after %d syncs", cfg.replicas-cfg.noNeedUpdate, toImage, mid.Outcome, mid.Syncs)
		}
		before, pods, revs = mid.CloneSet, mid.Pods, mid.Revisions
		r.newRev = r.oldRev // the rollback's target is the stable revision
		r.oldRev = before.Status.UpdateRevision
		before.Template = nginx(fromImage)
		before.Generation++
		r.release.RollbackInBatch = true
		r.release.Status = batchrelease.ReleaseStatus{Phase: batchrelease.Progressing, BatchState: batchrelease.Upgrading,
			ObservedWorkloadReplicas: cfg.replicas, UpdateRevision: before.Status.UpdateRevision, StableRevision: before.Status.CurrentRevision,
			UpdatedReplicas: before.Status.UpdatedReplicas, UpdatedReadyReplicas: before.Status.UpdatedReadyReplicas}
	} else {
		before.Template = nginx(toImage)
		before.Generation++
	}
	for i := range pods {
		r.before.pods++
		if pods[i].Ready {
			r.before.ready++
		}
		if cloneset.IsPodAtRevision(&pods[i], before.Status.UpdateRevision) {
			r.before.updated++
		}
	}
	if cfg.noNeedUpdate == 0 {
		r.before.updated = 0 // nginx:1.26 has no pods yet
	} else {
		r.before.updated = cfg.noNeedUpdate // the target, nginx:1.25, has N pods
	}
	tr, err := batchrelease.Simulate(&r.release, &before, pods, revs, simConfig(cfg))
	if err != nil {
		return err
	}
	if r.newRev == "" {
		r.newRev = tr.Workload.Status.UpdateRevision
	}
	r.trace = &tr
	return nil
}

// simulateDeployment releases a Deployment whose one ReplicaSet runs
// nginx:1.25 with every pod ready, its template changed to nginx:1.26,
// maxSurge 25% and maxUnavailable 25% (the Deployment defaults), through
// the advanced Deployment controller. The ReplicaSets are named for the
// templates' hashes.
func simulateDeployment(cfg *config, r *result) error {
	oldT, newT := nginx(fromImage), nginx(toImage)
	r.oldRS = revision.ReplicaSetName(cfg.name, revision.Hash(&oldT, nil))
	r.newRS = revision.ReplicaSetName(cfg.name, revision.Hash(&newT, nil))
	quarter := intorpercent.FromString("25%")
	r.strategy = batchrelease.DeploymentStrategy{RollingUpdate: &batchrelease.RollingUpdate{MaxSurge: &quarter, MaxUnavailable: &quarter}}
	d := &batchrelease.AdvancedDeployment{Name: cfg.name, Replicas: cfg.replicas, NewReplicaSet: r.newRS, Strategy: r.strategy, StatusReplicas: cfg.replicas}
	rss := []batchrelease.ReplicaSet{{Name: r.oldRS, Revision: "1", CreationTime: cfg.now.Add(-time.Hour), Replicas: cfg.replicas,
		StatusReplicas: cfg.replicas, ReadyReplicas: cfg.replicas, AvailableReplicas: cfg.replicas, DesiredReplicas: &cfg.replicas}}
	r.before.pods, r.before.ready = cfg.replicas, cfg.replicas
	tr, err := batchrelease.SimulateDeployment(&r.release, d, rss, simConfig(cfg))
	if err != nil {
		return err
	}
	r.trace = &tr
	return nil
}

// planStatefulSet fills the batch table of a StatefulSet from the
// partition style's batch context alone: batchrelease has no StatefulSet
// simulation, so there are no syncs and no ready times.
func planStatefulSet(cfg *config, r *result) error {
	w := batchrelease.Workload{Kind: batchrelease.StatefulSet, Name: cfg.name, Replicas: cfg.replicas}
	for i := range r.release.Batches {
		rel := r.release
		rel.Status.CurrentBatch = int32(i)
		c, err := batchrelease.StatefulSetBatchContext(&rel, &w)
		if err != nil {
			return err
		}
		r.rows = append(r.rows, brtable.Row{Batch: int32(i), CanaryReplicas: r.release.Batches[i].CanaryReplicas.String(),
			Planned: c.PlannedUpdatedReplicas, Desired: c.DesiredUpdatedReplicas, Written: "partition " + c.DesiredPartition.String()})
	}
	return nil
}
