package manifesttime

import (
	"testing"
	"time"
)

func TestLatest(t *testing.T) {
	pod := map[string]any{
		"metadata": map[string]any{
			"creationTimestamp": "2026-11-20T09:00:00Z",
			"deletionTimestamp": "2026-11-20T12:00:00Z",
			"managedFields":     []any{map[string]any{"manager": "kubelet", "time": "2026-11-20T09:00:40Z"}},
			"annotations":       map[string]any{"time": "2026-11-20T11:00:00Z"},
		},
		"status": map[string]any{
			"startTime": "2026-11-20T09:00:01Z",
			"conditions": []any{
				map[string]any{"type": "Ready", "lastProbeTime": nil, "lastTransitionTime": "2026-11-20T09:00:30Z"},
			},
			"containerStatuses": []any{map[string]any{"state": map[string]any{"running": map[string]any{"startedAt": "2026-11-20T09:00:20+01:00"}}}},
		},
	}
	cs := struct {
		Metadata struct {
			CreationTimestamp string `json:"creationTimestamp"`
		} `json:"metadata"`
	}{}
	cs.Metadata.CreationTimestamp = "2026-11-19T08:00:00Z"
	tests := []struct {
		name   string
		objs   []any
		want   time.Time
		wantOK bool
		reason string
	}{
		{name: "none", objs: nil},
		{name: "no timestamp", objs: []any{map[string]any{"metadata": map[string]any{"name": "x"}}}},
		{name: "a pod", objs: []any{pod, cs}, want: time.Date(2026, 11, 20, 9, 0, 40, 0, time.UTC), wantOK: true,
			reason: "managedFields' time is the latest; deletionTimestamp and an annotation named time do not count"},
		{name: "a struct", objs: []any{cs}, want: time.Date(2026, 11, 19, 8, 0, 0, 0, time.UTC), wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := Latest(tt.objs...)
			if err != nil || ok != tt.wantOK || !got.Equal(tt.want) {
				t.Errorf("Latest = %v, %v, %v; want %v, %v, nil (%s)", got, ok, err, tt.want, tt.wantOK, tt.reason)
			}
		})
	}
}

func TestLatestError(t *testing.T) {
	_, ok, err := Latest(make(chan int))
	const want = "manifesttime: object 0: json: unsupported type: chan int"
	if err == nil || err.Error() != want || ok {
		t.Errorf("Latest(chan) = %v, %v; want false, %q", ok, err, want)
	}
}

func TestParse(t *testing.T) {
	got, err := Parse("2026-11-20T10:30:00+01:00")
	if want := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC); err != nil || got != want {
		t.Errorf("Parse = %v, %v; want %v", got, err, want)
	}
	_, err = Parse("yesterday")
	const want = `--now "yesterday": want an RFC 3339 time such as 2026-11-20T09:30:00Z`
	if err == nil || err.Error() != want {
		t.Errorf("Parse(yesterday) error = %v, want %q", err, want)
	}
}
