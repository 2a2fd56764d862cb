package revision

import (
	"strings"
	"testing"
)

func TestReplicaSetName(t *testing.T) {
	hash10 := "5d4c8f7b99"
	tests := []struct {
		name, deployment, hash, want string
		reason                       string
	}{
		{name: "short", deployment: "nginx", hash: "5d4c8f7b9", want: "nginx-5d4c8f7b9"},
		{name: "250 bytes", deployment: strings.Repeat("b", 250), hash: hash10,
			want: strings.Repeat("b", 242) + "-" + hash10, reason: "253 - 1 - 10 = 242"},
		{name: "exactly fits", deployment: strings.Repeat("b", 242), hash: hash10,
			want: strings.Repeat("b", 242) + "-" + hash10},
		{name: "one too long", deployment: strings.Repeat("b", 243), hash: hash10,
			want: strings.Repeat("b", 242) + "-" + hash10},
		{name: "empty hash", deployment: strings.Repeat("c", 260), hash: "",
			want: strings.Repeat("c", 252) + "-"},
		{name: "251-byte hash leaves one byte", deployment: "abc", hash: strings.Repeat("h", 251),
			want: "a-" + strings.Repeat("h", 251)},
		{name: "252-byte hash: nothing to cut", deployment: strings.Repeat("d", 252), hash: strings.Repeat("d", 252),
			want: strings.Repeat("d", 252) + "-" + strings.Repeat("d", 252), reason: "the limit is 0, so upstream does not truncate"},
		{name: "empty deployment", deployment: "", hash: "x", want: "-x"},
	}
	for _, tt := range tests {
		if got := ReplicaSetName(tt.deployment, tt.hash); got != tt.want {
			t.Errorf("ReplicaSetName(%d bytes, %d bytes) = %d bytes %.20q..., want %d bytes (%s: %s)",
				len(tt.deployment), len(tt.hash), len(got), got, len(tt.want), tt.name, tt.reason)
		}
	}
}
