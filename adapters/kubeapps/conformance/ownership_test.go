package conformance

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/kubernetes/pkg/controller"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps"
	"github.com/rolloutmath/rolloutmath/ownership"
)

// Label keys and values: valid ones that collide often, and invalid ones
// that break each rule of content.IsLabelKey and IsLabelValue.
var (
	validKeys     = []string{"app", "tier", "example.com/team", "a.b_c-d"}
	invalidKeys   = []string{"", "a b", "-app", "app-", "/app", "example.com/", "Example.com/app", "a/b/c", "x/" + strings.Repeat("k", 64), strings.Repeat("p", 254) + "/app", "ex_ample.com/app", "ünï"}
	validValues   = []string{"", "web", "api", "A.b-c_9"}
	invalidValues = []string{"x y", "-web", "web-", strings.Repeat("v", 64), "<b>", "a/b"}
	operators     = []metav1.LabelSelectorOperator{metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn, metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist}
	badOperators  = []metav1.LabelSelectorOperator{"Gt", "", "in", "Equals"}
)

// labelKey draws a key, invalid with probability about 1/bad (never when
// bad is 0).
func labelKey(bad int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		if bad > 0 && rapid.IntRange(0, bad-1).Draw(t, "badKey") == 0 {
			return rapid.SampledFrom(invalidKeys).Draw(t, "invalidKey")
		}
		return rapid.SampledFrom(validKeys).Draw(t, "key")
	})
}

func labelValue(bad int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		if bad > 0 && rapid.IntRange(0, bad-1).Draw(t, "badValue") == 0 {
			return rapid.SampledFrom(invalidValues).Draw(t, "invalidValue")
		}
		return rapid.SampledFrom(validValues).Draw(t, "value")
	})
}

// labelSelector draws a metav1.LabelSelector: nil, empty (with nil or
// empty fields), or with entries; with bad > 0 some entries are invalid
// (keys, values, operators, value counts).
func labelSelector(bad int) *rapid.Generator[*metav1.LabelSelector] {
	return rapid.Custom(func(t *rapid.T) *metav1.LabelSelector {
		switch rapid.IntRange(0, 11).Draw(t, "selectorShape") {
		case 0:
			return nil
		case 1:
			return &metav1.LabelSelector{}
		case 2:
			return &metav1.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []metav1.LabelSelectorRequirement{}}
		}
		s := &metav1.LabelSelector{}
		if rapid.IntRange(0, 3).Draw(t, "hasMatchLabels") > 0 {
			s.MatchLabels = rapid.MapOfN(labelKey(bad), labelValue(bad), 0, 3).Draw(t, "matchLabels")
		}
		n := rapid.IntRange(0, 3).Draw(t, "expressions")
		for i := 0; i < n; i++ {
			op := rapid.SampledFrom(operators).Draw(t, "operator")
			if bad > 0 && rapid.IntRange(0, 2*bad-1).Draw(t, "badOperator") == 0 {
				op = rapid.SampledFrom(badOperators).Draw(t, "invalidOperator")
			}
			r := metav1.LabelSelectorRequirement{Key: labelKey(bad).Draw(t, "key"), Operator: op}
			lo, hi := 1, 3
			if op == metav1.LabelSelectorOpExists || op == metav1.LabelSelectorOpDoesNotExist {
				lo, hi = 0, 0
			}
			if bad > 0 && rapid.IntRange(0, bad-1).Draw(t, "badCount") == 0 {
				lo, hi = 0, 2
			}
			if vals := rapid.SliceOfN(labelValue(bad), lo, hi).Draw(t, "values"); len(vals) > 0 || rapid.Bool().Draw(t, "emptyNotNil") {
				r.Values = vals
			}
			s.MatchExpressions = append(s.MatchExpressions, r)
		}
		return s
	})
}

// labelSet draws the labels of an object: keys and values the selectors
// use, so that matches are frequent.
func labelSet() *rapid.Generator[map[string]string] {
	return rapid.Custom(func(t *rapid.T) map[string]string {
		if rapid.IntRange(0, 9).Draw(t, "nilLabels") == 0 {
			return nil
		}
		return rapid.MapOfN(rapid.SampledFrom(validKeys), rapid.SampledFrom(validValues), 0, 4).Draw(t, "labels")
	})
}

