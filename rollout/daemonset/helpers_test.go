package daemonset

import (
	"fmt"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// tb is what the fixtures need of a test: *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// t0 is the time of every planned sync in the acceptance cases.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// spec is the test template type.
type spec struct {
	Image string `json:"image"`
}

func str(s string) *intorpercent.IntOrString { v := intorpercent.FromString(s); return &v }
func num(n int32) *intorpercent.IntOrString  { v := intorpercent.FromInt(n); return &v }

// fixture is a DaemonSet "agent" whose template went from image v1 (old,
// "o") to v2 (new, "n"), with a revision for each, and a third hash "x".
type fixture struct {
	ds               *DaemonSet[spec]
	revisions        []ControllerRevision
	oldHash, newHash string
	thirdHash        string
	nodes            []Node
	pods             []Pod
}

func newFixture(t tb, mu, ms *intorpercent.IntOrString) *fixture {
	t.Helper()
	gen := int64(2)
	ds := &DaemonSet[spec]{
		Name: "agent", Namespace: "kube-system", UID: "uid-1", Generation: 2,
		Selector:           &ownership.Selector{MatchLabels: map[string]string{"app": "agent"}},
		Template:           spec{Image: "v2"},
		TemplateGeneration: &gen,
		Status:             Status{ObservedGeneration: 1},
	}
	if mu != nil || ms != nil {
		ds.UpdateStrategy.RollingUpdate = &RollingUpdateParams{MaxUnavailable: mu, MaxSurge: ms}
		if mu == nil {
			ds.UpdateStrategy.RollingUpdate.MaxUnavailable = num(0)
		}
	}
	f := &fixture{ds: ds}
	old := spec{Image: "v1"}
	f.oldHash, f.newHash = Hash(&old, nil), Hash(&ds.Template, nil)
	f.thirdHash = Hash(&spec{Image: "v0"}, nil)
	od, err := RevisionData(&old)
	if err != nil {
		t.Fatal(err)
	}
	nd, err := RevisionData(&ds.Template)
	if err != nil {
		t.Fatal(err)
	}
	f.revisions = []ControllerRevision{
		{Name: RevisionName("agent", f.oldHash), Hash: f.oldHash, Number: 1, Data: od},
		{Name: RevisionName("agent", f.newHash), Hash: f.newHash, Number: 2, Data: nd},
	}
	return f
}

// layout sets the nodes and pods from a line such as
// "ns:o:r ok:o:r,n:y (empty) ne:o:t": one word per node n0, n1, ...; an
// optional taint prefix (ok: should run, ns: NoSchedule (false, true),
// ne: NoExecute (false, false)); "(empty)" or pods "rev:state" joined by
// commas, created in that order (later ones newer). rev o, n or x; state
// r ready long ago, y ready 5 s ago, u running not ready, p pending, t
// terminating (ready), f failed, s succeeded.
func (f *fixture) layout(t tb, line string) *fixture {
	t.Helper()
	f.nodes, f.pods = nil, nil
	for k, word := range strings.Fields(line) {
		name := fmt.Sprintf("n%d", k)
		node := Node{Name: name, ShouldRun: true, ShouldContinueRunning: true}
		switch {
		case strings.HasPrefix(word, "ok:"):
			word = word[3:]
		case strings.HasPrefix(word, "ns:"):
			node.ShouldRun, word = false, word[3:]
		case strings.HasPrefix(word, "ne:"):
			node.ShouldRun, node.ShouldContinueRunning, word = false, false, word[3:]
		}
		f.nodes = append(f.nodes, node)
		if word == "(empty)" {
			continue
		}
		for j, spec := range strings.Split(word, ",") {
			rev, state, ok := strings.Cut(spec, ":")
			if !ok {
				t.Fatalf("layout %q: pod %q", line, spec)
			}
			p := Pod{Name: fmt.Sprintf("%s-%d", name, j), Node: name, Phase: PodRunning, Created: t0.Add(-time.Hour + time.Duration(j)*time.Minute)}
			switch rev {
			case "o":
				p.Hash = f.oldHash
			case "n":
				p.Hash = f.newHash
			case "x":
				p.Hash = f.thirdHash
			default:
				t.Fatalf("layout %q: revision %q", line, rev)
			}
			switch state {
			case "r":
				p.Ready, p.ReadySince = true, t0.Add(-30*time.Minute)
			case "y":
				p.Ready, p.ReadySince = true, t0.Add(-5*time.Second)
			case "u":
			case "p":
				p.Phase = PodPending
			case "t":
				p.Ready, p.ReadySince, p.Terminating = true, t0.Add(-30*time.Minute), true
			case "f":
				p.Phase = PodFailed
			case "s":
				p.Phase = PodSucceeded
			default:
				t.Fatalf("layout %q: state %q", line, state)
			}
			f.pods = append(f.pods, p)
		}
	}
	return f
}

// rolling runs the rolling update alone on the fixture.
func (f *fixture) rolling(t tb) Decision {
	t.Helper()
	d, err := RollingUpdateStep(f.ds, f.nodes, f.pods, f.newHash, t0, Options{})
	if err != nil {
		t.Fatalf("RollingUpdateStep: %v", err)
	}
	return d
}

// manage runs manage alone on the fixture.
func (f *fixture) manage(t tb) Decision {
	t.Helper()
	d, err := Manage(f.ds, f.nodes, f.pods, f.newHash, t0)
	if err != nil {
		t.Fatalf("Manage: %v", err)
	}
	return d
}

// podNode returns the node of the pod named name.
func (f *fixture) podNode(name string) string {
	for _, p := range f.pods {
		if p.Name == name {
			return p.Node
		}
	}
	return ""
}
