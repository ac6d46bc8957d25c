package labels_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/informer-lab/informer-lab/api/labels"
)

func TestLabels_SetHasGet(t *testing.T) {
	s := labels.Set{"app": "web", "empty": ""}
	tests := []struct {
		key     string
		wantHas bool
		wantGet string
	}{
		{"app", true, "web"},
		{"empty", true, ""}, // present with an empty value is still present
		{"missing", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			assert.Equal(t, tt.wantHas, s.Has(tt.key))
			assert.Equal(t, tt.wantGet, s.Get(tt.key))
		})
	}

	var nilSet labels.Set
	assert.False(t, nilSet.Has("app"), "a nil Set reads as empty")
	assert.Equal(t, "", nilSet.Get("app"))
}

func TestLabels_SetString(t *testing.T) {
	tests := []struct {
		name string
		set  labels.Set
		want string
	}{
		{"nil", nil, ""},
		{"one", labels.Set{"a": "b"}, "a=b"},
		{"sorted by key", labels.Set{"c": "d", "a": "b", "a.b": "x"}, "a=b,a.b=x,c=d"},
		{"empty value", labels.Set{"a": ""}, "a="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.set.String())
		})
	}
}

func TestLabels_SetAsSelector(t *testing.T) {
	sel := labels.Set{"tier": "db", "app": "web"}.AsSelector()
	assert.Equal(t, "app=web,tier=db", sel.String())
	assert.True(t, sel.Matches(labels.Set{"app": "web", "tier": "db", "extra": "x"}))
	assert.False(t, sel.Matches(labels.Set{"app": "web"}))
	assert.True(t, labels.Set{}.AsSelector().Empty())
}
