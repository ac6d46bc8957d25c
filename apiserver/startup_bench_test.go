package apiserver

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// BenchmarkStartupBootstrap is the in-process start-up of BenchmarkStartupToFirstList with
// Options.Bootstrap: New also creates every start-up object a fresh kube-apiserver has.
func BenchmarkStartupBootstrap(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s := New(Options{Bootstrap: true})
		list, err := s.List(context.Background(), "pods", "default", api.ListOptions{})
		if err != nil || list == nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/start")
}

// BenchmarkStartupToFirstList measures what a kube-apiserver plus etcd take about 5 s for on
// this class of machine: from nothing to the first successful LIST. Each iteration builds a
// server (seeding its three namespaces), answers one LIST of pods and closes it: in process;
// over HTTP on a fresh loopback port (listen, one TCP connection, the GET); and over https
// (StartTLS, which also generates a key and a self-signed certificate, plus the handshake).
func BenchmarkStartupToFirstList(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := New(Options{})
			list, err := s.List(context.Background(), "pods", "default", api.ListOptions{})
			if err != nil || list == nil {
				b.Fatal(err)
			}
			s.Close()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/start")
	})
	for _, tc := range []struct {
		name   string
		useTLS bool
	}{{"http", false}, {"https", true}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := New(Options{})
				url, err := s.start("127.0.0.1:0", tc.useTLS)
				if err != nil {
					b.Fatal(err)
				}
				tr := &http.Transport{DisableKeepAlives: true}
				if tc.useTLS {
					pool := x509.NewCertPool()
					pool.AppendCertsFromPEM(s.CACertPEM())
					tr.TLSClientConfig = &tls.Config{RootCAs: pool}
				}
				resp, err := (&http.Client{Transport: tr}).Get(url + "/api/v1/namespaces/default/pods")
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("first LIST: %d", resp.StatusCode)
				}
				tr.CloseIdleConnections()
				s.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/start")
		})
	}
}

// BenchmarkStartupToReadyz measures what a controller author waits for before the first
// request: from exec of `demo serve` (built once, before the timer) to the first 200 of
// /readyz, found by a socket probe of the port it was given. Each iteration starts a fresh
// process and interrupts it; the median over the iterations is reported beside the mean
// (run with -benchtime=9x for the figure of nine starts). cpu-ms is the median CPU time
// (user and system) each process used until interrupted: on a shared machine it moves
// far less with the load than the wall-clock figures do. TestCh01_StartupWork (startup_test.go)
// guards the same start-up by counting its work, which the load does not move at all.
func BenchmarkStartupToReadyz(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "demo")
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go is not on PATH: the benchmark builds cmd/demo")
	}
	if out, err := exec.Command(goTool, "build", "-o", bin, "github.com/informer-lab/informer-lab/cmd/demo").CombinedOutput(); err != nil {
		b.Fatalf("building demo: %v\n%s", err, out)
	}
	var took, cpu []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		port := freePort(b)
		kubeconfig := filepath.Join(dir, fmt.Sprintf("kubeconfig-%d", i))
		cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:"+port, "--kubeconfig", kubeconfig)
		var output bytes.Buffer
		cmd.Stdout, cmd.Stderr = &output, &output
		b.StartTimer()
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		probeReadyz(b, "127.0.0.1:"+port)
		took = append(took, time.Since(start))
		b.StopTimer()
		_ = cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			b.Fatalf("demo serve did not end cleanly on interrupt: %v\n%s", err, output.Bytes())
		}
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		b.StartTimer()
	}
	slices.Sort(took)
	slices.Sort(cpu)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-ms")
}

// freePort returns a loopback port nothing listens on now.
func freePort(b *testing.B) string {
	b.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// probeReadyz polls addr every 100µs (a bounded wait of 10 s) until a connection is
// accepted and GET /readyz on it answers 200.
func probeReadyz(b *testing.B, addr string) {
	b.Helper()
	tick := time.NewTicker(100 * time.Microsecond)
	defer tick.Stop()
	deadline := time.Now().Add(10 * time.Second)
	req := []byte("GET /readyz HTTP/1.1\r\nHost: " + addr + "\r\nConnection: close\r\n\r\n")
	for ; time.Now().Before(deadline); <-tick.C {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			continue
		}
		_, err = conn.Write(req)
		var status [12]byte
		if err == nil {
			_, err = io.ReadFull(conn, status[:])
		}
		conn.Close()
		if err == nil && string(status[9:12]) == "200" {
			return
		}
	}
	b.Fatalf("%s/readyz did not answer 200 within 10 s", addr)
}
