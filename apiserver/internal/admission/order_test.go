package admission

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_Admission_ChainKeepsTheRealOrder: the default chain holds every implemented
// plugin, each under its own name, in the order of DefaultOnPlugins.
func TestCh01_Admission_ChainKeepsTheRealOrder(t *testing.T) {
	c := NewChain(Config{StrictServiceAccounts: true})
	require.Len(t, c, len(implemented))
	last := -1
	for _, p := range c {
		i := slices.Index(DefaultOnPlugins, p.Name())
		require.GreaterOrEqual(t, i, 0, "%s is not a default plugin", p.Name())
		assert.Greater(t, i, last, "%s is out of order", p.Name())
		last = i
		if p.Name() != "ServiceAccount" { // configured by NewChain
			assert.Equal(t, p, implemented[p.Name()])
		}
	}
	assert.Equal(t, []string{"NamespaceLifecycle", "LimitRanger", "ServiceAccount", "TaintNodesByCondition", "PodSecurity", "Priority",
		"DefaultTolerationSeconds", "DefaultStorageClass", "StorageObjectInUseProtection", "RuntimeClass",
		"CertificateSubjectRestriction", "DefaultIngressClass",
		"MutatingAdmissionPolicy", "MutatingAdmissionWebhook",
		"ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook",
		"ResourceQuota"}, c.Names())
}
