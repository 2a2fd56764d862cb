// Package chart draws a simulated rollout as an SVG line chart, for the
// example programs (rollout, cloneset, statefulset, daemonset, canary,
// batchrelease), and reads one back for their tests ([Groups]): x is the step,
// y the number of pods. Each series (a ReplicaSet, or the pods at one
// revision) is one line; the ceiling R + maxSurge and the floor R -
// maxUnavailable are dashed lines, and two thin gray lines show all pods
// (which the ceiling bounds) and the available pods (which the floor
// bounds). Every line carries its label at its end or at its peak, so the
// chart needs no legend. The programs fill in a [Chart]; [Write] owns the
// drawing, so that all draw alike.
package chart

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/rstable"
)

// Chart is a rollout to draw.
type Chart struct {
	// Desc is the document's <title>, a one-line description.
	Desc string
	// Title and Subtitle head the chart.
	Title, Subtitle string
	// XLabel names the x axis, e.g. "sync step (0 = before the update)".
	XLabel string
	// Ceiling and Floor name the bounds, e.g. "ceiling: R + maxSurge";
	// the value at the last step is added to them.
	Ceiling, Floor string
	// SeriesAttr is the data-* attribute that names a series' group, e.g.
	// "data-replicaset".
	SeriesAttr string
	// Steps are the points of every line, in order; at least one.
	Steps []Step
}

// Step is one step of the rollout.
type Step struct {
	// N labels the step on the x axis.
	N int
	// Pods counts all pods, terminating ones included; Available the
	// available ones.
	Pods, Available int64
	// Replicas is R; Ceiling and Floor are the bounds at this step.
	Replicas       int32
	Ceiling, Floor int64
	// Series are the values of the series present at this step.
	Series []Value
}

// Value is one series at one step.
type Value struct {
	// Name identifies the series (its data-* attribute).
	Name string
	// Label is the series' text on the chart, e.g. "web-5d4c (rev 2)";
	// the label of its last step is used.
	Label string
	// Value is the number of pods.
	Value int64
}

// names returns the series' names in order of first appearance.
func (t *Chart) names() []string {
	var names []string
	seen := map[string]bool{}
	for _, s := range t.Steps {
		for _, v := range s.Series {
			if !seen[v.Name] {
				seen[v.Name] = true
				names = append(names, v.Name)
			}
		}
	}
	return names
}

// value returns the series called name at this step.
func (s *Step) value(name string) (Value, bool) {
	for _, v := range s.Series {
		if v.Name == name {
			return v, true
		}
	}
	return Value{}, false
}

// The chart's geometry, in SVG user units (pixels at 100%).
const (
	chartWidth   = 900
	chartHeight  = 440
	marginLeft   = 60
	marginRight  = 330 // room for the direct labels at the right end
	marginTop    = 64
	marginBottom = 56
	plotWidth    = chartWidth - marginLeft - marginRight
	plotHeight   = chartHeight - marginTop - marginBottom
	labelGap     = 14 // the least vertical distance between two labels
)

// halo paints a white outline behind a label, so that it stays legible
// where it crosses a line.
const halo = `stroke="white" stroke-width="3" paint-order="stroke"`

// seriesColors are the colors of the series, in order of their first
// appearance; they repeat after the last one.
var seriesColors = []string{"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

// boundColor draws both bounds; totalColor draws the total pods and the
// available pods.
const (
	boundColor = "#d62728"
	totalColor = "#555555"
)

// Write draws t to w. The elements a test can find: <g class="series"
// SeriesAttr=NAME> per series, <g class="bound"
// data-bound="ceiling|floor">, and <g class="total"
// data-total="pods|available">. It returns the first write error.
func Write(w io.Writer, t *Chart) error {
	if len(t.Steps) == 0 {
		return fmt.Errorf("chart: no steps to draw")
	}
	c := newChart(t)
	p := rstable.NewPrinter(w)
	p.Printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		chartWidth, chartHeight, chartWidth, chartHeight)
	p.Printf("<title>%s</title>\n", esc(t.Desc))
	p.Printf(`<rect width="%d" height="%d" fill="white"/>`+"\n", chartWidth, chartHeight)
	c.writeTitle(p)
	c.writeAxes(p)
	var right []label
	right = append(right, c.writeBound(p, "ceiling")...)
	right = append(right, c.writeBound(p, "floor")...)
	right = append(right, c.writeTotal(p, "pods")...)
	right = append(right, c.writeTotal(p, "available")...)
	for i, name := range t.names() {
		right = append(right, c.writeSeries(p, name, seriesColors[i%len(seriesColors)])...)
	}
	c.writeRightLabels(p, right)
	p.Printf("</svg>\n")
	return p.Err()
}

