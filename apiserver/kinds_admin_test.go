package apiserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

const csrPath = "/apis/certificates.k8s.io/v1/certificatesigningrequests"

// csrBody is a CertificateSigningRequest for jane whose spec claims another requester.
func csrBody(t *testing.T, name string) map[string]any {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "jane"}}, key)
	require.NoError(t, err)
	return map[string]any{
		"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest", "metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"request":    base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})),
			"signerName": "kubernetes.io/kube-apiserver-client", "usages": []any{"client auth"},
			"username": "mallory", "groups": []any{"system:masters"},
		},
	}
}

// TestCh01_CSRApprovalFlow follows a CertificateSigningRequest as kubectl certificate approve
// and a signer handle it: the requester is who sent the create, approval writes only the
// conditions, status only the certificate side, and neither undoes the other.
func TestCh01_CSRApprovalFlow(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("POST", csrPath, csrBody(t, "jane"))
	require.Equal(t, 201, r.code, "%s", r.body)
	var csr api.Unstructured
	r.decode(t, &csr)
	spec := csr.Object["spec"].(map[string]any)
	assert.Equal(t, "kubernetes-admin", spec["username"], "a server without authentication serves everyone as the admin")
	assert.Equal(t, []any{"system:masters", "system:authenticated"}, spec["groups"])
	assert.Equal(t, map[string]any{}, csr.Object["status"])

	// kubectl certificate approve: GET, append the condition, PUT to approval.
	csr.Object["status"] = map[string]any{"conditions": []any{map[string]any{
		"type": "Approved", "status": "True", "reason": "KubectlApprove", "message": "This CSR was approved by kubectl certificate approve."}}}
	csr.Object["spec"].(map[string]any)["usages"] = []any{"server auth"}
	r = c.do("PUT", csrPath+"/jane/approval", csr.Object)
	require.Equal(t, 200, r.code, "%s", r.body)
	var approved api.Unstructured
	r.decode(t, &approved)
	conds := approved.Object["status"].(map[string]any)["conditions"].([]any)
	require.Len(t, conds, 1)
	cond := conds[0].(map[string]any)
	assert.Equal(t, "KubectlApprove", cond["reason"])
	assert.NotEmpty(t, cond["lastUpdateTime"])
	assert.NotEmpty(t, cond["lastTransitionTime"])
	assert.Equal(t, []any{"client auth"}, approved.Object["spec"].(map[string]any)["usages"], "approval keeps the spec")

	// Denying what is approved is refused; so is approving through status.
	denied := approved.DeepCopy()
	denied.Object["status"].(map[string]any)["conditions"] = append(conds, map[string]any{"type": "Denied", "status": "True"})
	r = c.do("PUT", csrPath+"/jane/approval", denied.Object)
	require.Equal(t, 422, r.code, "%s", r.body)
	assert.Contains(t, r.status(t).Message, "Approved and Denied conditions are mutually exclusive")
	r = c.do("PUT", csrPath+"/jane/status", map[string]any{"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
		"metadata": map[string]any{"name": "jane"}, "status": map[string]any{}})
	require.Equal(t, 422, r.code, "%s", r.body)
	assert.Contains(t, r.status(t).Message, `updates may not remove a condition of type "Approved"`)

	// The main resource changes only metadata.
	r = c.do("PATCH", csrPath+"/jane", `{"metadata":{"labels":{"a":"b"}},"status":{"conditions":[]}}`, "Content-Type", "application/merge-patch+json")
	require.Equal(t, 200, r.code, "%s", r.body)
	var patched api.Unstructured
	r.decode(t, &patched)
	assert.Equal(t, map[string]string{"a": "b"}, patched.GetLabels())
	assert.Len(t, patched.Object["status"].(map[string]any)["conditions"], 1)

	// GET on approval is the object; other methods are not served there.
	assert.Equal(t, 200, c.get(csrPath+"/jane/approval").code)
	assert.Equal(t, 405, c.do("DELETE", csrPath+"/jane/approval", nil).code)

	r = c.get(csrPath + "?fieldSelector=spec.signerName%3Dkubernetes.io%2Fkube-apiserver-client")
	require.Equal(t, 200, r.code, "%s", r.body)
	var list api.UnstructuredList
	r.decode(t, &list)
	assert.Len(t, list.Items, 1)
}

