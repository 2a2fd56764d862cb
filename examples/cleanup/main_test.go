package main

import (
	"bytes"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/golden"
)

func TestRunGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := run(&buf); err != nil {
		t.Fatalf("run() = %v, want nil", err)
	}
	golden.Check(t, "cleanup.golden", buf.Bytes())
}
