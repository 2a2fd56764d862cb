package main

import (
	"strings"
	"testing"
)

// TestRunWarnsAboutMissingRevisions runs the mid-rollout manifests without
// their ControllerRevisions: the pods' revisions are missing, kruise
// recreates them, and the program prints the first sync's warning on stderr, once.
func TestRunWarnsAboutMissingRevisions(t *testing.T) {
	manifest := readTestdata(t, "testdata/web-cloneset.yaml")
	cut := strings.Index(manifest, "\n- apiVersion: apps/v1\n")
	if cut < 0 {
		t.Fatal("testdata/web-cloneset.yaml holds no ControllerRevision item")
	}
	code, stdout, stderr := runArgs(t, manifest[:cut+1], "-f", "-", "-f", "testdata/web-pods.yaml")
	if code != 0 || stdout == "" {
		t.Fatalf("run = %d with stdout %q, want 0 and a table", code, stdout)
	}
	want := "clonesetplan: warning: 3 pods (web-8xq2p, web-j7vzt, web-tq9mn) are at revision web-7f6869486c, which is not among the revisions: kruise cannot update them in place (InPlaceIfPossible recreates them, InPlaceOnly fails); pass all the CloneSet's ControllerRevisions\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}
