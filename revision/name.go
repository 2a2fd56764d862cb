package revision

// maxNameLength is the longest object name the API server accepts (a DNS
// subdomain).
const maxNameLength = 253

// ReplicaSetName returns the name of the ReplicaSet that a Deployment
// called deployment creates for a template with pod-template-hash hash:
// deployment + "-" + hash. When that would be longer than 253 bytes,
// deployment is cut to 253-1-len(hash) bytes first, so the hash always
// survives; a hash of 252 bytes or more leaves nothing to cut, and the
// name is then returned whole (and is too long). Bytes, not runes, are
// counted, as upstream does; valid Deployment names are ASCII.
// Upstream: generateReplicaSetName (v1.34 and later).
func ReplicaSetName(deployment, hash string) string {
	keep := maxNameLength - 1 - len(hash)
	if len(deployment) > keep && keep > 0 {
		deployment = deployment[:keep]
	}
	return deployment + "-" + hash
}
