package cloneset_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout/cloneset"
)

func ExampleDefaultMaxUnavailable() {
	v := cloneset.DefaultMaxUnavailable()
	fmt.Println(v.IsString, v.Str)
	// Output: true 20%
}
