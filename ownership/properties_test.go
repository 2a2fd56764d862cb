package ownership

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

var (
	genKey   = rapid.SampledFrom([]string{"app", "tier", "env", "example.com/team"})
	genValue = rapid.SampledFrom([]string{"", "web", "api", "a"})
)

func genLabels() *rapid.Generator[map[string]string] {
	return rapid.Custom(func(t *rapid.T) map[string]string {
		if rapid.IntRange(0, 9).Draw(t, "nilLabels") == 0 {
			return nil
		}
		return rapid.MapOfN(genKey, genValue, 0, 4).Draw(t, "labels")
	})
}

// genSelector draws valid selectors, nil and empty ones included.
func genSelector() *rapid.Generator[*Selector] {
	return rapid.Custom(func(t *rapid.T) *Selector {
		switch rapid.IntRange(0, 9).Draw(t, "selectorShape") {
		case 0:
			return nil
		case 1:
			return &Selector{}
		}
		s := &Selector{MatchLabels: rapid.MapOfN(genKey, genValue, 0, 2).Draw(t, "matchLabels")}
		n := rapid.IntRange(0, 3).Draw(t, "expressions")
		for i := 0; i < n; i++ {
			op := rapid.SampledFrom([]Operator{In, NotIn, Exists, DoesNotExist}).Draw(t, "operator")
			r := Requirement{Key: genKey.Draw(t, "key"), Operator: op}
			if op == In || op == NotIn {
				r.Values = rapid.SliceOfN(genValue, 1, 3).Draw(t, "values")
			}
			s.MatchExpressions = append(s.MatchExpressions, r)
		}
		return s
	})
}

// slowHolds is a reference for one requirement, written from the
// apimachinery doc rather than from holds.
func slowHolds(key string, op Operator, vals []string, labels map[string]string) bool {
	present := false
	value := ""
	for k, v := range labels {
		if k == key {
			present, value = true, v
		}
	}
	inSet := slices.Contains(vals, value)
	switch op {
	case In:
		return present && inSet
	case NotIn:
		return !(present && inSet)
	case Exists:
		return present
	case DoesNotExist:
		return !present
	}
	panic("unknown operator " + op)
}

func TestSelectorMatchesIffEveryRequirementHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSelector().Draw(t, "selector")
		labels := genLabels().Draw(t, "labels")
		got, err := s.Matches(labels)
		if err != nil {
			t.Fatalf("Matches(%v) on a valid selector: %v", labels, err)
		}
		want := s != nil
		if s != nil {
			for k, v := range s.MatchLabels {
				want = want && slowHolds(k, In, []string{v}, labels)
			}
			for _, r := range s.MatchExpressions {
				want = want && slowHolds(r.Key, r.Operator, r.Values, labels)
			}
		}
		if got != want {
			t.Fatalf("%+v.Matches(%v) = %v, want %v", s, labels, got, want)
		}
	})
}

func genClaimWorld(t *rapid.T) ([]Controller, []Object) {
	n := rapid.IntRange(1, 3).Draw(t, "controllers")
	cs := make([]Controller, n)
	for i := range cs {
		cs[i] = Controller{
			Namespace: rapid.SampledFrom([]string{"", "default", "other"}).Draw(t, "controllerNamespace"),
			Name:      "d" + string(rune('0'+i)),
			UID:       "uid-d" + string(rune('0'+i)),
			Selector:  genSelector().Draw(t, "selector"),
			Deleting:  rapid.IntRange(0, 5).Draw(t, "controllerDeleting") == 0,
		}
	}
	m := rapid.IntRange(0, 6).Draw(t, "objects")
	objs := make([]Object, m)
	for i := range objs {
		o := Object{
			Namespace: rapid.SampledFrom([]string{"default", "other"}).Draw(t, "namespace"),
			Name:      "rs" + string(rune('0'+i)),
			UID:       "uid-rs" + string(rune('0'+i)),
			Labels:    genLabels().Draw(t, "labels"),
			Deleting:  rapid.IntRange(0, 5).Draw(t, "deleting") == 0,
		}
		if owner := rapid.IntRange(-2, n-1).Draw(t, "owner"); owner >= 0 {
			o.OwnerReferences = append(o.OwnerReferences, OwnerReference{Kind: KindDeployment, Name: cs[owner].Name, UID: cs[owner].UID, Controller: true})
		} else if owner == -1 {
			o.OwnerReferences = append(o.OwnerReferences, OwnerReference{Kind: KindDeployment, Name: "gone", UID: "uid-gone", Controller: true})
		}
		objs[i] = o
	}
	return cs, objs
}

// apply writes c's adoptions and releases onto objs as the API server
// applies upstream's patches: adoption adds a controller reference,
// release deletes every reference with c's UID.
func apply(c *Controller, objs []Object, cl Claims) []Object {
	out := slices.Clone(objs)
	for _, i := range cl.Adopt {
		out[i].OwnerReferences = append(slices.Clone(out[i].OwnerReferences), OwnerReference{APIVersion: "apps/v1", Kind: KindDeployment, Name: c.Name, UID: c.UID, Controller: true, BlockOwnerDeletion: true})
	}
	for _, i := range cl.Release {
		out[i].OwnerReferences = slices.DeleteFunc(slices.Clone(out[i].OwnerReferences), func(r OwnerReference) bool { return r.UID == c.UID })
	}
	return out
}

