package batchrelease

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

func is(v any) intorpercent.IntOrString {
	switch x := v.(type) {
	case int:
		return intorpercent.FromInt(int32(x))
	case string:
		return intorpercent.FromString(x)
	}
	panic(fmt.Sprintf("is(%T)", v))
}

func isp(v any) *intorpercent.IntOrString { x := is(v); return &x }

func i32(n int32) *int32 { return &n }

func releaseOf(batches ...any) *Release {
	r := &Release{Name: "demo"}
	for _, b := range batches {
		r.Batches = append(r.Batches, Batch{CanaryReplicas: is(b)})
	}
	return r
}

func TestCase41CalculateBatchReplicas(t *testing.T) {
	tests := []struct {
		batch any
		r     int32
		want  int32
	}{
		{5, 10, 5}, {"20%", 10, 2}, {"100%", 10, 10}, {"200%", 10, 10}, {200, 10, 10}, {0, 10, 0},
		{"1%", 3, 1}, {"50%", 5, 3}, {"33%", 10, 4}, {-1, 10, 0}, {"abc", 10, 0},
	}
	for _, tt := range tests {
		got, err := BatchReplicas(releaseOf(tt.batch), tt.r, 0)
		if err != nil || got != tt.want {
			t.Errorf("BatchReplicas(%v, %d, 0) = %d, %v; want %d", tt.batch, tt.r, got, err, tt.want)
		}
	}
}

