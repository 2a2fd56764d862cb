package daemonset

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// The acceptance cases D1 to D31 of the DaemonSet controller of
// kube-controller-manager v1.36, observed on the real controller or
// asserted by its unit tests (named in each case). "rolling" is the
// rolling update alone on the snapshot, "manage" manage alone.

func errTexts(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestD1ValidationTexts(t *testing.T) {
	const p = "spec.updateStrategy.rollingUpdate."
	const pct = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
	tests := []struct {
		name     string
		strategy UpdateStrategy
		want     []string
	}{
		{"DV1 counts", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: num(1), MaxSurge: num(1)}},
			[]string{p + "maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"}},
		{"DV1 percents", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: str("50%"), MaxSurge: str("10%")}},
			[]string{p + `maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero`}},
		{"DV1 default maxUnavailable", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxSurge: num(1)}},
			[]string{p + "maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"}},
		{"DV2 counts", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: num(0), MaxSurge: num(0)}},
			[]string{p + "maxUnavailable: Required value: cannot be 0 when maxSurge is 0"}},
		{"DV2 percents", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: str("0%"), MaxSurge: str("0%")}},
			[]string{p + "maxUnavailable: Required value: cannot be 0 when maxSurge is 0"}},
		{"DV3 maxUnavailable", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: str("101%")}},
			[]string{p + `maxUnavailable: Invalid value: "101%": must not be greater than 100%`}},
		{"DV3 maxSurge", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: num(0), MaxSurge: str("150%")}},
			[]string{p + `maxSurge: Invalid value: "150%": must not be greater than 100%`}},
		{"DV4 maxUnavailable", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: num(-1)}},
			[]string{p + "maxUnavailable: Invalid value: -1: must be greater than or equal to 0"}},
		{"DV4 maxSurge", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: num(0), MaxSurge: num(-1)}},
			[]string{p + "maxSurge: Invalid value: -1: must be greater than or equal to 0"}},
		{"DV5 plain number string", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: str("5")}},
			[]string{p + `maxUnavailable: Invalid value: "5": ` + pct}},
		{"DV5 abc counts as zero", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: str("abc")}},
			[]string{p + `maxUnavailable: Invalid value: "abc": ` + pct, p + "maxUnavailable: Required value: cannot be 0 when maxSurge is 0"}},
		{"DV5 fraction counts as zero", UpdateStrategy{RollingUpdate: &RollingUpdateParams{MaxUnavailable: str("1.5%")}},
			[]string{p + `maxUnavailable: Invalid value: "1.5%": ` + pct, p + "maxUnavailable: Required value: cannot be 0 when maxSurge is 0"}},
		{"DV7 unknown type", UpdateStrategy{Type: "Foo"},
			[]string{`spec.updateStrategy: Unsupported value: {"Type":"Foo","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"`}},
		{"DV7 unknown type with rollingUpdate", UpdateStrategy{Type: "Foo", RollingUpdate: &RollingUpdateParams{MaxUnavailable: str("20%")}},
			[]string{`spec.updateStrategy: Unsupported value: {"Type":"Foo","RollingUpdate":{"MaxUnavailable":"20%","MaxSurge":0}}: supported values: "RollingUpdate", "OnDelete"`}},
		{"DV8 OnDelete ignores rollingUpdate", UpdateStrategy{Type: OnDelete, RollingUpdate: &RollingUpdateParams{MaxUnavailable: num(-1), MaxSurge: str("x")}}, nil},
		{"defaults", UpdateStrategy{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := newFixture(t, nil, nil).ds
			ds.UpdateStrategy = tt.strategy
			var got []string
			for _, e := range Validate(ds) {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate(%+v) mismatch (-want +got):\n%s", tt.strategy, diff)
			}
		})
	}
	t.Run("empty selector", func(t *testing.T) {
		ds := newFixture(t, nil, nil).ds
		ds.Selector = &ownership.Selector{}
		got := errTexts([]error{Validate(ds).ToError()})
		want := []string{"spec.selector: Invalid value: {}: empty selector is invalid for daemonset"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Validate mismatch (-want +got):\n%s", diff)
		}
	})
	// A malformed selector in ValidateLabelSelector's words: every
	// problem, at its own path.
	t.Run("malformed selector", func(t *testing.T) {
		ds := newFixture(t, nil, nil).ds
		ds.Selector = &ownership.Selector{MatchExpressions: []ownership.Requirement{
			{Key: "app", Operator: ownership.In}, {Key: "a/b/c", Operator: ownership.Exists}}}
		var got []string
		for _, e := range Validate(ds) {
			got = append(got, e.Error())
		}
		want := []string{
			"spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
			`spec.selector.matchExpressions[1].key: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Validate mismatch (-want +got):\n%s", diff)
		}
		if err := Validate(ds).ToError(); !errors.Is(err, ownership.ErrInvalidSelector) || !errors.Is(err, field.ErrInvalid) {
			t.Errorf("Validate's error %v does not wrap ownership.ErrInvalidSelector and field.ErrInvalid", err)
		}
	})
}

func TestD2Budgets(t *testing.T) {
	tests := []struct {
		name         string
		mu, ms       *intorpercent.IntOrString
		nodes        int
		wantMU, want int32 // want is maxSurge
	}{
		{"0/0 on 2 nodes becomes 1", num(0), num(0), 2, 1, 0},
		{"50% of 2", str("50%"), num(0), 2, 1, 0},
		{"surge 50% of 2", num(0), str("50%"), 2, 0, 1},
		{"surge 100% of 2", num(0), str("100%"), 2, 0, 2},
		{"50% of 3 rounds up", str("50%"), num(0), 3, 2, 0},
		{"no nodes 0/0 stays 0", num(0), num(0), 0, 0, 0},
		{"10% of 5 rounds up", str("10%"), nil, 5, 1, 0},
		{"25% of 10 rounds up", str("25%"), nil, 10, 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.mu, tt.ms)
			f.layout(t, strings.TrimSpace(strings.Repeat("o:r ", tt.nodes)))
			b, err := Budgets(f.ds, f.nodes)
			if err != nil {
				t.Fatal(err)
			}
			want := Budget{Desired: int32(tt.nodes), MaxUnavailable: tt.wantMU, MaxSurge: tt.want}
			if b != want {
				t.Errorf("Budgets(%v, %v) over %d nodes = %+v, want %+v", tt.mu, tt.ms, tt.nodes, b, want)
			}
		})
	}
}

// rollingCase is a snapshot, the rolling update's and manage's writes.
type rollingCase struct {
	name        string
	mu, ms      *intorpercent.IntOrString
	minReady    int32
	layout      string
	rollCreate  int
	rollDelete  []string // exact pods, or nil when only the count matters
	rollDeleteN int
	manage      Decision
	reason      string
}

func runRolling(t *testing.T, tests []rollingCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.mu, tt.ms).layout(t, tt.layout)
			f.ds.MinReadySeconds = tt.minReady
			r := f.rolling(t)
			if len(r.Create) != tt.rollCreate {
				t.Errorf("rolling creates on %v, want %d nodes (%s)", r.Create, tt.rollCreate, tt.reason)
			}
			if tt.rollDelete != nil {
				if diff := cmp.Diff(tt.rollDelete, r.Delete); diff != "" {
					t.Errorf("rolling deletes mismatch (-want +got) (%s):\n%s", tt.reason, diff)
				}
			} else if len(r.Delete) != tt.rollDeleteN {
				t.Errorf("rolling deletes %v, want %d pods (%s)", r.Delete, tt.rollDeleteN, tt.reason)
			}
			m := f.manage(t)
			if diff := cmp.Diff(tt.manage, m); diff != "" {
				t.Errorf("manage mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestD3DeletesUpToMaxUnavailable(t *testing.T) {
	five := "o:r o:r o:r o:r o:r"
	runRolling(t, []rollingCase{
		{name: "mu 1", mu: num(1), layout: five, rollDeleteN: 1},
		{name: "mu 2", mu: num(2), layout: five, rollDeleteN: 2},
		{name: "mu 50%", mu: str("50%"), layout: five, rollDeleteN: 3, reason: "50% of 5 rounds up to 3"},
		{name: "mu 10%", mu: str("10%"), layout: five, rollDeleteN: 1, reason: "10% of 5 rounds up to 1"},
		{name: "0/0 on 3 nodes", mu: num(0), ms: num(0), layout: "o:r o:r o:r", rollDeleteN: 1, reason: "0/0 becomes maxUnavailable 1"},
	})
}

func TestD4UnreadyOldPodsReplacedOutsideBudget(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "mu 1", mu: num(1), layout: "o:u o:u o:r o:r", rollDelete: []string{"n0-0", "n1-0"},
			reason: "both unready old pods go; 2 unavailable >= 1 leaves no room for an available one"},
	})
}

func TestD5UnavailableNodesUseTheBudget(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "unready old", mu: num(2), layout: "o:u o:r o:r o:r", rollDelete: []string{"n0-0", "n1-0"}},
		{name: "unready new", mu: num(2), layout: "n:u o:r o:r o:r", rollDelete: []string{"n1-0"}},
		{name: "ready new", mu: num(2), layout: "n:r o:r o:r o:r", rollDelete: []string{"n1-0", "n2-0"}},
	})
}

func TestD6EmptyNodeCountsUnavailable(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "mu 1", mu: num(1), layout: "(empty) o:r o:r", manage: Decision{Create: []string{"n0"}}},
	})
}

func TestD7TerminatingPodCountsUnavailable(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "mu 1", mu: num(1), layout: "o:t o:r o:r", reason: "no creation beside a terminating pod without surge"},
		{name: "mu 2", mu: num(2), layout: "o:t o:r o:r", rollDeleteN: 1},
	})
}

func TestD8OldAndNewOnOneNode(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "mu 1", mu: num(1), layout: "o:r,n:r o:r o:r", manage: Decision{Delete: []string{"n0-1"}},
			reason: "manage keeps the oldest pod, the old one; the node counts unavailable"},
	})
}

func TestD9MinReadySeconds(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "new pod not yet available", mu: num(1), minReady: 60, layout: "n:y o:r o:r"},
	})
}

func TestD10NoScheduleNode(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "ns:o:r ok:o:r ok:o:r")
	st, err := CalculateStatus(f.ds, f.nodes, f.pods, f.newHash, t0)
	if err != nil {
		t.Fatal(err)
	}
	if st.DesiredNumberScheduled != 2 || st.NumberMisscheduled != 1 {
		t.Errorf("status = %+v, want desired 2, misscheduled 1", st)
	}
	if r := f.rolling(t); len(r.Delete) != 1 || len(r.Create) != 0 {
		t.Errorf("rolling = %+v, want one deletion (any of the 3 old pods)", r)
	}
}

func TestD11ManageDeletes(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "NoExecute node", mu: num(1), layout: "ne:o:r o:r o:r", rollDeleteN: 1, manage: Decision{Delete: []string{"n0-0"}}},
		{name: "failed pod", mu: num(1), layout: "o:f o:r o:r", rollDelete: []string{"n0-0"}, manage: Decision{Delete: []string{"n0-0"}},
			reason: "the failed old pod is unavailable: rolling replaces it too"},
	})
}

func TestD12SurgeCreates(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "ms 1 of 3", ms: num(1), layout: "o:r o:r o:r", rollCreate: 1},
		{name: "ms 2 of 5", ms: num(2), layout: "o:r o:r o:r o:r o:r", rollCreate: 2},
		{name: "ms 30% of 5", ms: str("30%"), layout: "o:r o:r o:r o:r o:r", rollCreate: 2, reason: "30% of 5 rounds up to 2"},
		{name: "ms 100% of 3", ms: str("100%"), layout: "o:r o:r o:r", rollCreate: 3},
	})
}

func TestD13SurgeWaitsForNewPod(t *testing.T) {
	runRolling(t, []rollingCase{{name: "new unready", ms: num(1), layout: "o:r,n:u o:r o:r"}})
}

func TestD14SurgeReplacesOldWhenNewAvailable(t *testing.T) {
	runRolling(t, []rollingCase{{name: "new ready", ms: num(1), layout: "o:r,n:r o:r o:r", rollCreate: 1, rollDelete: []string{"n0-0"},
		manage: Decision{Delete: []string{"n0-0"}}}})
}

func TestD15SurgeOldNotReady(t *testing.T) {
	runRolling(t, []rollingCase{{name: "both unready", ms: num(1), layout: "o:u,n:u o:r o:r", manage: Decision{Delete: []string{"n0-0"}}}})
}

func TestD16SurgeMinReadySeconds(t *testing.T) {
	runRolling(t, []rollingCase{{name: "new ready 5s", ms: num(1), minReady: 60, layout: "o:r,n:y o:r o:r"}})
}

func TestD17SurgeUnavailableOldOutsideBudget(t *testing.T) {
	runRolling(t, []rollingCase{{name: "two unready", ms: num(1), layout: "o:u o:u o:r", rollCreate: 3}})
}

func TestD18SurgeEmptyAndTerminating(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "empty node", ms: num(1), layout: "(empty) o:r o:r", rollCreate: 1, manage: Decision{Create: []string{"n0"}}},
		{name: "terminating pod", ms: num(1), layout: "o:t o:r o:r", rollCreate: 1, manage: Decision{Create: []string{"n0"}}},
	})
}

func TestD19SurgeNotWantedNodes(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "NoSchedule ready", ms: num(1), layout: "ns:o:r ok:o:r ok:o:r", rollCreate: 1, rollDelete: []string{"n0-0"},
			reason: "3 available - 2 desired = 1 pod on the unwanted node may go"},
		{name: "NoSchedule unready", ms: num(1), layout: "ns:o:u ok:o:r ok:o:r", rollCreate: 1, rollDelete: []string{"n0-0"}},
		{name: "two NoSchedule, one empty", ms: num(1), layout: "ns:o:r ns:o:r ok:o:r ok:(empty)", rollCreate: 1, rollDelete: []string{"n0-0"},
			manage: Decision{Create: []string{"n3"}}, reason: "3 available - 2 desired = 1 of the 2 pods on unwanted nodes may go"},
		{name: "NoExecute", ms: num(1), layout: "ne:o:r ok:o:r ok:o:r", rollCreate: 1, rollDelete: []string{"n0-0"},
			manage: Decision{Delete: []string{"n0-0"}}},
	})
}

func TestD20DuplicateOldPods(t *testing.T) {
	runRolling(t, []rollingCase{
		{name: "mu 1", mu: num(1), layout: "o:r,o:r o:r o:r", manage: Decision{Delete: []string{"n0-1"}}},
		{name: "ms 1", ms: num(1), layout: "o:r,o:r o:r o:r", manage: Decision{Delete: []string{"n0-1"}}},
	})
}

func TestD21SurgeCountsWaitingNodes(t *testing.T) {
	runRolling(t, []rollingCase{{name: "two surging", ms: num(1), minReady: 60, layout: "o:r,n:y o:r,n:y o:r"}})
}

func TestD22Status(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "ok:o:r ok:n:y ok:n:u ok:(empty) ns:o:r ne:o:r")
	f.ds.MinReadySeconds = 60
	st, err := CalculateStatus(f.ds, f.nodes, f.pods, f.newHash, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := Status{ObservedGeneration: 1, DesiredNumberScheduled: 4, CurrentNumberScheduled: 3, NumberMisscheduled: 2,
		NumberReady: 2, UpdatedNumberScheduled: 2, NumberAvailable: 1, NumberUnavailable: 3}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("CalculateStatus mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Decision{Create: []string{"n3"}, Delete: []string{"n5-0"}}, f.manage(t)); diff != "" {
		t.Errorf("manage mismatch (-want +got):\n%s", diff)
	}
}

func TestD23StatusLooksAtOldestPod(t *testing.T) {
	f := newFixture(t, nil, num(1)).layout(t, "o:r,n:r n:r")
	st, err := CalculateStatus(f.ds, f.nodes, f.pods, f.newHash, t0)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpdatedNumberScheduled != 1 || st.NumberReady != 2 {
		t.Errorf("status = %+v, want updated 1, ready 2 (the old pod is the oldest on n0)", st)
	}
}

func TestD24TerminatingPodCountsReady(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:t o:r o:r")
	st, err := CalculateStatus(f.ds, f.nodes, f.pods, f.newHash, t0)
	if err != nil {
		t.Fatal(err)
	}
	if st.NumberReady != 3 || st.NumberAvailable != 3 {
		t.Errorf("status = %+v, want ready 3, available 3", st)
	}
}

func TestD25TemplateGenerationTrap(t *testing.T) {
	f := newFixture(t, num(1), nil).layout(t, "o:r o:r o:r")
	g := int64(1)
	f.ds.TemplateGeneration = &g
	for i := range f.pods {
		f.pods[i].TemplateGeneration = "1"
	}
	if r := f.rolling(t); len(r.Create)+len(r.Delete) != 0 {
		t.Errorf("rolling = %+v, want nothing: the generation label makes old-hash pods updated", r)
	}
	st, err := CalculateStatus(f.ds, f.nodes, f.pods, f.newHash, t0)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpdatedNumberScheduled != 3 {
		t.Errorf("updatedNumberScheduled = %d, want 3", st.UpdatedNumberScheduled)
	}
}

// fake drives the step functions the way the upstream unit tests' fake
// controller does: manage, its writes seen at once (a deleted pod is gone,
// a created pod is there, not ready), then the rolling update on the
// fresh listing, its writes seen at once too.
type fake struct {
	f *fixture
	k int
}

func (fk *fake) sync(t *testing.T) (creates, deletes int) {
	t.Helper()
	m := fk.f.manage(t)
	fk.apply(m)
	r := fk.f.rolling(t)
	fk.apply(r)
	return len(m.Create) + len(r.Create), len(m.Delete) + len(r.Delete)
}

func (fk *fake) apply(d Decision) {
	f := fk.f
	f.pods = slices.DeleteFunc(f.pods, func(p Pod) bool { return slices.Contains(d.Delete, p.Name) })
	for _, node := range d.Create {
		fk.k++
		f.pods = append(f.pods, Pod{Name: fmt.Sprintf("new-%d", fk.k), Node: node, Hash: f.newHash, Phase: PodPending, Created: t0.Add(time.Duration(fk.k) * time.Second)})
	}
}

// ready marks every pod ready long ago, but those for which never says no.
func (fk *fake) ready(never func(*Pod) bool) {
	for i := range fk.f.pods {
		p := &fk.f.pods[i]
		if never != nil && never(p) {
			continue
		}
		p.Phase, p.Ready, p.ReadySince = PodRunning, true, t0.Add(-time.Hour)
	}
}

type counts struct{ c, d int }

func (fk *fake) run(t *testing.T, script string, never func(*Pod) bool) []counts {
	var got []counts
	for _, word := range strings.Fields(script) {
		if word == "ready" {
			fk.ready(never)
			continue
		}
		c, d := fk.sync(t)
		got = append(got, counts{c, d})
	}
	return got
}

func TestD26RollingUpdateSequence(t *testing.T) {
	fk := &fake{f: newFixture(t, num(2), nil).layout(t, "o:r o:r o:r o:r o:r")}
	got := fk.run(t, "sync sync ready sync sync ready sync sync ready sync", nil)
	want := []counts{{0, 2}, {2, 0}, {0, 2}, {2, 0}, {0, 1}, {1, 0}, {0, 0}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(counts{})); diff != "" {
		t.Errorf("syncs (creates, deletes) mismatch (-want +got):\n%s", diff)
	}
}

func TestD27AllOldPodsNeverReady(t *testing.T) {
	fk := &fake{f: newFixture(t, num(3), nil).layout(t, "o:u o:u o:u o:u o:u")}
	got := fk.run(t, "sync sync sync", nil)
	want := []counts{{0, 5}, {5, 0}, {0, 0}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(counts{})); diff != "" {
		t.Errorf("syncs (creates, deletes) mismatch (-want +got):\n%s", diff)
	}
}

func TestD28SaveOldHealthyPods(t *testing.T) {
	line := strings.TrimSpace(strings.Repeat("x:u ", 10) + strings.Repeat("o:r ", 10))
	for mu := int32(0); mu <= 11; mu++ {
		if mu == 10 {
			continue
		}
		t.Run(fmt.Sprintf("mu %d", mu), func(t *testing.T) {
			ms := num(0)
			f := newFixture(t, num(mu), ms).layout(t, line)
			r := f.rolling(t)
			var want []string
			for k := range 10 {
				want = append(want, fmt.Sprintf("n%d-0", k))
			}
			if mu == 11 {
				want = append(want, "n10-0")
			}
			slices.Sort(want)
			got := slices.Sorted(slices.Values(r.Delete))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rolling deletes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestD29OldNotReadyAmongNewNotReady(t *testing.T) {
	line := strings.Repeat("n:u ", 88) + "o:u o:u " + strings.TrimSpace(strings.Repeat("o:r ", 10))
	fk := &fake{f: newFixture(t, num(10), nil).layout(t, line)}
	first := fk.f.rolling(t)
	if diff := cmp.Diff([]string{"n88-0", "n89-0"}, first.Delete); diff != "" || len(first.Create) != 0 {
		t.Errorf("rolling = %+v, want the 2 unavailable old pods deleted (-want +got):\n%s", first, diff)
	}
	fk.apply(first)
	if m := fk.f.manage(t); len(m.Create) != 2 {
		t.Errorf("manage creates on %v, want 2 nodes", m.Create)
	}
}

func TestD30MaxSurgeSequence(t *testing.T) {
	fk := &fake{f: newFixture(t, nil, num(2)).layout(t, "o:r o:r o:r o:r o:r")}
	got := fk.run(t, "sync ready sync ready sync ready sync", nil)
	want := []counts{{2, 0}, {2, 2}, {1, 2}, {0, 1}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(counts{})); diff != "" {
		t.Errorf("syncs (creates, deletes) mismatch (-want +got):\n%s", diff)
	}
}

// clockFake is fake with a clock and a hash that changes with the
// template, for the upstream test that moves both.
type clockFake struct {
	ds   *DaemonSet[spec]
	hash string
	now  time.Time
	k    int
	pods []Pod
	node []Node
}

func (c *clockFake) sync(t *testing.T) counts {
	t.Helper()
	m, err := Manage(c.ds, c.node, c.pods, c.hash, c.now)
	if err != nil {
		t.Fatal(err)
	}
	c.apply(m)
	r, err := RollingUpdateStep(c.ds, c.node, c.pods, c.hash, c.now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.apply(r)
	return counts{len(m.Create) + len(r.Create), len(m.Delete) + len(r.Delete)}
}

func (c *clockFake) apply(d Decision) {
	c.pods = slices.DeleteFunc(c.pods, func(p Pod) bool { return slices.Contains(d.Delete, p.Name) })
	for _, node := range d.Create {
		c.k++
		c.pods = append(c.pods, Pod{Name: fmt.Sprintf("pod-%d", c.k), Node: node, Hash: c.hash, Phase: PodRunning, Created: c.now})
	}
}

// setReady sets the readiness of at most count pods for which pick says
// yes, in pod order, at the current time.
func (c *clockFake) setReady(ready bool, count int, pick func(*Pod) bool) {
	for i := range c.pods {
		p := &c.pods[i]
		if count == 0 {
			return
		}
		if p.Ready == ready || !pick(p) {
			continue
		}
		p.Ready, p.ReadySince = ready, c.now
		count--
	}
}

func TestD31SurgeWithOldPodsNeverReady(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(int64(s), 0).UTC() }
	f := newFixture(t, num(0), num(3)).layout(t, "o:u o:u o:u o:u o:u")
	c := &clockFake{ds: f.ds, hash: f.newHash, pods: f.pods, node: f.nodes}
	for i := range c.pods {
		c.pods[i].Created = at(0)
	}
	var got []counts
	step := func(s int) { c.now = at(s); got = append(got, c.sync(t)) }
	step(100)
	step(200)
	c.setReady(true, 5, func(*Pod) bool { return true })
	f.ds.MinReadySeconds = 15
	f.ds.Template = spec{Image: "v3"}
	c.hash = Hash(&f.ds.Template, nil)
	step(300)
	c.now = at(300)
	hasNew := map[string]bool{}
	for _, p := range c.pods {
		if p.Hash == c.hash {
			hasNew[p.Node] = true
		}
	}
	c.setReady(true, 2, func(p *Pod) bool { return p.Hash == c.hash })
	c.setReady(false, 1, func(p *Pod) bool { return p.Hash != c.hash && !hasNew[p.Node] })
	step(310)
	step(320)
	c.setReady(true, 3, func(p *Pod) bool { return p.Hash == c.hash })
	step(340)
	step(350)
	want := []counts{{5, 0}, {0, 5}, {3, 0}, {1, 0}, {1, 3}, {0, 2}, {0, 0}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(counts{})); diff != "" {
		t.Errorf("syncs (creates, deletes) mismatch (-want +got):\n%s", diff)
	}
}
