package cloneset

import (
	"errors"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// podTemplate is a pod template shaped like corev1.PodTemplateSpec as
// encoding/json writes it, so that CalculateInPlaceUpdate sees an image
// change at /spec/containers/0/image.
type podTemplate struct {
	Metadata struct {
		Labels map[string]string `json:"labels,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Containers []container `json:"containers"`
		Env        string      `json:"env,omitempty"` // a change that cannot be made in place
	} `json:"spec"`
}

type container struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

func templateOf(image string) podTemplate {
	var t podTemplate
	t.Metadata.Labels = map[string]string{"app": "demo"}
	t.Spec.Containers = []container{{Name: "main", Image: image}}
	return t
}

// revisionOf returns the revision kruise would create for image as
// number n.
func revisionOf(t interface {
	Helper()
	Fatal(...any)
}, tmpl podTemplate, n int64) ControllerRevision {
	t.Helper()
	cs := &CloneSet[podTemplate]{Name: "demo", Template: tmpl}
	s, err := Plan(cs, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Revisions[0]
	r.Number = n
	return r
}

// upPod is a Running, Ready, Normal pod at rev, ready for an hour.
func upPod(name, rev string) Pod { return readyPod(name, rev, time.Hour) }

func planKinds(s Sync[podTemplate]) []string {
	var out []string
	for _, a := range s.Actions {
		k := a.Kind.String()
		if a.Pod != "" {
			k += " " + a.Pod
		}
		out = append(out, k)
	}
	return out
}

// TestPlanSpecReconcileExample walks the example of
// docs/cloneset.md#one-reconcile: R3
// ReCreate, maxUnavailable 20% (1), 3 ready pods, template changed.
func TestPlanSpecReconcileExample(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 3, Generation: 2, Template: templateOf("nginx:1.26")}
	cs.Status = Status{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, UpdatedReplicas: 3, UpdatedReadyReplicas: 3,
		UpdatedAvailableReplicas: 3, ExpectedUpdatedReplicas: 3, CurrentRevision: r1.Name, UpdateRevision: r1.Name}
	pods := []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name), upPod("demo-c", r1.Name)}
	revs := []ControllerRevision{r1}

	// Round 1: the scale step is idle; the update step marks one pod (the
	// pods are alike, so the update order falls back to their names).
	s1, err := Plan(cs, pods, revs, t0)
	if err != nil {
		t.Fatal(err)
	}
	r2 := s1.Revs.Update
	want := []string{"WriteRevision", "RecreatePod demo-a", "WriteStatus"}
	if diff := cmp.Diff(want, planKinds(s1)); diff != "" {
		t.Fatalf("round 1 actions (-want +got):\n%s", diff)
	}
	if s1.Scale.Branch != ScaleNone || s1.Update == nil || s1.Update.Diffs.UpdateNum != 3 || s1.Update.Diffs.UpdateMaxUnavailable != 1 {
		t.Errorf("round 1: scale %v, update %+v; want ScaleNone and updateNum 3, budget 1", s1.Scale.Branch, s1.Update)
	}
	// Round 2: the scale step deletes the marked pod; no update.
	s2, err := Plan(&s1.CloneSet, s1.Pods, s1.Revisions, t0.Add(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"DeletePod demo-a"}, planKinds(s2)); diff != "" {
		t.Fatalf("round 2 actions (-want +got):\n%s", diff)
	}
	if s2.Update != nil {
		t.Errorf("round 2 ran the update step after the scale step deleted a pod")
	}
	// Round 3: the pod is gone; one pod is created at the update revision.
	pods3 := slices.DeleteFunc(slices.Clone(s2.Pods), func(p Pod) bool { return p.Terminating })
	s3, err := Plan(&s2.CloneSet, pods3, s2.Revisions, t0.Add(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(s3.Actions) < 1 || s3.Actions[0].Kind != CreatePod || s3.Actions[0].Revision != r2 || s3.Actions[0].To != PreparingNormal {
		t.Fatalf("round 3 actions = %v, want a pod created at %s in PreparingNormal", planKinds(s3), r2)
	}
	if s3.Actions[0].Count != 1 || s3.Actions[0].Pod != "" || len(s3.Pods) != len(pods3) {
		t.Fatalf("round 3: CreatePod %+v and %d pods, want count 1, no name and the %d pods passed in", s3.Actions[0], len(s3.Pods), len(pods3))
	}
	pods4, err := s3.AppendCreatedPods(slices.Clone(s3.Pods))
	if err != nil {
		t.Fatal(err)
	}
	created := pods4[len(pods4)-1]
	if want := (Pod{Name: "demo-xcvbh", Revision: r2, Phase: PodPending, CreationTime: t0.Add(20 * time.Second), Lifecycle: PreparingNormal}); len(pods4) != len(pods3)+1 || !cmp.Equal(created, want) {
		t.Errorf("round 3: %d pods after AppendCreatedPods, the created one %+v; want %d, %+v", len(pods4), created, len(pods3)+1, want)
	}
	// Round 4: once scheduled, the bookkeeping moves it to Normal and the
	// update step stops there.
	pods4[len(pods4)-1].NodeName = "node-2"
	s4, err := Plan(&s3.CloneSet, pods4, s3.Revisions, t0.Add(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(s4.Actions) < 1 || s4.Actions[0].Kind != SetPodLifecycle || s4.Actions[0].From != PreparingNormal || s4.Actions[0].To != Normal {
		t.Fatalf("round 4 actions = %v, want PreparingNormal -> Normal", planKinds(s4))
	}
	if s4.Update == nil || s4.Update.Branch != UpdateRefreshed {
		t.Errorf("round 4 update branch = %v, want UpdateRefreshed", s4.Update)
	}
	// Round 5: until the new pod is ready, no other pod may go.
	s5, err := Plan(&s4.CloneSet, s4.Pods, s4.Revisions, t0.Add(40*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range s5.Actions {
		if a.Kind == RecreatePod || a.Kind == DeletePod {
			t.Errorf("round 5 %v while the new pod is not ready", a)
		}
	}
	// The budget 1 is there, but the new pod, not yet ready, uses it.
	if want := "2 more pods to move to " + s5.Update.Target + ", held back: pods already unavailable use all of the update budget 1 (maxUnavailable 1 + 3 pods - 3 replicas)"; s5.Reason != want {
		t.Errorf("round 5 reason = %q, want %q", s5.Reason, want)
	}
}

func TestPlanReasons(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	var pods []Pod
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		pods = append(pods, upPod("demo-"+n, r1.Name))
	}
	tests := []struct {
		name      string
		partition string
		want      string
	}{
		{"60 percent", "60%", "kept 6 pods on the old revision: partition 60% of 10 rounds up to 6"},
		{"fraction rounds up", "55.5%", "kept 6 pods on the old revision: partition 55.5% of 10 rounds up to 6"},
		{"guard keeps one pod updated", "99%", "kept 9 pods on the old revision: partition 99% of 10 rounds up to 10, lowered to 9 so that one pod is updated (only \"100%\" keeps all)"},
		{"literal 100 percent", "100%", "kept 10 pods on the old revision: partition 100% of 10 rounds up to 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 10, Template: templateOf("nginx:1.26")}
			cs.Status.CurrentRevision = r1.Name
			cs.UpdateStrategy.Partition = str(tt.partition)
			s, err := Plan(cs, pods, []ControllerRevision{r1}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(s.Reason, tt.want) {
				t.Errorf("Plan reason = %q, want it to contain %q", s.Reason, tt.want)
			}
		})
	}
}

func TestPlanDeletingWritesStatusOnly(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 5, Deleting: true, Template: templateOf("nginx:1.25")}
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name)}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"WriteStatus"}, planKinds(s)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if s.Update != nil || s.Scale.Branch != 0 {
		t.Errorf("a CloneSet being deleted was scaled (%v) or updated (%v)", s.Scale.Branch, s.Update)
	}
}

func TestPlanInPlaceOnlyFailureSetsConditionAndRetries(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	next := templateOf("nginx:1.25")
	next.Spec.Env = "MODE=fast"
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Template: next}
	cs.UpdateStrategy.Type = InPlaceOnly
	cs.Status.CurrentRevision = r1.Name
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name)}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	c := findCondition(s.CloneSet.Status.Conditions, ConditionFailedUpdate)
	if c == nil || c.Status != ConditionTrue || c.Message != "find Pod demo-a update strategy is InPlaceOnly but can not update in-place" {
		t.Errorf("FailedUpdate condition = %+v", c)
	}
	if !s.Requeue || s.RequeueAfter != 0 {
		t.Errorf("requeue = %v after %v, want an immediate rate-limited retry", s.Requeue, s.RequeueAfter)
	}
}

func TestPlanInPlaceUpdateWritesThePod(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 3, Template: templateOf("nginx:1.26")}
	cs.UpdateStrategy.Type = InPlaceIfPossible
	cs.UpdateStrategy.InPlaceGracePeriodSeconds = 5
	cs.Status.CurrentRevision = r1.Name
	pods := []Pod{upPod("demo-a", r1.Name), upPod("demo-b", r1.Name), upPod("demo-c", r1.Name)}
	s, err := Plan(cs, pods, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"WriteRevision", "UpdatePodInPlace demo-a", "WriteStatus"}, planKinds(s)); diff != "" {
		t.Fatalf("actions (-want +got):\n%s", diff)
	}
	got := s.Pods[0]
	want := pods[0]
	want.Revision, want.Lifecycle, want.InPlaceUpdateReady = s.Revs.Update, Updating, ConditionFalse
	want.InPlaceUpdate = &InPlaceUpdateState{Revision: s.Revs.Update, UpdateTime: t0}
	want.InPlaceUpdateGrace = &InPlaceUpdateGrace{Revision: s.Revs.Update, GraceSeconds: 5}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("updated pod (-want +got):\n%s", diff)
	}
	if !s.Requeue || s.RequeueAfter != 5*time.Second {
		t.Errorf("requeue = %v after %v, want after the 5 s grace period", s.Requeue, s.RequeueAfter)
	}
}

func TestPlanTrimsPodsToDeleteAndHistory(t *testing.T) {
	var revs []ControllerRevision
	for n := int64(1); n <= 4; n++ {
		r := revisionOf(t, templateOf("nginx:1."+string(rune('0'+n))), n)
		revs = append(revs, r)
	}
	limit := int32(1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Generation: 7, RevisionHistoryLimit: &limit, Template: templateOf("nginx:1.4")}
	cs.Status.CurrentRevision = revs[3].Name
	cs.ScaleStrategy.PodsToDelete = []string{"demo-gone"}
	s, err := Plan(cs, []Pod{upPod("demo-a", revs[3].Name)}, revs, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"WriteStatus", "TrimPodsToDelete", "DeleteRevision", "DeleteRevision"}
	if diff := cmp.Diff(want, planKinds(s)); diff != "" {
		t.Fatalf("actions (-want +got):\n%s", diff)
	}
	if s.CloneSet.ScaleStrategy.PodsToDelete != nil || s.CloneSet.Generation != 8 || cs.ScaleStrategy.PodsToDelete[0] != "demo-gone" {
		t.Errorf("podsToDelete %v generation %d (input %v)", s.CloneSet.ScaleStrategy.PodsToDelete, s.CloneSet.Generation, cs.ScaleStrategy.PodsToDelete)
	}
	var names []string
	for _, r := range s.Revisions {
		names = append(names, r.Name)
	}
	if diff := cmp.Diff([]string{revs[2].Name, revs[3].Name}, names); diff != "" {
		t.Errorf("revisions left (-want +got):\n%s", diff)
	}
}

type unencodable struct{ C chan int }

func TestPlanRejectsBadInput(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	ok := &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Template: templateOf("nginx:1.25")}
	tests := []struct {
		name string
		cs   *CloneSet[podTemplate]
		pods []Pod
		revs []ControllerRevision
		want string
	}{
		{"nil CloneSet", nil, nil, nil, "cloneset: Required value"},
		{"negative replicas", &CloneSet[podTemplate]{Name: "demo", Replicas: -1}, nil, nil, `cloneset: invalid CloneSet "demo": spec.replicas: -1: must not be negative`},
		{"pod without name", ok, []Pod{{}}, nil, "cloneset: pods[0].name: must not be empty"},
		{"duplicate pod", ok, []Pod{{Name: "a"}, {Name: "a"}}, nil, `cloneset: pods[1].name: duplicate name "a"`},
		{"duplicate revision", ok, nil, []ControllerRevision{r1, r1}, `cloneset: revisions[1].name: duplicate name "` + r1.Name + `"`},
		{"unknown strategy", &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Template: templateOf("nginx:1.26"), UpdateStrategy: UpdateStrategy{Type: "Rolling"}},
			[]Pod{upPod("demo-a", r1.Name)}, []ControllerRevision{r1}, `cloneset: invalid CloneSet "demo": spec.updateStrategy.type: "Rolling": must be ReCreate, InPlaceIfPossible, InPlaceOnly or OnDelete`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Plan(tt.cs, tt.pods, tt.revs, t0)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Plan error = %v, want %s", err, tt.want)
			}
			if !errors.Is(err, field.ErrInvalid) {
				t.Errorf("error %v does not wrap field.ErrInvalid", err)
			}
			if s.Actions != nil || s.Pods != nil {
				t.Errorf("Plan returned a non-zero Sync with its error: %+v", s)
			}
		})
	}
	_, err := Plan(&CloneSet[unencodable]{Name: "demo"}, nil, nil, t0)
	if err == nil || err.Error() != `cloneset: invalid CloneSet "demo": spec.template: encoding: json: unsupported type: chan int` {
		t.Errorf("Plan of an unencodable template: %v", err)
	}
}

// planInput draws a CloneSet mid-rollout and its pods in every state
// the math distinguishes.
type planInput struct {
	cs   *CloneSet[podTemplate]
	pods []Pod
	revs []ControllerRevision
	now  time.Time
	opts Options
}

func drawPlanInput(t *rapid.T, r1, r2 ControllerRevision) planInput {
	cs := drawPlanCloneSet(t)
	cs.Template = templateOf(rapid.SampledFrom([]string{"nginx:1.25", "nginx:1.26"}).Draw(t, "image"))
	cs.Status.CurrentRevision = rapid.SampledFrom([]string{"", r1.Name, r2.Name, "demo-gone"}).Draw(t, "currentRevision")
	if rapid.IntRange(0, 3).Draw(t, "limitScale") == 0 {
		cs.ScaleStrategy.MaxUnavailable = num(rapid.Int32Range(0, 3).Draw(t, "scaleMaxUnavailable"))
	}
	if rapid.Bool().Draw(t, "lifecycle") {
		cs.Lifecycle = &Lifecycle{PreDelete: &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}},
			InPlaceUpdate: &LifecycleHook{FinalizersHandler: []string{"x/hold"}}}
	}
	now := t0.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "nowSeconds")) * time.Second)
	n := rapid.IntRange(0, 12).Draw(t, "pods")
	pods := make([]Pod, n)
	for i := range pods {
		p := &pods[i]
		p.Name = "demo-" + string(rune('a'+i))
		p.Revision = rapid.SampledFrom([]string{r1.Name, r2.Name, "demo-old"}).Draw(t, "revision")
		p.Phase = rapid.SampledFrom([]PodPhase{PodPending, PodRunning, PodRunning, PodFailed}).Draw(t, "phase")
		p.Ready = rapid.Bool().Draw(t, "ready")
		p.ReadySince = now.Add(-time.Duration(rapid.IntRange(0, 60).Draw(t, "readyFor")) * time.Second)
		p.CreationTime = t0.Add(-time.Duration(rapid.IntRange(0, 5).Draw(t, "age")) * time.Minute)
		p.NodeName = rapid.SampledFrom([]string{"", "node-1", "node-2"}).Draw(t, "node")
		p.Lifecycle = rapid.SampledFrom([]LifecycleState{"", Normal, Normal, PreparingNormal, PreparingUpdate, Updating, Updated, PreparingDelete}).Draw(t, "lifecycle")
		p.SpecifiedDelete = rapid.IntRange(0, 5).Draw(t, "specifiedDelete") == 0
		p.Terminating = rapid.IntRange(0, 8).Draw(t, "terminating") == 0
		p.DeletionCost = rapid.SampledFrom([]string{"", "5", "-3"}).Draw(t, "cost")
		if p.Lifecycle == Updating {
			p.InPlaceUpdate = &InPlaceUpdateState{Revision: p.Revision, UpdateTime: now.Add(-time.Second), Done: rapid.Bool().Draw(t, "done")}
			p.InPlaceUpdateReady = ConditionFalse
		}
		if rapid.IntRange(0, 4).Draw(t, "hooked") == 0 {
			p.Labels = map[string]string{"hold": "true"}
			p.Finalizers = []string{"x/hold"}
		}
	}
	if rapid.Bool().Draw(t, "podsToDelete") && n > 0 {
		cs.ScaleStrategy.PodsToDelete = []string{pods[0].Name, "demo-gone"}
	}
	opts := Options{Gates: Gates{PartitionRollback: rapid.Bool().Draw(t, "rollbackGate")},
		UpdateBudget: BudgetPolicy(rapid.IntRange(0, 1).Draw(t, "budget"))}
	return planInput{cs: cs, pods: pods, revs: []ControllerRevision{r1, r2}, now: now, opts: opts}
}

// drawCloneSet draws a CloneSet the webhook accepts: replicas 0-200,
// partition, maxSurge and maxUnavailable as counts or percentages.
func drawPlanCloneSet(t *rapid.T) *CloneSet[podTemplate] {
	r := rapid.Int32Range(0, 200).Draw(t, "replicas")
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: r, Generation: 1, Template: templateOf("nginx:1.25")}
	us := &cs.UpdateStrategy
	us.Type = rapid.SampledFrom([]UpdateStrategyType{ReCreate, InPlaceIfPossible, InPlaceOnly}).Draw(t, "type")
	us.Partition = drawIntOrPercent(t, "partition", r, true)
	us.MaxSurge = drawIntOrPercent(t, "maxSurge", r, false)
	us.MaxUnavailable = drawIntOrPercent(t, "maxUnavailable", r, false)
	cs.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 5, 30}).Draw(t, "minReadySeconds")
	if us.Type == InPlaceOnly && Validate(cs) != nil {
		us.Type = InPlaceIfPossible
	}
	if Validate(cs) != nil {
		us.MaxUnavailable = num(1)
	}
	if err := Validate(cs); err != nil {
		t.Fatalf("drawCloneSet drew an invalid CloneSet: %v", err)
	}
	return cs
}

// drawIntOrPercent draws nil, a count up to about total, or a whole
// percentage (fractional ones too for the partition, which kruise reads
// with its fractional parser; the controller reads maxSurge and
// maxUnavailable with the legacy parser, which makes a fraction 0, a
// kruise surprise of its own, docs/cloneset.md#s3-percent-parser-mismatch).
func drawIntOrPercent(t *rapid.T, label string, total int32, fractions bool) *intorpercent.IntOrString {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		return num(rapid.Int32Range(0, total/2+2).Draw(t, label))
	case 2:
		return str(strconv.Itoa(rapid.IntRange(0, 100).Draw(t, label)) + "%")
	}
	if fractions {
		return str(strconv.Itoa(rapid.IntRange(0, 99).Draw(t, label)) + "." + strconv.Itoa(rapid.IntRange(1, 9).Draw(t, label+"Fraction")) + "%")
	}
	return str(strconv.Itoa(rapid.IntRange(0, 50).Draw(t, label)) + "%")
}

// TestPlanIsDeterministicPureAndIndependentOfInputOrder: Plan twice on the
// same input gives the same Sync; on the pods and revisions shuffled it
// gives the same actions, status and pods (matched by name); the inputs
// are unchanged afterwards.
func TestPlanIsDeterministicPureAndIndependentOfInputOrder(t *testing.T) {
	rapid.Check(t, planIsDeterministicPureAndOrderFree)
}

func planIsDeterministicPureAndOrderFree(t *rapid.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
	in := drawPlanInput(t, r1, r2)
	before := copyPlanInput(in)
	a, errA := PlanWith(in.cs, in.pods, in.revs, in.now, in.opts)
	if diff := cmp.Diff(before, copyPlanInput(in), cmp.AllowUnexported(planInput{})); diff != "" {
		t.Fatalf("Plan modified its inputs (-before +after):\n%s", diff)
	}
	b, errB := PlanWith(in.cs, in.pods, in.revs, in.now, in.opts)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("errors differ: %v / %v", errA, errB)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("Plan is not deterministic (-first +second):\n%s", diff)
	}
	seed := rapid.Int64().Draw(t, "shuffle")
	rng := rand.New(rand.NewSource(seed))
	pods, revs := slices.Clone(in.pods), slices.Clone(in.revs)
	rng.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
	rng.Shuffle(len(revs), func(i, j int) { revs[i], revs[j] = revs[j], revs[i] })
	c, errC := PlanWith(in.cs, pods, revs, in.now, in.opts)
	if (errA == nil) != (errC == nil) {
		t.Fatalf("errors depend on input order: %v / %v", errA, errC)
	}
	if errA != nil {
		return
	}
	byName := cmpopts.SortSlices(func(x, y Pod) bool { return x.Name < y.Name })
	revsByName := cmpopts.SortSlices(func(x, y ControllerRevision) bool { return x.Name < y.Name })
	if diff := cmp.Diff(a, c, byName, revsByName); diff != "" {
		t.Fatalf("Plan depends on the order of pods and revisions (-input order +shuffled):\n%s", diff)
	}
}

// TestPlanWritesOnlyWhatTheWebhookAccepts: from a CloneSet kruise's
// webhook accepts, Plan leaves a CloneSet it accepts too, and pods and
// revisions Plan itself accepts as input (names unique and set).
func TestPlanWritesOnlyWhatTheWebhookAccepts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		in := drawPlanInput(t, r1, r2)
		if err := Validate(in.cs); err != nil {
			t.Fatalf("drawPlanInput drew an invalid CloneSet: %v", err)
		}
		s, err := PlanWith(in.cs, in.pods, in.revs, in.now, in.opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(&s.CloneSet); err != nil {
			t.Fatalf("Plan wrote a CloneSet the webhook rejects: %v", err)
		}
		if _, err := PlanWith(&s.CloneSet, s.Pods, s.Revisions, in.now, in.opts); err != nil {
			t.Fatalf("Plan cannot read what it wrote: %v", err)
		}
	})
}

func copyPlanInput(in planInput) planInput {
	out := in
	c := *in.cs
	c.ScaleStrategy.PodsToDelete = slices.Clone(c.ScaleStrategy.PodsToDelete)
	c.Status.Conditions = slices.Clone(c.Status.Conditions)
	c.Template.Spec.Containers = slices.Clone(c.Template.Spec.Containers)
	out.cs = &c
	out.pods = make([]Pod, len(in.pods))
	for i, p := range in.pods {
		p.Labels = cloneMap(p.Labels)
		p.Finalizers = slices.Clone(p.Finalizers)
		if p.InPlaceUpdate != nil {
			s := *p.InPlaceUpdate
			p.InPlaceUpdate = &s
		}
		out.pods[i] = p
	}
	out.revs = make([]ControllerRevision, len(in.revs))
	for i, r := range in.revs {
		r.Data = slices.Clone(r.Data)
		out.revs[i] = r
	}
	return out
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// FuzzPlan: no input panics Plan, and the determinism, purity and
// order properties hold.
func FuzzPlan(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(planIsDeterministicPureAndOrderFree))
}

// TestPlanReasonsCountNouns: the reasons say "1 pod" and "2 pods", "1
// name" and "2 names".
func TestPlanReasonsCountNouns(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	tests := []struct {
		name     string
		pods     int      // pods at r1, ready, carrying the preDelete hook's label; the first is in PreparingDelete
		toDelete []string // spec.scaleStrategy.podsToDelete
		want     string
	}{
		{name: "one pod too many", pods: 2, want: "1 pod too many, but pods chosen earlier are still waiting to be deleted"},
		{name: "two pods too many", pods: 3, want: "2 pods too many, but pods chosen earlier are still waiting to be deleted"},
		{name: "one name trimmed", pods: 1, toDelete: []string{"demo-gone"}, want: "removed 1 name of a pod that no longer exists from podsToDelete"},
		{name: "two names trimmed", pods: 1, toDelete: []string{"demo-gone", "demo-gone2"}, want: "removed 2 names of pods that no longer exist from podsToDelete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pods []Pod
			for i, name := range []string{"demo-a", "demo-b", "demo-c"}[:tt.pods] {
				p := upPod(name, r1.Name)
				p.Labels = map[string]string{"hold": "true"}
				if i == 0 && tt.pods > 1 {
					p.Lifecycle = PreparingDelete
				}
				pods = append(pods, p)
			}
			cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Template: templateOf("nginx:1.25")}
			cs.Lifecycle = &Lifecycle{PreDelete: &LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}}
			cs.Status.CurrentRevision, cs.Status.UpdateRevision = r1.Name, r1.Name
			cs.ScaleStrategy.PodsToDelete = tt.toDelete
			s, err := Plan(cs, pods, []ControllerRevision{r1}, t0)
			if err != nil {
				t.Fatal(err)
			}
			got := s.Reason
			for _, a := range s.Actions {
				if a.Kind == TrimPodsToDelete {
					got = a.Reason
				}
			}
			if got != tt.want {
				t.Errorf("Plan reason (of the TrimPodsToDelete action, if any) = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPlanUpdateDiffsAreTheUpdateStepsOwn: the diffs of a Plan's update
// step are those Update computes for the same pods, with the
// PreparingUpdateAsUpdate gate on or off (Plan reuses the scale step's
// diffs only when the gate, which counts pods in PreparingUpdate as
// updated for scaling alone, is off).
func TestPlanUpdateDiffsAreTheUpdateStepsOwn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
		r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
		in := drawPlanInput(t, r1, r2)
		in.opts.Gates.PreparingUpdateAsUpdate = rapid.Bool().Draw(t, "preparingUpdateAsUpdate")
		s, err := PlanWith(in.cs, in.pods, in.revs, in.now, in.opts)
		if err != nil || s.Update == nil {
			return
		}
		d, err := Update(in.cs, in.pods, s.Revisions, s.Revs, in.now, in.opts)
		if err != nil {
			t.Fatalf("Update after Plan: %v", err)
		}
		if diff := cmp.Diff(d.Diffs, s.Update.Diffs); diff != "" {
			t.Fatalf("Plan's update diffs differ from Update's (-Update +Plan):\n%s", diff)
		}
	})
}

// TestPlanUpdateDiffsWithPreparingUpdateAsUpdate: with the gate on, a
// pod in PreparingUpdate at an old revision counts as updated in the
// scale step's diffs and as old in the update step's; the Sync holds the
// update step's own.
func TestPlanUpdateDiffsWithPreparingUpdateAsUpdate(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	r2 := revisionOf(t, templateOf("nginx:1.26"), 2)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 2, Generation: 1, Template: templateOf("nginx:1.25")}
	cs.UpdateStrategy.Type = ReCreate
	pods := []Pod{
		{Name: "demo-a", Revision: r1.Name, Phase: PodPending, CreationTime: t0},
		{Name: "demo-b", Revision: r2.Name, Phase: PodPending, Lifecycle: PreparingUpdate, CreationTime: t0},
	}
	opts := Options{Gates: Gates{PreparingUpdateAsUpdate: true}}
	s, err := PlanWith(cs, pods, []ControllerRevision{r1, r2}, t0, opts)
	if err != nil || s.Update == nil {
		t.Fatalf("PlanWith: update step %v, %v; want it run", s.Update, err)
	}
	if c := s.Scale.Diffs.Counts; c.New != 2 || c.Old != 0 {
		t.Errorf("scale step's counts: %d new, %d old; want 2, 0", c.New, c.Old)
	}
	if c := s.Update.Diffs.Counts; c.New != 1 || c.Old != 1 || c.ActiveNew != 1 || c.ActiveOld != 1 {
		t.Errorf("update step's counts: %+v; want 1 new and 1 old, both active", c)
	}
	d, err := Update(cs, pods, s.Revisions, s.Revs, t0, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d.Diffs, s.Update.Diffs); diff != "" {
		t.Errorf("Plan's update diffs differ from Update's (-Update +Plan):\n%s", diff)
	}
}