// The documented difference of Selector.Validate: upstream reads
// matchLabels in Go's random map order, so with several invalid entries
// it names a random one; the library names the first in key order.
const severalInvalidClass = "several invalid matchLabels entries: upstream names one at random, the library the first by key"

func TestSelectorMatchesLabelSelectorAsSelector(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := labelSelector(4).Draw(t, "selector")
		set := labelSet().Draw(t, "labels")
		sel := kubeapps.Selector(ls)
		got, err := sel.Matches(set)
		up, upErr := metav1.LabelSelectorAsSelector(ls)
		if (err == nil) != (upErr == nil) {
			t.Fatalf("Matches error %v, upstream %v, selector %#v", err, upErr, ls)
		}
		if err != nil {
			if !errors.Is(err, ownership.ErrInvalidSelector) {
				t.Fatalf("error %v does not wrap ErrInvalidSelector", err)
			}
			if err.Error() == upErr.Error() {
				count("LabelSelectorAsSelector + Matches", "agree")
				return
			}
			// Both must name one of the invalid matchLabels entries.
			var each []string
			for k, v := range ls.MatchLabels {
				if e := (&ownership.Selector{MatchLabels: map[string]string{k: v}}).Validate(); e != nil {
					each = append(each, e.Error())
				}
			}
			if len(each) > 1 && slices.Contains(each, err.Error()) && slices.Contains(each, upErr.Error()) {
				count("LabelSelectorAsSelector + Matches", severalInvalidClass)
				return
			}
			t.Fatalf("error\n%s\nupstream\n%s\nselector %#v", err, upErr, ls)
		}
		if want := up.Matches(labels.Set(set)); got != want {
			t.Fatalf("Matches(%v) = %v, upstream %v, selector %#v", set, got, want, ls)
		}
		if sel.Empty() != up.Empty() {
			t.Fatalf("Empty() = %v, upstream %v, selector %#v", sel.Empty(), up.Empty(), ls)
		}
		count("LabelSelectorAsSelector + Matches", "agree")
	})
}

// recordingRSControl records the patches ClaimReplicaSets sends.
type recordingRSControl struct{ patches []kubeapps.Patch }

func (r *recordingRSControl) PatchReplicaSet(_ context.Context, namespace, name string, data []byte) error {
	r.patches = append(r.patches, kubeapps.Patch{Namespace: namespace, Name: name, Type: types.StrategicMergePatchType, Data: slices.Clone(data)})
	return nil
}

// claimWorld draws a Deployment, the ReplicaSets a lister returns and
// what a fresh read of the Deployment returns.
func claimWorld(t *rapid.T) (*appsv1.Deployment, []*appsv1.ReplicaSet, *ownership.Recheck) {
	now := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{
		Namespace: rapid.SampledFrom([]string{"default", "default", ""}).Draw(t, "deploymentNamespace"),
		Name:      "web", UID: types.UID(rapid.SampledFrom([]string{"uid-web", ""}).Draw(t, "deploymentUID")),
	}}
	if rapid.IntRange(0, 5).Draw(t, "deploymentDeleting") == 0 {
		d.DeletionTimestamp = &now
	}
	d.Spec.Selector = labelSelector(0).Draw(t, "selector")
	other := []types.UID{"uid-other", ""}
	n := rapid.IntRange(0, 6).Draw(t, "replicaSets")
	rss := make([]*appsv1.ReplicaSet, n)
	for i := range rss {
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{
			Namespace: rapid.SampledFrom([]string{"default", "other"}).Draw(t, "namespace"),
			Name:      fmt.Sprintf("rs-%d", i), UID: types.UID(fmt.Sprintf("uid-rs-%d", i)),
			Labels: labelSet().Draw(t, "labels"),
		}}
		if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
			rs.DeletionTimestamp = &now
		}
		nrefs := rapid.IntRange(0, 2).Draw(t, "ownerReferences")
		for j := 0; j < nrefs; j++ {
			uid := d.UID
			if rapid.Bool().Draw(t, "otherOwner") {
				uid = rapid.SampledFrom(other).Draw(t, "otherUID")
			}
			isController := rapid.IntRange(0, 3).Draw(t, "controller")
			ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: rapid.SampledFrom([]string{"Deployment", "StatefulSet"}).Draw(t, "kind"), Name: "web", UID: uid}
			switch isController {
			case 0:
				ref.Controller = nil
			case 1:
				ref.Controller = new(bool)
			default:
				ref.Controller = &[]bool{true}[0]
			}
			rs.OwnerReferences = append(rs.OwnerReferences, ref)
		}
		rss[i] = rs
	}
	var recheck *ownership.Recheck
	switch rapid.IntRange(0, 5).Draw(t, "recheck") {
	case 0:
		recheck = &ownership.Recheck{Gone: true}
	case 1:
		recheck = &ownership.Recheck{UID: "uid-replaced"}
	case 2:
		recheck = &ownership.Recheck{UID: string(d.UID), Deleting: true}
	case 3:
		recheck = &ownership.Recheck{UID: string(d.UID)}
	}
	return d, rss, recheck
}

