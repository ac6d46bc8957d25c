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

// TestCh01_HostAllowedWithoutNames: with no names of its own (nil), a server accepts only IP
// literals and localhost names; the full table runs in apiserver's origin_test.go.
func TestCh01_HostAllowedWithoutNames(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:8080":     true,
		"[::1]:8080":         true,
		"localhost":          true,
		"ui.localhost:8080":  true,
		"evil.example:8080":  false,
		"localhost.evil.com": false,
	} {
		assert.Equal(t, want, HostAllowed(host, nil), "%q", host)
	}
}
