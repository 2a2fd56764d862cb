package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadManifest(t *testing.T) {
	f, err := os.Open("testdata/nginx-deployment.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := readManifest(f)
	if err != nil {
		t.Fatalf("readManifest(nginx-deployment.json) = %v, want nil", err)
	}
	want := intOrPercent{IsString: true, Str: "25%"}
	ru := m.Spec.Strategy.RollingUpdate
	if ru == nil || ru.MaxSurge == nil || *ru.MaxSurge != want || ru.MaxUnavailable == nil || *ru.MaxUnavailable != want {
		t.Errorf("readManifest(nginx-deployment.json).Spec.Strategy.RollingUpdate = %+v, want maxSurge and maxUnavailable 25%%", ru)
	}
	if m.Spec.Replicas == nil || *m.Spec.Replicas != 10 {
		t.Errorf("readManifest(nginx-deployment.json).Spec.Replicas = %v, want 10", m.Spec.Replicas)
	}
	if got, want := m.Spec.Template.Spec.Containers[0].Image, "nginx:1.9.3"; got != want {
		t.Errorf("readManifest(nginx-deployment.json) image = %q, want %q", got, want)
	}
}

// TestManifestDefaults checks that fields absent from a manifest take
// their apps/v1 defaults: 1 replica, RollingUpdate with 25%/25%.
func TestManifestDefaults(t *testing.T) {
	path := t.TempDir() + "/minimal.json"
	minimal := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "web:2"}]}}}}`
	if err := os.WriteFile(path, []byte(minimal), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseFlags([]string{"-f", path, "-image-from", "web:1"}, nil)
	if err != nil {
		t.Fatalf("parseFlags(-f minimal.json) = %v, want nil", err)
	}
	got := struct {
		Name, Strategy, From, To string
		Replicas                 int32
		SurgeSet, UnavailSet     bool
	}{cfg.name, cfg.strategy, cfg.fromImage, cfg.toImage, cfg.replicas, cfg.maxSurge != nil, cfg.maxUnavailable != nil}
	want := got
	want.Name, want.Strategy, want.From, want.To, want.Replicas = "web", "RollingUpdate", "web:1", "web:2", 1
	want.SurgeSet, want.UnavailSet = false, false
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseFlags(-f minimal.json) mismatch (-want +got):\n%s", diff)
	}
	tr, err := simulate(&cfg)
	if err != nil {
		t.Fatalf("simulate(minimal.json) = %v, want nil", err)
	}
	if tr.MaxSurge != "25%" || tr.MaxUnavailable != "25%" {
		t.Errorf("simulate(minimal.json) bounds = %q/%q, want the defaults 25%%/25%%", tr.MaxSurge, tr.MaxUnavailable)
	}
}

func TestReadManifestErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
		// prefix: want is the start of the message; the rest is
		// encoding/json's wording, which changes between Go releases.
		prefix bool
	}{
		{name: "not JSON", in: "apiVersion: apps/v1", want: "decoding Deployment: invalid character 'a' looking for beginning of value"},
		{name: "two objects", in: `{"apiVersion": "apps/v1", "kind": "Deployment"} {}`, want: "decoding Deployment: unexpected data after the object"},
		{name: "wrong kind", in: `{"apiVersion": "apps/v1", "kind": "StatefulSet"}`, want: `want an apps/v1 Deployment, got apiVersion "apps/v1" kind "StatefulSet"`},
		{name: "no name", in: `{"apiVersion": "apps/v1", "kind": "Deployment"}`, want: "metadata.name: Required value: name or generateName is required"},
		{name: "no containers", in: `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}}`, want: "spec.template.spec.containers: Required value"},
		{name: "fractional count", in: `{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"strategy": {"rollingUpdate": {"maxSurge": 2.5}}}}`,
			want: `decoding Deployment: intorpercent: parsing "2.5": fractional numbers are not allowed`},
		{name: "boolean", in: `{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"strategy": {"rollingUpdate": {"maxUnavailable": true}}}}`,
			want: `decoding Deployment: intorpercent: parsing "true": want a number such as 3 or a string such as "25%"`},
		{name: "replicas beyond int32", in: `{"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 3000000000}}`,
			want: "decoding Deployment: json: cannot unmarshal number 3000000000", prefix: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readManifest(strings.NewReader(tt.in))
			if err == nil || err.Error() != tt.want && !(tt.prefix && strings.HasPrefix(err.Error(), tt.want)) {
				t.Errorf("readManifest(%s) = %v, want %s", tt.in, err, tt.want)
			}
		})
	}
}

// FuzzReadManifest checks that no input makes readManifest panic and that
// every manifest it accepts has a container to update.
func FuzzReadManifest(f *testing.F) {
	for _, name := range []string{"nginx-deployment.json", "bad-percent.json", "negative-replicas.json", "not-a-deployment.json", "web-requests.json", "bad-quantity.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := readManifest(strings.NewReader(string(b)))
		if err == nil && len(m.Spec.Template.Spec.Containers) == 0 {
			t.Errorf("readManifest(%q) accepted a template without containers", b)
		}
	})
}