func TestClaimAllMatchesClaimReplicaSets(t *testing.T) {
	var adopting, releasing, refused atomic.Int64
	rapid.Check(t, func(t *rapid.T) {
		d, rss, recheck := claimWorld(t)
		before := make([]*appsv1.ReplicaSet, len(rss))
		for i, rs := range rss {
			before[i] = rs.DeepCopy()
		}

		// Upstream, with a recording patcher and a canAdopt that answers
		// as the fresh read would.
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			t.Fatalf("generated an invalid selector: %v", err)
		}
		rec := &recordingRSControl{}
		canAdoptCalls := 0
		canAdopt := func(context.Context) error {
			canAdoptCalls++
			switch {
			case recheck == nil:
				return nil
			case recheck.Gone:
				return errors.New("can't recheck DeletionTimestamp: not found")
			case recheck.UID != string(d.UID):
				return fmt.Errorf("can't recheck DeletionTimestamp: original Deployment %s/%s is gone: got uid %s, wanted %s", d.Namespace, d.Name, recheck.UID, d.UID)
			case recheck.Deleting:
				return fmt.Errorf("%s/%s has just been deleted", d.Namespace, d.Name)
			}
			return nil
		}
		cm := controller.NewReplicaSetControllerRefManager(rec, d, sel, appsv1.SchemeGroupVersion.WithKind("Deployment"), canAdopt)
		claimed, upErr := cm.ClaimReplicaSets(context.Background(), rss)

		// The library.
		c := kubeapps.Controller(d)
		cl, err := ownership.ClaimAll(&c, kubeapps.Objects(rss), recheck)
		if !reflect.DeepEqual(before, rss) {
			t.Fatalf("the ReplicaSets changed during the claims")
		}

		gotOwned := make([]string, len(cl.Owned))
		for i, j := range cl.Owned {
			gotOwned[i] = rss[j].Name
		}
		slices.Sort(gotOwned)
		wantOwned := objectNames(claimed)
		if !slices.Equal(gotOwned, wantOwned) {
			t.Fatalf("owned %v, upstream claimed %v", gotOwned, wantOwned)
		}
		// The same patches: upstream sends them in list order, adoptions
		// and releases interleaved; ClaimPatches sends adoptions first.
		patches, perr := kubeapps.ClaimPatches(d, rss, cl)
		if perr != nil {
			t.Fatalf("ClaimPatches: %v", perr)
		}
		key := func(p kubeapps.Patch) string {
			return p.Namespace + "/" + p.Name + " " + string(p.Type) + " " + string(p.Data)
		}
		got, want := make([]string, len(patches)), make([]string, len(rec.patches))
		for i, p := range patches {
			got[i] = key(p)
		}
		for i, p := range rec.patches {
			want[i] = key(p)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("patches\n%v\nupstream\n%v", got, want)
		}
		// The same failures: one refused adoption per would-be adoptee.
		var agg utilerrors.Aggregate
		upN := 0
		if errors.As(upErr, &agg) {
			upN = len(agg.Errors())
		} else if upErr != nil {
			upN = 1
		}
		gotN := 0
		if err != nil {
			gotN = len(err.(interface{ Unwrap() []error }).Unwrap())
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				if !errors.Is(e, ownership.ErrAdoptionRefused) {
					t.Fatalf("error %v is not a refused adoption", e)
				}
			}
		}
		if gotN != upN {
			t.Fatalf("%d errors (%v), upstream %d (%v)", gotN, err, upN, upErr)
		}
		if upErr != nil && !strings.HasPrefix(upErr.Error(), "[can't adopt ReplicaSet ") && !strings.HasPrefix(upErr.Error(), "can't adopt ReplicaSet ") {
			t.Fatalf("unexpected upstream error %v", upErr)
		}
		// canAdopt runs once per sync, only if an adoption is attempted.
		attempted := len(cl.Adopt) > 0 || gotN > 0
		if (canAdoptCalls > 0) != attempted {
			t.Fatalf("upstream rechecked %d times, the library attempted adoptions: %v", canAdoptCalls, attempted)
		}
		if len(cl.Adopt) > 0 {
			adopting.Add(1)
		}
		if len(cl.Release) > 0 {
			releasing.Add(1)
		}
		if gotN > 0 {
			refused.Add(1)
		}
		count("ClaimReplicaSets (claims, patches, errors)", "agree")
	})
	t.Logf("%d cases adopt, %d release, %d refuse an adoption", adopting.Load(), releasing.Load(), refused.Load())
}

