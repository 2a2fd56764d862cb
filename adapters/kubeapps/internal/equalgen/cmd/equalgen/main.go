// Command equalgen writes kubeapps's generated comparator for
// corev1.PodTemplateSpec: run it with go generate in the kubeapps package.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rolloutmath/rolloutmath/adapters/kubeapps/internal/equalgen"
)

func main() {
	out := flag.String("o", "equal_generated.go", "the file to write")
	flag.Parse()
	src, err := equalgen.PodTemplate()
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "equalgen:", err)
		os.Exit(1)
	}
}
