package apiextensions

import (
	"crypto/x509"
	"fmt"
	"net/url"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// acceptedReviewVersions are the ConversionReview versions the server speaks.
var acceptedReviewVersions = []string{"v1", "v1beta1"}

// conversionCauses mirrors validateCustomResourceConversion on the internal form of
// spec.conversion, whose webhook members sit at the conversion itself: the paths are
// spec.conversion.webhookClientConfig and spec.conversion.conversionReviewVersions.
func conversionCauses(c *Conversion) []api.StatusCause {
	if c == nil {
		return nil
	}
	const path = "spec.conversion"
	var causes []api.StatusCause
	add := func(cs ...api.StatusCause) { causes = append(causes, cs...) }
	switch c.Strategy {
	case "":
		add(validation.Required(path+".strategy", ""))
	case "None", "Webhook":
	default:
		add(validation.NotSupported(path+".strategy", c.Strategy, []string{"None", "Webhook"}))
	}
	var cc *ClientConfig
	var reviews []string
	if c.Webhook != nil {
		cc, reviews = c.Webhook.ClientConfig, c.Webhook.ConversionReviewVersions
	}
	if c.Strategy != "Webhook" {
		if cc != nil {
			add(validation.Forbidden(path+".webhookClientConfig", "should not be set when strategy is not set to Webhook"))
		}
		if len(reviews) > 0 {
			add(validation.Forbidden(path+".conversionReviewVersions", "should not be set when strategy is not set to Webhook"))
		}
		return causes
	}
	switch {
	case cc == nil:
		add(validation.Required(path+".webhookClientConfig", "required when strategy is set to Webhook"))
	case (cc.URL == nil) == (cc.Service == nil):
		add(validation.Required(path+".webhookClientConfig", "exactly one of url or service is required"))
	case cc.URL != nil:
		add(webhookURLCauses(path+".webhookClientConfig.url", *cc.URL)...)
	default:
		add(webhookServiceCauses(path+".webhookClientConfig.service", cc.Service)...)
	}
	add(reviewVersionCauses(reviews, path+".conversionReviewVersions")...)
	return causes
}

// webhookURLCauses mirrors webhook.ValidateWebhookURL with https forced.
func webhookURLCauses(path, raw string) []api.StatusCause {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return []api.StatusCause{validation.Required(path, "url must be a valid URL: "+err.Error()+form)}
	}
	var causes []api.StatusCause
	if u.Scheme != "https" {
		causes = append(causes, validation.Invalid(path, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if u.Host == "" {
		causes = append(causes, validation.Invalid(path, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		causes = append(causes, validation.Invalid(path, u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		causes = append(causes, validation.Invalid(path, u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		causes = append(causes, validation.Invalid(path, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return causes
}

// webhookServiceCauses mirrors webhook.ValidateWebhookService as the CRD validation calls
// it, with the name and the namespace in each other's places: a missing namespace is
// reported as service.name, a missing name as service.namespace.
func webhookServiceCauses(path string, s *ServiceReference) []api.StatusCause {
	var causes []api.StatusCause
	if s.Namespace == "" {
		causes = append(causes, validation.Required(path+".name", ""))
	}
	if s.Name == "" {
		causes = append(causes, validation.Required(path+".namespace", ""))
	}
	port := int32(443)
	if s.Port != nil {
		port = *s.Port
	}
	if port < 1 || port > 65535 {
		causes = append(causes, validation.Invalid(path+".port", port, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	if s.Path == nil || *s.Path == "/" || *s.Path == "" {
		return causes
	}
	p := *s.Path
	if p == "//" {
		return append(causes, validation.Invalid(path+".path", p, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(p, "/") {
		causes = append(causes, validation.Invalid(path+".path", p, "must start with a '/'"))
	}
	check := strings.TrimSuffix(p[1:], "/")
	for i, step := range strings.Split(check, "/") {
		if step == "" {
			causes = append(causes, validation.Invalid(path+".path", p, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, f := range validation.IsDNS1123Subdomain(step) {
			causes = append(causes, validation.Invalid(path+".path", p, fmt.Sprintf("segment[%d]: %v", i, f)))
		}
	}
	return causes
}

// reviewVersionCauses mirrors validateConversionReviewVersions.
func reviewVersionCauses(versions []string, path string) []api.StatusCause {
	if len(versions) == 0 {
		return []api.StatusCause{validation.Required(path, "")}
	}
	var causes []api.StatusCause
	seen, accepted := map[string]bool{}, false
	for i, v := range versions {
		p := fmt.Sprintf("%s[%d]", path, i)
		if seen[v] {
			causes = append(causes, validation.Invalid(p, v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, e := range validation.IsDNS1035Label(v) {
			causes = append(causes, validation.Invalid(p, v, e))
		}
		accepted = accepted || contains(acceptedReviewVersions, v)
	}
	if !accepted {
		causes = append(causes, validation.Invalid(path, toAnySlice(versions), "must include at least one of "+strings.Join(acceptedReviewVersions, ", ")))
	}
	return causes
}

// caBundleError mirrors webhook.ValidateCABundle: the bundle must hold a PEM certificate.
func caBundleError(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if !x509.NewCertPool().AppendCertsFromPEM(b) {
		return fmt.Errorf("unable to load root certificates: unable to parse bytes as PEM block")
	}
	return nil
}
