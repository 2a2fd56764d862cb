package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// manifest mirrors the fields of an apps/v1 Deployment in JSON that this
// program reads; encoding/json ignores the rest. Pointers mark the fields
// whose absence means an apps/v1 default.
type manifest struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		Replicas *int32 `json:"replicas"`
		Strategy struct {
			Type          string `json:"type"`
			RollingUpdate *struct {
				MaxSurge       *intOrPercent `json:"maxSurge"`
				MaxUnavailable *intOrPercent `json:"maxUnavailable"`
			} `json:"rollingUpdate"`
		} `json:"strategy"`
		MinReadySeconds         int32  `json:"minReadySeconds"`
		Paused                  bool   `json:"paused"`
		ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds"`
		RevisionHistoryLimit    *int32 `json:"revisionHistoryLimit"`
		Template                struct {
			Metadata struct {
				Labels map[string]string `json:"labels"`
			} `json:"metadata"`
			Spec podSpec `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

// readManifest decodes one apps/v1 Deployment from r. It rejects other
// kinds and API versions, trailing data, a missing name, a template
// without containers, and int-or-percent values that are neither a number
// nor a string (a malformed string is kept for validation to reject, as
// the API server does), and CPU or memory quantities that
// capacity.ParseCPU or capacity.ParseMemory cannot read. Defaults are not applied here; see
// config.applyManifest. Validation (negative replicas, both fenceposts
// zero, ...) is left to rollout.Validate.
func readManifest(r io.Reader) (*manifest, error) {
	dec := json.NewDecoder(r)
	var m manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decoding Deployment: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("decoding Deployment: unexpected data after the object")
	}
	if m.APIVersion != "apps/v1" || m.Kind != "Deployment" {
		return nil, fmt.Errorf("want an apps/v1 Deployment, got apiVersion %q kind %q", m.APIVersion, m.Kind)
	}
	if m.Metadata.Name == "" {
		return nil, fmt.Errorf("metadata.name: Required value: name or generateName is required")
	}
	if len(m.Spec.Template.Spec.Containers) == 0 {
		return nil, fmt.Errorf("spec.template.spec.containers: Required value")
	}
	if _, err := m.Spec.Template.Spec.pod(); err != nil {
		return nil, err
	}
	return &m, nil
}
