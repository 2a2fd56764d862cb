package ownership_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rolloutmath/rolloutmath/field"
	"github.com/rolloutmath/rolloutmath/ownership"
)

func ExampleSelector_Matches() {
	sel := &ownership.Selector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []ownership.Requirement{
			{Key: "tier", Operator: ownership.In, Values: []string{"frontend", "canary"}},
			{Key: "legacy", Operator: ownership.DoesNotExist},
		},
	}
	for _, labels := range []map[string]string{
		{"app": "web", "tier": "frontend"},
		{"app": "web", "tier": "frontend", "legacy": "true"},
		{"app": "web"},
	} {
		ok, err := sel.Matches(labels)
		fmt.Println(labels, ok, err)
	}
	var none *ownership.Selector
	all := &ownership.Selector{}
	n, _ := none.Matches(map[string]string{"app": "web"})
	a, _ := all.Matches(nil)
	fmt.Println("nil selects:", n, "empty selects:", a)
	// Output:
	// map[app:web tier:frontend] true <nil>
	// map[app:web legacy:true tier:frontend] false <nil>
	// map[app:web] false <nil>
	// nil selects: false empty selects: true
}

func ExampleSelector_Validate() {
	for _, sel := range []*ownership.Selector{
		{MatchExpressions: []ownership.Requirement{{Key: "tier", Operator: "Gt", Values: []string{"1"}}}},
		{MatchExpressions: []ownership.Requirement{{Key: "tier", Operator: ownership.In}}},
		{MatchExpressions: []ownership.Requirement{{Key: "tier", Operator: ownership.Exists, Values: []string{"a"}}}},
		{MatchLabels: map[string]string{"example.com/app": "web"}},
	} {
		err := sel.Validate()
		fmt.Println(err, errors.Is(err, ownership.ErrInvalidSelector))
	}
	// Output:
	// "Gt" is not a valid label selector operator true
	// values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty true
	// values: Invalid value: ["a"]: values set must be empty for exists and does not exist true
	// <nil> false
}

// Validate's errors are *field.Errors, with fields relative to the
// requirement.
func ExampleSelector_Validate_fieldError() {
	err := (&ownership.Selector{MatchLabels: map[string]string{"app": "-web"}}).Validate()
	var se *field.Error
	fmt.Println(errors.As(err, &se), se.Field, errors.Is(err, field.ErrInvalid))
	fmt.Println(se.Error())
	// Output:
	// true values[0][app] true
	// values[0][app]: Invalid value: "-web": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
}

// ValidateFields words a selector's problems as the API server's
// validation does, all of them, at the selector's own path.
func ExampleSelector_ValidateFields() {
	sel := &ownership.Selector{
		MatchLabels: map[string]string{"app": "web", "bad key": "x"},
		MatchExpressions: []ownership.Requirement{
			{Key: "tier", Operator: ownership.In},
			{Key: "tier", Operator: ownership.Exists, Values: []string{"a"}},
			{Key: "tier", Operator: "Gt", Values: []string{"1"}},
		},
	}
	errs := sel.ValidateFields("spec.selector")
	for _, e := range errs {
		fmt.Println(e)
	}
	fmt.Println(errors.Is(errs.ToError(), ownership.ErrInvalidSelector), (&ownership.Selector{MatchLabels: map[string]string{"app": "web"}}).ValidateFields("spec.selector") == nil)
	// Output:
	// spec.selector.matchLabels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
	// spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'
	// spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'
	// spec.selector.matchExpressions[2].operator: Invalid value: "Gt": not a valid selector operator
	// true true
}

func ExampleParseSelector_errors() {
	_, err := ownership.ParseSelector("a in (b")
	fmt.Println(err)
	fmt.Println(errors.Is(err, field.ErrInvalid), errors.Is(err, ownership.ErrInvalidSelector))
	// Output:
	// ownership: parsing "a in (b": found end of string, expected a value, ',' or ')'
	// true true
}

func ExampleSelector_Empty() {
	var none *ownership.Selector
	fmt.Println(none.Empty(), (&ownership.Selector{}).Empty(), (&ownership.Selector{MatchLabels: map[string]string{"app": "web"}}).Empty())
	// Output: false true false
}

func ExampleObject_ControllerRef() {
	rs := ownership.Object{Name: "web-5d4c", OwnerReferences: []ownership.OwnerReference{
		{Kind: "ConfigMap", Name: "extra", UID: "u-1"},
		{Kind: "Deployment", Name: "web", UID: "u-web", Controller: true},
	}}
	ref, ok := rs.ControllerRef()
	fmt.Println(ref.Kind, ref.Name, ok)
	// Output: Deployment web true
}

