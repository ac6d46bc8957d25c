package certificates

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// pemRequest is a signed PKCS#10 request for CN jane, base64 as the JSON carries it.
func pemRequest(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "jane"}}, key)
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
}

// pemCertificate is a self-signed certificate, base64 as the JSON carries it.
func pemCertificate(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "jane"},
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<31, 0)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func csrObj(t *testing.T) *api.Unstructured {
	return &api.Unstructured{Object: map[string]any{
		"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
		"metadata": map[string]any{"name": "jane", "uid": "u-1", "creationTimestamp": "2026-01-02T03:04:05Z"},
		"spec": map[string]any{"request": pemRequest(t), "signerName": "kubernetes.io/kube-apiserver-client",
			"usages": []any{"client auth"}, "username": "someone-else", "groups": []any{"x"}},
	}}
}

func cond(typ, status string) map[string]any {
	return map[string]any{"type": typ, "status": status, "reason": "R"}
}

var testNow = api.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))

const testStamp = "2026-01-02T03:04:05Z"

// TestCh01_Strategy_CSRNamesAndCreate checks points 1 and 2: the kind's names and
// subresources, the requesting user written into the spec over the body's claims, the
// empty status, and a main-resource update that changes only metadata.
func TestCh01_Strategy_CSRNamesAndCreate(t *testing.T) {
	k := CertificateSigningRequests()
	s := k.Strategy
	assert.Equal(t, []string{"csr"}, k.ShortNames)
	assert.False(t, s.NamespaceScoped())
	assert.True(t, s.HasStatus())
	assert.False(t, s.HasGeneration())
	assert.True(t, s.AllowUnconditionalUpdate())
	assert.Equal(t, []rest.Subresource{{Name: "approval", Kind: api.GroupVersionKind{Kind: "CertificateSigningRequest"}, Verbs: rest.StatusVerbs}}, k.Subresources)
	assert.Contains(t, k.Fields, "spec.signerName")
	assert.True(t, s.(rest.UncheckedNamer).NameIsUnchecked())

	tests := []struct {
		name string
		user *rest.UserInfo
		want map[string]any // the user members of the spec
	}{
		{"a user with everything", &rest.UserInfo{Name: "alice", UID: "42", Groups: []string{"dev", "system:authenticated"}, Extra: map[string][]string{"scopes": {"a", "b"}}},
			map[string]any{"username": "alice", "uid": "42", "groups": []any{"dev", "system:authenticated"}, "extra": map[string]any{"scopes": []any{"a", "b"}}}},
		{"a user with a name only", &rest.UserInfo{Name: "bob"}, map[string]any{"username": "bob"}},
		{"no user", nil, map[string]any{}},
	}
	for _, tt := range tests {
		o := csrObj(t)
		o.Object["status"] = map[string]any{"conditions": []any{cond("Approved", "True")}}
		s.PrepareForCreate(rest.Context{Now: testNow, User: tt.user}, o)
		got := map[string]any{}
		for _, key := range []string{"username", "uid", "groups", "extra"} {
			if v, ok := o.Object["spec"].(map[string]any)[key]; ok {
				got[key] = v
			}
		}
		assert.Empty(t, cmp.Diff(tt.want, got), tt.name)
		assert.Equal(t, map[string]any{}, o.Object["status"], tt.name)
		assert.Empty(t, s.Validate(o), tt.name)
	}

	old := csrObj(t)
	old.Object["status"] = map[string]any{"conditions": []any{cond("Approved", "True")}}
	upd := old.DeepCopy()
	upd.SetLabels(map[string]string{"a": "b"})
	upd.Object["spec"].(map[string]any)["usages"] = []any{"server auth"}
	upd.Object["status"] = map[string]any{}
	s.PrepareForUpdate(rest.Context{}, upd, old)
	assert.Equal(t, old.Object["spec"], upd.Object["spec"])
	assert.Equal(t, old.Object["status"], upd.Object["status"])
	assert.Equal(t, map[string]string{"a": "b"}, upd.GetLabels())
}

