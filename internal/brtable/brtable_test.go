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
