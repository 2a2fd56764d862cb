package revision

// This file holds the test templates. It imports nothing and uses no
// testing code, so that the same file can be compiled next to the real
// go-spew and k8s.io/api to check the renderings and hashes recorded in
// hash_test.go (see the comment there).

// quantity is a resource.Quantity-like value: two quantities are Equal
// when they are the same amount, however they are written.
type quantity struct {
	milli int64  // the amount in thousandths
	text  string // how it was written, "1" or "1000m"
}

// Equal reports whether q and o are the same amount.
func (q quantity) Equal(o quantity) bool { return q.milli == o.milli }

// instant is a metav1.Time-like value with a pointer-receiver Equal that
// takes a pointer.
type instant struct {
	unix   int64
	offset int32 // seconds east of UTC; does not change the instant
}

// Equal reports whether t and u are the same instant.
func (t *instant) Equal(u *instant) bool { return t.unix == u.unix }

type intOrString struct {
	IsString bool
	Int      int32
	Str      string
}

type httpGet struct {
	Path    string
	Port    intOrString
	Headers map[string]string
}

type probe struct {
	HTTPGet             *httpGet
	Exec                []string
	InitialDelaySeconds int32
	PeriodSeconds       int32
	FailureThreshold    int32
}

type envVar struct {
	Name      string
	Value     string
	FieldPath *string
}

type volumeMount struct {
	Name      string
	MountPath string
	ReadOnly  bool
}

type resources struct {
	Limits   map[string]quantity
	Requests map[string]quantity
}

type container struct {
	Name           string
	Image          string
	Command        []string
	Args           []string
	Ports          []int32
	Env            []envVar
	Resources      resources
	VolumeMounts   []volumeMount
	LivenessProbe  *probe
	ReadinessProbe *probe
	RunAsUser      *int64
}

type volume struct {
	Name      string
	ConfigMap *string
	EmptyDir  bool
}

type podSpec struct {
	Containers                    []container
	Volumes                       []volume
	NodeSelector                  map[string]string
	TerminationGracePeriodSeconds *int64
	RestartPolicy                 string
	Priority                      *int32
	StartAfter                    instant
}

// podTemplate is the realistic plain template used by the tests and
// benchmarks.
type podTemplate = Template[podSpec]

func ptrTo[V any](v V) *V { return &v }

func testContainer(name, image string) container {
	return container{
		Name:    name,
		Image:   image,
		Command: []string{"/bin/" + name},
		Args:    []string{"--port=8080", "--log-level=info"},
		Ports:   []int32{8080, 9090},
		Env: []envVar{
			{Name: "MODE", Value: "production"},
			{Name: "POD_NAME", FieldPath: ptrTo("metadata.name")},
			{Name: "GOMAXPROCS", Value: "2"},
		},
		Resources: resources{
			Limits:   map[string]quantity{"cpu": {1000, "1"}, "memory": {512 << 30, "512Mi"}},
			Requests: map[string]quantity{"cpu": {250, "250m"}, "memory": {256 << 30, "256Mi"}},
		},
		VolumeMounts: []volumeMount{
			{Name: "data", MountPath: "/data"},
			{Name: "config", MountPath: "/etc/" + name, ReadOnly: true},
		},
		LivenessProbe: &probe{
			HTTPGet:             &httpGet{Path: "/healthz", Port: intOrString{Int: 8080}, Headers: map[string]string{"X-Probe": "liveness"}},
			InitialDelaySeconds: 5, PeriodSeconds: 10, FailureThreshold: 3,
		},
		ReadinessProbe: &probe{Exec: []string{"cat", "/tmp/ready"}, PeriodSeconds: 5},
		RunAsUser:      ptrTo[int64](1000),
	}
}

// realisticTemplate returns a Deployment's template: three containers with
// environment, resources, probes and volume mounts. Each call returns new
// maps, slices and pointers, so two results are equal but share nothing.
func realisticTemplate() podTemplate {
	return podTemplate{
		Labels:      map[string]string{"app": "web", "tier": "frontend"},
		Annotations: map[string]string{"prometheus.io/scrape": "true"},
		Spec: podSpec{
			Containers: []container{
				testContainer("web", "nginx:1.27"),
				testContainer("sidecar", "envoy:1.30"),
				testContainer("logger", "fluent-bit:3.1"),
			},
			Volumes: []volume{
				{Name: "data", EmptyDir: true},
				{Name: "config", ConfigMap: ptrTo("web-config")},
			},
			NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
			TerminationGracePeriodSeconds: ptrTo[int64](30),
			RestartPolicy:                 "Always",
			StartAfter:                    instant{unix: 1767225600},
		},
	}
}

// withHash returns t with the HashLabel label set to hash, in a new labels
// map, as on a ReplicaSet's template.
func withHash(t podTemplate, hash string) podTemplate {
	labels := make(map[string]string, len(t.Labels)+1)
	for k, v := range t.Labels {
		labels[k] = v
	}
	labels[HashLabel] = hash
	t.Labels = labels
	return t
}

// plainTemplates are small templates whose renderings and hashes were
// checked against go-spew; see hash_test.go.
func plainTemplates() map[string]any {
	return map[string]any{
		"empty Template[podSpec]": Template[podSpec]{},
		"realistic":               realisticTemplate(),
		"realistic with hash":     withHash(realisticTemplate(), "5d4c8f7b9"),
		"Template[[]string]": Template[[]string]{
			Labels: map[string]string{"app": "web"},
			Spec:   []string{"nginx:1.27", ""},
		},
		"Template[map[string]int]": Template[map[string]int]{
			Annotations: map[string]string{},
			Spec:        map[string]int{"b": 2, "a": 1},
		},
		"Template[*int32] nil": Template[*int32]{},
		"Template[*int32] 0":   Template[*int32]{Spec: ptrTo[int32](0)},
	}
}
