package argo_test

import (
	"encoding/json"
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout/argo"
)

func ExampleActionKind_String() {
	fmt.Println(argo.ScaleReplicaSet, argo.AddScaleDownDeadline, argo.ActionKind(99))
	// Output: ScaleReplicaSet AddScaleDownDeadline ActionKind(99)
}

// Actions encode their kind by name.
func ExampleActionKind_MarshalText() {
	b, _ := json.Marshal(argo.ScaleReplicaSet)
	fmt.Println(string(b))
	// Output: "ScaleReplicaSet"
}

// An unknown name is an error, not a zero kind.
func ExampleActionKind_UnmarshalText() {
	var k argo.ActionKind
	fmt.Println(json.Unmarshal([]byte(`"ScaleReplicaSet"`), &k), k)
	fmt.Println(json.Unmarshal([]byte(`"Explode"`), &k))
	// Output:
	// <nil> ScaleReplicaSet
	// argo: ActionKind: "Explode": unknown name
}

func ExampleEventKind_String() {
	fmt.Println(argo.SetTemplate, argo.Abort, argo.EventKind(99))
	// Output: SetTemplate Abort EventKind(99)
}

func ExampleOutcome_String() {
	fmt.Println(argo.OutcomeComplete, argo.OutcomeAborted)
	// Output: Complete Aborted
}