// chart maps a rollout onto the plot area.
type chart struct {
	t     *Chart
	last  int   // the last step's index
	yMax  int64 // the top of the y axis, in pods
	yTick int64 // the distance between y ticks, in pods
	xTick int   // the distance between x ticks, in steps
}

// newChart scales the axes so that every series, the floor and R fit, and
// the ceiling too unless it is more than twice as high as all of those: a
// huge maxSurge would squash the series into the x axis, so such a
// ceiling is drawn at the top edge and its label says it is off the chart.
func newChart(t *Chart) *chart {
	c := &chart{t: t, last: len(t.Steps) - 1}
	top := int64(1)
	for i := range t.Steps {
		s := &t.Steps[i]
		top = max(top, s.Pods, s.Floor, int64(s.Replicas))
	}
	for i := range t.Steps {
		if ceiling := t.Steps[i].Ceiling; ceiling <= 2*top {
			top = max(top, ceiling)
		}
	}
	c.yTick = niceStep(top, 8)
	c.yMax = (top/c.yTick + 1) * c.yTick
	c.xTick = int(niceStep(int64(max(c.last, 1)), 20))
	return c
}

// niceStep returns the smallest of 1, 2, 5, 10, 20, 50, ... that divides
// 0..top into fewer than n intervals (top >= 0, n >= 1).
func niceStep(top, n int64) int64 {
	for step := int64(1); ; step *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if top/(step*m) < n {
				return step * m
			}
		}
	}
}

// x returns the horizontal position of step index i.
func (c *chart) x(i int) float64 {
	return marginLeft + float64(i)*plotWidth/float64(max(c.last, 1))
}

// y returns the vertical position of a pod count; counts above the top of
// the axis are drawn at the top.
func (c *chart) y(v int64) float64 {
	v = min(v, c.yMax)
	return marginTop + plotHeight - float64(v)*plotHeight/float64(c.yMax)
}

// writeTitle writes the heading.
func (c *chart) writeTitle(p *rstable.Printer) {
	p.Printf(`<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", marginLeft, esc(c.t.Title))
	p.Printf(`<text x="%d" y="44" fill="%s">%s</text>`+"\n", marginLeft, totalColor, esc(c.t.Subtitle))
}

// writeAxes writes both axes with their ticks, grid lines and labels.
func (c *chart) writeAxes(p *rstable.Printer) {
	left, right := float64(marginLeft), float64(marginLeft+plotWidth)
	bottom := float64(marginTop + plotHeight)
	p.Printf(`<g class="axes" stroke="#999999">` + "\n")
	for v := int64(0); v <= c.yMax; v += c.yTick {
		y := c.y(v)
		p.Printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eeeeee"/>`+"\n", left, y, right, y)
		p.Printf(`<text x="%.1f" y="%.1f" text-anchor="end" stroke="none" fill="#333333">%d</text>`+"\n", left-6, y+4, v)
	}
	for i := 0; i <= c.last; i += c.xTick {
		x := c.x(i)
		p.Printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", x, bottom, x, bottom+5)
		p.Printf(`<text x="%.1f" y="%.1f" text-anchor="middle" stroke="none" fill="#333333">%d</text>`+"\n", x, bottom+18, c.t.Steps[i].N)
	}
	p.Printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", left, bottom, right, bottom)
	p.Printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", left, float64(marginTop), left, bottom)
	p.Printf("</g>\n")
	p.Printf(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#333333">%s</text>`+"\n",
		(left+right)/2, bottom+40, esc(c.t.XLabel))
	p.Printf(`<text transform="translate(%.1f %.1f) rotate(-90)" text-anchor="middle" fill="#333333">pods</text>`+"\n",
		left-40, float64(marginTop)+plotHeight/2)
}

// label is a text placed in the right margin next to the end of its line.
type label struct {
	text  string
	color string
	y     float64 // where the line ends
	at    float64 // where the text goes, after spreading
}

// writeBound draws the ceiling or the floor as a stepped dashed line and
// returns its label.
func (c *chart) writeBound(p *rstable.Printer, which string) []label {
	value := func(s *Step) int64 { return s.Ceiling }
	text := c.t.Ceiling
	if which == "floor" {
		value = func(s *Step) int64 { return s.Floor }
		text = c.t.Floor
	}
	var pts []string
	for i := range c.t.Steps {
		v := value(&c.t.Steps[i])
		pts = append(pts, c.point(i, v))
		if i < c.last && value(&c.t.Steps[i+1]) != v {
			pts = append(pts, c.point(i+1, v))
		}
	}
	end := value(&c.t.Steps[c.last])
	p.Printf(`<g class="bound" data-bound="%s">`+"\n", which)
	p.Printf(`<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="6 4"/>`+"\n",
		strings.Join(pts, " "), boundColor)
	p.Printf("</g>\n")
	if end > c.yMax {
		text += ", off the chart" // the number would not fit in the margin
	} else {
		text = fmt.Sprintf("%s = %d", text, end)
	}
	return []label{{text: text, color: boundColor, y: c.y(end)}}
}

