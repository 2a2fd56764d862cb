package main

import (
	"os"
	"strings"
	"testing"
)

// FuzzDecodeShortErrors checks that no manifest makes decoding panic and
// that a rejected one gets a short message: no Go type names, and never
// the document itself.
func FuzzDecodeShortErrors(f *testing.F) {
	for _, s := range []string{
		"hello world", "- a\n- b\n", `{"a": 1}`, "kind: Deployment\n", "a: b: c\n", "\x00\x01",
		readFuzzSeed(f, "testdata/statefulset.yaml"), readFuzzSeed(f, "testdata/nginx-deployment.yaml"),
		readFuzzSeed(f, "testdata/nginx-replicasets.yaml"), readFuzzSeed(f, "testdata/unknown-field.yaml"),
		`{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "ten", "template": {"spec": {"containers": 3}}}}`,
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {creationTimestamp: yesterday}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var objs objects
		err := objs.decode("input", strings.NewReader(doc))
		if err == nil {
			return
		}
		msg := err.Error()
		for _, bad := range []string{"Go struct field", "Go value of type", "struct {", "in scheme"} {
			if strings.Contains(msg, bad) {
				t.Fatalf("decode(%q) = %q: names a Go type (%q)", doc, msg, bad)
			}
		}
		if d := strings.TrimSpace(doc); len(d) > 40 && strings.Contains(msg, d) {
			t.Fatalf("decode(%q) = %q: quotes the whole document", doc, msg)
		}
	})
}

func readFuzzSeed(f *testing.F, name string) string {
	f.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}
