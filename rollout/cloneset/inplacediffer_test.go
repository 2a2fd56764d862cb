package cloneset

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
)

// PodSpec is the README's template type: it does not say how to diff
// itself.
type PodSpec struct{ Image string }

// DiffedPodSpec is PodSpec with InPlaceDiffer: an image change is made
// in place on the container "main".
type DiffedPodSpec struct{ Image string }

func (s DiffedPodSpec) InPlaceDiff(to DiffedPodSpec) InPlaceUpdate {
	if s == to {
		return InPlaceUpdate{Possible: true}
	}
	return InPlaceUpdate{Possible: true, Images: map[string]string{"main": to.Image}}
}

// PtrDiffedPodSpec implements InPlaceDiffer with a pointer receiver.
type PtrDiffedPodSpec struct{ Image string }

func (s *PtrDiffedPodSpec) InPlaceDiff(to PtrDiffedPodSpec) InPlaceUpdate {
	return InPlaceUpdate{Possible: true, Images: map[string]string{"main": to.Image}}
}

// EnvPodSpec implements InPlaceDiffer and needs recreation when Env
// changes.
type EnvPodSpec struct{ Image, Env string }

func (s EnvPodSpec) InPlaceDiff(to EnvPodSpec) InPlaceUpdate {
	if s.Env != to.Env {
		return InPlaceUpdate{Blockers: []string{"Env changed"}}
	}
	return InPlaceUpdate{Possible: true, Images: map[string]string{"main": to.Image}}
}

// TerseDiffedPodSpec implements InPlaceDiffer and refuses every change
// without saying why (Possible false, no Blockers).
type TerseDiffedPodSpec struct{ Image string }

func (s TerseDiffedPodSpec) InPlaceDiff(to TerseDiffedPodSpec) InPlaceUpdate {
	return InPlaceUpdate{Possible: s == to}
}

// inPlaceResult is what one sync of a one-pod CloneSet moving from old to
// new does: the update action's kind and reason, the in-place change, the
// update failure, or Plan's error.
type inPlaceResult struct {
	Kind    string
	Reason  string
	InPlace *InPlaceUpdate
	Failure string
	Err     string
}

// planInPlace plans the sync that updates the one pod of a CloneSet
// whose template moves from old to new under strategy.
func planInPlace[T any](t *testing.T, old, new T, strategy UpdateStrategyType) (inPlaceResult, error) {
	t.Helper()
	s0, err := Plan(&CloneSet[T]{Name: "demo", Template: old}, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	r1 := s0.Revisions[0]
	cs := &CloneSet[T]{Name: "demo", Replicas: 1, Template: new}
	cs.UpdateStrategy.Type = strategy
	cs.Status.CurrentRevision = r1.Name
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name)}, []ControllerRevision{r1}, t0)
	if err != nil {
		return inPlaceResult{Err: err.Error()}, err
	}
	res := inPlaceResult{Failure: s.Update.Failure}
	for _, a := range s.Update.Actions {
		res.Kind, res.Reason, res.InPlace = a.Kind.String(), a.Reason, a.InPlace
	}
	return res, nil
}

