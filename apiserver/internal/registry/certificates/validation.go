package certificates

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// knownUsages are the key usages a v1 CertificateSigningRequest may ask for, sorted as the
// real message lists them.
var knownUsages = []string{
	"any", "cert sign", "client auth", "code signing", "content commitment", "crl sign",
	"data encipherment", "decipher only", "digital signature", "email protection",
	"encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement",
	"key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime",
	"server auth", "signing", "timestamping",
}

// legacySigner is kubernetes.io/legacy-unknown, which v1 refuses.
const legacySigner = "kubernetes.io/legacy-unknown"

// validateCSR mirrors validateCertificateSigningRequest with the options of a create (the
// metadata is the registry's): the request, usages, signer, expiration, conditions and
// certificate.
func validateCSR(obj map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	spec := child(obj, "spec")
	request, raw := bytesOf(spec, "request")
	if err := checkRequest(request); err != nil {
		causes = append(causes, invalidBytes("spec.request", request, raw, err.Error()))
	}
	usages := list(spec, "usages")
	if len(usages) == 0 {
		causes = append(causes, validation.Required("spec.usages", ""))
	}
	for i, u := range usages {
		if s, _ := u.(string); !slices.Contains(knownUsages, s) {
			causes = append(causes, validation.NotSupported(fmt.Sprintf("spec.usages[%d]", i), u, knownUsages))
		}
	}
	seen := map[string]bool{}
	for i, u := range usages {
		s, _ := u.(string)
		if seen[s] {
			causes = append(causes, duplicate(fmt.Sprintf("spec.usages[%d]", i), s))
		}
		seen[s] = true
	}
	if signer := str(spec, "signerName"); signer == legacySigner {
		causes = append(causes, validation.Invalid("spec.signerName", signer, "the legacy signerName is not allowed via this API version"))
	} else {
		causes = append(causes, signerNameCauses("spec.signerName", signer)...)
	}
	if e, ok := spec["expirationSeconds"].(int64); ok && e < 600 {
		causes = append(causes, validation.Invalid("spec.expirationSeconds", e, "may not specify a duration less than 600 seconds (10 minutes)"))
	}
	causes = append(causes, conditionCauses(child(obj, "status"))...)
	if cert, _ := bytesOf(child(obj, "status"), "certificate"); len(cert) > 0 {
		if err := checkCertificate(cert); err != nil {
			causes = append(causes, validation.InvalidRaw("status.certificate", `"<certificate data>"`, err.Error()))
		}
	}
	return causes
}

// bytesOf decodes the base64 of a []byte member; raw is the member as sent.
func bytesOf(m map[string]any, key string) (decoded []byte, raw string) {
	raw = str(m, key)
	b, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return nil, raw
	}
	return b, raw
}

// invalidBytes is field.Invalid of a []byte value, which the real message prints as JSON:
// null when empty, else the base64 text.
func invalidBytes(path string, value []byte, raw, detail string) api.StatusCause {
	shown := "null"
	if len(value) > 0 || raw != "" {
		q, _ := json.Marshal(raw)
		shown = string(q)
	}
	return validation.InvalidRaw(path, shown, detail)
}

// checkRequest mirrors certificates.ParseCSR and CheckSignature.
func checkRequest(pemBytes []byte) error {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	csr, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		return err
	}
	return csr.CheckSignature()
}

// checkCertificate mirrors validateCertificate: one or more CERTIFICATE blocks, no headers.
func checkCertificate(data []byte) error {
	blocks := 0
	for {
		block, rest := pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return fmt.Errorf("only CERTIFICATE PEM blocks are allowed, found %q", block.Type)
		}
		if len(block.Headers) != 0 {
			return errors.New("no PEM block headers are permitted")
		}
		blocks++
		certs, err := x509.ParseCertificates(block.Bytes)
		if err != nil {
			return err
		}
		if len(certs) == 0 {
			return errors.New("found CERTIFICATE PEM block containing 0 certificates")
		}
		data = rest
	}
	if blocks == 0 {
		return errors.New("must contain at least one CERTIFICATE PEM block")
	}
	return nil
}

// conditionCauses mirrors validateConditions with the options of a create.
func conditionCauses(status map[string]any) []api.StatusCause {
	var causes []api.StatusCause
	seen := map[string]bool{}
	hasApproved, hasDenied := false, false
	for i, c := range list(status, "conditions") {
		m, _ := c.(map[string]any)
		at := fmt.Sprintf("status.conditions[%d]", i)
		t, st := str(m, "type"), str(m, "status")
		if t == "" {
			causes = append(causes, validation.Required(at+".type", ""))
		}
		allowed := []string{"False", "True", "Unknown"}
		if t == approved || t == denied || t == failed {
			allowed = []string{"True"}
		}
		switch {
		case st == "":
			causes = append(causes, validation.Required(at+".status", ""))
		case !slices.Contains(allowed, st):
			causes = append(causes, validation.NotSupported(at+".status", st, allowed))
		}
		switch t {
		case approved:
			hasApproved = true
			if hasDenied {
				causes = append(causes, validation.Invalid("status.conditions", t, "Approved and Denied conditions are mutually exclusive"))
			}
		case denied:
			hasDenied = true
			if hasApproved {
				causes = append(causes, validation.Invalid("status.conditions", t, "Approved and Denied conditions are mutually exclusive"))
			}
		}
		if seen[t] {
			causes = append(causes, duplicate(at+".type", t))
		}
		seen[t] = true
	}
	return causes
}

// signerNameCauses mirrors ValidateSignerName in pkg/apis/core/validation.
func signerNameCauses(path, signer string) []api.StatusCause {
	if signer == "" {
		return []api.StatusCause{validation.Required(path, "")}
	}
	segments := strings.Split(signer, "/")
	if len(segments) != 2 {
		return []api.StatusCause{validation.Invalid(path, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	var causes []api.StatusCause
	const maxDomain, maxLabel = 253, 63
	if len(segments[0]) > maxDomain {
		causes = append(causes, validation.TooLong(path, maxDomain))
	}
	domain := strings.Split(segments[0], ".")
	for _, l := range domain {
		if errs := validation.IsDNS1123Label(l); len(errs) > 0 {
			for _, e := range errs {
				causes = append(causes, validation.Invalid(path, segments[0], fmt.Sprintf("validating label %q: %s", l, e)))
			}
			break
		}
	}
	if len(domain) < 2 {
		causes = append(causes, validation.Invalid(path, segments[0], "should be a domain with at least two segments separated by dots"))
	}
	for _, l := range strings.Split(segments[1], ".") {
		if errs := validation.IsDNS1123Subdomain(l); len(errs) > 0 {
			for _, e := range errs {
				causes = append(causes, validation.Invalid(path, segments[1], fmt.Sprintf("validating label %q: %s", l, e)))
			}
			break
		}
	}
	if maxSigner := maxDomain + maxDomain + maxLabel + 1 + 1; len(signer) > maxSigner {
		causes = append(causes, validation.TooLong(path, maxSigner))
	}
	return causes
}

// forbiddenConditions is a Forbidden cause on status.conditions naming a condition type.
func forbiddenConditions(format, t string) api.StatusCause {
	return validation.Forbidden("status.conditions", fmt.Sprintf(format, t))
}

// jsonEqual compares two JSON trees as apiequality.Semantic would their typed values.
func jsonEqual(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
