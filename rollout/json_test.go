package rollout

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// jsonRoundTrip encodes v with encoding/json, checks that the text holds
// each of names, and decodes it into a new value.
func jsonRoundTrip[V any](t *testing.T, v V, names ...string) V {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	for _, n := range names {
		if !strings.Contains(string(b), n) {
			t.Errorf("json.Marshal(%T) = %s, want it to contain %s", v, b, n)
		}
	}
	var back V
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	return back
}

// TestSyncJSONRoundTrip checks that a Sync from Plan, here the sync that
// creates the new ReplicaSet of a rollout, reads back from its JSON as an
// equal value, with its enums written by name.
func TestSyncJSONRoundTrip(t *testing.T) {
	d, rss := settled(10, "nginx:1.9")
	d.Template = image("nginx:1.9.3")
	d.Generation++
	s, err := Plan(&d, rss, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actions) == 0 || s.Hash == "" {
		t.Fatalf("Plan created nothing: %+v", s)
	}
	back := jsonRoundTrip(t, s, `"path":"RollingUpdate"`, `"kind":"CreateReplicaSet"`, `"replicaSets":[{"name":"nginx-1"`,
		`"newReplicaSet":1`, `"status":{"observedGeneration":2`, `"reason":"created new ReplicaSet`)
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("Sync JSON round trip mismatch (-want +got):\n%s", diff)
	}
}

// TestTraceJSONRoundTrip checks that a Trace from Simulate, with a
// rollout, a resize and a pause, reads back from its JSON as an equal
// value, with its enums written by name.
func TestTraceJSONRoundTrip(t *testing.T) {
	d, rss, cfg := canonical(Event[tmpl]{Sync: 3, Kind: SetReplicas, Replicas: 14}, Event[tmpl]{Sync: 5, Kind: Pause}, Event[tmpl]{Sync: 7, Kind: Resume})
	cfg.TerminationDelay = 15 * time.Second
	tr, err := Simulate(&d, rss, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != OutcomeComplete || len(tr.Steps) < 3 {
		t.Fatalf("Simulate = %v", &tr)
	}
	back := jsonRoundTrip(t, tr, `"outcome":"Complete"`, `"path":"scaling"`, `"path":"paused"`, `"kind":"ScaleReplicaSet"`,
		`"steps":[{"sync":1,`, `"terminating":`)
	if diff := cmp.Diff(tr, back); diff != "" {
		t.Errorf("Trace JSON round trip mismatch (-want +got):\n%s", diff)
	}
}

// TestDeploymentManifestJSON: maxSurge and maxUnavailable decode from a
// manifest's JSON (a count as a number, a percentage as a string) and
// encode back to the same JSON; a quoted count, which a Value cannot
// hold, fails to decode in intorpercent's words.
func TestDeploymentManifestJSON(t *testing.T) {
	const in = `{"replicas":10,"maxSurge":1,"maxUnavailable":"25%"}`
	var got Deployment[json.RawMessage]
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", in, err)
	}
	surge, unavailable := intorpercent.Int(1), intorpercent.Percent(25)
	want := Deployment[json.RawMessage]{Replicas: 10, MaxSurge: &surge, MaxUnavailable: &unavailable}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b intorpercent.Value) bool { return a == b })); diff != "" {
		t.Fatalf("json.Unmarshal(%s) mismatch (-want +got):\n%s", in, diff)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	const out = `{"name":"","generation":0,"replicas":10,"maxSurge":1,"maxUnavailable":"25%","template":null,` +
		`"status":{"observedGeneration":0,"replicas":0,"updatedReplicas":0,"readyReplicas":0,"availableReplicas":0,"unavailableReplicas":0}}`
	if string(b) != out {
		t.Errorf("json.Marshal(json.Unmarshal(%s)) =\n  %s\nwant\n  %s", in, b, out)
	}

	const quoted = `{"replicas":10,"maxSurge":"40"}`
	err = json.Unmarshal([]byte(quoted), new(Deployment[json.RawMessage]))
	if wantErr := `intorpercent: parsing "40": a quoted value must be a percentage such as "25%"; write a count as a bare number`; err == nil || err.Error() != wantErr {
		t.Errorf("json.Unmarshal(%s) = %v, want %s", quoted, err, wantErr)
	}
}