func TestPlanInPlaceWithTemplateTypes(t *testing.T) {
	const undiffable = "template type cloneset.PodSpec cannot be diffed in place: implement cloneset.InPlaceDiffer[cloneset.PodSpec], or encode the template as a corev1.PodTemplateSpec (revision demo-6bc4bc9c5d has no spec.template.spec.containers)"
	tests := []struct {
		name   string
		plan   func(*testing.T, UpdateStrategyType) (inPlaceResult, error)
		typ    UpdateStrategyType
		want   inPlaceResult
		reason string
	}{{
		name: "PodSpec/InPlaceIfPossible",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, PodSpec{"nginx:1.25"}, PodSpec{"nginx:1.26"}, s)
		},
		typ: InPlaceIfPossible,
		want: inPlaceResult{Kind: "RecreatePod",
			Reason: "update budget 1: pod demo-a marked for deletion, to be recreated at demo-6bc4bc9c5d (cannot update in place (" + undiffable + "))"},
		reason: "the template encodes as {\"Image\":...}: kruise's diff would say replace /Image; the reason says what to implement instead",
	}, {
		name: "PodSpec/InPlaceOnly",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, PodSpec{"nginx:1.25"}, PodSpec{"nginx:1.26"}, s)
		},
		typ:    InPlaceOnly,
		want:   inPlaceResult{Err: `cloneset: invalid CloneSet "demo": spec.updateStrategy.type: "InPlaceOnly": ` + undiffable},
		reason: "an error, not kruise's FailedUpdate: no cluster could be in this state",
	}, {
		name: "PodSpec/ReCreate",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, PodSpec{"nginx:1.25"}, PodSpec{"nginx:1.26"}, s)
		},
		typ:  ReCreate,
		want: inPlaceResult{Kind: "RecreatePod", Reason: "update budget 1: pod demo-a marked for deletion, to be recreated at demo-6bc4bc9c5d (ReCreate)"},
	}, {
		name: "DiffedPodSpec/InPlaceIfPossible",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, DiffedPodSpec{"nginx:1.25"}, DiffedPodSpec{"nginx:1.26"}, s)
		},
		typ: InPlaceIfPossible,
		want: inPlaceResult{Kind: "UpdatePodInPlace",
			Reason:  "update budget 1: pod demo-a updated in place to demo-6bc4bc9c5d (in place: images main=nginx:1.26)",
			InPlace: &InPlaceUpdate{Possible: true, Images: map[string]string{"main": "nginx:1.26"}}},
	}, {
		name: "DiffedPodSpec/InPlaceOnly",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, DiffedPodSpec{"nginx:1.25"}, DiffedPodSpec{"nginx:1.26"}, s)
		},
		typ: InPlaceOnly,
		want: inPlaceResult{Kind: "UpdatePodInPlace",
			Reason:  "update budget 1: pod demo-a updated in place to demo-6bc4bc9c5d (in place: images main=nginx:1.26)",
			InPlace: &InPlaceUpdate{Possible: true, Images: map[string]string{"main": "nginx:1.26"}}},
	}, {
		name: "PtrDiffedPodSpec/InPlaceIfPossible",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, PtrDiffedPodSpec{"nginx:1.25"}, PtrDiffedPodSpec{"nginx:1.26"}, s)
		},
		typ: InPlaceIfPossible,
		want: inPlaceResult{Kind: "UpdatePodInPlace",
			Reason:  "update budget 1: pod demo-a updated in place to demo-6bc4bc9c5d (in place: images main=nginx:1.26)",
			InPlace: &InPlaceUpdate{Possible: true, Images: map[string]string{"main": "nginx:1.26"}}},
		reason: "a pointer receiver counts",
	}, {
		name: "EnvPodSpec/InPlaceIfPossible",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, EnvPodSpec{"nginx:1.25", "a"}, EnvPodSpec{"nginx:1.26", "b"}, s)
		},
		typ:    InPlaceIfPossible,
		want:   inPlaceResult{Kind: "RecreatePod", Reason: "update budget 1: pod demo-a marked for deletion, to be recreated at demo-cd54ddc55 (cannot update in place (Env changed))"},
		reason: "the type's Blockers are the reason",
	}, {
		name: "EnvPodSpec/InPlaceOnly",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, EnvPodSpec{"nginx:1.25", "a"}, EnvPodSpec{"nginx:1.26", "b"}, s)
		},
		typ:    InPlaceOnly,
		want:   inPlaceResult{Failure: "find Pod demo-a update strategy is InPlaceOnly but can not update in-place"},
		reason: "a diffable type that needs recreation fails as kruise does",
	}, {
		name: "TerseDiffedPodSpec/InPlaceIfPossible",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, TerseDiffedPodSpec{"nginx:1.25"}, TerseDiffedPodSpec{"nginx:1.26"}, s)
		},
		typ:    InPlaceIfPossible,
		want:   inPlaceResult{Kind: "RecreatePod", Reason: "update budget 1: pod demo-a marked for deletion, to be recreated at demo-6bc4bc9c5d (cannot update in place (cloneset.TerseDiffedPodSpec.InPlaceDiff says the change needs recreation))"},
		reason: "a refusal without Blockers still says who refused",
	}, {
		name: "corev1-shaped/InPlaceIfPossible",
		plan: func(t *testing.T, s UpdateStrategyType) (inPlaceResult, error) {
			return planInPlace(t, templateOf("nginx:1.25"), templateOf("nginx:1.26"), s)
		},
		typ: InPlaceIfPossible,
		want: inPlaceResult{Kind: "UpdatePodInPlace",
			Reason:  "update budget 1: pod demo-a updated in place to demo-798d4b6fff (in place: images main=nginx:1.26)",
			InPlace: &InPlaceUpdate{Possible: true, Images: map[string]string{"main": "nginx:1.26"}}},
		reason: "a template shaped like corev1.PodTemplateSpec is diffed as kruise does, without InPlaceDiffer",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.plan(t, tt.typ)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Plan with %s mismatch (-want +got):\n%s\n%s", tt.typ, diff, tt.reason)
			}
			if err == nil {
				return
			}
			var fe *field.Error
			if !errors.As(err, &fe) || fe.Field != "spec.updateStrategy.type" || !errors.Is(err, field.ErrUnsupported) || !errors.Is(err, field.ErrInvalid) {
				t.Errorf("Plan error %v: want a *field.Error on spec.updateStrategy.type wrapping field.ErrUnsupported", err)
			}
		})
	}
}

