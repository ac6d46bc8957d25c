// Package webhooks checks admission webhooks as envtest's WebhookInstallOptions users run
// them: controller-runtime's own webhook server, on loopback with its own certificate,
// serves a validating and a mutating webhook that Validating- and
// MutatingWebhookConfigurations register with the simulated apiserver, which calls them
// over HTTPS for real.
package webhooks
