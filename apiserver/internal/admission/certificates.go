package admission

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

// kubeAPIServerClientSigner is the signer whose certificates the apiserver trusts.
const kubeAPIServerClientSigner = "kubernetes.io/kube-apiserver-client"

// CertificateSubjectRestriction mirrors plugin/pkg/admission/certificates/subjectrestriction:
// no CertificateSigningRequest for the kube-apiserver-client signer may ask for the
// system:masters group. (CertificateApproval and CertificateSigning ask the authorizer
// for the approve and sign verbs on the signer; with AlwaysAllow, the default here as on
// kube-apiserver, they never refuse, and they are not implemented.)
type CertificateSubjectRestriction struct{}

// Name implements Interface.
func (CertificateSubjectRestriction) Name() string { return "CertificateSubjectRestriction" }

// Handles implements Interface.
func (CertificateSubjectRestriction) Handles(op Operation) bool { return op == Create }

// Validate implements ValidationInterface.
func (CertificateSubjectRestriction) Validate(_ context.Context, a *Attributes) error {
	if a.Resource != (api.GroupResource{Group: "certificates.k8s.io", Resource: "certificatesigningrequests"}) || a.Subresource != "" || a.Object == nil {
		return nil
	}
	spec := child(a.Object.Object, "spec")
	if str(spec, "signerName") != kubeAPIServerClientSigner {
		return nil
	}
	csr, err := parseCSR(str(spec, "request"))
	if err != nil {
		return forbidden(a, fmt.Errorf("failed to parse CSR: %v", err))
	}
	for _, g := range csr.Subject.Organization {
		if g == "system:masters" {
			return forbidden(a, fmt.Errorf("use of %s signer with system:masters group is not allowed", kubeAPIServerClientSigner))
		}
	}
	return nil
}

// parseCSR mirrors certificates.ParseCSR: the PEM block of the base64 request.
func parseCSR(b64 string) (*x509.CertificateRequest, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(raw)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return nil, errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	return x509.ParseCertificateRequest(block.Bytes)
}
