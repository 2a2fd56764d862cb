package main

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/golden"
)

// TestReadmeCloneSet checks that the README's OpenKruise CloneSet section
// holds this program byte for byte and the output it prints.
func TestReadmeCloneSet(t *testing.T) {
	golden.CheckReadme(t, "../../README.md", "OpenKruise CloneSet")
}
