package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAPI_NewNotFound(t *testing.T) {
	tests := []struct {
		gr      GroupResource
		name    string
		message string
		body    string
	}{
		{gr: GroupResource{Resource: "pods"}, name: "x", message: `pods "x" not found`,
			body: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}`},
		{gr: GroupResource{Group: "apps", Resource: "deployments"}, name: "web", message: `deployments.apps "web" not found`,
			body: `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"web\" not found","reason":"NotFound","details":{"name":"web","group":"apps","kind":"deployments"},"code":404}`},
	}
	for _, tc := range tests {
		t.Run(tc.message, func(t *testing.T) {
			err := NewNotFound(tc.gr, tc.name)
			assert.EqualError(t, err, tc.message)
			assert.True(t, IsNotFound(err))
			assert.True(t, IsNotFound(fmt.Errorf("wrapped: %w", err)))
			b, jerr := json.Marshal(err)
			require.NoError(t, jerr)
			assert.JSONEq(t, tc.body, string(b))
		})
	}
	assert.False(t, IsNotFound(errors.New("pods \"x\" not found")), "only a Status counts")
	assert.False(t, IsNotFound(nil))
	assert.Equal(t, StatusReasonUnknown, ReasonForError(errors.New("x")))
}
