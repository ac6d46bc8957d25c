package printers

import (
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// csrV1beta1Docs are the certificates.k8s.io/v1beta1 documentation of the members the
// CertificateSigningRequest columns describe themselves with. The group-version is no
// longer served, so no embedded document holds them; the texts are the API's, as
// kube-apiserver v1.36.3 sends them.
var csrV1beta1Docs = struct{ signerName, request, expirationSeconds, conditions string }{
	signerName:        "Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it's a kubelet client certificate, it is assigned\n    \"kubernetes.io/kube-apiserver-client-kubelet\".\n 2. If it's a kubelet serving certificate, it is assigned\n    \"kubernetes.io/kubelet-serving\".\n 3. Otherwise, it is assigned \"kubernetes.io/legacy-unknown\".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.",
	request:           "Base64-encoded PKCS#10 CSR data",
	expirationSeconds: "expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes.",
	conditions:        "Conditions applied to the request, such as approval or denial.",
}

// The printers of certificates.k8s.io and apiregistration.k8s.io:
// printCertificateSigningRequest, and the APIService convertor of kube-aggregator.
var (
	certificateSigningRequestPrinter = &Printer{
		specs: []col{
			nameColumn(),
			ageColumn(),
			// The real printer quotes the certificates.k8s.io/v1beta1 documentation of these
			// members, which no embedded (v1) document holds: csrV1beta1Docs.
			column("SignerName", "string", text(csrV1beta1Docs.signerName)),
			column("Requestor", "string", text(csrV1beta1Docs.request)),
			column("RequestedDuration", "string", text(csrV1beta1Docs.expirationSeconds)),
			column("Condition", "string", text(csrV1beta1Docs.conditions)),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			spec := o.obj("spec")
			signer := "<none>"
			if s := spec.str("signerName"); s != "" {
				signer = s
			}
			duration := "<none>"
			if secs, ok := spec.integer("expirationSeconds"); ok {
				duration = humanDuration(time.Duration(secs) * time.Second)
			}
			return []any{o.name(), age(o, now), signer, spec.str("username"), duration, csrCondition(o)}, nil
		},
	}

	apiServicePrinter = &Printer{
		specs: []col{
			nameColumn(),
			column("Service", "string", text("The reference to the service that hosts this API endpoint.")),
			column("Available", "string", text("Whether this service is available.")),
			ageColumn(),
		},
		cells: func(o object, now time.Time) ([]any, []api.TableRowCondition) {
			service := "Local"
			if svc := o.obj("spec", "service"); svc != nil {
				service = svc.str("namespace") + "/" + svc.str("name")
			}
			available := "Unknown"
			for _, c := range o.objects("status", "conditions") {
				if c.str("type") != "Available" {
					continue
				}
				available = c.str("status")
				if available != "True" && c.str("reason") != "" {
					available += " (" + c.str("reason") + ")"
				}
				break
			}
			return []any{o.name(), service, available, age(o, now)}, nil
		},
	}
)

// csrCondition mirrors extractCSRStatus: Denied over Approved over Pending, then ",Failed"
// and ",Issued".
func csrCondition(o object) string {
	var approved, denied, failed bool
	for _, c := range o.objects("status", "conditions") {
		switch c.str("type") {
		case "Approved":
			approved = true
		case "Denied":
			denied = true
		case "Failed":
			failed = true
		}
	}
	status := "Pending"
	switch {
	case denied:
		status = "Denied"
	case approved:
		status = "Approved"
	}
	if failed {
		status += ",Failed"
	}
	if o.str("status", "certificate") != "" {
		status += ",Issued"
	}
	return status
}
