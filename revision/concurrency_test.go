package revision

import (
	"sync"
	"testing"
)

// TestConcurrentUse compares and hashes from several goroutines at once,
// for the race detector: the type cache and the map scratch pools are the
// package's only shared state.
func TestConcurrentUse(t *testing.T) {
	want := Hash(ptrTo(realisticTemplate()), nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				a, b := realisticTemplate(), withHash(realisticTemplate(), "h")
				b.Spec.Containers[g%3].Resources.Limits["cpu"] = quantity{1000, "1000m"}
				if !EqualIgnoreHash(&a, &b) {
					t.Errorf("goroutine %d: EqualIgnoreHash = false", g)
				}
				if got := Hash(&a, nil); got != want {
					t.Errorf("goroutine %d: Hash = %q, want %q", g, got, want)
				}
			}
		}()
	}
	wg.Wait()
}