// writeTotal draws all pods (current plus terminating) or the available
// pods as a thin gray line, and returns its
// label.
func (c *chart) writeTotal(p *rstable.Printer, which string) []label {
	value := func(s *Step) int64 { return s.Pods }
	text, dash := "all pods", "2 3"
	if which == "available" {
		value = func(s *Step) int64 { return s.Available }
		text, dash = "available pods", "1 3"
	}
	var pts []string
	for i := range c.t.Steps {
		pts = append(pts, c.point(i, value(&c.t.Steps[i])))
	}
	p.Printf(`<g class="total" data-total="%s">`+"\n", which)
	p.Printf(`<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="%s"/>`+"\n",
		strings.Join(pts, " "), totalColor, dash)
	p.Printf("</g>\n")
	end := value(&c.t.Steps[c.last])
	return []label{{text: fmt.Sprintf("%s = %d", text, end), color: totalColor, y: c.y(end)}}
}

// writeSeries draws the series called name over
// the steps in which it exists. A series that ends above zero at the last
// step is labelled in the right margin (the label is returned); any other
// is labelled just above its first peak.
func (c *chart) writeSeries(p *rstable.Printer, name, color string) []label {
	var pts []string
	var dots strings.Builder
	peak, peakAt, lastAt := int64(-1), 0, -1
	var lastRow Value
	for i := range c.t.Steps {
		rs, ok := c.t.Steps[i].value(name)
		if !ok {
			continue
		}
		cur := rs.Value
		pts = append(pts, c.point(i, cur))
		fmt.Fprintf(&dots, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", c.x(i), c.y(cur), color)
		if cur > peak {
			peak, peakAt = cur, i
		}
		lastAt, lastRow = i, rs
	}
	text := lastRow.Label
	p.Printf(`<g class="series" %s="%s">`+"\n", c.t.SeriesAttr, esc(name))
	p.Printf(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"/>`+"\n", strings.Join(pts, " "), color)
	p.Printf("%s", dots.String())
	var right []label
	if lastAt == c.last && lastRow.Value > 0 {
		right = append(right, label{text: fmt.Sprintf("%s = %d", text, lastRow.Value), color: color, y: c.y(lastRow.Value)})
	} else {
		anchor := "middle"
		switch {
		case peakAt == 0:
			anchor = "start"
		case peakAt == c.last:
			anchor = "end"
		}
		p.Printf(`<text x="%.1f" y="%.1f" text-anchor="%s" fill="%s" %s>%s</text>`+"\n",
			c.x(peakAt), c.y(peak)-8, anchor, color, halo, esc(text))
	}
	p.Printf("</g>\n")
	return right
}

// writeRightLabels spreads the labels vertically so that none overlaps
// another, keeping them in the order of their lines' ends, and writes each
// with a short leader line from its line's end.
func (c *chart) writeRightLabels(p *rstable.Printer, labels []label) {
	sort.SliceStable(labels, func(i, j int) bool { return labels[i].y < labels[j].y })
	for i := range labels {
		labels[i].at = labels[i].y
		if i > 0 && labels[i].at < labels[i-1].at+labelGap {
			labels[i].at = labels[i-1].at + labelGap
		}
	}
	// Shift the whole stack up if it runs past the bottom of the plot.
	if n := len(labels); n > 0 {
		if over := labels[n-1].at - float64(marginTop+plotHeight); over > 0 {
			for i := range labels {
				labels[i].at -= over
			}
		}
	}
	end := float64(marginLeft + plotWidth)
	p.Printf(`<g class="labels">` + "\n")
	for _, l := range labels {
		p.Printf(`<polyline points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" stroke="%s" stroke-width="0.75"/>`+"\n",
			end+4, l.y, end+14, l.at, end+18, l.at, l.color)
		p.Printf(`<text x="%.1f" y="%.1f" fill="%s" %s>%s</text>`+"\n", end+22, l.at+4, l.color, halo, esc(l.text))
	}
	p.Printf("</g>\n")
}

// point returns the SVG coordinates of value v at step index i.
func (c *chart) point(i int, v int64) string {
	return fmt.Sprintf("%.1f,%.1f", c.x(i), c.y(v))
}

// esc escapes s for use as XML text or a quoted attribute value.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // writing to a strings.Builder cannot fail
	return b.String()
}
