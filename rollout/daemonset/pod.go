package daemonset

import (
	"strconv"
	"strings"
	"time"
)

// IsPodReady reports whether the pod's Ready condition is True. The phase
// is not consulted, and a terminating pod may be ready.
// Upstream: IsPodReady, pkg/api/v1/pod/util.go.
func IsPodReady(p *Pod) bool { return p.Ready }

// IsPodAvailable reports whether p is ready and has been for
// minReadySeconds at now: Ready and (minReadySeconds == 0, or ReadySince
// is set and ReadySince + minReadySeconds <= now, inclusive). Phase and
// termination are not consulted. It does not allocate.
// Upstream: IsPodAvailable, pkg/api/v1/pod/util.go.
func IsPodAvailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	if !p.Ready {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	if p.ReadySince.IsZero() {
		return false
	}
	return !p.ReadySince.Add(time.Duration(minReadySeconds) * time.Second).After(now)
}

// IsPodUpdated reports whether pod p counts as updated for a DaemonSet
// whose current revision has hash hash and whose TemplateGeneration is
// templateGeneration: its Hash equals a non-empty hash, or
// templateGeneration is set and its TemplateGeneration label equals its
// decimal text. Either suffices, which is a trap: a pod at another hash
// whose generation label matches counts as updated and is never replaced
// (a DaemonSet deleted with its pods orphaned and created again starts
// again at generation 1). It does not allocate for generations from 0 to
// 99.
// Upstream: IsPodUpdated, pkg/controller/daemon/util/daemonset_util.go.
func IsPodUpdated(p *Pod, hash string, templateGeneration *int64) bool {
	if hash != "" && p.Hash == hash {
		return true
	}
	if templateGeneration == nil || p.TemplateGeneration == "" {
		return false
	}
	var buf [20]byte
	return string(strconv.AppendInt(buf[:0], *templateGeneration, 10)) == p.TemplateGeneration
}

// ComparePods orders the pods of one node as the controller sorts them
// when it keeps the oldest: scheduled pods (spec.nodeName set) before
// unscheduled ones, then by creation time, older first, then by name. It
// returns a negative number when a goes first.
// Upstream: podByCreationTimestampAndPhase, pkg/controller/daemon/daemon_controller.go.
func ComparePods(a, b *Pod) int {
	if a.Unscheduled != b.Unscheduled {
		if !a.Unscheduled {
			return -1
		}
		return 1
	}
	if c := a.Created.Compare(b.Created); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// terminal reports whether p is Failed or Succeeded.
func terminal(p *Pod) bool { return p.Phase == PodFailed || p.Phase == PodSucceeded }

// listed reports whether the controller's node-to-pods map holds p: it
// has a node, and it is not both terminal and terminating.
// Upstream: getNodesToDaemonPods (includeDeletedTerminal false).
func listed(p *Pod) bool { return p.Node != "" && !(terminal(p) && p.Terminating) }

// comparePodsOnNodes orders pods by node, then as ComparePods.
func comparePodsOnNodes(a, b *Pod) int {
	if c := strings.Compare(a.Node, b.Node); c != 0 {
		return c
	}
	return ComparePods(a, b)
}
