package clientgo_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/informer-lab/informer-lab/apiserver"
)

// TestInterop_ClientCertAuth: stock client-go, configured by clientcmd from the kubeconfig of
// a StartTLS server with Options.ClientCertAuth (client-certificate-data and client-key-data,
// as kind writes), lists pods; so does a user minted with IssueClientCertificate. The admin
// certificate of another server (another client CA) and no certificate at all both get a 401
// that apierrors.IsUnauthorized recognises, not a TLS error.
func TestInterop_ClientCertAuth(t *testing.T) {
	srv := apiserver.NewTLSTestServer(t, apiserver.Options{ClientCertAuth: true})
	seedPods(t, srv, "default", 2)
	base, err := clientcmd.RESTConfigFromKubeConfig(srv.Kubeconfig())
	require.NoError(t, err)
	require.NotEmpty(t, base.CertData, "the kubeconfig carries the admin certificate")
	require.Empty(t, base.BearerToken)
	base.ContentType = "application/json"

	other := apiserver.NewTLSTestServer(t, apiserver.Options{ClientCertAuth: true})
	foreignCert, foreignKey := other.ClientCertificatePEM()
	janeCert, janeKey, err := srv.IssueClientCertificate("jane", "developers")
	require.NoError(t, err)

	tests := []struct {
		name      string
		cert, key []byte // nil: keep the kubeconfig's
		noCert    bool
		wantErr   bool
	}{
		{name: "kubeconfig admin"},
		{name: "minted user", cert: janeCert, key: janeKey},
		{name: "another cluster's admin", cert: foreignCert, key: foreignKey, wantErr: true},
		{name: "no certificate", noCert: true, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := rest.CopyConfig(base)
			switch {
			case tc.noCert:
				cfg.CertData, cfg.KeyData = nil, nil
			case tc.cert != nil:
				cfg.CertData, cfg.KeyData = tc.cert, tc.key
			}
			cs, err := kubernetes.NewForConfig(cfg)
			require.NoError(t, err)
			pods, err := cs.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{})
			if tc.wantErr {
				require.Error(t, err)
				assert.True(t, apierrors.IsUnauthorized(err), "want 401, got %v", err)
				return
			}
			require.NoError(t, err)
			assert.Len(t, pods.Items, 2)
		})
	}
}
