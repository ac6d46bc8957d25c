package registry

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_RegistryNewUID: a uid is a random (version 4, RFC 4122 variant) UUID in its
// 8-4-4-4-12 lower-case text, as uuid.NewUUID writes it, and two are never the same.
func TestCh01_RegistryNewUID(t *testing.T) {
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		uid := newUID()
		assert.Regexp(t, v4, uid)
		assert.False(t, seen[uid], uid)
		seen[uid] = true
	}
}