// TestCh01_Strategy_CSRSubresources checks point 3: what the status and approval
// subresources let through, and the conditions' timestamps.
func TestCh01_Strategy_CSRSubresources(t *testing.T) {
	ss := CertificateSigningRequests().Strategy.(rest.SubresourceStrategy)
	assert.True(t, ss.PreparesSubresource("status"))
	assert.True(t, ss.PreparesSubresource("approval"))
	assert.False(t, ss.PreparesSubresource("scale"))
	cert := pemCertificate(t)
	stored := func() *api.Unstructured {
		o := csrObj(t)
		o.Object["status"] = map[string]any{"conditions": []any{
			map[string]any{"type": "Approved", "status": "True", "reason": "Old", "lastUpdateTime": "2025-01-01T00:00:00Z", "lastTransitionTime": "2025-01-01T00:00:00Z"},
		}}
		return o
	}
	tests := []struct {
		name, sub  string
		status     map[string]any
		wantStatus map[string]any
	}{
		{
			name: "status: a certificate and a new condition; the Approved one stays as stored", sub: "status",
			status: map[string]any{"certificate": cert, "conditions": []any{cond("Approved", "True"), cond("Failed", "True")}},
			wantStatus: map[string]any{"certificate": cert, "conditions": []any{
				map[string]any{"type": "Approved", "status": "True", "reason": "Old", "lastUpdateTime": "2025-01-01T00:00:00Z", "lastTransitionTime": "2025-01-01T00:00:00Z"},
				map[string]any{"type": "Failed", "status": "True", "reason": "R", "lastUpdateTime": testStamp, "lastTransitionTime": testStamp},
			}},
		},
		{
			name: "approval: only the conditions; the certificate stays as stored", sub: "approval",
			status: map[string]any{"certificate": cert, "conditions": []any{
				map[string]any{"type": "Approved", "status": "True", "reason": "New"}, cond("Extra", "False")}},
			wantStatus: map[string]any{"conditions": []any{
				map[string]any{"type": "Approved", "status": "True", "reason": "New", "lastUpdateTime": testStamp, "lastTransitionTime": "2025-01-01T00:00:00Z"},
				map[string]any{"type": "Extra", "status": "False", "reason": "R", "lastUpdateTime": testStamp, "lastTransitionTime": testStamp},
			}},
		},
	}
	for _, tt := range tests {
		old := stored()
		body := old.DeepCopy()
		body.Object["status"] = tt.status
		body.Object["spec"].(map[string]any)["signerName"] = "example.com/other"
		body.SetUID("")
		body.SetLabels(map[string]string{"from": "body"})
		next := ss.PrepareForSubresourceUpdate(rest.Context{Now: testNow}, tt.sub, body, old)
		assert.Empty(t, cmp.Diff(tt.wantStatus, next.Object["status"]), tt.name)
		assert.Equal(t, old.Object["spec"], next.Object["spec"], tt.name)
		assert.Equal(t, "u-1", next.GetUID(), tt.name)
		assert.Equal(t, map[string]string{"from": "body"}, next.GetLabels(), tt.name)
		assert.Empty(t, ss.ValidateSubresourceUpdate(tt.sub, next, old), tt.name)
		assert.Equal(t, tt.status, body.Object["status"], "%s: the body is left alone", tt.name)
	}
}

