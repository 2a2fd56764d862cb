package kubeapps_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps/internal/equalgen"
)

// TestGeneratedComparatorIsUpToDate regenerates equal_generated.go from
// the corev1 types this module builds with and requires the file to be
// the same: a k8s.io/api upgrade that adds a field must regenerate it
// (go generate .), or the field would go uncompared.
func TestGeneratedComparatorIsUpToDate(t *testing.T) {
	want, err := equalgen.PodTemplate()
	if err != nil {
		t.Fatalf("generating: %v", err)
	}
	got, err := os.ReadFile("equal_generated.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("equal_generated.go differs from what equalgen writes for these corev1 types: run go generate .")
	}
}
