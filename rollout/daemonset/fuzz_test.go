package daemonset

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/intorpercent"
	"pgregory.net/rapid"
)

// drawIntOrString draws an int-or-percent as a user might write it,
// well-formed or not.
func drawIntOrString(t *rapid.T, label string) *intorpercent.IntOrString {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		return num(rapid.Int32Range(-2, 12).Draw(t, label))
	case 2:
		return str(fmt.Sprintf("%d%%", rapid.IntRange(0, 150).Draw(t, label)))
	}
	return str(rapid.SampledFrom([]string{"", "5", "abc", "1.5%", "%", "-5%", "05%", "99999999999999999999%"}).Draw(t, label))
}

// planProperty checks one Plan over anything: it never panics, it fails
// only with a field error, and when it succeeds its writes are
// consistent and its result passes validation.
func planProperty(t *rapid.T) {
	f := drawSnapshot(t)
	ru := &RollingUpdateParams{MaxUnavailable: drawIntOrString(t, "maxUnavailable"), MaxSurge: drawIntOrString(t, "maxSurge")}
	f.ds.UpdateStrategy.RollingUpdate = ru
	if rapid.Bool().Draw(t, "duplicatePod") && len(f.pods) > 0 {
		f.pods = append(f.pods, f.pods[0])
	}
	if rapid.Bool().Draw(t, "orphan") {
		f.pods = append(f.pods, Pod{Name: "orphan", Node: "gone", Unscheduled: rapid.Bool().Draw(t, "orphanUnscheduled")})
	}
	s, err := Plan(f.ds, f.nodes, f.pods, f.revisions, t0)
	if err != nil {
		if !errors.Is(err, field.ErrInvalid) {
			t.Fatalf("Plan error %v does not wrap field.ErrInvalid", err)
		}
		if len(Validate(f.ds)) == 0 && !strings.Contains(err.Error(), "duplicate name") {
			t.Fatalf("Plan failed on a valid DaemonSet without duplicates: %v", err)
		}
		return
	}
	if errs := Validate(&s.DaemonSet); len(errs) > 0 {
		t.Fatalf("the DaemonSet after the sync fails Validate: %v", errs)
	}
	if errs := ValidateStatus(&s.DaemonSet.Status); len(errs) > 0 {
		t.Fatalf("the status fails ValidateStatus: %v", errs)
	}
	nodes := map[string]bool{}
	for _, n := range f.nodes {
		nodes[n.Name] = true
	}
	pods := map[string]bool{}
	for _, p := range f.pods {
		pods[p.Name] = true
	}
	deleted := map[string]bool{}
	for _, a := range s.Actions {
		switch a.Kind {
		case CreatePod:
			if !nodes[a.Node] || pods[a.Pod] {
				t.Fatalf("CreatePod %s on %s: unknown node or a name taken", a.Pod, a.Node)
			}
			pods[a.Pod] = true
		case DeletePod:
			if !pods[a.Pod] || deleted[a.Pod] {
				t.Fatalf("DeletePod %s: unknown or deleted twice", a.Pod)
			}
			deleted[a.Pod] = true
		}
	}
}

func FuzzPlan(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(planProperty))
}

func TestPlanProperty(t *testing.T) {
	rapid.Check(t, planProperty)
}

// percentPattern is the API server's percent pattern, for the slow
// reference.
var percentPattern = regexp.MustCompile(`^[0-9]+%$`)

// referenceRollingUpdate is ValidateRollingUpdate written from the API
// server's rules with a regular expression, as a reference.
func referenceRollingUpdate(mu, ms intorpercent.IntOrString) []string {
	const p = "spec.updateStrategy.rollingUpdate."
	var out []string
	value := func(v intorpercent.IntOrString) (int, bool) {
		if v.IsString && percentPattern.MatchString(v.Str) {
			n, _ := strconv.Atoi(strings.TrimSuffix(v.Str, "%"))
			return n, true
		}
		return 0, false
	}
	for _, c := range []struct {
		v    intorpercent.IntOrString
		name string
	}{{mu, "maxUnavailable"}, {ms, "maxSurge"}} {
		if c.v.IsString && !percentPattern.MatchString(c.v.Str) {
			out = append(out, p+c.name+": Invalid value: "+strconv.Quote(c.v.Str)+": "+percentRule)
		} else if !c.v.IsString && c.v.Int < 0 {
			out = append(out, fmt.Sprintf("%s%s: Invalid value: %d: must be greater than or equal to 0", p, c.name, c.v.Int))
		}
	}
	for _, c := range []struct {
		v    intorpercent.IntOrString
		name string
	}{{mu, "maxUnavailable"}, {ms, "maxSurge"}} {
		if n, ok := value(c.v); ok && n > 100 {
			out = append(out, p+c.name+": Invalid value: "+strconv.Quote(c.v.Str)+": must not be greater than 100%")
		}
	}
	zero := func(v intorpercent.IntOrString) bool {
		if n, ok := value(v); ok {
			return n == 0
		}
		if !v.IsString {
			return v.Int == 0
		}
		n, _ := strconv.Atoi(v.Str)
		return n == 0
	}
	switch {
	case !zero(mu) && !zero(ms):
		w := strconv.Itoa(int(ms.Int))
		if ms.IsString {
			w = strconv.Quote(ms.Str)
		}
		out = append(out, p+"maxSurge: Invalid value: "+w+": may not be set when maxUnavailable is non-zero")
	case zero(mu) && zero(ms):
		out = append(out, p+"maxUnavailable: Required value: cannot be 0 when maxSurge is 0")
	}
	return out
}

func validateProperty(t *rapid.T) {
	var mu, ms intorpercent.IntOrString
	if v := drawIntOrString(t, "maxUnavailable"); v != nil {
		mu = *v
	}
	if v := drawIntOrString(t, "maxSurge"); v != nil {
		ms = *v
	}
	var got []string
	for _, e := range ValidateRollingUpdate(mu, ms) {
		got = append(got, e.Error())
	}
	want := referenceRollingUpdate(mu, ms)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ValidateRollingUpdate(%v, %v) =\n%s\nwant\n%s", mu, ms, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func FuzzValidate(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(validateProperty))
}

func TestValidateRollingUpdateMatchesReference(t *testing.T) {
	rapid.Check(t, validateProperty)
}
