package printers

import (
	"time"

	"github.com/informer-lab/informer-lab/api"
)

// The printers of certificates.k8s.io and apiregistration.k8s.io:
// printCertificateSigningRequest, and the APIService convertor of kube-aggregator.
var (
	certificateSigningRequestPrinter = &Printer{
		columns: []api.TableColumnDefinition{
			nameColumn(),
			ageColumn(),
			column("SignerName", "string", "The signer the request is addressed to."),
			column("Requestor", "string", "The user who created the request."),
			column("RequestedDuration", "string", "How long the requested certificate should be valid."),
			column("Condition", "string", "Pending, Approved or Denied, then Failed and Issued where they apply."),
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
		columns: []api.TableColumnDefinition{
			nameColumn(),
			column("Service", "string", "The service that serves this group-version, or Local."),
			column("Available", "string", "Whether the group-version is available."),
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