// TestCh01_Strategy_CSRUpdateRules checks point 4's update rules, path by path.
func TestCh01_Strategy_CSRUpdateRules(t *testing.T) {
	s := CertificateSigningRequests().Strategy
	ss := s.(rest.SubresourceStrategy)
	withStatus := func(st map[string]any) *api.Unstructured {
		o := csrObj(t)
		o.Object["status"] = st
		return o
	}
	cert := pemCertificate(t)
	approvedOld := withStatus(map[string]any{"conditions": []any{cond("Approved", "True")}})
	tests := []struct {
		name     string
		sub      string
		old, obj *api.Unstructured
		want     []string // cause messages
	}{
		{"removing Approved", "", approvedOld, withStatus(map[string]any{}), []string{`Forbidden: updates may not remove a condition of type "Approved"`}},
		{"status adds Approved", "status", withStatus(map[string]any{}), approvedOld, []string{`Forbidden: updates may not add a condition of type "Approved"`}},
		{"status changes Approved", "status", approvedOld, withStatus(map[string]any{"conditions": []any{map[string]any{"type": "Approved", "status": "True", "reason": "Other"}}}),
			[]string{`Forbidden: updates may not modify a condition of type "Approved"`}},
		{"status replaces a certificate", "status", withStatus(map[string]any{"certificate": cert}), withStatus(map[string]any{"certificate": pemCertificate(t)}),
			[]string{"Forbidden: updates may not modify existing certificate content"}},
		{"status sets a first certificate", "status", withStatus(map[string]any{}), withStatus(map[string]any{"certificate": cert}), nil},
		{"approval adds Approved", "approval", withStatus(map[string]any{}), approvedOld, nil},
	}
	for _, tt := range tests {
		causes := s.ValidateUpdate(tt.obj, tt.old)
		if tt.sub != "" {
			causes = append(causes, ss.ValidateSubresourceUpdate(tt.sub, tt.obj, tt.old)...)
		}
		var got []string
		for _, c := range causes {
			got = append(got, c.Message)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}

// TestCh01_Strategy_CSRValidate checks point 4's create rules with the real messages.
func TestCh01_Strategy_CSRValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(spec, status map[string]any)
		want []string // field: message
	}{
		{"valid", func(_, _ map[string]any) {}, nil},
		{"no request", func(spec, _ map[string]any) { delete(spec, "request") },
			[]string{"spec.request: Invalid value: null: PEM block type must be CERTIFICATE REQUEST"}},
		{"not a request", func(spec, _ map[string]any) { spec["request"] = base64.StdEncoding.EncodeToString([]byte("hello")) },
			[]string{`spec.request: Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST`}},
		{"usages", func(spec, _ map[string]any) { spec["usages"] = []any{"client auth", "bogus", "client auth"} },
			[]string{`spec.usages[1]: Unsupported value: "bogus": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"`,
				`spec.usages[2]: Duplicate value: "client auth"`}},
		{"no usages", func(spec, _ map[string]any) { delete(spec, "usages") }, []string{"spec.usages: Required value"}},
		{"legacy signer", func(spec, _ map[string]any) { spec["signerName"] = "kubernetes.io/legacy-unknown" },
			[]string{`spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version`}},
		{"signer without a path", func(spec, _ map[string]any) { spec["signerName"] = "example.com" },
			[]string{`spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form 'example.com/signer-name'`}},
		{"signer without dots", func(spec, _ map[string]any) { spec["signerName"] = "example/s" },
			[]string{`spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots`}},
		{"short expiration", func(spec, _ map[string]any) { spec["expirationSeconds"] = int64(599) },
			[]string{"spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)"}},
		{"conditions", func(_, status map[string]any) {
			status["conditions"] = []any{cond("Approved", "False"), cond("Denied", "True"), cond("", ""), cond("Denied", "True")}
		}, []string{
			`status.conditions[0].status: Unsupported value: "False": supported values: "True"`,
			`status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive`,
			"status.conditions[2].type: Required value", "status.conditions[2].status: Required value",
			`status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive`,
			`status.conditions[3].type: Duplicate value: "Denied"`,
		}},
		{"a bad certificate", func(_, status map[string]any) { status["certificate"] = base64.StdEncoding.EncodeToString([]byte("x")) },
			[]string{`status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block`}},
	}
	for _, tt := range tests {
		o := csrObj(t)
		status := map[string]any{}
		o.Object["status"] = status
		tt.edit(o.Object["spec"].(map[string]any), status)
		var got []string
		for _, c := range CertificateSigningRequests().Strategy.Validate(o) {
			got = append(got, c.Field+": "+c.Message)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}