func TestPlanWarnsAboutMissingRevisions(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	gone := func(p Pod) Pod { p.Terminating = true; return p }
	tests := []struct {
		name      string
		pods      []Pod
		revisions []ControllerRevision
		want      []string
		reason    string
	}{{
		name:      "all revisions passed",
		pods:      []Pod{upPod("demo-a", r1.Name)},
		revisions: []ControllerRevision{r1},
	}, {
		name:   "no revisions passed",
		pods:   []Pod{upPod("demo-a", r1.Name)},
		want:   []string{"pod demo-a is at revision " + r1.Name + ", which is not among the revisions: kruise cannot update it in place (InPlaceIfPossible recreates it, InPlaceOnly fails); pass all the CloneSet's ControllerRevisions"},
		reason: "the caller forgot the revisions: the pod is recreated and the new revision is numbered 1",
	}, {
		name:      "four pods at a deleted revision, one without a revision",
		pods:      []Pod{upPod("demo-d", "demo-old"), upPod("demo-c", "demo-old"), upPod("demo-b", "demo-old"), upPod("demo-a", "demo-old"), upPod("demo-x", "")},
		revisions: []ControllerRevision{r1},
		want: []string{
			"pod demo-x is without a revision (no controller-revision-hash label): kruise cannot update it in place (InPlaceIfPossible recreates it, InPlaceOnly fails); pass all the CloneSet's ControllerRevisions",
			"4 pods (demo-a, demo-b, demo-c, ...) are at revision demo-old, which is not among the revisions: kruise cannot update them in place (InPlaceIfPossible recreates them, InPlaceOnly fails); pass all the CloneSet's ControllerRevisions",
		},
		reason: "one warning per revision, by revision name; pods by name, three at most",
	}, {
		name:      "terminating pod",
		pods:      []Pod{upPod("demo-a", r1.Name), gone(upPod("demo-b", "demo-old"))},
		revisions: []ControllerRevision{r1},
		reason:    "only active pods count",
	}, {
		name:      "short hash label",
		pods:      []Pod{upPod("demo-a", r1.Name[len("demo-"):])},
		revisions: []ControllerRevision{r1},
		reason:    "a pod labelled with the hash alone (CloneSetShortHash) is at the revision",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &CloneSet[podTemplate]{Name: "demo", Replicas: int32(len(tt.pods)), Template: templateOf("nginx:1.26")}
			cs.UpdateStrategy.Type = InPlaceIfPossible
			cs.Status.CurrentRevision = r1.Name
			s, err := Plan(cs, tt.pods, tt.revisions, t0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, s.Warnings); diff != "" {
				t.Errorf("Plan(...).Warnings mismatch (-want +got):\n%s\n%s", diff, tt.reason)
			}
		})
	}
}

