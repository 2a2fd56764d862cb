package capacity_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/capacity"
)

func ExamplePod_Requests() {
	// An app container, an init container that migrates a database, and a
	// log shipper started as a sidecar after it.
	pod := capacity.Pod{
		Containers: []capacity.Resources{{MilliCPU: 250, Memory: 256 << 20}},
		InitContainers: []capacity.InitContainer{
			{Requests: capacity.Resources{MilliCPU: 500, Memory: 128 << 20}},
			{Requests: capacity.Resources{MilliCPU: 50, Memory: 64 << 20}, Sidecar: true},
		},
	}
	r, err := pod.Requests()
	fmt.Println(capacity.FormatCPU(r.MilliCPU), capacity.FormatMemory(r.Memory), err)
	// Output: 500m 320Mi <nil>
}

func ExamplePeaks() {
	perPod := capacity.Resources{MilliCPU: 250, Memory: 64 << 20}
	steps := []capacity.Step{
		{Sync: 0, Replicas: 10, Groups: []capacity.Group{{Pods: 10, Requests: perPod}}},
		{Sync: 1, Replicas: 10, Groups: []capacity.Group{{Pods: 10, Requests: perPod}, {Pods: 0, Requests: perPod}}},
		{Sync: 3, Replicas: 10, Groups: []capacity.Group{{Pods: 8, Requests: perPod}, {Pods: 5, Requests: perPod}}},
	}
	rep, err := capacity.Peaks(perPod, steps)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d pods, %s CPU, %s memory at sync %d\n", rep.PeakExtraPods.Pods, rep.PeakExtraCPU.CPU,
		rep.PeakExtraMemory.MemoryText, rep.PeakExtraPods.Sync)
	// Output: 3 pods, 750m CPU, 192Mi memory at sync 3
}

func ExampleRequest() {
	limit := int64(1000)
	fmt.Println(capacity.Request(nil, &limit), capacity.Request(nil, nil))
	// Output: 1000 0
}

func ExampleNewAmount() {
	fmt.Printf("%+v\n", capacity.NewAmount(capacity.Resources{MilliCPU: 1500, Memory: 384 << 20}))
	// Output: {MilliCPU:1500 CPU:1500m Memory:402653184 MemoryText:384Mi}
}

func ExampleParseCPU() {
	for _, s := range []string{"250m", "0.5", "2", "1e3"} {
		fmt.Println(capacity.ParseCPU(s))
	}
	// Output:
	// 250 <nil>
	// 500 <nil>
	// 2000 <nil>
	// 0 capacity: parsing "1e3": exponents are not supported; write the number out, with a suffix if you like (1e3 is 1k)
}

func ExampleParseMemory() {
	for _, s := range []string{"128Mi", "1G", "100m", "-1"} {
		fmt.Println(capacity.ParseMemory(s))
	}
	// Output:
	// 134217728 <nil>
	// 1000000000 <nil>
	// 1 <nil>
	// 0 capacity: parsing "-1": negative quantities are not allowed
}

func ExampleFormatCPU() {
	fmt.Println(capacity.FormatCPU(1500), capacity.FormatCPU(2000))
	// Output: 1500m 2
}

func ExampleFormatMemory() {
	fmt.Println(capacity.FormatMemory(384<<20), capacity.FormatMemory(1e9), capacity.FormatMemory(1500))
	// Output: 384Mi 1G 1500
}

func ExamplePodLevelRequest() {
	limit := int64(2 << 30)
	fmt.Println(*capacity.PodLevelRequest(nil, &limit, false), capacity.PodLevelRequest(nil, &limit, true))
	// Output: 2147483648 <nil>
}
