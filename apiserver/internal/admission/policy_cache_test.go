package admission

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_AdmissionPolicy_CompileCacheIsBounded: creating and deleting policies without end
// cannot grow the compile cache past its bound.
func TestCh01_AdmissionPolicy_CompileCacheIsBounded(t *testing.T) {
	var c compileCache[int]
	for i := range 3 * maxCompiledPolicies {
		c.store(strconv.Itoa(i), i)
		assert.LessOrEqual(t, len(c.m), maxCompiledPolicies)
	}
	v, ok := c.load(strconv.Itoa(3*maxCompiledPolicies - 1))
	assert.True(t, ok)
	assert.Equal(t, 3*maxCompiledPolicies-1, v)
}
