package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile starts profiling the process's CPU into a new file at path (0600; an
// existing file is replaced) and returns the function that stops the profile and closes
// the file. It is serve's --cpuprofile: the server's own CPU as a client sees it from
// another process, which an in-process benchmark mixes with the client's.
func startCPUProfile(path string) (func() error, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
