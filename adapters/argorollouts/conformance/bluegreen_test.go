package conformance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	"github.com/argoproj/argo-rollouts/utils/hash"
	timeutil "github.com/argoproj/argo-rollouts/utils/time"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/argorollouts"
	"github.com/rolloutmath/rolloutmath/internal/tally"
	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

// bgStep is how far the clock moves between two blue-green reconciles:
// short enough that autoPromotionSeconds and scaleDownDelaySeconds
// (both drawn up to 120 s) end a few reconciles in, and that a deadline
// is met exactly on a reconcile when its delay is a multiple of 10 s.
const bgStep = 10 * time.Second

// blueGreenCase is a blue-green Rollout being rolled out from a fully
// available active ReplicaSet to a new template.
type blueGreenCase struct {
	replicas int32
	// preview says the Rollout has the preview Service "web-preview".
	preview bool
	// autoPromotionEnabled nil means Argo's default, true.
	autoPromotionEnabled *bool
	autoPromotionSeconds int32
	// scaleDownDelaySeconds nil means Argo's default, 30 s.
	scaleDownDelaySeconds *int32
	// previewReplicaCount nil means the new ReplicaSet is sized to
	// replicas before promotion.
	previewReplicaCount *int32
	// scaleDownDelayRevisionLimit nil means no limit.
	scaleDownDelayRevisionLimit *int32
	// retemplateAt, when positive, changes the template a second time
	// (image nginx:3) after that many reconciles, whatever the rollout
	// is doing then.
	retemplateAt int
}

func (bc blueGreenCase) String() string {
	out := fmt.Sprintf("blueGreen replicas %d preview %v autoPromotionEnabled %s autoPromotionSeconds %d scaleDownDelaySeconds %s previewReplicaCount %s",
		bc.replicas, bc.preview, optBoolText(bc.autoPromotionEnabled), bc.autoPromotionSeconds, ptrText(bc.scaleDownDelaySeconds), ptrText(bc.previewReplicaCount))
	if bc.scaleDownDelayRevisionLimit != nil {
		out += " scaleDownDelayRevisionLimit " + ptrText(bc.scaleDownDelayRevisionLimit)
	}
	if bc.retemplateAt > 0 {
		out += fmt.Sprintf(" template changed again after reconcile %d", bc.retemplateAt)
	}
	return out
}

func optBoolText(b *bool) string {
	if b == nil {
		return "nil"
	}
	return strconv.FormatBool(*b)
}

// manualPromotion says a pause of this Rollout ends only on a promote:
// with autoPromotionEnabled false, autoPromotionSeconds is not read
// (CompletedBlueGreenPause in rollout/pause.go).
func (bc blueGreenCase) manualPromotion() bool {
	return bc.autoPromotionEnabled != nil && !*bc.autoPromotionEnabled
}

// delay is scaleDownDelaySeconds in force.
func (bc blueGreenCase) delay() time.Duration {
	if bc.scaleDownDelaySeconds == nil {
		return 30 * time.Second
	}
	return time.Duration(*bc.scaleDownDelaySeconds) * time.Second
}

// bgService is a Service selecting the Rollout's pods of hash, as Argo
// leaves it after switching it: the rollouts-pod-template-hash selector
// and the managed-by annotation (switchServiceSelector, rollout/service.go).
func bgService(name, podHash string) *corev1.Service {
	return &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "shop",
			Annotations: map[string]string{v1alpha1.ManagedByRolloutsKey: "web"},
		},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web", v1alpha1.DefaultRolloutUniqueLabelKey: podHash},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}},
		},
	}
}

