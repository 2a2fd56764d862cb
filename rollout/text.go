package rollout

import "fmt"

// The names of the enums, indexed by value: what String returns and what
// MarshalText and UnmarshalText read and write. An enum whose values
// start at 1 has "" at index 0, so that its zero value (an Outcome of a
// Simulate that failed, say) is written as the empty text and read back.
var (
	pathNames = [...]string{
		PathDeleting:      "deleting",
		PathPaused:        "paused",
		PathRollback:      "rollback",
		PathScaling:       "scaling",
		PathRecreate:      "Recreate",
		PathRollingUpdate: "RollingUpdate",
		PathSelectingAll:  "selecting all",
	}
	actionKindNames = [...]string{
		CreateReplicaSet:   "CreateReplicaSet",
		ScaleReplicaSet:    "ScaleReplicaSet",
		AnnotateReplicaSet: "AnnotateReplicaSet",
		DeleteReplicaSet:   "DeleteReplicaSet",
		RollBack:           "RollBack",
		SkipRollback:       "SkipRollback",
		CountCollision:     "CountCollision",
	}
	eventKindNames = [...]string{
		SetTemplate: "SetTemplate",
		SetReplicas: "SetReplicas",
		Pause:       "Pause",
		Resume:      "Resume",
		Rollback:    "Rollback",
	}
	outcomeNames = [...]string{
		OutcomeComplete:  "Complete",
		OutcomeTimedOut:  "TimedOut",
		OutcomePaused:    "Paused",
		OutcomeStalled:   "Stalled",
		OutcomeSyncLimit: "SyncLimit",
	}
	surgePolicyNames = [...]string{
		SurgeIgnoresTerminating: "SurgeIgnoresTerminating",
		SurgeCountsTerminating:  "SurgeCountsTerminating",
	}
	resizePolicyNames = [...]string{
		ResizeUpstream:             "ResizeUpstream",
		ResizeRefreshesAnnotations: "ResizeRefreshesAnnotations",
	}
)

// enumString returns v's name in names, or "Type(v)" for a value without
// one. It does not allocate for a named value.
func enumString(typ string, names []string, v uint8) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + itoa(int64(v)) + ")"
}

// marshalEnum returns v's name in names; the zero value of an enum whose
// names start at 1 is the empty text. Any other value without a name is
// an error, so that what is written can always be read back.
func marshalEnum(typ string, names []string, v uint8) ([]byte, error) {
	if int(v) < len(names) && (names[v] != "" || v == 0) {
		return []byte(names[v]), nil
	}
	return nil, fmt.Errorf("rollout: %s(%d) has no name", typ, v)
}

// unmarshalEnum returns the value named text in names, and an error naming
// the type and quoting the text when no value has that name.
func unmarshalEnum(typ string, names []string, text []byte) (uint8, error) {
	for i, n := range names {
		if n == string(text) && (n != "" || i == 0) {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("rollout: unknown %s %q", typ, text)
}
