package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/brtable"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

// heading describes one run in a few lines.
func heading(cfg *config, r *result) []string {
	var lines []string
	what := fmt.Sprintf("%s -> %s", fromImage, toImage)
	if cfg.noNeedUpdate > 0 {
		what = fmt.Sprintf("rolled back to %s in batches (%d of %d pods never left it; the others run %s)", fromImage, cfg.noNeedUpdate, cfg.replicas, toImage)
	}
	lines = append(lines, fmt.Sprintf("kruise-rollout v0.6.3 batch release of %s %s: %d replicas, %s, batches %s",
		r.kind, cfg.name, cfg.replicas, what, strings.Join(strings.Split(cfg.batchesText, ","), " -> ")))
	ft := "failureThreshold unset: no updated pod may be unready in a ready batch"
	if cfg.failureThreshold != nil {
		ft = "failureThreshold " + cfg.failureThreshold.String() + ": that many updated pods may be unready in a ready batch"
	}
	switch r.kind {
	case batchrelease.CloneSet:
		lines = append(lines, "partition style: the CloneSet's partition is the pods kept OLD, written as a percent when the batch is one; "+ft)
	case batchrelease.Deployment:
		lines = append(lines, fmt.Sprintf("partition style through the advanced Deployment controller (strategy annotation maxSurge %s, maxUnavailable %s): the partition is the pods made NEW, and a percent below 100%% leaves at least one old pod (R > 1); %s",
			r.strategy.RollingUpdate.MaxSurge, r.strategy.RollingUpdate.MaxUnavailable, ft))
	default:
		lines = append(lines, "partition style: the StatefulSet's partition is the lowest ordinal updated; the plan only (batchrelease has no StatefulSet simulation)")
		return lines
	}
	from := "fixed unless -now"
	if cfg.nowSet {
		from = "-now"
	}
	lines = append(lines, fmt.Sprintf("start %s (%s); a sync every %v; the Rollout waits %v after each batch but the last; pods ready %v after they start",
		cfg.now.Format(time.RFC3339), from, cfg.interval, cfg.pause, cfg.readyDelay))
	return lines
}

// writeText prints each run with internal/brtable, the layout
// adapters/kruiserollouts/cmd/batchreleaseplan shares: the heading, the
// batch table, then the workload sync by sync.
func writeText(w io.Writer, cfg *config, runs []*result) error {
	for i, r := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, l := range heading(cfg, r) {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintln(w)
		if err := brtable.WriteBatches(w, r.rows); err != nil {
			return err
		}
		if r.trace == nil {
			continue
		}
		fmt.Fprintln(w)
		var err error
		b := r.before
		if r.kind == batchrelease.Deployment {
			err = brtable.WriteReplicaSets(w, "before the release", brtable.ReplicaSet{Name: r.oldRS, Desired: b.pods, Current: b.pods, Ready: b.ready},
				brtable.ReplicaSet{Name: r.newRS}, r.trace.Steps)
		} else {
			err = brtable.WriteCloneSet(w, cfg.name, brtable.CloneSetBefore{Comment: "before the release", Replicas: cfg.replicas,
				Updated: b.updated, UpdatedReady: b.updated, Ready: b.ready, Total: b.pods}, r.trace.Steps)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "# %v after %d syncs (%v)\n", r.trace.Outcome, r.trace.Syncs, time.Duration(r.trace.Syncs)*cfg.interval)
	}
	return nil
}