func ExampleClaimObject() {
	web := ownership.Controller{Namespace: "prod", Name: "web", UID: "u-web",
		Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}}
	orphan := ownership.Object{Namespace: "prod", Name: "web-old", UID: "u-1", Labels: map[string]string{"app": "web"}}
	c, err := ownership.ClaimObject(&web, &orphan, nil)
	fmt.Println(c.Decision, "-", c.Reason, err)

	relabelled := ownership.Object{Namespace: "prod", Name: "web-debug", UID: "u-2",
		Labels: map[string]string{"app": "debug"}, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u-web", Controller: true, BlockOwnerDeletion: true}}}
	c, err = ownership.ClaimObject(&web, &relabelled, nil)
	fmt.Println(c.Decision, "-", c.Reason, err)

	// The fresh read finds web being deleted: the adoption is refused.
	c, err = ownership.ClaimObject(&web, &orphan, &ownership.Recheck{UID: "u-web", Deleting: true})
	fmt.Println(c.Decision, "-", err)
	// Output:
	// Adopt - orphan whose labels match the selector: adopted <nil>
	// Release - controlled by this controller, but its labels no longer match the selector: released <nil>
	// Ignore - can't adopt prod/web-old (u-1): prod/web has just been deleted
}

func ExampleClaimAll() {
	web := ownership.Controller{Namespace: "prod", Name: "web", UID: "u-web",
		Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}}
	rss := []ownership.Object{
		{Namespace: "prod", Name: "web-5d4c", UID: "u-1", Labels: map[string]string{"app": "web"}, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u-web", Controller: true, BlockOwnerDeletion: true}}},
		{Namespace: "prod", Name: "web-manual", UID: "u-2", Labels: map[string]string{"app": "web"}},
		{Namespace: "prod", Name: "web-debug", UID: "u-3", Labels: map[string]string{"app": "debug"}, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u-web", Controller: true, BlockOwnerDeletion: true}}},
		{Namespace: "prod", Name: "api-7f9b", UID: "u-4", Labels: map[string]string{"app": "web"}, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "api", UID: "u-api", Controller: true, BlockOwnerDeletion: true}}},
	}
	cl, err := ownership.ClaimAll(&web, rss, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range cl.Claims {
		fmt.Printf("%-10s %-7s %s\n", rss[i].Name, c.Decision, c.Reason)
	}
	fmt.Println("owned:", cl.Owned, "adopt:", cl.Adopt, "release:", cl.Release)
	// Output:
	// web-5d4c   Keep    controlled by this controller and its labels match the selector
	// web-manual Adopt   orphan whose labels match the selector: adopted
	// web-debug  Release controlled by this controller, but its labels no longer match the selector: released
	// api-7f9b   Ignore  controlled by Deployment api (uid u-api), not this controller
	// owned: [0 1] adopt: [1] release: [2]
}

func ExampleDecision_String() {
	fmt.Println(ownership.Ignore, ownership.Keep, ownership.Adopt, ownership.Release)
	// Output: Ignore Keep Adopt Release
}

func ExampleDecision_MarshalText() {
	b, _ := json.Marshal(ownership.Claim{Decision: ownership.Adopt, Reason: "orphan"})
	fmt.Println(string(b))
	// Output: {"decision":"Adopt","reason":"orphan"}
}

func ExampleAdoptError_Error() {
	web := ownership.Controller{Namespace: "prod", Name: "web", UID: "u-web",
		Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}}
	orphan := ownership.Object{Namespace: "prod", Name: "web-old", UID: "u-1", Labels: map[string]string{"app": "web"}}
	// A Deployment of the same name was recreated: the UID differs.
	_, err := ownership.ClaimObject(&web, &orphan, &ownership.Recheck{UID: "u-web-2"})
	var ae *ownership.AdoptError
	fmt.Println(errors.As(err, &ae), ae.Name)
	fmt.Println(err)
	// Output:
	// true web-old
	// can't adopt prod/web-old (u-1): can't recheck DeletionTimestamp: original Deployment prod/web is gone: got uid u-web-2, wanted u-web
}

func ExampleAdoptError_Unwrap() {
	web := ownership.Controller{Namespace: "prod", Name: "web", UID: "u-web",
		Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}}
	orphan := ownership.Object{Namespace: "prod", Name: "web-old", Labels: map[string]string{"app": "web"}}
	_, err := ownership.ClaimObject(&web, &orphan, &ownership.Recheck{Gone: true})
	fmt.Println(errors.Is(err, ownership.ErrAdoptionRefused), err)
	// Output: true can't adopt prod/web-old (): can't recheck DeletionTimestamp: prod/web not found
}

