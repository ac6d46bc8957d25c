package printers

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_Printers_DescriptionsResolve checks every built-in column that quotes the API
// documentation against the embedded documents: the definition and member exist and are
// described, without the enum list openapi-gen appends (SwaggerDoc has none).
func TestCh01_Printers_DescriptionsResolve(t *testing.T) {
	for gk, p := range builtinPrinters {
		for _, c := range p.specs {
			if c.desc.definition == "" {
				continue
			}
			got := c.desc.resolve()
			assert.NotEmpty(t, got, "%v %s: %s.%s", gk, c.def.Name, c.desc.definition, c.desc.member)
			assert.NotContains(t, got, "Possible enum values", "%v %s", gk, c.def.Name)
		}
	}
	assert.True(t, strings.HasPrefix(memberDoc(coreV1+"ServiceSpec", "type"), "type determines how the Service is exposed."))
	assert.Empty(t, memberDoc(coreV1+"ServiceSpec", "noSuchMember"), "an undocumented member reads as SwaggerDoc's missing key")
	assert.Empty(t, memberDoc("io.k8s.api.nosuchgroup.v1.Thing", "spec"), "a definition in no document")
}

// BenchmarkColumnsFirstUse measures what a kind's first Table pays for its descriptions:
// finding and decoding the definitions its columns quote in the embedded documents.
func BenchmarkColumnsFirstUse(b *testing.B) {
	for b.Loop() {
		docsMu.Lock()
		docs = map[string]map[string]string{}
		docsMu.Unlock()
		p := &Printer{specs: podPrinter.specs}
		p.columns()
	}
}