// selectorString draws a selector string: mostly the String of a drawn
// selector, otherwise a run of tokens of the grammar (words, keywords,
// symbols, spaces, invalid keys and values), valid or not.
func selectorString() *rapid.Generator[string] {
	pieces := []string{"a", "tier", "example.com/team", "in", "notin", "web", "1", "=", "==", "!=", "!", "(", ")", ",", " ", "\t", "<", ">", "-x", "a b", "", "x/y/z", "\x00"}
	return rapid.Custom(func(t *rapid.T) string {
		if rapid.Bool().Draw(t, "fromSelector") {
			if s := kubeapps.Selector(labelSelector(0).Draw(t, "selector")); s != nil {
				return s.String()
			}
			return ""
		}
		return strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 10).Draw(t, "pieces"), "")
	})
}

// The documented difference of ParseSelector: labels.Parse accepts the
// numeric comparisons key>n and key<n, which an apps/v1 selector cannot
// hold; ParseSelector rejects them.
const numericClass = "key>n or key<n: valid upstream, rejected here"

func TestParseSelectorMatchesLabelsParse(t *testing.T) {
	var valid atomic.Int64
	rapid.Check(t, func(t *rapid.T) {
		in := selectorString().Draw(t, "selector")
		got, err := ownership.ParseSelector(in)
		up, upErr := labels.Parse(in)
		if err != nil && upErr == nil {
			reqs, _ := up.Requirements()
			for _, r := range reqs {
				if r.Operator() == "gt" || r.Operator() == "lt" {
					count("labels.Parse + Matches", numericClass)
					return
				}
			}
		}
		if (err == nil) != (upErr == nil) {
			t.Fatalf("ParseSelector(%q) error %v, upstream %v", in, err, upErr)
		}
		if err != nil {
			count("labels.Parse + Matches", "agree")
			return
		}
		valid.Add(1)
		for i := 0; i < 4; i++ {
			set := labelSet().Draw(t, "labels")
			ok, merr := got.Matches(set)
			if merr != nil {
				t.Fatalf("ParseSelector(%q) gave an invalid selector: %v", in, merr)
			}
			if want := up.Matches(labels.Set(set)); ok != want {
				t.Fatalf("ParseSelector(%q).Matches(%v) = %v, upstream %v", in, set, ok, want)
			}
		}
		count("labels.Parse + Matches", "agree")
	})
	t.Logf("%d valid selectors", valid.Load())
}
