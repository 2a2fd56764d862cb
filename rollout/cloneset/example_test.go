package cloneset_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/intorpercent"
	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func ExampleDefaultMaxUnavailable() {
	v := cloneset.DefaultMaxUnavailable()
	fmt.Println(v.IsString, v.Str)
	// Output: true 20%
}

func ExampleCalculatePartitionReplicas() {
	for _, tc := range []struct {
		partition intorpercent.IntOrString
		replicas  int32
	}{
		{intorpercent.IntOrString{IsString: true, Str: "60%"}, 17},
		{intorpercent.IntOrString{IsString: true, Str: "99%"}, 9},    // kept below replicas: one pod is updated
		{intorpercent.IntOrString{IsString: true, Str: "100%"}, 9},   // the literal "100%" keeps every pod
		{intorpercent.IntOrString{IsString: true, Str: "100.0%"}, 9}, // any other text for 100% does not
		{intorpercent.IntOrString{IsString: true, Str: "0.01%"}, 9},  // rounded up: one pod is kept
		{intorpercent.IntOrString{Int: 12}, 10},                      // counts are clamped
	} {
		p, err := cloneset.CalculatePartitionReplicas(&tc.partition, tc.replicas)
		text := tc.partition.Str
		if !tc.partition.IsString {
			text = fmt.Sprint(tc.partition.Int)
		}
		fmt.Printf("%-6s of %2d replicas keeps %2d old pods (err %v)\n", text, tc.replicas, p, err)
	}
	_, err := cloneset.CalculatePartitionReplicas(&intorpercent.IntOrString{IsString: true, Str: "60"}, 10)
	fmt.Println(err)
	// Output:
	// 60%    of 17 replicas keeps 11 old pods (err <nil>)
	// 99%    of  9 replicas keeps  8 old pods (err <nil>)
	// 100%   of  9 replicas keeps  9 old pods (err <nil>)
	// 100.0% of  9 replicas keeps  8 old pods (err <nil>)
	// 0.01%  of  9 replicas keeps  1 old pods (err <nil>)
	// 12     of 10 replicas keeps 10 old pods (err <nil>)
	// cloneset: spec.updateStrategy.partition: "60": invalid type: string is not a percentage
}