func TestClaimIsIdempotent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs, objs := genClaimWorld(t)
		c := &cs[0]
		first, err := ClaimAll(c, objs, nil)
		if err != nil {
			t.Fatalf("ClaimAll: %v", err)
		}
		second, err := ClaimAll(c, apply(c, objs, first), nil)
		if err != nil {
			t.Fatalf("ClaimAll after the writes: %v", err)
		}
		if !slices.Equal(first.Owned, second.Owned) || len(second.Adopt) != 0 || len(second.Release) != 0 {
			t.Fatalf("after the writes, ClaimAll owns %v adopts %v releases %v; first pass owned %v", second.Owned, second.Adopt, second.Release, first.Owned)
		}
	})
}

func TestObjectNeverAdoptedByTwoControllers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs, objs := genClaimWorld(t)
		adoptedBy := map[int]string{}
		order := rapid.Permutation(cs).Draw(t, "syncOrder")
		for rounds := 0; rounds < 2; rounds++ {
			for i := range order {
				c := &order[i]
				cl, err := ClaimAll(c, objs, nil)
				if err != nil {
					t.Fatalf("ClaimAll(%s): %v", c.Name, err)
				}
				for _, j := range cl.Adopt {
					if prev, ok := adoptedBy[j]; ok && prev != c.Name {
						t.Fatalf("%s adopted by %s and then by %s", objs[j].Name, prev, c.Name)
					}
					adoptedBy[j] = c.Name
				}
				objs = apply(c, objs, cl)
				for _, o := range objs {
					n := 0
					for _, r := range o.OwnerReferences {
						if r.Controller {
							n++
						}
					}
					if n > 1 {
						t.Fatalf("%s has %d controller references: %+v", o.Name, n, o.OwnerReferences)
					}
				}
			}
		}
	})
}

func TestClaimAllIsPureAndOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs, objs := genClaimWorld(t)
		c := &cs[0]
		before := slices.Clone(objs)
		for i := range before {
			before[i].OwnerReferences = slices.Clone(before[i].OwnerReferences)
		}
		cBefore := *c
		got, err := ClaimAll(c, objs, nil)
		if err != nil {
			t.Fatalf("ClaimAll: %v", err)
		}
		if diff := cmp.Diff(before, objs); diff != "" {
			t.Fatalf("ClaimAll modified its objects (-before +after):\n%s", diff)
		}
		if diff := cmp.Diff(cBefore, *c); diff != "" {
			t.Fatalf("ClaimAll modified its controller (-before +after):\n%s", diff)
		}
		perm := rapid.Permutation(func() []int {
			idx := make([]int, len(objs))
			for i := range idx {
				idx[i] = i
			}
			return idx
		}()).Draw(t, "permutation")
		shuffled := make([]Object, len(objs))
		for to, from := range perm {
			shuffled[to] = objs[from]
		}
		again, err := ClaimAll(c, shuffled, nil)
		if err != nil {
			t.Fatalf("ClaimAll(shuffled): %v", err)
		}
		for to, from := range perm {
			if got.Claims[from] != again.Claims[to] {
				t.Fatalf("claim of %s is %+v in one order, %+v in another", objs[from].Name, got.Claims[from], again.Claims[to])
			}
		}
	})
}

// TestRoutingDoesNotDependOnDeploymentOrder: the Deployments woken by a
// ReplicaSet event are the same whatever order the cache lists them in,
// and a ReplicaSet with a controller reference wakes at most one.
func TestRoutingDoesNotDependOnDeploymentOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs, objs := genClaimWorld(t)
		if len(objs) < 2 {
			return
		}
		old, cur := objs[0], objs[1]
		cur.Namespace, cur.Name = old.Namespace, old.Name
		cur.ResourceVersion = rapid.SampledFrom([]string{"1", "2"}).Draw(t, "resourceVersion")
		old.ResourceVersion = "1"
		names := func(ds []Controller, idx []int) []string {
			var out []string
			for _, i := range idx {
				out = append(out, ds[i].Name)
			}
			slices.Sort(out)
			return out
		}
		route := func(ds []Controller) [3][]string {
			a, err := ReplicaSetAdded(&cur, ds)
			if err != nil {
				t.Fatalf("ReplicaSetAdded: %v", err)
			}
			u, err := ReplicaSetUpdated(&old, &cur, ds)
			if err != nil {
				t.Fatalf("ReplicaSetUpdated: %v", err)
			}
			d, err := ReplicaSetDeleted(&cur, ds)
			if err != nil {
				t.Fatalf("ReplicaSetDeleted: %v", err)
			}
			if _, ok := cur.ControllerRef(); ok && (len(a) > 1 || len(d) > 1) {
				t.Fatalf("a controlled ReplicaSet woke %v on add, %v on delete", a, d)
			}
			return [3][]string{names(ds, a), names(ds, u), names(ds, d)}
		}
		want := route(cs)
		if got := route(rapid.Permutation(cs).Draw(t, "order")); !cmp.Equal(got, want) {
			t.Fatalf("woken %v in one order, %v in another", got, want)
		}
	})
}