// start returns the Rollout, its one ReplicaSet and its Services right
// after the template changed: the stable ReplicaSet (the old template's)
// has every pod available, stableRS = currentPodHash = its hash, and the
// active Service (and the preview Service, if any) select it, as the
// status's selectors say.
func (bc blueGreenCase) start(now time.Time) (*v1alpha1.Rollout, []*appsv1.ReplicaSet, []*corev1.Service) {
	ro, rss := canaryCase{replicas: bc.replicas}.start(now)
	oldHash := ro.Status.StableRS
	b := &v1alpha1.BlueGreenStrategy{
		ActiveService:         "web-active",
		AutoPromotionEnabled:  bc.autoPromotionEnabled,
		AutoPromotionSeconds:  bc.autoPromotionSeconds,
		ScaleDownDelaySeconds: bc.scaleDownDelaySeconds,
		PreviewReplicaCount:   bc.previewReplicaCount,

		ScaleDownDelayRevisionLimit: bc.scaleDownDelayRevisionLimit,
	}
	svcs := []*corev1.Service{bgService("web-active", oldHash)}
	ro.Status.BlueGreen.ActiveSelector = oldHash
	if bc.preview {
		b.PreviewService = "web-preview"
		svcs = append(svcs, bgService("web-preview", oldHash))
		ro.Status.BlueGreen.PreviewSelector = oldHash
	}
	ro.Spec.Strategy = v1alpha1.RolloutStrategy{BlueGreen: b}
	ro.Status.CurrentStepIndex = nil
	ro.Status.CurrentStepHash = ""
	return ro, rss, svcs
}

// selectorOf is the pod-template hash a Service selects ("" for none).
func selectorOf(svcs []*corev1.Service, name string) string {
	for _, s := range svcs {
		if s.Name == name {
			return s.Spec.Selector[v1alpha1.DefaultRolloutUniqueLabelKey]
		}
	}
	return ""
}

// deadlines maps pod-template hash to the scale-down-deadline annotation,
// for the ReplicaSets of Argo that carry one.
func deadlines(rss []*appsv1.ReplicaSet) map[string]string {
	out := map[string]string{}
	for _, rs := range rss {
		if d, ok := rs.Annotations[v1alpha1.DefaultReplicaSetScaleDownDeadlineAnnotationKey]; ok {
			out[rs.Labels[v1alpha1.DefaultRolloutUniqueLabelKey]] = d
		}
	}
	return out
}

// ourDeadlines is deadlines for Plan's ReplicaSets.
func ourDeadlines(rss []argo.ReplicaSet[argorollouts.Template]) map[string]string {
	out := map[string]string{}
	for _, rs := range rss {
		if rs.ScaleDownDeadline != "" {
			out[rs.PodTemplateHash] = rs.ScaleDownDeadline
		}
	}
	return out
}

// bgState is what the blue-green comparison reads of one side after a
// reconcile.
type bgState struct {
	counts                  map[string]int32
	stableRS                string
	active, preview         string
	pauses                  int
	deadlines               map[string]string
	activeSvc, previewSvc   string
	hasActive, hasPreviewSv bool
}

func (s bgState) String() string {
	out := fmt.Sprintf("spec.replicas %v stableRS %q activeSelector %q previewSelector %q pauses %d deadlines %v", s.counts, s.stableRS, s.active, s.preview, s.pauses, s.deadlines)
	if s.hasActive {
		out += fmt.Sprintf(" Services: active %q", s.activeSvc)
		if s.hasPreviewSv {
			out += fmt.Sprintf(" preview %q", s.previewSvc)
		}
	}
	return out
}

// theirState reads Argo's result: the Rollout's status, its ReplicaSets
// and the Services' selectors.
func theirState(ro *v1alpha1.Rollout, rss []*appsv1.ReplicaSet, svcs []*corev1.Service, preview bool) bgState {
	return bgState{
		counts:   specReplicas(rss),
		stableRS: ro.Status.StableRS,
		active:   ro.Status.BlueGreen.ActiveSelector, preview: ro.Status.BlueGreen.PreviewSelector,
		pauses:       len(ro.Status.PauseConditions),
		deadlines:    deadlines(rss),
		activeSvc:    selectorOf(svcs, "web-active"),
		previewSvc:   selectorOf(svcs, "web-preview"),
		hasActive:    true,
		hasPreviewSv: preview,
	}
}

