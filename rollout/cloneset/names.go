package cloneset

import (
	"errors"
	"hash/fnv"
	"iter"
	"strconv"

	"github.com/rolloutmath/rolloutmath/field"
)

// PodNameSpace is how many names Plan can give created pods of one
// CloneSet: "<name>-" followed by five characters of Kubernetes' safe
// alphabet of 27 (27^5).
const PodNameSpace = 14_348_907

// maxNameTries bounds the candidates tried for one name: with a free name
// left, the candidates (a hash of a counter) find one in about
// PodNameSpace/free tries on average, so four times the whole space only
// fails when the space is all but full.
const maxNameTries = 4 * PodNameSpace

// ErrPodNamesExhausted is wrapped by the error of [Sync.CreatedPods] when
// no free name is left for a pod to create (see [PodNameSpace]).
var ErrPodNamesExhausted = errors.New("no free pod name left")

// CreatedPods yields the pods the sync's CreatePod actions create, in
// creation order (the actions' order, Count pods each), as the reconcile
// leaves them: CreationTime s.Time, Phase Pending, lifecycle
// PreparingNormal, the action's Revision, no node and no labels. Plan
// does not put them in s.Pods, so that its cost does not grow with the
// pods it creates; a caller that passes the sync's pods to the next
// reconcile appends them (see [Sync.AppendCreatedPods]).
//
// A CreatePod action that names its pod (Pod set, Count 0 or 1, as a
// caller may write one) yields that pod. Otherwise the names are Plan's:
// "<s.CloneSet.Name>-" followed by five characters of the safe alphabet
// derived from a counter (kruise picks them at random), the first
// candidates no pod in s.Pods has and not yielded before. The sequence is
// deterministic: the same Sync yields the same names. Expanding it costs
// O(len(s.Pods)) once and O(1) on average per pod, and memory for the
// names yielded so far, so a caller stops when it has enough.
//
// When no free name is left (s.Pods and the pods yielded so far hold all
// PodNameSpace names, or maxNameTries candidates were all taken), it
// yields a zero Pod and a *field.Error for spec.replicas wrapping
// field.ErrRange and ErrPodNamesExhausted, and stops:
//
//	cloneset: spec.replicas: 20000000: pod 14348908 of the 20000000 to create: no free pod name left: all 14348907 names "demo-" + 5 characters are taken
func (s *Sync[T]) CreatedPods() iter.Seq2[Pod, error] {
	return func(yield func(Pod, error) bool) {
		var total int64
		for i := range s.Actions {
			if a := &s.Actions[i]; a.Kind == CreatePod {
				total += int64(max(a.Count, 1))
			}
		}
		if total == 0 {
			return
		}
		g := newPodNamer(s.CloneSet.Name, s.Pods)
		var made int64
		for i := range s.Actions {
			a := &s.Actions[i]
			if a.Kind != CreatePod {
				continue
			}
			n := int64(max(a.Count, 1))
			if a.Pod != "" && n == 1 {
				g.take(a.Pod)
				made++
				if !yield(s.createdPod(a.Pod, a.Revision), nil) {
					return
				}
				continue
			}
			for range n {
				made++
				name, ok := g.next()
				if !ok {
					yield(Pod{}, g.exhausted(s.CloneSet.Replicas, made, total))
					return
				}
				if !yield(s.createdPod(name, a.Revision), nil) {
					return
				}
			}
		}
	}
}

// AppendCreatedPods appends the pods of [Sync.CreatedPods] to dst and
// returns the extended slice, or dst unchanged and the error of
// CreatedPods. s.Pods followed by them are the pods as the reconcile
// leaves them, the input of the next reconcile:
//
//	pods, err := s.AppendCreatedPods(slices.Clip(s.Pods))
//
// It appends s.Scale.CreateCurrent + s.Scale.CreateUpdate pods for a
// Sync of Plan: a caller that bounds its memory checks that sum first.
func (s *Sync[T]) AppendCreatedPods(dst []Pod) ([]Pod, error) {
	n := len(dst)
	for p, err := range s.CreatedPods() {
		if err != nil {
			return dst[:n], err
		}
		dst = append(dst, p)
	}
	return dst, nil
}

