package webhooks_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/informer-lab/informer-lab/apiserver"
)

// servingCert writes a self-signed certificate for 127.0.0.1 into dir as tls.crt and
// tls.key, as envtest does for its webhook server, and returns the certificate's PEM.
func servingCert(t *testing.T, dir string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "webhook"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.crt"), certPEM, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600))
	return certPEM
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// configMapPolicy refuses configmaps whose data has a key "forbidden".
type configMapPolicy struct{}

func (configMapPolicy) ValidateCreate(_ context.Context, cm *corev1.ConfigMap) (admission.Warnings, error) {
	if _, bad := cm.Data["forbidden"]; bad {
		return nil, errors.New(`data key "forbidden" is not allowed`)
	}
	return admission.Warnings{"checked by configmap-policy"}, nil
}

func (configMapPolicy) ValidateUpdate(ctx context.Context, _, cm *corev1.ConfigMap) (admission.Warnings, error) {
	return configMapPolicy{}.ValidateCreate(ctx, cm)
}

func (configMapPolicy) ValidateDelete(context.Context, *corev1.ConfigMap) (admission.Warnings, error) {
	return nil, nil
}

// configMapDefaults labels every configmap.
type configMapDefaults struct{}

func (configMapDefaults) Default(_ context.Context, cm *corev1.ConfigMap) error {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["defaulted-by"] = "controller-runtime"
	return nil
}

type warnings struct{ got []string }

func (w *warnings) HandleWarningHeaderWithContext(_ context.Context, _ int, _ string, text string) {
	w.got = append(w.got, text)
}

// TestInterop_WebhooksServedByControllerRuntime: a validating webhook that refuses and a
// mutating webhook that patches, both served by controller-runtime's webhook server and
// called by the simulated apiserver through their configurations.
func TestInterop_WebhooksServedByControllerRuntime(t *testing.T) {
	log.SetLogger(logr.Discard())
	srv := apiserver.New(apiserver.Options{})
	url, err := srv.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(srv.Close)

	dir := t.TempDir()
	ca := servingCert(t, dir)
	port := freePort(t)
	ws := webhook.NewServer(webhook.Options{Host: "127.0.0.1", Port: port, CertDir: dir})
	ws.Register("/validate-configmap", admission.WithValidator[*corev1.ConfigMap](scheme.Scheme, configMapPolicy{}))
	ws.Register("/default-configmap", admission.WithDefaulter[*corev1.ConfigMap](scheme.Scheme, configMapDefaults{}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ws.Start(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	started := ws.StartedChecker()
	require.Eventually(t, func() bool { return started(&http.Request{}) == nil }, 10*time.Second, 10*time.Millisecond)

	w := &warnings{}
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: url, WarningHandlerWithContext: w})
	require.NoError(t, err)
	hookURL := func(path string) *string { return ptr.To("https://127.0.0.1:" + itoa(port) + path) }
	rules := []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
	}}
	none := ptr.To(admissionregistrationv1.SideEffectClassNone)
	_, err = cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "configmap-policy"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: "vconfigmap.example.com", AdmissionReviewVersions: []string{"v1"}, SideEffects: none, Rules: rules,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: hookURL("/validate-configmap"), CABundle: ca},
		}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(ctx, &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "configmap-defaults"},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name: "mconfigmap.example.com", AdmissionReviewVersions: []string{"v1"}, SideEffects: none, Rules: rules,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: hookURL("/default-configmap"), CABundle: ca},
		}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)

	cms := cs.CoreV1().ConfigMaps("default")
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "bad"}, Data: map[string]string{"forbidden": "x"}}, metav1.CreateOptions{})
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.Equal(t, `admission webhook "vconfigmap.example.com" denied the request: data key "forbidden" is not allowed`, err.Error())
	_, err = cms.Get(ctx, "bad", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "nothing is stored when a webhook refuses: %v", err)

	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "good"}, Data: map[string]string{"k": "v"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"defaulted-by": "controller-runtime"}, cm.Labels)
	assert.Equal(t, []string{"checked by configmap-policy"}, w.got)

	// An update goes through both webhooks too.
	cm.Data["forbidden"] = "y"
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	assert.True(t, apierrors.IsForbidden(err), "%v", err)
}

func itoa(i int) string { return (&big.Int{}).SetInt64(int64(i)).String() }
