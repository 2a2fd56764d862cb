package cloneset_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// ImageSpec is a caller's own template type, as in the README. It says
// how to diff itself: an image change is made in place on the container
// "app".
type ImageSpec struct{ Image string }

// InPlaceDiff implements cloneset.InPlaceDiffer[ImageSpec].
func (s ImageSpec) InPlaceDiff(to ImageSpec) cloneset.InPlaceUpdate {
	if s == to {
		return cloneset.InPlaceUpdate{Possible: true}
	}
	return cloneset.InPlaceUpdate{Possible: true, Images: map[string]string{"app": to.Image}}
}

// PodSpec is a caller's own template type that does not implement
// cloneset.InPlaceDiffer.
type PodSpec struct{ Image string }

// A template type that implements InPlaceDiffer is updated in place.
func ExampleInPlaceDiffer() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// One pod at rest on nginx:1.25; the template moves to nginx:1.26.
	r1, _ := cloneset.NewRevision("web", ImageSpec{"nginx:1.25"}, 1, 0)
	pod := cloneset.Pod{Name: "web-a", Revision: r1.Name, Phase: cloneset.PodRunning, Ready: true,
		ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-time.Hour), Lifecycle: cloneset.Normal}
	cs := &cloneset.CloneSet[ImageSpec]{Name: "web", Replicas: 1, Template: ImageSpec{"nginx:1.26"},
		UpdateStrategy: cloneset.UpdateStrategy{Type: cloneset.InPlaceIfPossible}}
	cs.Status.CurrentRevision = r1.Name

	s, err := cloneset.Plan(cs, []cloneset.Pod{pod}, []cloneset.ControllerRevision{r1}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range s.Update.Actions {
		fmt.Println(a.Kind, a.Reason)
	}
	// Output:
	// UpdatePodInPlace update budget 1: pod web-a updated in place to web-6bc4bc9c5d (in place: images app=nginx:1.26)
}

// A template type that neither implements InPlaceDiffer nor encodes as a
// corev1.PodTemplateSpec cannot be diffed in place: InPlaceIfPossible
// recreates the pod and says why, InPlaceOnly is an error.
func ExampleInPlaceDiffer_notImplemented() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// One pod at rest on nginx:1.25; the template moves to nginx:1.26.
	r1, _ := cloneset.NewRevision("web", PodSpec{"nginx:1.25"}, 1, 0)
	pod := cloneset.Pod{Name: "web-a", Revision: r1.Name, Phase: cloneset.PodRunning, Ready: true,
		ReadySince: now.Add(-time.Hour), CreationTime: now.Add(-time.Hour), Lifecycle: cloneset.Normal}
	for _, strategy := range []cloneset.UpdateStrategyType{cloneset.InPlaceIfPossible, cloneset.InPlaceOnly} {
		cs := &cloneset.CloneSet[PodSpec]{Name: "web", Replicas: 1, Template: PodSpec{"nginx:1.26"},
			UpdateStrategy: cloneset.UpdateStrategy{Type: strategy}}
		cs.Status.CurrentRevision = r1.Name

		s, err := cloneset.Plan(cs, []cloneset.Pod{pod}, []cloneset.ControllerRevision{r1}, now)
		if err != nil {
			fmt.Println("error:", err)
			fmt.Println("unsupported:", errors.Is(err, field.ErrUnsupported))
			continue
		}
		for _, a := range s.Update.Actions {
			fmt.Println(a.Kind, a.Reason)
		}
	}
	// Output:
	// RecreatePod update budget 1: pod web-a marked for deletion, to be recreated at web-6bc4bc9c5d (cannot update in place (template type cloneset_test.PodSpec cannot be diffed in place: implement cloneset.InPlaceDiffer[cloneset_test.PodSpec], or encode the template as a corev1.PodTemplateSpec (revision web-6bc4bc9c5d has no spec.template.spec.containers)))
	// error: cloneset: invalid CloneSet "web": spec.updateStrategy.type: "InPlaceOnly": template type cloneset_test.PodSpec cannot be diffed in place: implement cloneset.InPlaceDiffer[cloneset_test.PodSpec], or encode the template as a corev1.PodTemplateSpec (revision web-6bc4bc9c5d has no spec.template.spec.containers)
	// unsupported: true
}
