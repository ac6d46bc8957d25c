package apiserver

import (
	"testing"

	"github.com/informer-lab/informer-lab/internal/origin"
	"github.com/stretchr/testify/assert"
)

// TestCh01_HostAllowed is the table of the Host rule: IP literals, localhost and its
// subdomains, and the names the server was started on; a bad port is not a host.
func TestCh01_HostAllowed(t *testing.T) {
	names := func() []string { return []string{"lab.example", "localhost"} }
	for host, want := range map[string]bool{
		"":                     true,
		"127.0.0.1":            true,
		"127.0.0.1:6443":       true,
		"192.168.1.10:6443":    true,
		"[::1]:6443":           true,
		"::1":                  true,
		"[fe80::1%eth0]:6443":  true,
		"localhost":            true,
		"localhost:6443":       true,
		"LOCALHOST:6443":       true,
		"localhost.:6443":      true,
		"a.b.localhost:6443":   true,
		"lab.example:6443":     true,
		"Lab.Example":          true,
		"lab.example.:6443":    true,
		"evil.example:6443":    false,
		"sub.lab.example:6443": false,
		"localhostx:6443":      false,
		"xlocalhost:6443":      false,
		".localhost:6443":      false,
		"localhost:":           false,
		"localhost:x":          false,
		"localhost:6443:1":     false,
		"[localhost]:6443":     false,
		"127.1:6443":           false,
		"2130706433":           false,
		"0x7f.0.0.1:6443":      false,
		"[127.0.0.1]:6443":     false,
		"[::1":                 false,
		":6443":                false,
		"[evil.example]:6443":  false,
	} {
		assert.Equal(t, want, origin.HostAllowed(host, names), "%q", host)
	}
}
