package kubeapps

import "github.com/rolloutmath/rolloutmath/revision"

//go:generate go run ../internal/equalgen/cmd/equalgen -o equal_generated.go

// The generated comparator replaces the reflective one for corev1 pod
// templates (see the package comment).
func init() {
	revision.RegisterEqualIgnoreHash(equalPodTemplateIgnoringHash)
}
