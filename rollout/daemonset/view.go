package daemonset

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/field"
)

// entry is one node name the controller's maps know: a node of the list,
// the target of listed pods, or both.
type entry struct {
	name   string
	node   int // index in view.nodes, -1 when the node is not in the list
	lo, hi int // view.podOrder[lo:hi] are the listed pods for it
}

// view is the controller's picture of one DaemonSet: nodes by name and
// listed pods grouped by node, each group in ComparePods order. Its
// slices are reused from sync to sync.
type view struct {
	nodes     []Node
	pods      []Pod
	nodeOrder []int   // indices of nodes, by name
	podOrder  []int   // indices of listed pods, by node then ComparePods
	nameOrder []int   // indices of all pods, by name
	entries   []entry // by name
	desired   int32
}

// build checks nodes and pods and groups them. It allocates only when the
// view's slices must grow.
func (v *view) build(nodes []Node, pods []Pod) error {
	v.nodes, v.pods = nodes, pods
	v.nodeOrder = v.nodeOrder[:0]
	v.desired = 0
	for i := range nodes {
		n := &nodes[i]
		if n.Name == "" {
			return inputError(indexed("nodes", i, "name"), field.ErrRequired, "must not be empty")
		}
		if n.ShouldRun && !n.ShouldContinueRunning {
			return inputError(indexed("nodes", i, "shouldContinueRunning"), nil, "false: must be true when shouldRun is true")
		}
		if n.ShouldRun {
			v.desired++
		}
		v.nodeOrder = append(v.nodeOrder, i)
	}
	slices.SortFunc(v.nodeOrder, func(a, b int) int { return strings.Compare(nodes[a].Name, nodes[b].Name) })
	for k := 1; k < len(v.nodeOrder); k++ {
		if nodes[v.nodeOrder[k]].Name == nodes[v.nodeOrder[k-1]].Name {
			i := max(v.nodeOrder[k], v.nodeOrder[k-1])
			return inputError(indexed("nodes", i, "name"), field.ErrDuplicate, "duplicate name %s", strconv.Quote(nodes[i].Name))
		}
	}
	v.nameOrder = v.nameOrder[:0]
	v.podOrder = v.podOrder[:0]
	for i := range pods {
		p := &pods[i]
		if p.Name == "" {
			return inputError(indexed("pods", i, "name"), field.ErrRequired, "must not be empty")
		}
		switch p.Phase {
		case "", PodPending, PodRunning, PodSucceeded, PodFailed, PodUnknown:
		default:
			return &field.Error{Prefix: prefix, Field: indexed("pods", i, "phase"), Value: strconv.Quote(string(p.Phase)),
				Detail: `supported values: "Pending", "Running", "Succeeded", "Failed", "Unknown"`, Err: field.ErrUnsupported}
		}
		v.nameOrder = append(v.nameOrder, i)
		if listed(p) {
			v.podOrder = append(v.podOrder, i)
		}
	}
	slices.SortFunc(v.nameOrder, func(a, b int) int { return strings.Compare(pods[a].Name, pods[b].Name) })
	for k := 1; k < len(v.nameOrder); k++ {
		if pods[v.nameOrder[k]].Name == pods[v.nameOrder[k-1]].Name {
			i := max(v.nameOrder[k], v.nameOrder[k-1])
			return inputError(indexed("pods", i, "name"), field.ErrDuplicate, "duplicate name %s", strconv.Quote(pods[i].Name))
		}
	}
	slices.SortFunc(v.podOrder, func(a, b int) int { return comparePodsOnNodes(&pods[a], &pods[b]) })

	// Merge the nodes and the pod groups, both by name.
	v.entries = v.entries[:0]
	n, k := 0, 0
	for n < len(v.nodeOrder) || k < len(v.podOrder) {
		var e entry
		switch {
		case k == len(v.podOrder) || (n < len(v.nodeOrder) && nodes[v.nodeOrder[n]].Name < pods[v.podOrder[k]].Node):
			e = entry{name: nodes[v.nodeOrder[n]].Name, node: v.nodeOrder[n], lo: k, hi: k}
			n++
		default:
			name := pods[v.podOrder[k]].Node
			e = entry{name: name, node: -1, lo: k}
			for k < len(v.podOrder) && pods[v.podOrder[k]].Node == name {
				k++
			}
			e.hi = k
			if n < len(v.nodeOrder) && nodes[v.nodeOrder[n]].Name == name {
				e.node = v.nodeOrder[n]
				n++
			}
		}
		v.entries = append(v.entries, e)
	}
	return nil
}

// podsOf returns the indices of the listed pods of e, oldest first.
func (v *view) podsOf(e *entry) []int { return v.podOrder[e.lo:e.hi] }

// taken reports whether a pod is named name.
func (v *view) taken(name string) bool {
	_, ok := slices.BinarySearchFunc(v.nameOrder, name, func(i int, name string) int { return strings.Compare(v.pods[i].Name, name) })
	return ok
}
