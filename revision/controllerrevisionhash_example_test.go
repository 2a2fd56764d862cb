package revision_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/revision"
)

func ExampleControllerRevisionHash() {
	data := []byte(`{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"image":"nginx:1.26","name":"nginx"}]}}}}`)
	h := revision.ControllerRevisionHash(data, 0)
	fmt.Println(h, revision.ControllerRevisionHash(data, 1) != h)
	fmt.Println(string(revision.AppendControllerRevisionHash([]byte("web-"), data, 0)) == "web-"+h)
	// Output:
	// 5b8dc8674 true
	// true
}
