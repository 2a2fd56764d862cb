package statefulset

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// counts renders the status counters the acceptance cases state.
type counts struct {
	replicas, ready, available, current, updated int32
	currentRevision                              string // o, n or x
}

func countsOf(s Status) counts {
	return counts{s.Replicas, s.ReadyReplicas, s.AvailableReplicas, s.CurrentReplicas, s.UpdatedReplicas, short(s.CurrentRevision)}
}

// TestAcceptanceStatus holds the acceptance cases that state pod writes
// together with the status the sync computes, named after their case.
func TestAcceptanceStatus(t *testing.T) {
	tests := []struct {
		name   string
		w      *world
		writes string
		want   counts
		reason string
	}{
		{"S1 OR no pods status replicas 0", newWorld(3, false), "create 0@o", counts{0, 0, 0, 0, 0, "o"}, "a created pod is a placeholder for this sync's status"},
		{"S3 OR ready 5s with minReady 30", newWorld(3, false, "0:y").minReady(30), "nothing", counts{1, 1, 0, 1, 1, "o"}, "ready but not available stops OrderedReady"},
		{"S10 OR update deletes top", newWorld(3, true, "0:o:r", "1:o:r", "2:o:r"), "delete 2", counts{3, 3, 3, 2, 0, "o"}, "the update deletion lowers currentReplicas in the same sync"},
		{"S29 all updated ready completes", newWorld(3, true, "0:n:r", "1:n:r", "2:n:r"), "nothing", counts{3, 3, 3, 3, 3, "n"}, "completeRollingUpdate"},
		{"S29 one updated unready does not complete", newWorld(3, true, "0:n:r", "1:n:r", "2:n:u"), "nothing", counts{3, 2, 2, 0, 3, "o"}, "ready 2 != replicas 3"},
		{"S29 ready not available still completes", newWorld(3, true, "0:n:y", "1:n:y", "2:n:y").minReady(30), "nothing", counts{3, 3, 0, 3, 3, "n"}, "completion reads ready, not available"},
		{"S31 R0 P2 no pods completes", newWorld(0, true).partition(2), "nothing", counts{0, 0, 0, 0, 0, "n"}, "all counts equal replicas 0 (#121534)"},
		{"S31 R0 P2 Par deletes both, stays o", newWorld(0, true, "0:o:r", "1:o:r").parallel().partition(2), "delete 1, delete 0", counts{2, 2, 2, 2, 0, "o"}, "the deleted pods still count in this sync"},
		{"S33 OR third revision goes negative", newWorld(3, true, "0:x:r", "1:x:r", "2:x:r"), "delete 2", counts{3, 3, 3, -1, 0, "o"}, "every update deletion decrements currentReplicas"},
		{"S36 Par condemned keeps current o", newWorld(3, true, "0:n:r", "1:n:r", "2:n:r", "3:n:r").parallel(), "delete 3", counts{4, 4, 4, 0, 4, "o"}, "replicas 4 != 3"},
		{"S37 status of S16 counts terminating", newWorld(3, true, "0:o:r", "1:o:r", "2:o:t").parallel(), "nothing", counts{3, 3, 3, 2, 0, "o"}, "terminating counts in replicas, ready and available"},
		{"S27 OnDelete all new never completes", newWorld(3, true, "0:n:r", "1:n:r", "2:n:r").onDelete(), "nothing", counts{3, 3, 3, 0, 3, "o"}, "completeRollingUpdate is only for RollingUpdate (#73492)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.w.plan(t)
			if got := podWrites(s); got != tt.writes {
				t.Errorf("pod writes = %s, want %s", got, tt.writes)
			}
			if got := countsOf(s.Status); got != tt.want {
				t.Errorf("status = %+v, want %+v (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// TestAcceptanceRUNil is S30: RollingUpdate without a rollingUpdate
// block creates pods below status.currentReplicas at the current
// revision.
func TestAcceptanceRUNil(t *testing.T) {
	tests := []struct {
		name    string
		current int32
		pods    []string
		want    string
	}{
		{"S30 currentReplicas 3 creates 0 at o", 3, []string{"1:o:r", "2:o:r"}, "create 0@o"},
		{"S30 currentReplicas 1 creates 1 at n", 1, []string{"0:o:r", "2:n:r"}, "create 1@n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(3, true, tt.pods...)
			w.set.UpdateStrategy = UpdateStrategy{Type: RollingUpdate}
			w.set.Status.CurrentReplicas = tt.current
			w.set.Status.Replicas = 3
			if got := podWrites(w.plan(t)); got != tt.want {
				t.Errorf("pod writes = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestAcceptanceStartOrdinal is S5 and S32: ordinals from
// spec.ordinals.start, and a partition counted from it.
func TestAcceptanceStartOrdinal(t *testing.T) {
	tests := []struct {
		name string
		w    *world
		want string
	}{
		{"S5 Par start 5 moves all at once", newWorld(3, false, "0:r", "1:r", "2:r").parallel().start(5), "create 5@o, create 6@o, create 7@o, delete 2, delete 1, delete 0"},
		{"S5 OR start 5 creates 5 only", newWorld(3, false).start(5), "create 5@o"},
		{"S32 OR start 2 P1 all old deletes 4", newWorld(3, true, "2:o:r", "3:o:r", "4:o:r").start(2).partition(1), "delete 4"},
		{"S32 OR start 2 P1 creates 3 at n", newWorld(3, true, "2:o:r", "4:n:r").start(2).partition(1), "create 3@n"},
		{"S32 OR start 2 P1 creates 2 at o", newWorld(3, true, "3:o:r", "4:n:r").start(2).partition(1), "create 2@o"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := podWrites(tt.w.plan(t)); got != tt.want {
				t.Errorf("pod writes = %s, want %s", got, tt.want)
			}
		})
	}
}

func (w *world) start(s int32) *world { w.set.Ordinals.Start = s; return w }

// TestAcceptanceMaxUnavailable is S26, upstream's
// TestGetStatefulSetMaxUnavailable table.
func TestAcceptanceMaxUnavailable(t *testing.T) {
	n, pct := intorpercent.FromInt, intorpercent.FromString
	tests := []struct {
		name     string
		mu       *intorpercent.IntOrString
		replicas int32
		want     int32
	}{
		{"S26 nil at 10", nil, 10, 1},
		{"S26 3 at 10", ptr(n(3)), 10, 3},
		{"S26 3 at 0", ptr(n(3)), 0, 3},
		{"S26 0 at 0", ptr(n(0)), 0, 1},
		{"S26 10% at 25", ptr(pct("10%")), 25, 2},
		{"S26 100% at 5", ptr(pct("100%")), 5, 5},
		{"S26 50% at 5", ptr(pct("50%")), 5, 2},
		{"S26 10% at 5", ptr(pct("10%")), 5, 1},
		{"S26 1% at 0", ptr(pct("1%")), 0, 1},
		{"S26 0% at 0", ptr(pct("0%")), 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MaxUnavailable(tt.mu, tt.replicas)
			if err != nil || got != tt.want {
				t.Errorf("MaxUnavailable(%v, %d) = %d, %v; want %d", tt.mu, tt.replicas, got, err, tt.want)
			}
		})
	}
}

func ptr[V any](v V) *V { return &v }

// TestAcceptanceRevisionNames is S38: the names the controller gives the
// revisions of its documented example.
func TestAcceptanceRevisionNames(t *testing.T) {
	tmpl := func(image string) string {
		return `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"` + image + `","name":"nginx","resources":{}}]}}`
	}
	const wantData = `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.25","name":"nginx","resources":{}}]}}}}`
	data, err := RevisionData([]byte(tmpl("nginx:1.25")))
	if err != nil || string(data) != wantData {
		t.Fatalf("RevisionData = %s, %v; want %s", data, err, wantData)
	}
	data126, _ := RevisionData([]byte(tmpl("nginx:1.26")))
	tests := []struct {
		name string
		data []byte
		cc   int32
		want string
	}{
		{"S38 count 0", data, 0, "web-6bd8cfcb95"},
		{"S38 count 1", data, 1, "web-6bd8cfcb94"},
		{"S38 nginx 1.26", data126, 0, "web-84bb6ff5c6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RevisionName("web", HashRevision(tt.data, tt.cc)); got != tt.want {
				t.Errorf("RevisionName(web, HashRevision(.., %d)) = %s, want %s", tt.cc, got, tt.want)
			}
		})
	}
}

// TestAcceptanceRevisionSequence is S39, upstream's
// TestStatefulSetControl_getSetRevisions: revisions 1, 2, 2, then a
// rollback renumbering revision 2 to 4.
func TestAcceptanceRevisionSequence(t *testing.T) {
	d1, d2, d3 := revO.Data, revN.Data, revX.Data
	r, err := ChooseRevisions("web", nil, d1, "", 0)
	if err != nil || r.Choice != Create || r.Update.Number != 1 || r.Current != r.Update.Name {
		t.Fatalf("no history: %+v, %v; want Create 1, current = update", r, err)
	}
	hist := []ControllerRevision{r.Update}
	r, _ = ChooseRevisions("web", hist, d2, hist[0].Name, 0)
	if r.Choice != Create || r.Update.Number != 2 || r.Current != hist[0].Name {
		t.Fatalf("template change: %+v; want Create 2, current the first", r)
	}
	hist = append(hist, r.Update)
	r, _ = ChooseRevisions("web", hist, d2, hist[0].Name, 0)
	if r.Choice != ReuseLatest || r.Update.Number != 2 || len(hist) != 2 {
		t.Fatalf("same template: %+v; want ReuseLatest 2 (still 2 revisions)", r)
	}
	r, _ = ChooseRevisions("web", hist, d3, hist[0].Name, 0)
	hist = append(hist, r.Update)
	r, _ = ChooseRevisions("web", hist, d2, hist[0].Name, 0)
	if r.Choice != Rollback || r.Update.Number != 4 || r.Update.Name != hist[1].Name || r.Existing != 1 {
		t.Fatalf("rollback: %+v; want Rollback of revision 2 to number 4", r)
	}
}

// TestAcceptanceValidate is S40: the API server's texts.
func TestAcceptanceValidate(t *testing.T) {
	n, pct := intorpercent.FromInt, intorpercent.FromString
	tests := []struct {
		name string
		mod  func(s *StatefulSet[tmpl])
		want string
	}{
		{"S40 V1 policy", func(s *StatefulSet[tmpl]) { s.PodManagementPolicy = "Foo" }, `spec.podManagementPolicy: Invalid value: "Foo": must be 'OrderedReady' or 'Parallel'`},
		{"S40 V2 type", func(s *StatefulSet[tmpl]) { s.UpdateStrategy = UpdateStrategy{Type: "Foo"} }, `spec.updateStrategy: Invalid value: {"Type":"Foo","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'`},
		{"S40 V3 OnDelete with rollingUpdate", func(s *StatefulSet[tmpl]) {
			s.UpdateStrategy = UpdateStrategy{Type: OnDelete, RollingUpdate: &RollingUpdateStrategy{Partition: 1}}
		}, `spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":1,"MaxUnavailable":null}: only allowed for updateStrategy 'RollingUpdate'`},
		{"S40 V4 partition", func(s *StatefulSet[tmpl]) { s.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{Partition: -1} }, `spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0`},
		{"S40 V5 maxUnavailable negative", func(s *StatefulSet[tmpl]) {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{MaxUnavailable: ptr(n(-1))}
		}, `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0`},
		{"S40 V6 not a percent", func(s *StatefulSet[tmpl]) {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{MaxUnavailable: ptr(pct("5"))}
		}, `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "5": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"S40 V7 zero", func(s *StatefulSet[tmpl]) {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{MaxUnavailable: ptr(n(0))}
		}, `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0`},
		{"S40 V7 zero percent", func(s *StatefulSet[tmpl]) {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{MaxUnavailable: ptr(pct("0%"))}
		}, `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "0%": cannot be 0`},
		{"S40 V6 and V7 for abc", func(s *StatefulSet[tmpl]) {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{MaxUnavailable: ptr(pct("abc"))}
		}, `[spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "abc": cannot be 0]`},
		{"S40 V8 over 100%", func(s *StatefulSet[tmpl]) {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateStrategy{MaxUnavailable: ptr(pct("101%"))}
		}, `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		{"S40 V9 start", func(s *StatefulSet[tmpl]) { s.Ordinals.Start = -1 }, `spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0`},
		{"S40 V9 replicas", func(s *StatefulSet[tmpl]) { s.Replicas = -1 }, `spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"S40 V9 minReadySeconds", func(s *StatefulSet[tmpl]) { s.MinReadySeconds = -1 }, `spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0`},
		{"S40 V11 currentReplicas", func(s *StatefulSet[tmpl]) { s.Status.CurrentReplicas = -1 }, `status.currentReplicas: Invalid value: -1: must be greater than or equal to 0`},
		{"S40 V11 readyReplicas", func(s *StatefulSet[tmpl]) { s.Status.Replicas, s.Status.ReadyReplicas = 3, 4 }, `status.readyReplicas: Invalid value: 4: cannot be greater than status.replicas`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(3, false)
			tt.mod(&w.set)
			got := Validate(&w.set)
			if text := got.Error(); text != tt.want {
				t.Errorf("Validate = %s\nwant       %s", text, tt.want)
			}
		})
	}
	if got := Validate(&newWorld(3, false).set); len(got) != 0 {
		t.Errorf("Validate(valid set) = %v, want none", got)
	}
}
