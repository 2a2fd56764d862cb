package conformance

import (
	"bytes"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	kruiserevision "github.com/openkruise/kruise/pkg/controller/cloneset/revision"
	"github.com/openkruise/kruise/pkg/util/inplaceupdate"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

// richTemplate draws a pod template with more of the PodSpec than
// template does: containers added, removed or renamed, env, ports,
// resources, commands, labels and annotations with characters JSON
// escapes, a number beyond 2^53.
func richTemplate(t *rapid.T, label string) corev1.PodTemplateSpec {
	tpl := template(t, label)
	c := &tpl.Spec.Containers[0]
	if rapid.IntRange(0, 4).Draw(t, label+"Rename") == 0 {
		c.Name = "main"
	}
	if rapid.IntRange(0, 3).Draw(t, label+"Ports") == 0 {
		c.Ports = []corev1.ContainerPort{{ContainerPort: rapid.SampledFrom([]int32{80, 8080}).Draw(t, label+"Port")}}
	}
	if rapid.IntRange(0, 3).Draw(t, label+"Resources") == 0 {
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(rapid.SampledFrom([]string{"100m", "0.1", "1"}).Draw(t, label+"CPU"))}
	}
	if rapid.IntRange(0, 4).Draw(t, label+"Command") == 0 {
		c.Command = []string{"/bin/" + rapid.SampledFrom([]string{"a", "b"}).Draw(t, label+"Cmd")}
	}
	if rapid.IntRange(0, 3).Draw(t, label+"Labels") == 0 {
		tpl.Labels["team"] = rapid.SampledFrom([]string{"a<b", "x&y", "plain", "ünï"}).Draw(t, label+"Team")
	}
	if rapid.IntRange(0, 5).Draw(t, label+"BigNumber") == 0 {
		g := rapid.SampledFrom([]int64{30, 9007199254740993, 1 << 62}).Draw(t, label+"Grace")
		tpl.Spec.TerminationGracePeriodSeconds = &g
	}
	if rapid.IntRange(0, 5).Draw(t, label+"NoContainers") == 0 {
		tpl.Spec.Containers = nil
	}
	return tpl
}

// TestRevisionMatchesKruise compares RevisionData, HashRevision and
// RevisionName with the ControllerRevision kruise's revision control
// builds for the same CloneSet: data byte for byte, and the name.
func TestRevisionMatchesKruise(t *testing.T) {
	rc := kruiserevision.NewRevisionControl()
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom([]string{"demo", "web-frontend", strings.Repeat("a", 223), strings.Repeat("long-", 50)}).Draw(t, "name")
		cs := &appsv1alpha1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: "uid"}}
		cs.Spec.Template = richTemplate(t, "template")
		collision := rapid.OneOf(rapid.Int32Range(0, 3), rapid.Int32()).Draw(t, "collisionCount")
		cr, err := rc.NewRevision(cs, 1, &collision)
		if err != nil {
			t.Fatalf("kruise NewRevision: %v", err)
		}
		tj, err := json.Marshal(cs.Spec.Template)
		if err != nil {
			t.Fatal(err)
		}
		data, err := cloneset.RevisionData(tj)
		if err != nil {
			t.Fatalf("RevisionData(%s): %v", tj, err)
		}
		if !bytes.Equal(data, cr.Data.Raw) {
			t.Fatalf("RevisionData(%s) =\n%s\nkruise:\n%s", tj, data, cr.Data.Raw)
		}
		count("revision control NewRevision: data bytes", "agree")
		got := cloneset.RevisionName(name, cloneset.HashRevision(data, collision))
		if got != cr.Name {
			t.Fatalf("RevisionName(HashRevision(data, %d)) = %q, kruise %q", collision, got, cr.Name)
		}
		count("revision control NewRevision: name (hash)", "agree")
	})
}

// TestCalculateInPlaceUpdateMatchesKruise compares CalculateInPlaceUpdate
// with kruise's CanUpdateInPlace and the update spec it computes
// (defaultCalculateInPlaceUpdateSpec) on the data of two revisions kruise
// built: possible or not, the images to change, and whether the
// template's metadata changes.
func TestCalculateInPlaceUpdateMatchesKruise(t *testing.T) {
	rc := kruiserevision.NewRevisionControl()
	ipu := inplaceupdate.New(nil, nil)
	rapid.Check(t, func(t *rapid.T) {
		cs := &appsv1alpha1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "demo", Namespace: "default"}}
		cs.Spec.Template = richTemplate(t, "from")
		from, err := rc.NewRevision(cs, 1, new(int32))
		if err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "onlyImages") {
			// Most real updates change images only: keep the rest.
			for i := range cs.Spec.Template.Spec.Containers {
				cs.Spec.Template.Spec.Containers[i].Image = rapid.SampledFrom([]string{"nginx:1.25", "nginx:1.27", "busybox:2"}).Draw(t, "newImage")
			}
			if rapid.Bool().Draw(t, "newLabel") {
				cs.Spec.Template.Labels = maps.Clone(cs.Spec.Template.Labels)
				cs.Spec.Template.Labels["release"] = "2"
			}
		} else {
			cs.Spec.Template = richTemplate(t, "to")
		}
		to, err := rc.NewRevision(cs, 2, new(int32))
		if err != nil {
			t.Fatal(err)
		}
		opts := inplaceupdate.SetOptionsDefaults(nil)
		spec := opts.CalculateSpec(from, to, opts)
		can := ipu.CanUpdateInPlace(from, to, nil)
		got, err := cloneset.CalculateInPlaceUpdate(from.Data.Raw, to.Data.Raw)
		if err != nil {
			t.Fatalf("CalculateInPlaceUpdate: %v", err)
		}
		if got.Possible != can || can != (spec != nil) {
			t.Fatalf("CalculateInPlaceUpdate = %+v, kruise CanUpdateInPlace %v\nfrom %s\nto   %s", got, can, from.Data.Raw, to.Data.Raw)
		}
		if spec != nil {
			images := spec.ContainerImages
			if images == nil {
				images = map[string]string{}
			}
			if !maps.Equal(got.Images, images) || got.Metadata != (len(spec.MetaDataPatch) > 0) {
				t.Fatalf("CalculateInPlaceUpdate = images %v metadata %v, kruise images %v metadata patch %s\nfrom %s\nto   %s",
					got.Images, got.Metadata, images, spec.MetaDataPatch, from.Data.Raw, to.Data.Raw)
			}
		}
		class := "agree"
		fn := "inplaceupdate CanUpdateInPlace + CalculateSpec"
		if got.Possible {
			fn += " (possible)"
		} else {
			fn += " (not possible)"
		}
		count(fn, class)
	})
}
