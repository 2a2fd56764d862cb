package statefulset

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// tmpl is the template type of the tests: an image.
type tmpl struct {
	Image string `json:"image"`
}

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// rev returns the revision of image with number n, as Plan would
// create it for a set named "web" with collision count 0.
func rev(image string, n int64) ControllerRevision {
	b, _ := json.Marshal(tmpl{Image: image})
	data, err := RevisionData(b)
	if err != nil {
		panic(err)
	}
	h := HashRevision(data, 0)
	return ControllerRevision{Name: RevisionName("web", h), Number: n, Hash: h, Data: data}
}

var (
	revO = rev("old", 1)
	revN = rev("new", 2)
	revX = rev("third", 3)
)

// world is a set, its pods and revisions, in the notation of the
// acceptance cases: pods "i:rev:state" with rev o, n or x and state
// r (Running+Ready long ago), y (Ready 5 s ago), u (Running, not
// Ready), p (Pending), t (terminating, Running+Ready), f (Failed),
// s (Succeeded); "i:state" is at o.
type world struct {
	set       StatefulSet[tmpl]
	pods      []Pod
	revisions []ControllerRevision
	opts      Options
}

// newWorld returns a set "web" with r replicas and the template changed
// from o to n (revisions o and n exist, status.currentRevision o), or
// unchanged (template o, only revision o).
func newWorld(r int32, changed bool, pods ...string) *world {
	w := &world{set: StatefulSet[tmpl]{Name: "web", Namespace: "ns", UID: "uid-web", Generation: 2, Replicas: r, Template: tmpl{Image: "old"}}}
	w.set.Status = Status{ObservedGeneration: 1, CurrentRevision: revO.Name, UpdateRevision: revO.Name}
	w.revisions = []ControllerRevision{revO}
	if changed {
		w.set.Template.Image = "new"
		w.revisions = append(w.revisions, revN)
		w.set.Status.UpdateRevision = revN.Name
	}
	for _, s := range pods {
		w.pods = append(w.pods, pod(s))
	}
	return w
}

// pod builds a pod from "i:rev:state" or "i:state".
func pod(s string) Pod {
	f := strings.Split(s, ":")
	if len(f) == 2 {
		f = []string{f[0], "o", f[1]}
	}
	name := "web-" + f[0]
	p := Pod{Name: name, PodNameLabel: name, ControllerUID: "uid-web", CreationTime: t0.Add(-time.Hour)}
	switch f[1] {
	case "o":
		p.Revision = revO.Name
	case "n":
		p.Revision = revN.Name
	case "x":
		p.Revision = revX.Name
	default:
		panic("bad revision " + s)
	}
	switch f[2] {
	case "r":
		p.Phase, p.Ready, p.ReadySince = PodRunning, true, t0.Add(-time.Hour)
	case "y":
		p.Phase, p.Ready, p.ReadySince = PodRunning, true, t0.Add(-5*time.Second)
	case "u":
		p.Phase = PodRunning
	case "p":
		p.Phase = PodPending
	case "t":
		p.Phase, p.Ready, p.ReadySince, p.Terminating = PodRunning, true, t0.Add(-time.Hour), true
	case "f":
		p.Phase = PodFailed
	case "s":
		p.Phase = PodSucceeded
	default:
		panic("bad state " + s)
	}
	return p
}

func (w *world) parallel() *world { w.set.PodManagementPolicy = Parallel; return w }
func (w *world) gate() *world     { w.opts.Gates.MaxUnavailableStatefulSet = true; return w }
func (w *world) partition(p int32) *world {
	w.ru().Partition = p
	return w
}
func (w *world) maxUnavailable(v intorpercent.IntOrString) *world {
	w.ru().MaxUnavailable = &v
	return w
}
func (w *world) ru() *RollingUpdateStrategy {
	if w.set.UpdateStrategy.RollingUpdate == nil {
		w.set.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{}
	}
	return w.set.UpdateStrategy.RollingUpdate
}

func (w *world) plan(t *testing.T) Sync[tmpl] {
	t.Helper()
	s, err := PlanWith(&w.set, w.pods, w.revisions, t0, w.opts)
	if err != nil {
		t.Fatalf("PlanWith: %v", err)
	}
	return s
}

// podWrites renders the pod creations and deletions of s, in order:
// "create 0@o", "delete 4".
func podWrites(s Sync[tmpl]) string {
	var out []string
	for _, a := range s.Actions {
		_, ord := ParseOrdinal(a.Pod)
		switch a.Kind {
		case CreatePod:
			out = append(out, fmt.Sprintf("create %d@%s", ord, short(a.Revision)))
		case DeletePod:
			out = append(out, "delete "+strconv.Itoa(int(ord)))
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}

// short names a revision o, n or x.
func short(name string) string {
	switch name {
	case revO.Name:
		return "o"
	case revN.Name:
		return "n"
	case revX.Name:
		return "x"
	}
	return name
}
