package ilpgnn

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestConfigJSONRoundTrip checks that every named setting survives JSON,
// the form checkpoints store configs in, and that unknown names are refused
// with the offending value quoted.
func TestConfigJSONRoundTrip(t *testing.T) {
	for _, init := range []InitScheme{InitGlorot, InitIsometric} {
		for _, st := range []StructureScale{ScalePaper, ScaleMax} {
			c := DefaultConfig()
			c.Init, c.Structure, c.IsometricBranch = init, st, 0.7
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"`+init.String()+`"`) || !strings.Contains(string(b), `"`+st.String()+`"`) {
				t.Fatalf("%s does not name %v and %v", b, init, st)
			}
			var back Config
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back != c {
				t.Fatalf("round trip gave %+v, want %+v", back, c)
			}
		}
	}
	for _, bad := range []string{`{"Init":"xavier"}`, `{"Structure":"min"}`} {
		var c Config
		err := json.Unmarshal([]byte(bad), &c)
		if err == nil || !strings.Contains(err.Error(), "got") {
			t.Fatalf("%s: error %v, want one quoting the bad name", bad, err)
		}
	}
	c := DefaultConfig()
	c.Init = InitScheme(9)
	if err := c.Validate(); err == nil {
		t.Fatal("an unknown init scheme validated")
	}
}
