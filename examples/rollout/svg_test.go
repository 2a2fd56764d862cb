package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"
)

// svgGroups parses an SVG document with encoding/xml and returns, for
// every <g> with a class, the values of its data-* attribute (the
// ReplicaSet's name, the bound's or the total's kind), keyed by class.
// It also checks that every polyline has at least one point.
func svgGroups(t *testing.T, svg []byte) map[string][]string {
	t.Helper()
	groups := map[string][]string{}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	root := true
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("xml.Decoder.Token() = %v, want a well-formed SVG document", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root {
			if el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg" {
				t.Fatalf("root element = %v, want svg in the SVG namespace", el.Name)
			}
			root = false
		}
		switch el.Name.Local {
		case "g":
			class, data := "", ""
			for _, a := range el.Attr {
				switch {
				case a.Name.Local == "class":
					class = a.Value
				case strings.HasPrefix(a.Name.Local, "data-"):
					data = a.Value
				}
			}
			if data != "" {
				groups[class] = append(groups[class], data)
			}
		case "polyline":
			for _, a := range el.Attr {
				if a.Name.Local == "points" && strings.TrimSpace(a.Value) == "" {
					t.Errorf("polyline without points in the SVG")
				}
			}
		}
	}
	return groups
}

// checkChart checks that svg holds one series per ReplicaSet of tr, both
// bounds and both totals.
func checkChart(t *testing.T, svg []byte, tr *trace) {
	t.Helper()
	groups := svgGroups(t, svg)
	if got, want := groups["series"], tr.Names(); !slices.Equal(got, want) {
		t.Errorf("SVG series = %q, want one per ReplicaSet: %q", got, want)
	}
	if got, want := groups["bound"], []string{"ceiling", "floor"}; !slices.Equal(got, want) {
		t.Errorf("SVG bounds = %q, want %q", got, want)
	}
	if got, want := groups["total"], []string{"pods", "available"}; !slices.Equal(got, want) {
		t.Errorf("SVG totals = %q, want %q", got, want)
	}
}

func TestSVGParsesWithSeriesAndBounds(t *testing.T) {
	tr := fixtureTrace()
	var buf bytes.Buffer
	if err := writeSVG(&buf, tr); err != nil {
		t.Fatalf("writeSVG(fixture) = %v, want nil", err)
	}
	checkChart(t, buf.Bytes(), tr)
}

func TestSVGEscapesText(t *testing.T) {
	tr := fixtureTrace()
	tr.Deployment = `a<b&"c"`
	tr.Steps[0].ReplicaSets[0].Name = `rs<&>"`
	var buf bytes.Buffer
	if err := writeSVG(&buf, tr); err != nil {
		t.Fatalf("writeSVG(fixture with markup in names) = %v, want nil", err)
	}
	groups := svgGroups(t, buf.Bytes())
	if !slices.Contains(groups["series"], `rs<&>"`) {
		t.Errorf("SVG series = %q, want one named %q", groups["series"], `rs<&>"`)
	}
}

// fixtureTrace returns a small hand-written trace, so that the printers
// are tested apart from the simulator.
func fixtureTrace() *trace {
	rs := func(name string, rev int64, n ...int32) rsRow {
		return rsRow{Name: name, Revision: rev, Desired: n[0], Current: n[1], Ready: n[2], Available: n[3]}
	}
	return &trace{
		Deployment: "web", Strategy: "RollingUpdate", MaxSurge: "1", MaxUnavailable: "0",
		FromImage: "web:1", ToImage: "web:2", Outcome: "complete", Syncs: 5,
		Steps: []step{
			{N: 0, Reasons: []string{"web-a runs every pod"}, ReplicaSets: []rsRow{rs("web-a", 1, 2, 2, 2, 2)}, Replicas: 2, MaxSurge: 1, Ceiling: 3, Floor: 2},
			{N: 1, Elapsed: "10s", Events: []string{"image web:1 -> web:2"}, Reasons: []string{"created web-b at 1"},
				ReplicaSets: []rsRow{rs("web-a", 1, 2, 2, 2, 2), rs("web-b", 2, 1, 1, 1, 1)}, Replicas: 2, MaxSurge: 1, Ceiling: 3, Floor: 2},
			{N: 2, Elapsed: "20s", Reasons: []string{"scaled down web-a from 2 to 1"},
				ReplicaSets: []rsRow{rs("web-a", 1, 1, 1, 1, 1), rs("web-b", 2, 1, 1, 1, 1)}, Replicas: 2, MaxSurge: 1, Ceiling: 3, Floor: 2, Terminating: 1},
			{N: 3, Elapsed: "30s", Reasons: []string{"scaled up web-b from 1 to 2"},
				ReplicaSets: []rsRow{rs("web-a", 1, 1, 1, 1, 1), rs("web-b", 2, 2, 2, 1, 1)}, Replicas: 2, MaxSurge: 1, Ceiling: 3, Floor: 2},
			{N: 4, Elapsed: "40s", Reasons: []string{"scaled down web-a from 1 to 0"},
				ReplicaSets: []rsRow{rs("web-a", 1, 0, 0, 0, 0), rs("web-b", 2, 2, 2, 2, 2)}, Replicas: 2, MaxSurge: 1, Ceiling: 3, Floor: 2},
		},
	}
}
