// Package setimage reads and applies the --set-image CONTAINER=IMAGE flag
// of the manifest-reading example programs (rolloutplan, clonesetplan), as
// `kubectl set image` does: container "*" means every container.
package setimage

import (
	"fmt"
	"strings"
)

// Change is one --set-image CONTAINER=IMAGE.
type Change struct{ Container, Image string }

// Parse reads the flag's values. An empty container or image, or a value
// without "=", is an error naming the value.
func Parse(values []string) ([]Change, error) {
	var out []Change
	for _, s := range values {
		name, image, ok := strings.Cut(s, "=")
		if !ok || name == "" || image == "" {
			return nil, fmt.Errorf("--set-image %q: want CONTAINER=IMAGE", s)
		}
		out = append(out, Change{name, image})
	}
	return out, nil
}

// Apply returns the new image of each container, by index in names (the
// template's container names, in order), after changes in order; a later
// change of the same container wins. A change whose container names none
// of them is an error, as kubectl reports it.
func Apply(names []string, changes []Change) (map[int]string, error) {
	images := map[int]string{}
	for _, c := range changes {
		found := false
		for i, name := range names {
			if c.Container == "*" || name == c.Container {
				images[i] = c.Image
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("--set-image: unable to find container named %q", c.Container)
		}
	}
	return images, nil
}
