package resttest

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// WhoAmI answers every request with a Pod named after the client certificate's common name
// ("anonymous" without one), its Authorization header in annotation "auth" (contract 1).
// Nothing in client-go mirrors it.
func WhoAmI(w http.ResponseWriter, r *http.Request) {
	name := "anonymous"
	if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		name = r.TLS.PeerCertificates[0].Subject.CommonName
	}
	pod := map[string]any{"kind": "Pod", "apiVersion": "v1", "metadata": map[string]any{
		"name": name, "namespace": "demo", "annotations": map[string]string{"auth": r.Header.Get("Authorization")}}}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(pod)
}

// NewMTLSServer starts an https server that requires a client certificate signed by (here:
// equal to) one of trusted, and answers with WhoAmI; the test's cleanup closes it. Nothing in
// client-go mirrors it.
func NewMTLSServer(t *testing.T, trusted ...[]byte) *httptest.Server {
	t.Helper()
	pool := x509.NewCertPool()
	for _, c := range trusted {
		require.True(t, pool.AppendCertsFromPEM(c))
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(WhoAmI))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// ServerCA is the PEM of the test server's certificate, to trust it through CAData. Nothing
// in client-go mirrors it.
func ServerCA(srv *httptest.Server) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

// PodEvent is one wire frame for a pod, without the trailing newline (contract 2). Nothing
// in client-go mirrors it.
func PodEvent(t watch.EventType, name, rv string) string {
	return fmt.Sprintf(`{"type":%q,"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"namespace":"demo","resourceVersion":%q},"status":{"phase":"Running"}}}`, t, name, rv)
}

// Collect reads every event until the channel closes (bounded: a hang fails the test).
// Nothing in client-go mirrors it.
func Collect(t *testing.T, w watch.Interface) []watch.Event {
	t.Helper()
	var out []watch.Event
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatal("the watch did not end")
			return nil
		}
	}
}

// ExpiredEvent is the ERROR frame a server sends for a resourceVersion it no longer has.
// Nothing in client-go mirrors it.
const ExpiredEvent = `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (1000)","reason":"Expired","code":410}}`

// Summary is what table tests of watch streams compare: "TYPE ns/name@rv Go-type", or
// "ERROR <code> <reason>" (contract 2). Nothing in client-go mirrors it.
func Summary(ev watch.Event) string {
	if st, ok := ev.Object.(*api.Status); ok {
		return fmt.Sprintf("%s %d %s", ev.Type, st.Code, st.Reason)
	}
	m, err := api.Accessor(ev.Object)
	if err != nil {
		return fmt.Sprintf("%s %T", ev.Type, ev.Object)
	}
	return fmt.Sprintf("%s %s/%s@%s %T", ev.Type, m.GetNamespace(), m.GetName(), m.GetResourceVersion(), ev.Object)
}

// BenchPod is a pod of realistic size (about 1 KiB of JSON) for benchmarks: labels, an
// owner, two containers, conditions. Nothing in client-go mirrors it.
func BenchPod(i int) *api.Pod {
	ts := api.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	yes := true
	return &api.Pod{
		TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{
			Name: fmt.Sprintf("web-7d4b9c8f6d-%05d", i), GenerateName: "web-7d4b9c8f6d-", Namespace: "demo",
			UID: "6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60", ResourceVersion: strconv.Itoa(1000 + i), Generation: 1,
			CreationTimestamp: ts,
			Labels:            map[string]string{"app": "web", "pod-template-hash": "7d4b9c8f6d"},
			Annotations:       map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-01-02T03:00:00Z"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c8f6d",
				UID: "0b6e8f3a-2c4d-4e5f-8a9b-c0d1e2f3a4b5", Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Spec: api.PodSpec{
			Containers:    []api.Container{{Name: "nginx", Image: "nginx:1.27"}, {Name: "log-shipper", Image: "fluent/fluent-bit:3.1"}},
			RestartPolicy: api.RestartPolicyAlways, ServiceAccountName: "default", NodeName: "node-1", SchedulerName: "default-scheduler",
		},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.244.1.17", Conditions: []api.PodCondition{
			{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: ts},
			{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: ts},
		}},
	}
}
