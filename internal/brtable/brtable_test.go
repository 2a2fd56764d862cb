package brtable

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func TestLinesAlignRowsAroundComments(t *testing.T) {
	var l Lines
	l.Row("NAME", "DESIRED")
	l.Comment("# a comment longer than every row")
	l.Row("demo-5cdb4f6d9d", "10")
	var b strings.Builder
	if err := l.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := "NAME              DESIRED\n# a comment longer than every row\ndemo-5cdb4f6d9d   10\n"
	if b.String() != want {
		t.Errorf("Write = %q, want %q", b.String(), want)
	}
}

// TestRowsReadTheTrace checks the batch table of a hand-made trace: the
// first Progressing sync starts a batch, the context gives planned and
// desired, a partition write is the written column (a Deployment's with
// the new ReplicaSet's limit, R-1 for 95% of 10), and a batch never
// reached stays "-".
func TestRowsReadTheTrace(t *testing.T) {
	p95 := intorpercent.FromString("95%")
	rel := &batchrelease.Release{Batches: []batchrelease.Batch{{CanaryReplicas: p95}, {CanaryReplicas: intorpercent.FromString("100%")}}}
	tr := &batchrelease.Trace{Steps: []batchrelease.Step{
		{Sync: 1, Elapsed: 2 * time.Second, Phase: batchrelease.Preparing},
		{Sync: 2, Elapsed: 4 * time.Second, Phase: batchrelease.Progressing, Partition: "0", Replicas: 10},
		{Sync: 3, Elapsed: 6 * time.Second, Phase: batchrelease.Progressing, State: batchrelease.Verifying, HasContext: true, Planned: 9, Desired: 9,
			Replicas: 10, Partition: "95%", Actions: []batchrelease.Action{{Kind: batchrelease.WritePartition, Partition: &p95}}},
		{Sync: 9, Elapsed: 18 * time.Second, Phase: batchrelease.Progressing, State: batchrelease.Ready, HasContext: true, Planned: 9, Desired: 9, Replicas: 10, Partition: "95%"},
	}}
	rows := Rows(rel, batchrelease.Deployment, tr)
	var b strings.Builder
	if err := WriteBatches(&b, rows); err != nil {
		t.Fatal(err)
	}
	want := `BATCH   CANARY   PLANNED   DESIRED   WRITTEN                          STATE   STARTED   READY
0       95%      9         9         partition 95% (new RS limit 9)   Ready   +4s       +18s
1       100%     -         -         -                                -       -         -
`
	if b.String() != want {
		t.Errorf("WriteBatches =\n%s\nwant\n%s", b.String(), want)
	}
}

// TestRowsMarkBatchesReachedBeforeTheStart checks a trace that starts
// mid-release (status Progressing, batch 1 Verifying): batch 0 was ready
// before, batch 1 started before and becomes ready in the trace; a
// release that starts over (Preparing) forgets what it had reached.
func TestRowsMarkBatchesReachedBeforeTheStart(t *testing.T) {
	p := func(s string) intorpercent.IntOrString { return intorpercent.FromString(s) }
	rel := &batchrelease.Release{Batches: []batchrelease.Batch{{CanaryReplicas: p("20%")}, {CanaryReplicas: p("50%")}, {CanaryReplicas: p("100%")}},
		Status: batchrelease.ReleaseStatus{Phase: batchrelease.Progressing, CurrentBatch: 1, BatchState: batchrelease.Verifying}}
	tr := &batchrelease.Trace{Steps: []batchrelease.Step{
		{Sync: 1, Elapsed: 2 * time.Second, Phase: batchrelease.Progressing, Batch: 1, State: batchrelease.Ready, HasContext: true, Planned: 5, Desired: 5, Partition: "50%"},
		{Sync: 2, Elapsed: 4 * time.Second, Phase: batchrelease.Progressing, Batch: 2, State: batchrelease.Upgrading, Partition: "50%"},
	}}
	var b strings.Builder
	if err := WriteBatches(&b, Rows(rel, batchrelease.CloneSet, tr)); err != nil {
		t.Fatal(err)
	}
	want := `BATCH   CANARY   PLANNED   DESIRED   WRITTEN                   STATE       STARTED   READY
0       20%      -         -         -                         Ready       before    before
1       50%      5         5         partition 50% (already)   Ready       before    +2s
2       100%     -         -         -                         Upgrading   +4s       -
`
	if b.String() != want {
		t.Errorf("mid-release rows:\n%s\nwant\n%s", b.String(), want)
	}
	tr.Steps = append([]batchrelease.Step{{Sync: 1, Elapsed: time.Second, Phase: batchrelease.Preparing}}, tr.Steps...)
	rows := Rows(rel, batchrelease.CloneSet, tr)
	if rows[0].Before || rows[0].State != "" || rows[1].Before {
		t.Errorf("after Preparing, rows %+v, %+v: want batch 0 unreached and batch 1 not before", rows[0], rows[1])
	}
}
