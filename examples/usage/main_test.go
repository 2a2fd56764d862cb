package main

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/golden"
)

// TestReadmeUsage checks that the README's Usage section holds this
// program byte for byte and the output it prints.
func TestReadmeUsage(t *testing.T) {
	golden.CheckReadme(t, "../../README.md", "Usage")
}
