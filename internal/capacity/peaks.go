package capacity

import "fmt"

// Group is a number of running pods that share one template's requests,
// such as the pods of one ReplicaSet (terminating ones included: they
// keep their node's resources until they are gone).
type Group struct {
	Pods     int64
	Requests Resources // of one pod, from Pod.Requests
}

// Step is the pods running at one step of a simulated rollout.
type Step struct {
	// Sync is the step's sync number; 0 is the state before the update.
	Sync int
	// Replicas is R, the Deployment's spec.replicas in force.
	Replicas int32
	// Groups are the running pods by template.
	Groups []Group
}

// Report is what a rollout needs beyond its steady state, R pods of the
// template it rolls out: the most extra pods, CPU and memory at any step,
// and the step where each peak is first reached.
type Report struct {
	// PodRequests are the requests of one pod of the new template, as
	// the scheduler totals them (Pod.Requests).
	PodRequests Amount `json:"podRequests"`
	// PeakExtraPods is the most pods beyond R.
	PeakExtraPods PodsPeak `json:"peakExtraPods"`
	// PeakExtraCPU and PeakExtraMemory are the most requested CPU and
	// memory beyond R times PodRequests.
	PeakExtraCPU    CPUPeak    `json:"peakExtraCPU"`
	PeakExtraMemory MemoryPeak `json:"peakExtraMemory"`
}

// Amount is a CPU and memory amount in numbers and in the API's human
// form ("1500m", "384Mi"; see FormatCPU and FormatMemory).
type Amount struct {
	MilliCPU   int64  `json:"cpuMillis"`
	CPU        string `json:"cpu"`
	Memory     int64  `json:"memoryBytes"`
	MemoryText string `json:"memory"`
}

// NewAmount returns r with its human forms.
func NewAmount(r Resources) Amount {
	return Amount{MilliCPU: r.MilliCPU, CPU: FormatCPU(r.MilliCPU), Memory: r.Memory, MemoryText: FormatMemory(r.Memory)}
}

// PodsPeak is the most pods beyond R, at Sync (the earliest step that
// reaches it; 0 when Pods is 0).
type PodsPeak struct {
	Pods int64 `json:"pods"`
	Sync int   `json:"sync"`
}

// CPUPeak is the most CPU requested beyond the steady state, at Sync (the
// earliest step that reaches it; 0 when MilliCPU is 0).
type CPUPeak struct {
	MilliCPU int64  `json:"cpuMillis"`
	CPU      string `json:"cpu"`
	Sync     int    `json:"sync"`
}

// MemoryPeak is the most memory requested beyond the steady state, at
// Sync (the earliest step that reaches it; 0 when Memory is 0).
type MemoryPeak struct {
	Memory     int64  `json:"memoryBytes"`
	MemoryText string `json:"memory"`
	Sync       int    `json:"sync"`
}

// Peaks returns the peaks of steps beyond their steady state. At each
// step the steady state is R pods of perPod, the requests of the template
// being rolled out, and the extra is
//
//	pods:     sum(g.Pods) - R
//	CPU:      sum(g.Pods * g.Requests.MilliCPU) - R * perPod.MilliCPU
//	memory:   sum(g.Pods * g.Requests.Memory) - R * perPod.Memory
//
// A peak is the largest extra over the steps, or 0 when no step exceeds
// its steady state (old pods that request more than new ones count at
// their own requests, so an extra can be negative, and even positive
// before the update starts). Ties go to the earliest step. Negative
// counts or requests, and sums beyond int64, are errors; the Report is
// then zero. steps is not modified.
func Peaks(perPod Resources, steps []Step) (Report, error) {
	if perPod.MilliCPU < 0 || perPod.Memory < 0 {
		return Report{}, fmt.Errorf("capacity: negative pod requests %+v", perPod)
	}
	rep := Report{PodRequests: NewAmount(perPod)}
	for _, s := range steps {
		if s.Replicas < 0 {
			return Report{}, fmt.Errorf("capacity: sync %d: negative replicas %d", s.Sync, s.Replicas)
		}
		var extra [3]int64
		base := [3]int64{int64(s.Replicas)}
		var ok bool
		if base[1], ok = mul(int64(s.Replicas), perPod.MilliCPU); !ok {
			return Report{}, overflow(s.Sync, "cpu")
		}
		if base[2], ok = mul(int64(s.Replicas), perPod.Memory); !ok {
			return Report{}, overflow(s.Sync, "memory")
		}
		var total [3]int64
		for _, g := range s.Groups {
			if g.Pods < 0 || g.Requests.MilliCPU < 0 || g.Requests.Memory < 0 {
				return Report{}, fmt.Errorf("capacity: sync %d: negative pods or requests %+v", s.Sync, g)
			}
			per := [3]int64{1, g.Requests.MilliCPU, g.Requests.Memory}
			for r := range 3 {
				n, ok := mul(g.Pods, per[r])
				if !ok || total[r] > maxInt64-n {
					return Report{}, overflow(s.Sync, resourceNames[r])
				}
				total[r] += n
			}
		}
		for r := range 3 {
			extra[r] = total[r] - base[r] // both >= 0: no overflow
		}
		if extra[0] > rep.PeakExtraPods.Pods {
			rep.PeakExtraPods = PodsPeak{Pods: extra[0], Sync: s.Sync}
		}
		if extra[1] > rep.PeakExtraCPU.MilliCPU {
			rep.PeakExtraCPU = CPUPeak{MilliCPU: extra[1], Sync: s.Sync}
		}
		if extra[2] > rep.PeakExtraMemory.Memory {
			rep.PeakExtraMemory = MemoryPeak{Memory: extra[2], Sync: s.Sync}
		}
	}
	rep.PeakExtraCPU.CPU = FormatCPU(rep.PeakExtraCPU.MilliCPU)
	rep.PeakExtraMemory.MemoryText = FormatMemory(rep.PeakExtraMemory.Memory)
	return rep, nil
}

const maxInt64 = 1<<63 - 1

var resourceNames = [3]string{"pods", "cpu", "memory"}

func overflow(sync int, resource string) error {
	return fmt.Errorf("capacity: sync %d: total %s: %w", sync, resource, ErrOverflow)
}
