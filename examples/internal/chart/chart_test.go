package chart

import (
	"bytes"
	"strings"
	"testing"
)

func TestNiceStep(t *testing.T) {
	tests := []struct {
		top, n, want int64
	}{
		{top: 1, n: 8, want: 1},
		{top: 13, n: 8, want: 2},
		{top: 16, n: 8, want: 5}, // 16/2 = 8 intervals is not fewer than 8
		{top: 100000, n: 8, want: 20000},
		{top: 2147483647, n: 8, want: 500000000},
	}
	for _, tt := range tests {
		if got := niceStep(tt.top, tt.n); got != tt.want {
			t.Errorf("niceStep(%d, %d) = %d, want %d", tt.top, tt.n, got, tt.want)
		}
	}
}

func TestWriteRejectsAnEmptyChart(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, &Chart{}); err == nil || buf.Len() != 0 {
		t.Errorf("Write(empty) = %v with %d bytes, want an error and nothing written", err, buf.Len())
	}
}

func TestWriteLabelsEverySeries(t *testing.T) {
	c := &Chart{Title: "t", Ceiling: "ceiling", Floor: "floor", SeriesAttr: "data-revision", Steps: []Step{
		{N: 0, Pods: 2, Available: 2, Replicas: 2, Ceiling: 3, Floor: 1, Series: []Value{{Name: "a", Label: "old", Value: 2}}},
		{N: 1, Pods: 3, Available: 2, Replicas: 2, Ceiling: 3, Floor: 1, Series: []Value{{Name: "a", Label: "old", Value: 1}, {Name: "b", Label: "new", Value: 2}}},
	}}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-revision="a"`, `data-revision="b"`, ">old = 1</text>", ">new = 2</text>", ">ceiling = 3</text>", ">floor = 1</text>"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("chart lacks %s:\n%s", want, buf.String())
		}
	}
}

// TestGroupsReadsWhatWriteTags: Groups finds each series' group of a
// written chart, in order, and refuses text that is not XML.
func TestGroupsReadsWhatWriteTags(t *testing.T) {
	c := &Chart{Title: "t", Ceiling: "ceiling", Floor: "floor", SeriesAttr: "data-revision", Steps: []Step{
		{N: 0, Pods: 2, Available: 2, Replicas: 2, Ceiling: 3, Floor: 1, Series: []Value{{Name: "a", Label: "old", Value: 2}}},
		{N: 1, Pods: 3, Available: 2, Replicas: 2, Ceiling: 3, Floor: 1, Series: []Value{{Name: "a", Label: "old", Value: 1}, {Name: "b", Label: "new", Value: 2}}},
	}}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	groups, err := Groups(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var series []string
	for _, g := range groups {
		if strings.HasPrefix(g, "data-revision=") {
			series = append(series, g)
		}
	}
	if got := strings.Join(series, " "); got != "data-revision=a data-revision=b" {
		t.Errorf("series groups %q (all: %q), want a then b", got, groups)
	}
	if _, err := Groups([]byte("<svg><g></svg>")); err == nil {
		t.Error("Groups of malformed XML: no error")
	}
}