// TestPlanMissingRevisionIsKruises checks what the sync does beside the
// warning: kruise's behaviour, unchanged.
func TestPlanMissingRevisionIsKruises(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	for _, tt := range []struct {
		strategy UpdateStrategyType
		want     []string
		failure  string
	}{
		{InPlaceIfPossible, []string{"WriteRevision demo-798d4b6fff (revision 1)", "RecreatePod demo-a: update budget 1: pod demo-a marked for deletion, to be recreated at demo-798d4b6fff (cannot update in place (its revision " + r1.Name + " is unknown))", "WriteStatus"}, ""},
		{InPlaceOnly, []string{"WriteRevision demo-798d4b6fff (revision 1)", "WriteStatus"}, "find Pod demo-a update strategy is InPlaceOnly but can not update in-place"},
	} {
		cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Template: templateOf("nginx:1.26")}
		cs.UpdateStrategy.Type = tt.strategy
		cs.Status.CurrentRevision = r1.Name
		s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name)}, nil, t0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range s.Actions {
			switch {
			case a.Kind == WriteRevision:
				got = append(got, a.Kind.String()+" "+a.Revision+" (revision "+strconv.FormatInt(s.Revisions[0].Number, 10)+")")
			case a.Pod != "":
				got = append(got, a.Kind.String()+" "+a.Pod+": "+a.Reason)
			default:
				got = append(got, a.Kind.String())
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: actions mismatch (-want +got):\n%s", tt.strategy, diff)
		}
		if s.Update.Failure != tt.failure {
			t.Errorf("%s: failure %q, want %q", tt.strategy, s.Update.Failure, tt.failure)
		}
		if len(s.Warnings) != 1 {
			t.Errorf("%s: warnings %q, want one", tt.strategy, s.Warnings)
		}
	}
}

func TestSimulateStepCarriesWarnings(t *testing.T) {
	r1 := revisionOf(t, templateOf("nginx:1.25"), 1)
	cs := &CloneSet[podTemplate]{Name: "demo", Replicas: 1, Template: templateOf("nginx:1.26")}
	cs.UpdateStrategy.Type = InPlaceIfPossible
	cs.Status.CurrentRevision = r1.Name
	tr, err := Simulate(cs, []Pod{upPod("demo-a", r1.Name)}, nil, Config[podTemplate]{Start: t0})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pod demo-a is at revision " + r1.Name + ", which is not among the revisions: kruise cannot update it in place (InPlaceIfPossible recreates it, InPlaceOnly fails); pass all the CloneSet's ControllerRevisions"}
	if len(tr.Steps) == 0 {
		t.Fatal("Simulate recorded no step")
	}
	if diff := cmp.Diff(want, tr.Steps[0].Warnings); diff != "" {
		t.Errorf("first step's warnings (-want +got):\n%s", diff)
	}
}

// TestPlanSummaryCountsASingleInPlaceUpdate: the sync's reason names the
// one pod it updates in place, not only the ones of larger batches.
func TestPlanSummaryCountsASingleInPlaceUpdate(t *testing.T) {
	s0, err := Plan(&CloneSet[DiffedPodSpec]{Name: "demo", Template: DiffedPodSpec{"nginx:1.25"}}, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	r1 := s0.Revisions[0]
	cs := &CloneSet[DiffedPodSpec]{Name: "demo", Replicas: 1, Template: DiffedPodSpec{"nginx:1.26"}}
	cs.UpdateStrategy.Type = InPlaceIfPossible
	cs.Status.CurrentRevision = r1.Name
	s, err := Plan(cs, []Pod{upPod("demo-a", r1.Name)}, []ControllerRevision{r1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	const want = "created revision demo-6bc4bc9c5d (number 2) for the new template; updated 1 pod in place to demo-6bc4bc9c5d (update budget 1)"
	if s.Reason != want {
		t.Errorf("Reason = %q\nwant     %q", s.Reason, want)
	}
}

// TestPlanSummarySaysItRecordedAnInPlaceUpdate: the sync that marks a
// finished in-place update ready says so in its summary.
func TestPlanSummarySaysItRecordedAnInPlaceUpdate(t *testing.T) {
	s0, err := Plan(&CloneSet[DiffedPodSpec]{Name: "demo", Template: DiffedPodSpec{"nginx:1.25"}}, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	cs := &CloneSet[DiffedPodSpec]{Name: "demo", Replicas: 1, Template: DiffedPodSpec{"nginx:1.25"}}
	cs.UpdateStrategy.Type = InPlaceIfPossible
	tr, err := Simulate(cs, nil, s0.Revisions, Config[DiffedPodSpec]{
		Events: []Event[DiffedPodSpec]{{Sync: 3, Kind: SetTemplate, Template: DiffedPodSpec{"nginx:1.26"}}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range tr.Steps {
		for _, a := range st.Actions {
			if a.Kind == SetPodInPlaceUpdateReady {
				got = append(got, st.Reason)
			}
		}
	}
	want := []string{"in-place update of pod demo-xcvbh is complete: Updating to Normal; recorded 1 in-place update"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasons of the syncs that mark an in-place update ready (-want +got):\n%s", diff)
	}
}
