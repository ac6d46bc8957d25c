package fieldmanager

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_SSA_ManagerIdentifierCache: building and parsing manager identifiers through the
// cache gives what encoding/json gives, the first time and the second, for canonical and
// non-canonical identifiers alike.
func TestCh01_SSA_ManagerIdentifierCache(t *testing.T) {
	for _, id := range []identity{
		{Manager: "kubectl-client-side-apply", Operation: OperationUpdate, APIVersion: "v1"},
		{Manager: "bench.test", Operation: OperationUpdate, APIVersion: "apps/v1", Subresource: "status"},
		{Manager: "kubectl", Operation: OperationApply, APIVersion: "v1"}, // Apply: no apiVersion
		{Manager: `a"quote & <html> \ é`, Operation: OperationUpdate},
		{},
	} {
		want := id
		if want.Operation == OperationApply {
			want.APIVersion = ""
		}
		b, err := json.Marshal(want)
		assert.NoError(t, err)
		for range 2 { // the second time from the cache
			s := buildIdentifier(id)
			assert.Equal(t, string(b), s)
			assert.Equal(t, want, parseIdentifier(s))
		}
	}
	// An identifier written another way parses to the same identity and is not cached as
	// the way to write it.
	odd := `{ "operation":"Update", "manager":"odd-manager" }`
	for range 2 {
		assert.Equal(t, identity{Manager: "odd-manager", Operation: OperationUpdate}, parseIdentifier(odd))
		assert.Equal(t, `{"manager":"odd-manager","operation":"Update"}`, buildIdentifier(identity{Manager: "odd-manager", Operation: OperationUpdate}))
	}
	assert.Equal(t, identity{}, parseIdentifier(`not json`))
}
