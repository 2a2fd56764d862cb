package manifesttime_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/manifesttime"
)

func ExampleLatest() {
	pod := map[string]any{
		"metadata": map[string]any{"creationTimestamp": "2026-11-20T09:00:00Z"},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": "2026-11-20T09:00:12Z"},
		}},
	}
	now, ok, err := manifesttime.Latest(pod)
	fmt.Println(now, ok, err)
	// Output:
	// 2026-11-20 09:00:12 +0000 UTC true <nil>
}

func ExampleParse() {
	now, err := manifesttime.Parse("2026-11-20T10:30:00+01:00")
	fmt.Println(now, err)
	_, err = manifesttime.Parse("2026-11-20")
	fmt.Println(err)
	// Output:
	// 2026-11-20 09:30:00 +0000 UTC <nil>
	// --now "2026-11-20": want an RFC 3339 time such as 2026-11-20T09:30:00Z
}