// TestCh01_CSRRequesterFromCertificate: over https with client certificates, the
// requester is the certificate's user, in its organisations and system:authenticated.
func TestCh01_CSRRequesterFromCertificate(t *testing.T) {
	checkNoLeak(t)
	s := NewTLSTestServer(t, Options{ClientCertAuth: true})
	pair := certPair{}
	var err error
	pair.cert, pair.key, err = s.IssueClientCertificate("jane", "developers")
	require.NoError(t, err)
	c := newCertClient(t, s, pair)
	r := c.do("POST", csrPath, csrBody(t, "from-jane"))
	require.Equal(t, 201, r.code, "%s", r.body)
	var csr api.Unstructured
	r.decode(t, &csr)
	spec := csr.Object["spec"].(map[string]any)
	assert.Equal(t, "jane", spec["username"])
	assert.Equal(t, []any{"developers", "system:authenticated"}, spec["groups"])
}

// TestCh01_CRDAPIServices: a CRD's served versions get APIServices, which go with it.
func TestCh01_CRDAPIServices(t *testing.T) {
	_, c := newServer(t, Options{})
	const path = "/apis/apiregistration.k8s.io/v1/apiservices"
	crd := fooCRD(t, func(m map[string]any) {
		versions := at(m, "spec")["versions"].([]any)
		second := api.DeepCopyJSONValue(versions[0]).(map[string]any)
		second["name"], second["storage"] = "v1beta1", false
		third := api.DeepCopyJSONValue(second).(map[string]any)
		third["name"], third["served"] = "v1", false
		at(m, "spec")["versions"] = append(versions, second, third)
	})
	r := c.do("POST", crdPath, crd)
	require.Equal(t, 201, r.code, "%s", r.body)

	r = c.get(path + "/v1alpha1.samplecontroller.k8s.io")
	require.Equal(t, 200, r.code, "%s", r.body)
	var svc api.Unstructured
	r.decode(t, &svc)
	assert.Equal(t, map[string]any{"group": "samplecontroller.k8s.io", "version": "v1alpha1", "groupPriorityMinimum": int64(1000), "versionPriority": int64(100)}, svc.Object["spec"])
	assert.Equal(t, "true", svc.GetLabels()["kube-aggregator.kubernetes.io/automanaged"])
	assert.Equal(t, "Local", svc.Object["status"].(map[string]any)["conditions"].([]any)[0].(map[string]any)["reason"])
	assert.Equal(t, 200, c.get(path+"/v1beta1.samplecontroller.k8s.io").code)
	assert.Equal(t, 404, c.get(path+"/v1.samplecontroller.k8s.io").code, "not served")

	deleteCRDAndWait(t, c, "foos.samplecontroller.k8s.io") // its finalizer runs in the background
	assert.Equal(t, 404, c.get(path+"/v1alpha1.samplecontroller.k8s.io").code)
	assert.Equal(t, 404, c.get(path+"/v1beta1.samplecontroller.k8s.io").code)
}

// TestCh01_AdminKindsFieldLabels: the stores without their own GetAttrs accept
// metadata.namespace; the CSR store does not.
func TestCh01_AdminKindsFieldLabels(t *testing.T) {
	_, c := newServer(t, Options{})
	for _, p := range []string{
		"/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas", "/apis/apiregistration.k8s.io/v1/apiservices",
		"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
	} {
		assert.Equal(t, 200, c.get(p+"?fieldSelector=metadata.namespace%3D").code, p)
		r := c.get(p + "?fieldSelector=spec.x%3D1")
		require.Equal(t, 400, r.code, p)
		assert.Contains(t, r.status(t).Message, `"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"`, p)
	}
	assert.Equal(t, 400, c.get(csrPath+"?fieldSelector=metadata.namespace%3D").code)
}