func ExampleReplicaSetAdded() {
	deployments := []ownership.Controller{
		{Namespace: "prod", Name: "web", UID: "u-web", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}},
		{Namespace: "prod", Name: "api", UID: "u-api", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "api"}}, Recreate: true},
		{Namespace: "prod", Name: "all", UID: "u-all", Selector: &ownership.Selector{}},
	}
	owned := ownership.Object{Namespace: "prod", Name: "web-5d4c", Labels: map[string]string{"app": "web"}, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u-web", Controller: true, BlockOwnerDeletion: true}}}
	orphan := ownership.Object{Namespace: "prod", Name: "api-manual", Labels: map[string]string{"app": "api"}}
	stale := ownership.Object{Namespace: "prod", Name: "web-old", OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u-web-before", Controller: true, BlockOwnerDeletion: true}}}
	for _, rs := range []ownership.Object{owned, orphan, stale} {
		woken, _ := ownership.ReplicaSetAdded(&rs, deployments)
		fmt.Println(rs.Name, woken) // the empty selector of "all" never wakes it
	}
	// Output:
	// web-5d4c [0]
	// api-manual [1]
	// web-old []
}

func ExampleReplicaSetUpdated() {
	deployments := []ownership.Controller{
		{Namespace: "prod", Name: "web", UID: "u-web", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}},
		{Namespace: "prod", Name: "api", UID: "u-api", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "api"}}, Recreate: true},
		{Namespace: "prod", Name: "all", UID: "u-all", Selector: &ownership.Selector{}},
	}
	old := ownership.Object{Namespace: "prod", Name: "rs", ResourceVersion: "7", Labels: map[string]string{"app": "web"}, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u-web", Controller: true, BlockOwnerDeletion: true}}}
	// Released by web and relabelled for api: both wake.
	cur := ownership.Object{Namespace: "prod", Name: "rs", ResourceVersion: "8", Labels: map[string]string{"app": "api"}}
	woken, _ := ownership.ReplicaSetUpdated(&old, &cur, deployments)
	fmt.Println(woken)
	// A resync delivers the same version: nothing wakes.
	woken, _ = ownership.ReplicaSetUpdated(&old, &old, deployments)
	fmt.Println(woken)
	// Output:
	// [0 1]
	// []
}

func ExampleReplicaSetDeleted() {
	deployments := []ownership.Controller{
		{Namespace: "prod", Name: "web", UID: "u-web", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}},
		{Namespace: "prod", Name: "api", UID: "u-api", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "api"}}, Recreate: true},
		{Namespace: "prod", Name: "all", UID: "u-all", Selector: &ownership.Selector{}},
	}
	owned := ownership.Object{Namespace: "prod", Name: "web-5d4c", OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u-web", Controller: true, BlockOwnerDeletion: true}}}
	orphan := ownership.Object{Namespace: "prod", Name: "api-manual", Labels: map[string]string{"app": "api"}}
	a, _ := ownership.ReplicaSetDeleted(&owned, deployments)
	b, _ := ownership.ReplicaSetDeleted(&orphan, deployments)
	fmt.Println(a, b)
	// Output: [0] []
}

func ExamplePodDeleted() {
	deployments := []ownership.Controller{
		{Namespace: "prod", Name: "web", UID: "u-web", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "web"}}},
		{Namespace: "prod", Name: "api", UID: "u-api", Selector: &ownership.Selector{MatchLabels: map[string]string{"app": "api"}}, Recreate: true},
		{Namespace: "prod", Name: "all", UID: "u-all", Selector: &ownership.Selector{}},
	}
	rss := []ownership.Object{{Namespace: "prod", Name: "api-6c8d", UID: "u-rs", Labels: map[string]string{"app": "api"}, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "api", UID: "u-api", Controller: true, BlockOwnerDeletion: true}}}}
	pod := func(name string) ownership.Object {
		return ownership.Object{Namespace: "prod", Name: name, UID: "u-" + name, OwnerReferences: []ownership.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "api-6c8d", UID: "u-rs", Controller: true, BlockOwnerDeletion: true}}}
	}
	// Recreate waits for the last old pod: one is left, so api stays asleep.
	woken, _ := ownership.PodDeleted(&[]ownership.Object{pod("p1")}[0], rss, []ownership.Object{pod("p2")}, deployments)
	fmt.Println(woken)
	woken, _ = ownership.PodDeleted(&[]ownership.Object{pod("p2")}[0], rss, nil, deployments)
	fmt.Println(woken)
	// Output:
	// []
	// [1]
}

func ExampleParseSelector() {
	sel, err := ownership.ParseSelector("app=web, tier in (frontend,canary), !legacy")
	if err != nil {
		fmt.Println(err)
		return
	}
	ok, _ := sel.Matches(map[string]string{"app": "web", "tier": "canary"})
	fmt.Println(ok, len(sel.MatchExpressions))
	_, err = ownership.ParseSelector("app in (web")
	fmt.Println(err)
	_, err = ownership.ParseSelector("replicas>3")
	fmt.Println(err)
	// Output:
	// true 3
	// ownership: parsing "app in (web": found end of string, expected a value, ',' or ')'
	// ownership: parsing "replicas>3": found ">" at byte 8: the numeric comparisons > and < are not supported by apps/v1 label selectors
}

func ExampleSelector_String() {
	sel := &ownership.Selector{
		MatchLabels:      map[string]string{"app": "web"},
		MatchExpressions: []ownership.Requirement{{Key: "tier", Operator: ownership.NotIn, Values: []string{"canary"}}, {Key: "legacy", Operator: ownership.DoesNotExist}},
	}
	fmt.Println(sel.String())
	back, _ := ownership.ParseSelector(sel.String())
	fmt.Println(back.String())
	// Output:
	// app=web,tier notin (canary),!legacy
	// app in (web),tier notin (canary),!legacy
}
