package statefulset

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/intorpercent"
)

// TestSyncJSONRoundTrip: a Sync encodes with the API's camelCase names
// and enums by name, and decodes back to the same value.
func TestSyncJSONRoundTrip(t *testing.T) {
	w := newWorld(3, true, "0:o:r", "1:o:r", "2:o:r", "4:o:u").parallel().gate().maxUnavailable(intorpercent.FromString("50%"))
	s := w.plan(t)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind":"DeletePod"`, `"stage":"StageCondemned"`, `"kind":"WriteStatus"`, `"podManagementPolicy":"Parallel"`,
		`"maxUnavailable":"50%"`, `"stoppedAt":"StageUpdate"`, `"blocker":"BlockBudget"`, `"collisionCount":0`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b)
		}
	}
	var back Sync[tmpl]
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, back) {
		t.Errorf("round trip differs:\n%+v\n%+v", s, back)
	}
}

func TestEnumText(t *testing.T) {
	var k ActionKind
	if err := k.UnmarshalText([]byte("RenumberRevision")); err != nil || k != RenumberRevision {
		t.Errorf("UnmarshalText(RenumberRevision) = %v, %v", k, err)
	}
	err := k.UnmarshalText([]byte("Explode"))
	if want := `statefulset: ActionKind: "Explode": unknown name`; err == nil || err.Error() != want {
		t.Errorf("UnmarshalText(Explode) = %v, want %s", err, want)
	}
	if _, err := ActionKind(99).MarshalText(); err == nil || err.Error() != "statefulset: ActionKind: 99: has no name" {
		t.Errorf("MarshalText(99) = %v", err)
	}
	var o Options
	if err := json.Unmarshal([]byte(`{"gates":{"maxUnavailableStatefulSet":true},"budget":"BudgetReplaceUnavailableFirst","currentReplicas":"CurrentReplicasCountCurrentOnly","zeroReplicas":"ZeroReplicasKeepsCurrent"}`), &o); err != nil {
		t.Fatal(err)
	}
	want := Options{Gates: Gates{MaxUnavailableStatefulSet: true}, Budget: BudgetReplaceUnavailableFirst, CurrentReplicas: CurrentReplicasCountCurrentOnly, ZeroReplicas: ZeroReplicasKeepsCurrent}
	if o != want {
		t.Errorf("Options from JSON = %+v, want %+v", o, want)
	}
}
