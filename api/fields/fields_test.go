package fields_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api/fields"
)

func TestFields_SetHasGet(t *testing.T) {
	s := fields.Set{"metadata.name": "a", "spec.nodeName": ""}
	tests := []struct {
		field   string
		wantHas bool
		wantGet string
	}{
		{"metadata.name", true, "a"},
		{"spec.nodeName", true, ""},
		{"status.phase", false, ""}, // absent reads as "" (L20)
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			assert.Equal(t, tt.wantHas, s.Has(tt.field))
			assert.Equal(t, tt.wantGet, s.Get(tt.field))
		})
	}
}

func TestFields_SetString(t *testing.T) {
	tests := []struct {
		name string
		set  fields.Set
		want string
	}{
		{"nil", nil, ""},
		{"sorted pairs", fields.Set{"spec.nodeName": "n1", "metadata.name": "a"}, "metadata.name=a,spec.nodeName=n1"},
		{"not escaped, as upstream", fields.Set{"a": "x,y"}, "a=x,y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.set.String())
		})
	}
}

func TestFields_SetAsSelector(t *testing.T) {
	set := fields.Set{"metadata.name": "a", "metadata.namespace": "x,y"}
	sel := set.AsSelector()
	assert.Equal(t, `metadata.name=a,metadata.namespace=x\,y`, sel.String())
	assert.True(t, sel.Matches(set))
	assert.True(t, fields.Set{}.AsSelector().Empty())
}
