//go:build !linux

package apiserver

import "net"

// stallBytes is comfortably more than a watch stream can hold in default socket buffers
// (loopback buffers grow to a few MiB), so a client that stops reading stalls the server.
const stallBytes = 32 << 20

// tinyBufferDialer is a plain dialer here: shrinking the buffers needs platform calls.
func tinyBufferDialer() *net.Dialer { return &net.Dialer{} }

// raiseFileLimit reports a conservative limit on open files where it cannot be read.
func raiseFileLimit() (uint64, error) { return 1024, nil }