// ourState reads Plan's result. Plan does not write Services: what it
// says they select is status.blueGreen (the controller writes a
// Service's selector and then the status from it in the same sync), so
// that is what Argo's Services are compared with.
func ourState(s argo.Sync[argorollouts.Template], preview bool) bgState {
	st := s.Rollout.Status
	out := bgState{
		counts:   ourSpecReplicas(s.ReplicaSets),
		stableRS: st.StableRS,
		active:   st.BlueGreen.ActiveSelector, preview: st.BlueGreen.PreviewSelector,
		pauses:       len(st.PauseConditions),
		deadlines:    ourDeadlines(s.ReplicaSets),
		activeSvc:    st.BlueGreen.ActiveSelector,
		hasActive:    true,
		hasPreviewSv: preview,
	}
	if preview {
		out.previewSvc = st.BlueGreen.PreviewSelector
	}
	return out
}

func (s bgState) equal(o bgState) bool {
	return sameCounts(s.counts, o.counts) && s.stableRS == o.stableRS && s.active == o.active && s.preview == o.preview &&
		s.pauses == o.pauses && sameStrings(s.deadlines, o.deadlines) && s.activeSvc == o.activeSvc && s.previewSvc == o.previewSvc
}

func sameStrings(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// driveBlueGreen rolls bc out reconcile by reconcile, as driveCanary
// does a canary. Before each reconcile both sides get the same Rollout,
// ReplicaSets and Services (what the previous Argo reconcile left);
// argo.Plan and Argo's syncHandler each run once, and the test fails
// unless they agree on every ReplicaSet's spec.replicas (by pod-template
// hash), status.stableRS, status.blueGreen.activeSelector and
// previewSelector, the number of pause conditions, which ReplicaSets
// carry a scale-down deadline and its value, and unless Argo's Services
// select what Plan's status.blueGreen says they select. A reconcile that
// only writes the pause conditions (pauseConditionsStale) is checked on
// its own terms, as in driveCanary, unless the template is new: Argo then
// creates its ReplicaSet first, as Plan does, and the reconcile is
// compared in full.
// Between reconciles every pod becomes available, a blue-green pause
// with auto-promotion off is promoted (its pause conditions cleared, the
// status patch `kubectl argo rollouts promote` makes: PromoteRollout in
// pkg/kubectl-argo-rollouts/cmd/promote), the clock moves on bgStep,
// and after reconcile bc.retemplateAt the template changes again.
// It stops when the latest template's ReplicaSet is stable and the only
// one with pods;
// with scaleDownDelaySeconds 0 the old one never loses its pods (argo
// #1992, on both sides), and it stops three reconciles after the
// promotion once it has checked that. It returns one line per reconcile,
// what Argo left, and whether it stopped with an old ReplicaSet still
// holding pods that way.
func driveBlueGreen(t tb, bc blueGreenCase) (trace []string, oldKeepsPods bool) {
	t.Helper()
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	defer timeutil.SetNowTimeFunc(time.Now)
	ro, rss, svcs := bc.start(start)
	newHash := hash.ComputePodTemplateHash(&ro.Spec.Template, nil)
	oldHash := ro.Status.StableRS
	name := func(h string) string {
		switch h {
		case "":
			return "-"
		case oldHash:
			return "old"
		case newHash:
			return "new"
		}
		return h
	}
	line := func(s bgState, extra string) string {
		out := fmt.Sprintf("old %d new %d stable %s active %s", s.counts[oldHash], s.counts[newHash], name(s.stableRS), name(s.active))
		if bc.preview {
			out += " preview " + name(s.preview)
		}
		out += fmt.Sprintf(" pauses %d", s.pauses)
		for _, h := range []string{oldHash, newHash} {
			if d, ok := s.deadlines[h]; ok {
				at, err := time.Parse(time.RFC3339, d)
				if err != nil {
					t.Fatalf("%v\ndeadline %q: %v", bc, d, err)
				}
				out += fmt.Sprintf(" %s deadline +%s", name(h), at.Sub(start))
			}
		}
		return out + extra
	}
	// Creating, scaling and switching take a few reconciles each; the
	// auto-promotion and the scale-down delay a reconcile per bgStep.
	limit := 30 + int(bc.replicas) + int((time.Duration(bc.autoPromotionSeconds)*time.Second+bc.delay())/bgStep)
	if bc.retemplateAt > 0 {
		limit += limit + bc.retemplateAt
	}
	promotedAt := 0
	for n := 1; n <= limit; n++ {
		now := start.Add(time.Duration(n) * bgStep)
		timeutil.SetNowTimeFunc(func() time.Time { return now })
		ours, err := ourPlan(ro, rss, now)
		if err != nil {
			t.Fatalf("%v\nreconcile %d: argo.Plan: %v", bc, n, err)
		}
		gotRO, gotRSs, gotSvcs, err := argoReconcileWith(ro, rss, svcs)
		if err != nil {
			t.Fatalf("%v\nreconcile %d: Argo: %v", bc, n, err)
		}
		theirs, mine := theirState(gotRO, gotRSs, gotSvcs, bc.preview), ourState(ours, bc.preview)
		if pauseConditionsStale(ro) && created(ours) {
			// No ReplicaSet has the template (it changed again while
			// paused): Argo creates the new one when it builds the
			// reconcile's context (newRolloutContext in
			// rollout/controller.go), before the sync looks at the pause
			// conditions, and then only writes those conditions; Plan
			// creates it and ends its sync there. What is compared must
			// agree as on any reconcile.
			if !theirs.equal(mine) {
				t.Fatalf("%v\nreconcile %d at +%s from %s: the pause conditions were stale and the template new:\n  Argo:       %v\n  argo.Plan:  %v\n  Plan's actions: %+v",
					bc, n, now.Sub(start), bgStateText(ro, rss), theirs, mine, ours.Actions)
			}
			count("syncHandler: blue-green reconciles", tally.Agree)
			// A subset of the row above, to show how often it came.
			count("syncHandler: blue-green reconciles, pause conditions stale and a new template (both create the ReplicaSet only)", tally.Agree)
			trace = append(trace, line(theirs, " (created; conditions only)"))
		} else if pauseConditionsStale(ro) {
			// As in driveCanary: Argo only writes its Paused and
			// Progressing conditions (checkPausedConditions in
			// rollout/sync.go), which Plan does not model. Argo must
			// change nothing else, and Plan must answer the same on
			// Argo's result at the same time.
			before := theirState(ro, rss, svcs, bc.preview)
			if !theirs.equal(before) {
				t.Fatalf("%v\nreconcile %d: the pause conditions were stale, yet Argo did more than write them:\n  before: %v\n  after:  %v", bc, n, before, theirs)
			}
			again, err := ourPlan(gotRO, gotRSs, now)
			if err != nil {
				t.Fatalf("%v\nreconcile %d: argo.Plan on Argo's result: %v", bc, n, err)
			}
			if a := ourState(again, bc.preview); !a.equal(mine) {
				t.Fatalf("%v\nreconcile %d: Argo only wrote its pause conditions, yet argo.Plan reads that as a different input: %v before, %v after", bc, n, mine, a)
			}
			count("syncHandler: blue-green reconciles", "Argo writes only its Paused and Progressing conditions (checkPausedConditions), which Plan does not model: Plan answers the same on its result")
			trace = append(trace, line(theirs, " (conditions only)"))
		} else {
			if !theirs.equal(mine) {
				t.Fatalf("%v\nreconcile %d at +%s from %s (Services: active %q preview %q):\n  Argo:       %v\n  argo.Plan:  %v\n  Plan's actions: %+v",
					bc, n, now.Sub(start), bgStateText(ro, rss), selectorOf(svcs, "web-active"), selectorOf(svcs, "web-preview"), theirs, mine, ours.Actions)
			}
			count("syncHandler: blue-green reconciles", tally.Agree)
			trace = append(trace, line(theirs, ""))
		}
		if gotRO.Status.StableRS == newHash && (bc.retemplateAt == 0 || n > bc.retemplateAt) {
			if promotedAt == 0 {
				promotedAt = n
			}
			if finished(gotRSs, newHash, bc.replicas) {
				if bc.delay() == 0 && bc.scaleDownDelayRevisionLimit == nil && bc.retemplateAt == 0 {
					t.Fatalf("%v\nreconcile %d: the old ReplicaSet lost its pods with scaleDownDelaySeconds 0", bc, n)
				}
				return trace, false
			}
			if bc.delay() == 0 && n >= promotedAt+3 {
				// argo #1992: no deadline is ever written, so an old
				// ReplicaSet within the revision limit keeps its pods;
				// both sides agreed so far. The state must be a fixed
				// point: Argo changed no spec.replicas on this reconcile.
				c := specReplicas(gotRSs)
				if !sameCounts(c, specReplicas(rss)) || c[newHash] != bc.replicas || len(deadlines(gotRSs)) != 0 {
					t.Fatalf("%v\nreconcile %d: with scaleDownDelaySeconds 0 expected no more change, new at %d and no deadlines: %v (before %v) %v", bc, n, bc.replicas, c, specReplicas(rss), deadlines(gotRSs))
				}
				if bc.scaleDownDelayRevisionLimit == nil && bc.retemplateAt == 0 && c[oldHash] != bc.replicas {
					t.Fatalf("%v\nreconcile %d: with scaleDownDelaySeconds 0 and no revision limit expected the old ReplicaSet at %d: %v", bc, n, bc.replicas, c)
				}
				return trace, !finished(gotRSs, newHash, bc.replicas)
			}
		}
		settlePods(gotRSs, now)
		if bc.manualPromotion() && hasBlueGreenPause(gotRO) {
			gotRO.Status.PauseConditions = nil
		}
		ro, rss, svcs = gotRO, gotRSs, gotSvcs
		if n == bc.retemplateAt {
			// A user edits the template again: the API server raises
			// the generation.
			ro.Spec.Template = podTemplate("nginx:3")
			ro.Generation++
			newHash = hash.ComputePodTemplateHash(&ro.Spec.Template, nil)
		}
	}
	t.Fatalf("%v\nnot finished after %d reconciles: %s", bc, limit, bgStateText(ro, rss))
	return nil, false
}

// created says Plan's sync created the new ReplicaSet.
func created(s argo.Sync[argorollouts.Template]) bool {
	for _, a := range s.Actions {
		if a.Kind == argo.CreateReplicaSet {
			return true
		}
	}
	return false
}

// hasBlueGreenPause says the Rollout is paused before promotion.
func hasBlueGreenPause(ro *v1alpha1.Rollout) bool {
	for _, c := range ro.Status.PauseConditions {
		if c.Reason == v1alpha1.PauseReasonBlueGreenPause {
			return true
		}
	}
	return false
}

// bgStateText is a blue-green reconcile's input, for failure messages.
func bgStateText(ro *v1alpha1.Rollout, rss []*appsv1.ReplicaSet) string {
	out := fmt.Sprintf("status{stableRS %q currentPodHash %q active %q preview %q checkpoint %v pauses %d controllerPause %v}",
		ro.Status.StableRS, ro.Status.CurrentPodHash, ro.Status.BlueGreen.ActiveSelector, ro.Status.BlueGreen.PreviewSelector,
		ro.Status.BlueGreen.ScaleUpPreviewCheckPoint, len(ro.Status.PauseConditions), ro.Status.ControllerPause)
	for _, rs := range rss {
		out += fmt.Sprintf(" rs %s spec %s avail %d deadline %q", rs.Labels[v1alpha1.DefaultRolloutUniqueLabelKey], ptrText(rs.Spec.Replicas), rs.Status.AvailableReplicas, rs.Annotations[v1alpha1.DefaultReplicaSetScaleDownDeadlineAnnotationKey])
	}
	return out
}

// TestArgosBlueGreenReconcilesAsPlan drives Argo's rollout
// controller through one blue-green rollout (4 replicas, a preview
// Service, previewReplicaCount 2, auto-promotion off, the default
// scale-down delay of 30 s) and checks every reconcile against
// argo.Plan.
func TestArgosBlueGreenReconcilesAsPlan(t *testing.T) {
	off, two := false, int32(2)
	bc := blueGreenCase{replicas: 4, preview: true, autoPromotionEnabled: &off, previewReplicaCount: &two}
	got, _ := driveBlueGreen(t, bc)
	// What Argo's controller does, read off its reconciles (so that the
	// harness is seen to drive it, not only to compare), 10 s apart:
	// create the new ReplicaSet at 0; point the preview Service at it;
	// size it to previewReplicaCount 2; once those are available, pause
	// (auto-promotion off); promoted, the pause condition goes; the
	// preview checkpoint is passed, so the new ReplicaSet grows to 4;
	// once available, the active Service switches to it and it becomes
	// stable in the same reconcile; the next reconcile gives the old
	// ReplicaSet its deadline, 30 s on (+80 s + 30 s); it keeps its pods
	// until the reconcile at the deadline, which scales it to 0.
	want := []string{
		"old 4 new 0 stable old active old preview old pauses 0",
		"old 4 new 0 stable old active old preview new pauses 0",
		"old 4 new 2 stable old active old preview new pauses 0",
		"old 4 new 2 stable old active old preview new pauses 1",
		"old 4 new 2 stable old active old preview new pauses 0",
		"old 4 new 4 stable old active old preview new pauses 0",
		"old 4 new 4 stable new active new preview new pauses 0",
		"old 4 new 4 stable new active new preview new pauses 0 old deadline +1m50s",
		"old 4 new 4 stable new active new preview new pauses 0 old deadline +1m50s",
		"old 4 new 4 stable new active new preview new pauses 0 old deadline +1m50s",
		"old 0 new 4 stable new active new preview new pauses 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Argo's reconciles:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestBlueGreenReconcilesAgreeWithPlan is the same over random
// blue-green Rollouts. It runs -ctrl.checks rollouts, whatever
// -rapid.checks says.
func TestBlueGreenReconcilesAgreeWithPlan(t *testing.T) {
	defer ctrlRapidChecks(t)()
	rapid.Check(t, func(t *rapid.T) {
		bc := blueGreenCase{
			replicas: rapid.Int32Range(1, 8).Draw(t, "replicas"),
			preview:  rapid.Bool().Draw(t, "preview"),
		}
		switch rapid.IntRange(0, 2).Draw(t, "autoPromotionEnabled") {
		case 1:
			v := true
			bc.autoPromotionEnabled = &v
		case 2:
			v := false
			bc.autoPromotionEnabled = &v
		}
		if rapid.Bool().Draw(t, "autoPromotionDelayed") {
			bc.autoPromotionSeconds = rapid.Int32Range(1, 120).Draw(t, "autoPromotionSeconds")
		}
		if rapid.Bool().Draw(t, "scaleDownDelaySet") {
			d := rapid.Int32Range(0, 120).Draw(t, "scaleDownDelaySeconds")
			bc.scaleDownDelaySeconds = &d
		}
		if rapid.Bool().Draw(t, "previewReplicaCountSet") {
			c := rapid.Int32Range(1, bc.replicas).Draw(t, "previewReplicaCount")
			bc.previewReplicaCount = &c
		}
		if rapid.IntRange(0, 3).Draw(t, "revisionLimitSet") == 0 {
			l := rapid.Int32Range(0, 2).Draw(t, "scaleDownDelayRevisionLimit")
			bc.scaleDownDelayRevisionLimit = &l
		}
		if rapid.IntRange(0, 2).Draw(t, "retemplate") == 0 {
			bc.retemplateAt = rapid.IntRange(1, 12).Draw(t, "retemplateAt")
		}
		trace, stuck := driveBlueGreen(t, bc)
		count("syncHandler: blue-green rollouts", tally.Agree)
		// Subsets of the rollouts above, not differences: counted so
		// the table shows how often the draw reached each.
		if stuck {
			count("syncHandler: blue-green rollouts, scaleDownDelaySeconds 0: an old ReplicaSet keeps its pods (argo #1992)", tally.Agree)
		}
		if bc.retemplateAt > 0 && len(trace) > bc.retemplateAt {
			count("syncHandler: blue-green rollouts, template changed again mid-rollout", tally.Agree)
		}
		if bc.scaleDownDelayRevisionLimit != nil {
			count("syncHandler: blue-green rollouts, scaleDownDelayRevisionLimit set", tally.Agree)
		}
	})
}
