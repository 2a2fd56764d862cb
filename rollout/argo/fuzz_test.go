package argo

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzSplitForWeight: no input panics; the result keeps its bounds.
func FuzzSplitForWeight(f *testing.F) {
	for _, c := range [][4]int32{{0, 50, 100, 1}, {1, 49, 100, 0}, {3, 50, 100, 0}, {10, 24, 100, 1}, {3, 5, 1000, 1}, {2147483647, 99, 100, 1}} {
		f.Add(c[0], c[1], c[2], c[3])
	}
	f.Fuzz(func(t *testing.T, r, w, m, s int32) {
		c, st := SplitForWeight(r, w, m, s)
		if r == 0 && (c != 0 || st != 0) {
			t.Fatalf("SplitForWeight(0, ...) = %d/%d", c, st)
		}
		if r > 0 && m > 0 && w >= 0 && w <= m {
			total := int64(c) + int64(st)
			if c < 0 || st < 0 || (total != int64(r) && total != int64(r)+1) {
				t.Fatalf("SplitForWeight(%d, %d, %d, %d) = %d/%d", r, w, m, s, c, st)
			}
		}
	})
}

// FuzzValidate: any Rollout JSON validates without panicking, and an
// error list is empty or every error names a spec field.
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`{"replicas":10,"strategy":{"canary":{"maxSurge":"0%","maxUnavailable":0,"steps":[{"setWeight":101},{"pause":{"duration":"abc"}}]}}}`,
		`{"strategy":{"blueGreen":{"activeService":"a","scaleDownDelayRevisionLimit":11}}}`,
		`{"strategy":{"canary":{"trafficRouting":{"istio":{},"maxTrafficWeight":1000},"steps":[{"setCanaryScale":{"weight":200}}]}}}`,
		`{"replicas":-1,"minReadySeconds":700,"strategy":{}}`,
		`{"strategy":{"canary":{"trafficRouting":{"istio":{"destinationRule":{"name":"web"}},"managedRoutes":[{"name":"h"}]},"steps":[{"setHeaderRoute":{"name":"h"}},{"setMirrorRoute":{"name":"m"}},{"setHeaderRoute":5}]}}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var ro Rollout[tmpl]
		if json.Unmarshal([]byte(in), &ro) != nil {
			return
		}
		for _, e := range Validate(&ro) {
			if len(e.Field) < 5 || e.Field[:5] != "spec." {
				t.Fatalf("Validate(%s): error %q names no spec field", in, e.Error())
			}
		}
	})
}

// FuzzPlan: any Rollout and ReplicaSets JSON plans without panicking;
// a planned sync writes no negative size and passes Validate, and
// planning again from its result does not fail.
func FuzzPlan(f *testing.F) {
	f.Add(`{"name":"web","replicas":10,"template":{"image":"v2"},"strategy":{"canary":{"steps":[{"setWeight":20},{"pause":{}}]}},"status":{"stableRS":"a","currentPodHash":"b"}}`,
		`[{"name":"web-a","podTemplateHash":"a","revision":1,"replicas":10,"statusReplicas":10,"readyReplicas":10,"availableReplicas":10,"template":{"image":"v1"}}]`, int64(0))
	f.Add(`{"name":"web","replicas":3,"template":{"image":"v2"},"strategy":{"blueGreen":{"activeService":"a","previewService":"p","previewReplicaCount":1}},"status":{"stableRS":"a","currentPodHash":"a","blueGreen":{"activeSelector":"a"}}}`,
		`[{"name":"web-a","podTemplateHash":"a","revision":1,"replicas":3,"statusReplicas":3,"availableReplicas":3,"template":{"image":"v1"},"scaleDownDeadline":"2026-01-01T00:00:30Z"}]`, int64(60))
	f.Fuzz(func(t *testing.T, roJSON, rssJSON string, seconds int64) {
		var ro Rollout[tmpl]
		var rss []ReplicaSet[tmpl]
		if json.Unmarshal([]byte(roJSON), &ro) != nil || json.Unmarshal([]byte(rssJSON), &rss) != nil {
			return
		}
		now := t0.Add(time.Duration(seconds%100000) * time.Second)
		s, err := Plan(&ro, rss, now)
		if err != nil {
			return
		}
		for _, x := range s.ReplicaSets {
			if x.Replicas < 0 {
				t.Fatalf("Plan wrote %s at %d replicas", x.Name, x.Replicas)
			}
		}
		if err := Validate(&s.Rollout).ToError(); err != nil {
			t.Fatalf("Plan wrote a Rollout Validate rejects: %v", err)
		}
		if _, err := Plan(&s.Rollout, s.ReplicaSets, now.Add(time.Second)); err != nil {
			t.Fatalf("planning from Plan's result fails: %v", err)
		}
	})
}