func TestBatchReplicasErrors(t *testing.T) {
	tests := []struct {
		name    string
		release *Release
		r, i    int32
		want    string
	}{
		{"nil release", nil, 10, 0, "batchrelease: release: must not be nil"},
		{"negative replicas", releaseOf(1), -1, 0, "batchrelease: replicas: -1: must not be negative"},
		{"batch beyond plan", releaseOf(1), 10, 1, "batchrelease: currentBatch: 1: must index spec.releasePlan.batches (1 batches)"},
		{"negative batch", releaseOf(1), 10, -1, "batchrelease: currentBatch: -1: must index spec.releasePlan.batches (1 batches)"},
	}
	for _, tt := range tests {
		_, err := BatchReplicas(tt.release, tt.r, tt.i)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: BatchReplicas error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCase42ParseIntegerAsPercentageIfPossible(t *testing.T) {
	tests := []struct {
		stable, all int32
		batch       string
		want        string
	}{
		{1, 3, "50%", "33%"}, {98, 99, "50%", "98%"}, {2, 3, "50%", "66%"}, {1, 101, "99%", "1%"},
		{1, 200, "99%", "1%"}, {1, 200, "100%", "0%"}, {0, 5, "50%", "0%"}, {7, 7, "50%", "100%"}, {8, 20, "50%", "40%"},
	}
	for _, tt := range tests {
		got := PercentPartition(tt.stable, tt.all, is(tt.batch))
		if got != is(tt.want) {
			t.Errorf("PercentPartition(%d, %d, %q) = %v, want %q", tt.stable, tt.all, tt.batch, got, tt.want)
		}
	}
}

func TestCase43CloneSetBatchContext(t *testing.T) {
	r := releaseOf("20%")
	w := &Workload{Kind: CloneSet, Replicas: 10, Partition: isp("100%"), Status: WorkloadStatus{UpdatedReplicas: 5}}
	c, err := CloneSetBatchContext(r, w)
	if err != nil || c.PlannedUpdatedReplicas != 2 || c.DesiredUpdatedReplicas != 2 || c.DesiredPartition != is("80%") || c.CurrentPartition != is("100%") {
		t.Errorf("R10 20%%: got %+v, %v; want planned 2, desiredUpdate 2, partition 80%%, current 100%%", c, err)
	}
	r.Status.NoNeedUpdateReplicas = i32(10)
	w = &Workload{Kind: CloneSet, Replicas: 20}
	c, err = CloneSetBatchContext(r, w)
	if err != nil || c.PlannedUpdatedReplicas != 4 || c.DesiredUpdatedReplicas != 12 || c.DesiredPartition != is("40%") {
		t.Errorf("R20 20%% N10: got %+v, %v; want planned 4, desiredUpdate 12, partition 40%%", c, err)
	}
}

func TestCase44CloneSetVersusDeployment(t *testing.T) {
	r := releaseOf("99%")
	c, err := CloneSetBatchContext(r, &Workload{Kind: CloneSet, Replicas: 2})
	if err != nil || c.PlannedUpdatedReplicas != 2 || c.DesiredPartition != is("0%") {
		t.Errorf("CloneSet R2 99%%: %+v, %v; want planned 2, partition 0%%", c, err)
	}
	if got := NewRSReplicasLimit(is("99%"), 2); got != 1 {
		t.Errorf("NewRSReplicasLimit(99%%, 2) = %d, want 1", got)
	}
	d, err := DeploymentBatchContext(r, &Workload{Kind: Deployment, Replicas: 2})
	if err != nil || d.PlannedUpdatedReplicas != 1 || d.DesiredUpdatedReplicas != 1 {
		t.Errorf("Deployment R2 99%%: %+v, %v; want planned 1", d, err)
	}
}

func TestCase45CloneSetBatchContext(t *testing.T) {
	tests := []struct {
		r       int32
		batches []any
		planned int32
		part    intorpercent.IntOrString
	}{
		{3, []any{1, "50%"}, 2, is("33%")},
		{10, []any{3, 6}, 6, is(4)},
		{200, []any{1, "99%"}, 198, is("1%")},
	}
	for _, tt := range tests {
		rel := releaseOf(tt.batches...)
		rel.Status.CurrentBatch = 1
		c, err := CloneSetBatchContext(rel, &Workload{Kind: CloneSet, Replicas: tt.r})
		if err != nil || c.PlannedUpdatedReplicas != tt.planned || c.DesiredPartition != tt.part {
			t.Errorf("R%d %v batch 1: %+v, %v; want planned %d, partition %v", tt.r, tt.batches, c, err, tt.planned, tt.part)
		}
	}
	// CloneSet reads "1%" of 200 with ceil: 2 pods stay old, as planned.
	if kept := ceilDiv(1*200, 100); kept != 2 {
		t.Errorf("ceil(1%% of 200) = %d, want 2", kept)
	}
}

func TestCase46StatefulSetBatchContext(t *testing.T) {
	tests := []struct {
		name      string
		kind      Kind
		unordered bool
		r         int32
		n         *int32
		partition int32
		update    int32
	}{
		{"native R10", StatefulSet, false, 10, nil, 8, 2},
		{"native R20 N10", StatefulSet, false, 20, i32(10), 18, 12},
		{"advanced unordered R20 N10", AdvancedStatefulSet, true, 20, i32(10), 8, 12},
		{"advanced ordered R20 N10", AdvancedStatefulSet, false, 20, i32(10), 18, 12},
	}
	for _, tt := range tests {
		rel := releaseOf("20%")
		rel.Status.NoNeedUpdateReplicas = tt.n
		c, err := StatefulSetBatchContext(rel, &Workload{Kind: tt.kind, UnorderedUpdate: tt.unordered, Replicas: tt.r})
		if err != nil || c.DesiredPartition != is(int(tt.partition)) || c.DesiredUpdatedReplicas != tt.update {
			t.Errorf("%s: %+v, %v; want partition %d, update %d", tt.name, c, err, tt.partition, tt.update)
		}
	}
}

func TestCase47DeploymentBatchContext(t *testing.T) {
	for _, tt := range []struct {
		r     int32
		batch string
		want  int32
	}{{10, "20%", 2}, {5, "90%", 4}} {
		c, err := DeploymentBatchContext(releaseOf(tt.batch), &Workload{Kind: Deployment, Replicas: tt.r})
		if err != nil || c.PlannedUpdatedReplicas != tt.want || c.DesiredUpdatedReplicas != tt.want || c.DesiredPartition != is(tt.batch) {
			t.Errorf("R%d %s: %+v, %v; want planned = desired = %d", tt.r, tt.batch, c, err, tt.want)
		}
	}
}

func TestCase48NewRSReplicasLimit(t *testing.T) {
	tests := []struct {
		p    any
		r    int32
		want int32
	}{{"50%", 10, 5}, {"99%", 2, 1}, {"50%", 1, 1}, {"100%", 3, 3}, {5, 3, 3}, {-1, 3, 0}, {"90%", 10, 9}, {"0%", 10, 0}}
	for _, tt := range tests {
		if got := NewRSReplicasLimit(is(tt.p), tt.r); got != tt.want {
			t.Errorf("NewRSReplicasLimit(%v, %d) = %d, want %d", tt.p, tt.r, got, tt.want)
		}
	}
	for p := int32(-5); p <= 300; p++ {
		if got, want := NewRSReplicasLimit(intorpercent.FromInt(p), 100), max(min(p, 100), 0); got != want {
			t.Errorf("NewRSReplicasLimit(%d, 100) = %d, want %d", p, got, want)
		}
	}
}

func surgeStrategy(partition any, surge any, unavailable any) DeploymentStrategy {
	s := DeploymentStrategy{RollingStyle: Partition, Partition: is(partition), RollingUpdate: &RollingUpdate{}}
	if surge != nil {
		s.RollingUpdate.MaxSurge = isp(surge)
	}
	if unavailable != nil {
		s.RollingUpdate.MaxUnavailable = isp(unavailable)
	}
	return s
}

func rsList(specs ...int32) []ReplicaSet {
	var out []ReplicaSet
	for i, n := range specs {
		out = append(out, ReplicaSet{Name: fmt.Sprintf("old-%d", i), Revision: fmt.Sprint(i + 1),
			CreationTime: time.Unix(int64(i), 0), Replicas: n, StatusReplicas: n, ReadyReplicas: n, AvailableReplicas: n})
	}
	return out
}

func TestCase49NewRSNewReplicas(t *testing.T) {
	tests := []struct {
		name      string
		r         int32
		old       []int32
		new       int32
		partition any
		surge     int
		want      int32
	}{
		{"R10 S0 old [2,3] new 3 p4", 10, []int32{2, 3}, 3, 4, 0, 4},
		{"R10 S0 old [2,3] new 3 p10", 10, []int32{2, 3}, 3, 10, 0, 5},
		{"R10 old [10] new 0 p3 S2", 10, []int32{10}, 0, 3, 2, 2},
		{"R10 old [10] new 0 p2 S3", 10, []int32{10}, 0, 2, 3, 2},
		{"R10 old [7] new 3 p3 S3", 10, []int32{7}, 3, 3, 3, 3},
		{"R10 old [7] new 3 p6 S0", 10, []int32{7}, 3, 6, 0, 3},
		{"R6 old [0] new 2 p100%", 6, []int32{0}, 2, "100%", 0, 6},
		{"R10 no old, new 2 p2", 10, nil, 2, 2, 0, 10},
	}
	for _, tt := range tests {
		newRS := ReplicaSet{Name: "new", Replicas: tt.new}
		all := append(rsList(tt.old...), newRS)
		got := NewRSNewReplicas(tt.r, all, newRS, surgeStrategy(tt.partition, tt.surge, nil))
		if got != tt.want {
			t.Errorf("%s: NewRSNewReplicas = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestCase50ScaleDownLimitForOld(t *testing.T) {
	for _, tt := range []struct {
		new, p int32
		want   int64
	}{{5, 5, 1}, {4, 4, 0}, {2, 2, -2}, {5, 2, 1}, {2, 5, 1}} {
		got := ScaleDownLimitForOld(rsList(2, 2, 2), ReplicaSet{Name: "new", Replicas: tt.new}, 10, intorpercent.FromInt(tt.p))
		if got != tt.want {
			t.Errorf("ScaleDownLimitForOld(old [2,2,2], new %d, R10, p%d) = %d, want %d", tt.new, tt.p, got, tt.want)
		}
	}
}

func TestCase51ReconcileOldReplicaSets(t *testing.T) {
	tests := []struct {
		name        string
		r           int32
		strategy    DeploymentStrategy
		old, avail  []int32
		new, newAvl int32
		wantOld     int64
	}{
		{"S2 U50% p4 old [6,4] avail 0", 10, surgeStrategy(4, 2, "50%"), []int32{6, 4}, []int32{0, 0}, 0, 0, 6},
		{"S2 U20% p4 old avail [6,4]", 10, surgeStrategy(4, 2, "20%"), []int32{6, 4}, []int32{6, 4}, 0, 0, 8},
		{"S0 U40% p5 old [6,4] avail [6,2]", 10, surgeStrategy(5, 0, "40%"), []int32{6, 4}, []int32{6, 2}, 0, 0, 6},
		{"S0 U40% p3 old [6,4] avail [6,2]", 10, surgeStrategy(3, 0, "40%"), []int32{6, 4}, []int32{6, 2}, 0, 0, 7},
		{"old [0,5] new 5/5 p3", 10, surgeStrategy(3, 0, "40%"), []int32{0, 5}, []int32{0, 5}, 5, 5, 5},
		{"old [3,4] new 3/0 p5 U30%", 10, surgeStrategy(5, 0, "30%"), []int32{3, 4}, []int32{3, 4}, 3, 0, 7},
		{"old [3,0] new 3/3 p3 scales up", 10, surgeStrategy(3, 0, "40%"), []int32{3, 0}, []int32{3, 0}, 3, 3, 7},
		{"R5 p60% S/U 25% old [3] new 3/3", 5, surgeStrategy("60%", "25%", "25%"), []int32{3}, []int32{3}, 3, 3, 2},
	}
	for _, tt := range tests {
		rss := rsList(tt.old...)
		for i := range rss {
			rss[i].AvailableReplicas = tt.avail[i]
		}
		rss = append(rss, ReplicaSet{Name: "new", Revision: "9", CreationTime: time.Unix(100, 0), Replicas: tt.new, AvailableReplicas: tt.newAvl})
		d := &AdvancedDeployment{Name: "web", Replicas: tt.r, Strategy: tt.strategy, NewReplicaSet: "new"}
		round, err := ReconcileOldReplicaSets(d, rss)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var sum int64
		for _, rs := range round.ReplicaSets {
			if rs.Name != "new" {
				sum += int64(rs.Replicas)
			}
		}
		if sum != tt.wantOld {
			t.Errorf("%s: old ReplicaSets sum to %d, want %d (writes %+v)", tt.name, sum, tt.wantOld, round.Writes)
		}
	}
}

func TestCase52LowerBoundAndFenceposts(t *testing.T) {
	if got := NewRSReplicasLowerBound(5, ptr(surgeStrategy(0, 0, 1))); got != 1 {
		t.Errorf("LowerBound R5 S0 U1 = %d, want 1", got)
	}
	if got := NewRSReplicasLowerBound(0, ptr(surgeStrategy(0, 0, 1))); got != 0 {
		t.Errorf("LowerBound R0 = %d, want 0", got)
	}
	if got := NewRSReplicasLowerBound(5, ptr(surgeStrategy(0, 1, 0))); got != 0 {
		t.Errorf("LowerBound R5 S1 = %d, want 0", got)
	}
	if s, u, ok := ResolveFenceposts(isp("25%"), isp("25%"), 10); s != 3 || u != 2 || !ok {
		t.Errorf("ResolveFenceposts(25%%, 25%%, 10) = %d, %d, %v; want 3, 2", s, u, ok)
	}
	if s, u, ok := ResolveFenceposts(isp("0%"), isp("0%"), 3); s != 0 || u != 1 || !ok {
		t.Errorf("ResolveFenceposts(0%%, 0%%, 3) = %d, %d, %v; want 0, 1", s, u, ok)
	}
}

func ptr[T any](v T) *T { return &v }

func TestCase53IsBatchReady(t *testing.T) {
	tests := []struct {
		name                    string
		desired, updated, ready int32
		threshold               *intorpercent.IntOrString
		rolloutID               string
		pods                    *PodCounts
		planned                 int32
		want                    Readiness
	}{
		{"ready 5 thr 1", 5, 5, 5, isp(1), "", nil, 0, BatchReady},
		{"ready 4 thr 1", 5, 5, 4, isp(1), "", nil, 0, BatchReady},
		{"ready 3 thr 1", 5, 5, 3, isp(1), "", nil, 0, TooFewUpdatedReady},
		{"updated 4 ready 4 thr 60%", 5, 4, 4, isp("60%"), "", nil, 0, TooFewUpdated},
		{"ready 0 thr 100", 5, 5, 0, isp(100), "", nil, 0, NoUpdatedReady},
		{"ready 3 thr nil", 5, 5, 3, nil, "", nil, 0, TooFewUpdatedReady},
		{"rolloutID 1, 5 labelled", 5, 5, 5, nil, "1", &PodCounts{Listed: 5, RolloutIDLabeled: 5}, 5, BatchReady},
		{"rolloutID 1, 3 labelled", 5, 5, 5, nil, "1", &PodCounts{Listed: 5, RolloutIDLabeled: 3}, 5, TooFewLabeled},
		{"rolloutID 1, no pods listed", 5, 5, 5, nil, "1", &PodCounts{}, 5, BatchReady},
		{"desired 10 updated 10 ready 8 thr 10%", 10, 10, 8, isp("10%"), "", nil, 0, TooFewUpdatedReady},
		{"desired 10 updated 11 ready 8 thr 10%", 10, 11, 8, isp("10%"), "", nil, 0, BatchReady},
	}
	for _, tt := range tests {
		c := BatchContext{DesiredUpdatedReplicas: tt.desired, UpdatedReplicas: tt.updated, UpdatedReadyReplicas: tt.ready,
			FailureThreshold: tt.threshold, RolloutID: tt.rolloutID, Pods: tt.pods, PlannedUpdatedReplicas: tt.planned}
		if got := c.IsBatchReady(); got != tt.want {
			t.Errorf("%s: IsBatchReady = %v (%s), want %v", tt.name, got, got.Message(&c), tt.want)
		}
	}
}

func TestIsBatchReadyMessages(t *testing.T) {
	c := BatchContext{DesiredUpdatedReplicas: 5, UpdatedReplicas: 5, UpdatedReadyReplicas: 3, FailureThreshold: isp(1), RolloutID: "r1", PlannedUpdatedReplicas: 5}
	tests := []struct {
		r    Readiness
		want string
	}{
		{TooFewUpdated, "current batch not ready: updated replicas not satisfied, UpdatedReplicas 5 < DesiredUpdatedReplicas 5"},
		{TooFewUpdatedReady, "current batch not ready: updated ready replicas not satisfied, allowedUnavailable + UpdatedReadyReplicas 4 < DesiredUpdatedReplicas 5"},
		{NoUpdatedReady, "current batch not ready: no updated ready replicas, DesiredUpdatedReplicas 5 > 0 and UpdatedReadyReplicas 3 = 0"},
		{TooFewLabeled, "current batch not ready: pods with batch label not satisfied, RolloutID r1, PlannedUpdatedReplicas 5"},
		{BatchReady, ""},
	}
	for _, tt := range tests {
		if got := tt.r.Message(&c); got != tt.want {
			t.Errorf("%v.Message = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestCase54IsCurrentMoreThanOrEqualToDesired(t *testing.T) {
	tests := []struct {
		current, desired any
		want             bool
	}{
		{2, 1, true}, {2, 2, true}, {2, 3, false}, {"80%", "79%", true}, {"80%", "80%", true}, {"90%", "91%", false},
		{"50%", 8, true}, {5, "50%", false},
	}
	for _, tt := range tests {
		if got := IsCurrentMoreThanOrEqualToDesired(is(tt.current), is(tt.desired)); got != tt.want {
			t.Errorf("IsCurrentMoreThanOrEqualToDesired(%v, %v) = %v, want %v", tt.current, tt.desired, got, tt.want)
		}
	}
}

func TestCase56BlueGreenBatchContext(t *testing.T) {
	rel := releaseOf("99%")
	rel.RollingStyle = BlueGreen
	rel.FailureThreshold = isp("50%")
	c, err := BlueGreenBatchContext(rel, &Workload{Kind: CloneSet, Replicas: 10})
	if err != nil || c.DesiredUpdatedReplicas != 10 || c.FailureThreshold != nil {
		t.Errorf("CloneSet R10 99%%: %+v, %v; want desiredUpdated 10, no threshold", c, err)
	}
	c, err = BlueGreenBatchContext(rel, &Workload{Kind: Deployment, Replicas: 10})
	if err != nil || c.DesiredUpdatedReplicas != 9 {
		t.Errorf("Deployment R10 99%%: %+v, %v; want desiredUpdated 9", c, err)
	}
	rel = releaseOf("10%")
	rel.RollingStyle = BlueGreen
	c, err = BlueGreenBatchContext(rel, &Workload{Kind: CloneSet, Replicas: 10, MaxSurge: isp(1)})
	if err != nil || c.CurrentSurge != is(0) || c.DesiredSurge != is("10%") {
		t.Errorf("CloneSet maxSurge 1 before 10%%: %+v, %v; want current 0, desired 10%%", c, err)
	}
}

func TestCase57AdvancedDeploymentWalk(t *testing.T) {
	d := &AdvancedDeployment{Name: "web", Replicas: 10, Strategy: surgeStrategy("50%", "25%", "25%"), NewReplicaSet: "web-new"}
	rss := []ReplicaSet{
		{Name: "web-old", Revision: "1", Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
		{Name: "web-new", Revision: "2", CreationTime: time.Unix(10, 0)},
	}
	var steps []string
	for round := 1; round <= 5; round++ {
		out, err := SyncAdvancedDeployment(d, rss, time.Unix(20, 0))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range out.Writes {
			steps = append(steps, fmt.Sprintf("%d:%s %d->%d", round, w.Name, w.From, w.To))
		}
		rss = out.ReplicaSets
		for i := range rss { // every pod available between rounds
			rss[i].StatusReplicas, rss[i].ReadyReplicas, rss[i].AvailableReplicas = rss[i].Replicas, rss[i].Replicas, rss[i].Replicas
		}
	}
	want := "1:web-new 0->3 2:web-old 10->5 3:web-new 3->5"
	if got := strings.Join(steps, " "); got != want {
		t.Errorf("walk = %q, want %q", got, want)
	}

	// The 3 new pods still unavailable in round 2: only 2 old pods go.
	rss = []ReplicaSet{
		{Name: "web-old", Revision: "1", Replicas: 10, StatusReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10},
		{Name: "web-new", Revision: "2", CreationTime: time.Unix(10, 0), Replicas: 3, StatusReplicas: 3},
	}
	out, err := SyncAdvancedDeployment(d, rss, time.Unix(20, 0))
	if err != nil || len(out.Writes) != 1 || out.Writes[0] != (ReplicaSetWrite{Step: ScaleDownOldReplicaSet, Name: "web-old", From: 10, To: 8}) {
		t.Errorf("round 2 with new pods unavailable: %+v, %v; want web-old 10->8", out.Writes, err)
	}
}

// TestAdvancedSyncScalesOnly covers the advanced controller's sync (a
// paused strategy or a scaling event): one active ReplicaSet goes to R, a
// saturated new ReplicaSet takes the old ones to 0, and otherwise a
// change of R is spread in proportion (larger ReplicaSets first).
func TestAdvancedSyncScalesOnly(t *testing.T) {
	paused := surgeStrategy(3, "25%", "25%")
	paused.Paused = true
	tests := []struct {
		name string
		r    int32
		rss  []ReplicaSet
		want string
	}{
		{"one active", 12, []ReplicaSet{{Name: "old", Revision: "1", Replicas: 10, AvailableReplicas: 10, DesiredReplicas: i32(10)}, {Name: "new", Revision: "2"}},
			"ScaleActiveOrLatest old 10->12"},
		{"saturated new", 10, []ReplicaSet{{Name: "old", Revision: "1", Replicas: 3, AvailableReplicas: 3, DesiredReplicas: i32(10)},
			{Name: "new", Revision: "2", Replicas: 10, AvailableReplicas: 10, DesiredReplicas: i32(10)}},
			"ScaleDownSaturated old 3->0"},
		// R 10 -> 15, surge 25% of 15 = 4, max-replicas 13 on both:
		// old 6*19/13 = 8.8 -> 9 (+3), new 4*19/13 = 5.8 -> 6 (+2).
		{"proportional", 15, []ReplicaSet{{Name: "old", Revision: "1", Replicas: 6, AvailableReplicas: 6, DesiredReplicas: i32(10), MaxReplicas: i32(13)},
			{Name: "new", Revision: "2", CreationTime: time.Unix(5, 0), Replicas: 4, AvailableReplicas: 4, DesiredReplicas: i32(10), MaxReplicas: i32(13)}},
			"ScaleProportionally old 6->9 ScaleProportionally new 4->6"},
	}
	for _, tt := range tests {
		d := &AdvancedDeployment{Name: "web", Replicas: tt.r, Strategy: paused, NewReplicaSet: "new", StatusReplicas: 10}
		round, err := SyncAdvancedDeployment(d, tt.rss, simStart)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range round.Writes {
			got = append(got, fmt.Sprintf("%v %s %d->%d", w.Step, w.Name, w.From, w.To))
		}
		if round.Rolling || strings.Join(got, " ") != tt.want {
			t.Errorf("%s: rolling=%v writes %q, want %q", tt.name, round.Rolling, strings.Join(got, " "), tt.want)
		}
	}
}
