package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/golden"
)

// docsChart is the chart of the default run that the README shows. It is
// kept in sync by TestDocsChartInSync; regenerate it with
//
//go:generate go test -run TestDocsChartInSync -update
const docsChart = "../../docs/rollout.svg"

// runArgs runs the program with args and returns its exit status, stdout
// and stderr.
func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestRunGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{name: "default", args: nil, golden: "default.golden"},
		{name: "manifest", args: []string{"-f", "testdata/nginx-deployment.json"}, golden: "manifest.golden"},
		{name: "requests, init containers and a sidecar", args: []string{"-f", "testdata/web-requests.json", "-image-from", "web:1"}, golden: "requests.golden"},
		{name: "requests as JSON", args: []string{"-f", "testdata/web-requests.json", "-image-from", "web:1", "-o", "json"}, golden: "requests.json.golden"},
		{name: "recreate with slow termination", args: []string{"-strategy", "Recreate", "-terminating", "15s"}, golden: "recreate.golden"},
		{name: "saturated ceiling: sync lines and summary say so", args: []string{"-replicas", "2147483647", "-max-syncs", "3"}, golden: "saturated.golden"},
		{name: "resize mid-rollout as JSON", args: []string{"-replicas", "4", "-max-surge", "1", "-max-unavailable", "0", "-scale", "8@3", "-o", "json"}, golden: "resize.json.golden"},
		{name: "manifest dated today: now is its latest timestamp", args: []string{"-f", "testdata/nginx-deployment-today.json", "-image-from", "nginx:1.9"}, golden: "today.golden"},
		{name: "--now wins over the manifest's timestamps, as JSON", args: []string{"-f", "testdata/nginx-deployment-today.json", "-image-from", "nginx:1.9", "--now", "2026-11-26T16:00:00+01:00", "-o", "json"}, golden: "today-now.json.golden"},
		{name: "--now on the built-in demo", args: []string{"--now", "2026-11-26T15:00:00Z", "-replicas", "4"}, golden: "demo-now.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("run(%q) = %d with stderr %q, want 0 and no stderr", tt.args, code, stderr)
			}
			golden.Check(t, tt.golden, []byte(stdout))
		})
	}
}

func TestDefaultChart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout.svg")
	code, _, stderr := runArgs(t, "-svg", path)
	if code != 0 {
		t.Fatalf("run(-svg %s) = %d, stderr %q; want 0", path, code, stderr)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	tr, err := simulate(&cfg)
	if err != nil {
		t.Fatalf("simulate(default) = %v, want nil", err)
	}
	if n := len(tr.Names()); n != 2 {
		t.Errorf("default run has %d ReplicaSets, want 2 (old and new)", n)
	}
	checkChart(t, svg, tr)
}

func TestDocsChartInSync(t *testing.T) {
	cfg := defaultConfig()
	tr, err := simulate(&cfg)
	if err != nil {
		t.Fatalf("simulate(default) = %v, want nil", err)
	}
	var buf bytes.Buffer
	if err := writeSVG(&buf, tr); err != nil {
		t.Fatalf("writeSVG(default) = %v, want nil", err)
	}
	golden.CheckFile(t, docsChart, buf.Bytes())
}

// percentRuleText is the API server's message for a string that is not a
// valid percentage; the double space is the API server's.
const percentRuleText = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

func TestBadInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		want   string // the whole of stderr
		reason string
	}{
		{
			name: "malformed percent",
			args: []string{"-max-surge", "2.5%"},
			code: 1,
			want: `The Deployment "nginx-deployment" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: "2.5%": ` + percentRuleText,
		},
		{
			name: "signed percent",
			args: []string{"-max-unavailable", "-5%"},
			code: 1,
			want: `The Deployment "nginx-deployment" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "-5%": ` + percentRuleText,
		},
		{
			name:   "malformed text counts as zero for the both-zero rule",
			args:   []string{"-max-unavailable", "abc", "-max-surge", "0"},
			code:   1,
			want:   `The Deployment "nginx-deployment" is invalid: [spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "abc": ` + percentRuleText + ", spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"abc\": may not be 0 when `maxSurge` is 0]",
			reason: "upstream reads a string that is not a valid percentage as 0 when it compares the two values with zero",
		},
		{
			name: "negative replicas",
			args: []string{"-replicas", "-1"},
			code: 1,
			want: `The Deployment "nginx-deployment" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
		},
		{
			name: "both fenceposts zero",
			args: []string{"-max-surge", "0", "-max-unavailable", "0%"},
			code: 1,
			want: "The Deployment \"nginx-deployment\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0",
		},
		{
			name:   "leading zeros quoted as written",
			args:   []string{"-max-surge", "0", "-max-unavailable", "00%"},
			code:   1,
			want:   "The Deployment \"nginx-deployment\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"00%\": may not be 0 when `maxSurge` is 0",
			reason: "the API server quotes the value as written",
		},
		{
			name: "unknown strategy",
			args: []string{"-strategy", "BlueGreen"},
			code: 1,
			want: `The Deployment "nginx-deployment" is invalid: spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`,
		},
		{
			name: "maxUnavailable above 100%",
			args: []string{"-max-unavailable", "120%"},
			code: 1,
			want: `The Deployment "nginx-deployment" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%`,
		},
		{
			name: "rollingUpdate with Recreate",
			args: []string{"-strategy", "Recreate", "-max-surge", "1"},
			code: 1,
			want: "The Deployment \"nginx-deployment\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
		},
		{
			name: "two errors at once",
			args: []string{"-replicas", "-3", "-min-ready-seconds", "-1"},
			code: 1,
			want: `The Deployment "nginx-deployment" is invalid: [spec.replicas: Invalid value: -3: must be greater than or equal to 0, spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0]`,
		},
		{
			name: "scale to a negative size",
			args: []string{"-scale", "-2@3"},
			code: 1,
			want: `The Deployment "nginx-deployment" is invalid (-scale -2@3): spec.replicas: Invalid value: -2: must be greater than or equal to 0`,
		},
		{
			name: "malformed percent in a manifest",
			args: []string{"-f", "testdata/bad-percent.json"},
			code: 1,
			want: `The Deployment "web" is invalid: [spec.strategy.rollingUpdate.maxSurge: Invalid value: "2.5%": ` + percentRuleText +
				", spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0]",
			reason: "maxUnavailable is 0 and the malformed maxSurge counts as 0",
		},
		{
			name: "quoted count and negative count in a manifest",
			args: []string{"-f", "testdata/quoted-count.json"},
			code: 1,
			want: `The Deployment "web" is invalid: [spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0, ` +
				`spec.strategy.rollingUpdate.maxSurge: Invalid value: "3": ` + percentRuleText + "]",
			reason: `a quoted "3" is a string to the API server, and strings must be percentages; it reads as 3, so the both-zero rule does not fire`,
		},
		{
			name: "fractional count in a manifest",
			args: []string{"-f", "testdata/fractional-count.json"},
			code: 2,
			want: `rollout: testdata/fractional-count.json: decoding Deployment: intorpercent: parsing "2.5": fractional numbers are not allowed`,
		},
		{
			name: "quantity with an exponent in a manifest",
			args: []string{"-f", "testdata/bad-quantity.json"},
			code: 2,
			want: `rollout: testdata/bad-quantity.json: spec.template.spec.containers[0].resources.requests.memory: capacity: parsing "1e9": exponents are not supported; write the number out, with a suffix if you like (1e3 is 1k)`,
		},
		{
			name: "negative replicas in a manifest",
			args: []string{"-f", "testdata/negative-replicas.json"},
			code: 1,
			want: `The Deployment "web" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0`,
		},
		{
			name: "not a Deployment",
			args: []string{"-f", "testdata/not-a-deployment.json"},
			code: 2,
			want: `rollout: testdata/not-a-deployment.json: want an apps/v1 Deployment, got apiVersion "v1" kind "Service"`,
		},
		{
			name: "replicas not a number",
			args: []string{"-replicas", "ten"},
			code: 2,
			want: `rollout: invalid value "ten" for flag -replicas: want a whole number within int32`,
		},
		{
			name: "malformed scale",
			args: []string{"-scale", "20"},
			code: 2,
			want: `rollout: invalid value "20" for flag -scale: want REPLICAS@STEP with STEP >= 1, such as 20@3`,
		},
		{
			name: "--now not RFC 3339",
			args: []string{"--now", "2026-11-26 15:00"},
			code: 2,
			want: `rollout: --now "2026-11-26 15:00": want an RFC 3339 time such as 2026-11-20T09:30:00Z`,
		},
		{
			name:   "--now checked before the manifest is read",
			args:   []string{"-f", "testdata/missing.json", "-now", "yesterday"},
			code:   2,
			want:   `rollout: --now "yesterday": want an RFC 3339 time such as 2026-11-20T09:30:00Z`,
			reason: "a bad flag is reported before any file is opened",
		},
		{
			name: "unknown output format",
			args: []string{"-o", "yaml"},
			code: 2,
			want: `rollout: invalid value "yaml" for flag -o: want table or json`,
		},
		{
			name: "unknown flag",
			args: []string{"-replica", "3"},
			code: 2,
			want: `rollout: flag provided but not defined: -replica`,
		},
		{
			name: "stray argument",
			args: []string{"nginx"},
			code: 2,
			want: `rollout: unexpected arguments: nginx`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != tt.code {
				t.Errorf("run(%q) = %d, want %d", tt.args, code, tt.code)
			}
			if got := strings.TrimSuffix(stderr, "\n"); got != tt.want {
				t.Errorf("run(%q) stderr:\n got  %s\n want %s\n(%s)", tt.args, got, tt.want, tt.reason)
			}
			if stdout != "" {
				t.Errorf("run(%q) stdout = %q, want nothing", tt.args, stdout)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "-h")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "-max-surge") {
		t.Errorf("run(-h) = %d, stdout %q, stderr %.60q...; want 0, nothing, and the flags on stderr", code, stdout, stderr)
	}
}

// TestEveryFlagRuns runs one combination per flag (and the extremes) and
// checks that each exits 0 with a summary and a chart that parses and
// holds one series per ReplicaSet. What the runs print is checked by eye
// and by the golden tests; this guards against crashes and broken charts.
func TestEveryFlagRuns(t *testing.T) {
	tests := [][]string{
		{"-replicas", "0"},
		{"-replicas", "1"},
		{"-replicas", "100000"},
		{"-replicas", "2147483647"},
		{"-max-surge", "2147483647"},
		{"-max-surge", "0", "-max-unavailable", "1000"},
		{"-max-surge", "100%", "-max-unavailable", "100%"},
		{"-strategy", "Recreate", "-scale", "20@3"},
		{"-pause-at", "2", "-resume-at", "6"},
		{"-pause-at", "2"},
		{"-rollback-at", "4"},
		{"-rollback-at", "4", "-rollback-to", "7"},
		{"-never-ready", "2"},
		{"-terminating", "25s", "-terminating-aware"},
		{"-scale", "0@3"},
		{"-scale", "4@3", "-scale", "12@6"},
		{"-min-ready-seconds", "30", "-ready-delay", "5s", "-interval", "3s"},
		{"-max-syncs", "3"},
		{"-image-from", "web:1", "-image-to", "web:1"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "chart.svg")
			code, stdout, stderr := runArgs(t, append(args, "-svg", path)...)
			if code != 0 || stderr != "" {
				t.Fatalf("run(%q) = %d, stderr %q; want 0 and no stderr", args, code, stderr)
			}
			if !strings.Contains(stdout, "\nSummary\n") {
				t.Errorf("run(%q) printed no summary:\n%s", args, stdout)
			}
			svg, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := parseFlags(args, nil)
			if err != nil {
				t.Fatalf("parseFlags(%q) = %v, want nil", args, err)
			}
			tr, err := simulate(&cfg)
			if err != nil {
				t.Fatalf("simulate(%q) = %v, want nil", args, err)
			}
			checkChart(t, svg, tr)
		})
	}
}

// FuzzRun checks that no command line makes the program panic and that
// it always exits 0, 1 or 2, printing to stderr exactly when it fails.
// Arguments are split on spaces. Flags that touch files (-f, -svg) or
// raise the sync limit are left out, to keep each run fast and hermetic.
func FuzzRun(f *testing.F) {
	seeds := []string{
		"", "-replicas -1", "-max-surge 2.5%", "-max-surge 0 -max-unavailable 0%", "-strategy BlueGreen",
		"-replicas 2147483647 -max-surge 2147483647", "-scale 0@1 -scale 7@2 -pause-at 3 -resume-at 3",
		"-rollback-at 1 -rollback-to -5", "-strategy Recreate -never-ready 3 -terminating 1h",
		"-interval 1ns -ready-delay 1h -min-ready-seconds 2147483647", "-o json -terminating-aware",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		for _, a := range args {
			if strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "-svg") || strings.Contains(a, "max-syncs") ||
				strings.Contains(a, "-h") {
				t.Skip()
			}
		}
		code, _, stderr := runArgs(t, args...)
		switch {
		case code != 0 && code != 1 && code != 2:
			t.Errorf("run(%q) = %d, want 0, 1 or 2", args, code)
		case (code == 0) != (stderr == ""):
			t.Errorf("run(%q) = %d with stderr %q: want stderr exactly when the exit status is not 0", args, code, stderr)
		}
	})
}
