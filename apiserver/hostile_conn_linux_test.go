//go:build linux

package apiserver

import (
	"net"
	"syscall"
)

// stallBytes is comfortably more than a watch stream to a tinyBufferDialer client can hold in
// socket buffers, so a client that stops reading stalls the server's writes.
const stallBytes = 1 << 20

// tinyBufferDialer dials with a small receive buffer and a small maximum segment size, both
// set before the handshake. The segment size is what keeps the server's send buffer small:
// on loopback Linux sizes it from the segment size (64 KiB there), which would let each
// stalled stream soak up megabytes before a write blocks.
func tinyBufferDialer() *net.Dialer {
	return &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		if cerr := c.Control(func(fd uintptr) {
			if err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024); err == nil {
				err = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_MAXSEG, 536)
			}
		}); cerr != nil {
			return cerr
		}
		return err
	}}
}

// raiseFileLimit lifts the soft limit on open files to the hard one and returns it, so the
// soak can size its rounds.
func raiseFileLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, err
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return 0, err
		}
	}
	return lim.Cur, nil
}
