package batchrelease_test

import (
	"encoding/json"
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout/batchrelease"
)

func ExampleActionKind_String() {
	fmt.Println(batchrelease.WritePartition, batchrelease.TakeControl, batchrelease.ActionKind(99))
	// Output: WritePartition TakeControl ActionKind(99)
}

// Phases, states and kinds encode by name, as the CRD writes them.
func ExamplePhase_MarshalText() {
	b, _ := json.Marshal(struct {
		Phase batchrelease.Phase      `json:"phase"`
		State batchrelease.BatchState `json:"batchState"`
		Kind  batchrelease.Kind       `json:"kind"`
	}{batchrelease.Progressing, batchrelease.Ready, batchrelease.CloneSet})
	fmt.Println(string(b))
	// Output: {"phase":"Progressing","batchState":"Ready","kind":"CloneSet"}
}

// An unknown name is an error, not a zero value.
func ExampleBatchState_UnmarshalText() {
	var s batchrelease.BatchState
	fmt.Println(json.Unmarshal([]byte(`"Verifying"`), &s), s)
	fmt.Println(json.Unmarshal([]byte(`"Done"`), &s))
	// Output:
	// <nil> Verifying
	// batchrelease: BatchState: "Done": unknown name
}