// createdPod is a pod the sync creates, as it leaves it.
func (s *Sync[T]) createdPod(name, rev string) Pod {
	return Pod{Name: name, Revision: rev, Phase: PodPending, CreationTime: s.Time, Lifecycle: PreparingNormal}
}

// podNamer generates the names of created pods.
type podNamer struct {
	prefix string // "<cloneset>-"
	taken  map[string]struct{}
	used   int64 // names of the space taken
	k      uint64
	buf    []byte
}

func newPodNamer(cloneSet string, pods []Pod) *podNamer {
	g := &podNamer{prefix: cloneSet + "-", taken: make(map[string]struct{}, len(pods))}
	for i := range pods {
		g.take(pods[i].Name)
	}
	return g
}

// take marks name as taken.
func (g *podNamer) take(name string) {
	if _, ok := g.taken[name]; ok {
		return
	}
	g.taken[name] = struct{}{}
	if g.inSpace(name) {
		g.used++
	}
}

// inSpace reports whether name is one the generator can produce.
func (g *podNamer) inSpace(name string) bool {
	if len(name) != len(g.prefix)+5 || name[:len(g.prefix)] != g.prefix {
		return false
	}
	for i := len(g.prefix); i < len(name); i++ {
		if !isSafe(name[i]) {
			return false
		}
	}
	return true
}

func isSafe(c byte) bool {
	for i := range len(safeAlphabet) {
		if safeAlphabet[i] == c {
			return true
		}
	}
	return false
}

// next returns the next free name and takes it; false when the space is
// full or maxNameTries candidates in a row were taken.
func (g *podNamer) next() (string, bool) {
	if g.used >= PodNameSpace {
		return "", false
	}
	for range maxNameTries {
		name := g.candidate()
		if _, ok := g.taken[name]; !ok {
			g.taken[name] = struct{}{}
			g.used++
			return name, true
		}
	}
	return "", false
}

// candidate returns candidate number g.k and advances g.k: the FNV-1a
// hash of the CloneSet's name, a zero byte and k in decimal, written in
// base 27 with the safe alphabet, low digit first.
func (g *podNamer) candidate() string {
	h := fnv.New64a()
	h.Write([]byte(g.prefix[:len(g.prefix)-1]))
	h.Write([]byte{0})
	g.buf = strconv.AppendUint(g.buf[:0], g.k, 10)
	h.Write(g.buf)
	g.k++
	v := h.Sum64()
	g.buf = append(g.buf[:0], g.prefix...)
	for range 5 {
		g.buf = append(g.buf, safeAlphabet[v%uint64(len(safeAlphabet))])
		v /= uint64(len(safeAlphabet))
	}
	return string(g.buf)
}

// exhausted is the error for pod number made of total to create.
func (g *podNamer) exhausted(replicas int32, made, total int64) error {
	detail := "pod " + strconv.FormatInt(made, 10) + " of the " + strconv.FormatInt(total, 10) + " to create: " + ErrPodNamesExhausted.Error() + ": "
	if g.used >= PodNameSpace {
		detail += "all " + strconv.Itoa(PodNameSpace) + " names " + strconv.Quote(g.prefix) + " + 5 characters are taken"
	} else {
		detail += strconv.Itoa(maxNameTries) + " candidates in a row were taken (" + strconv.FormatInt(PodNameSpace-g.used, 10) + " names are free)"
	}
	return &field.Error{Prefix: "cloneset", Field: "spec.replicas", Value: strconv.FormatInt(int64(replicas), 10), Detail: detail,
		Err: errors.Join(field.ErrRange, ErrPodNamesExhausted)}
}
