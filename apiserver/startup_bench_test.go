package apiserver

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"testing"

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
