package origin

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_SameOrigin is the table of Origin headers against a request to 127.0.0.1:6443.
func TestCh01_SameOrigin(t *testing.T) {
	for origin, want := range map[string]bool{
		"":                       true,
		"http://127.0.0.1:6443":  true,
		"https://127.0.0.1:6443": true,
		"HTTP://127.0.0.1:6443":  true,
		"http://127.0.0.1":       false,
		"http://127.0.0.1:1":     false,
		"http://localhost:6443":  false,
		"http://evil.example":    false,
		"null":                   false,
		"::":                     false,
		"http://127.0.0.1:6443 http://evil.example": false,
	} {
		r := httptest.NewRequest("POST", "http://127.0.0.1:6443/x", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		assert.Equal(t, want, Same(r), "%q", origin)
	}
	// A request with no Host (HTTP/1.0) matches no origin.
	r := httptest.NewRequest("POST", "/x", nil)
	r.Host = ""
	r.Header.Set("Origin", "http://evil.example")
	assert.False(t, Same(r))
}
