package printers

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCh01_Printers_AdmissionRegistration checks printValidatingWebhook and its siblings,
// the ParamRef cell with the selector in its generated String form included.
func TestCh01_Printers_AdmissionRegistration(t *testing.T) {
	assert.Same(t, webhookConfigurationPrinter, For("admissionregistration.k8s.io", "MutatingWebhookConfiguration", true))
	assertColumns(t, webhookConfigurationPrinter, "Name|string|name|0", "Webhooks|integer||0", "Age|string||0")
	runCellCases(t, webhookConfigurationPrinter, []cellCase{
		{name: "two webhooks", json: withMeta("w", `,"webhooks":[{"name":"a.b.c"},{"name":"d.e.f"}]`), want: []any{"w", int64(2), "5m"}},
		{name: "none", json: withMeta("w", ``), want: []any{"w", int64(0), "5m"}},
	})
	assertColumns(t, validatingAdmissionPolicyPrinter, "Name|string|name|0", "Validations|integer||0", "ParamKind|string||0", "Age|string||0")
	assertColumns(t, mutatingAdmissionPolicyPrinter, "Name|string|name|0", "Mutations|integer||0", "ParamKind|string||0", "Age|string||0")
	runCellCases(t, validatingAdmissionPolicyPrinter, []cellCase{
		{name: "with a param kind", json: withMeta("p", `,"spec":{"paramKind":{"apiVersion":"v1","kind":"ConfigMap"},"validations":[{"expression":"true"}]}`),
			want: []any{"p", int64(1), "v1/ConfigMap", "5m"}},
		{name: "without", json: withMeta("p", `,"spec":{}`), want: []any{"p", int64(0), "<unset>", "5m"}},
	})
	runCellCases(t, mutatingAdmissionPolicyPrinter, []cellCase{
		{name: "mutations", json: withMeta("m", `,"spec":{"mutations":[{},{}]}`), want: []any{"m", int64(2), "<unset>", "5m"}},
	})
	assertColumns(t, policyBindingPrinter, "Name|string|name|0", "PolicyName|string||0", "ParamRef|string||0", "Age|string||0")
	runCellCases(t, policyBindingPrinter, []cellCase{
		{name: "namespaced param", json: withMeta("b", `,"spec":{"policyName":"p","paramRef":{"name":"x","namespace":"ns"}}`), want: []any{"b", "p", "ns/x", "5m"}},
		{name: "param in any namespace", json: withMeta("b", `,"spec":{"policyName":"p","paramRef":{"name":"x"}}`), want: []any{"b", "p", "*/x", "5m"}},
		{name: "selector", json: withMeta("b", `,"spec":{"policyName":"p","paramRef":{"selector":{"matchLabels":{"env":"prod","a":"b"},
			"matchExpressions":[{"key":"tier","operator":"In","values":["x","y"]}]}}}`),
			want: []any{"b", "p", "&LabelSelector{MatchLabels:map[string]string{a: b,env: prod,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:tier,Operator:In,Values:[x y],},},}", "5m"}},
		{name: "empty selector", json: withMeta("b", `,"spec":{"policyName":"p","paramRef":{"selector":{}}}`),
			want: []any{"b", "p", "&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}", "5m"}},
		{name: "no param", json: withMeta("b", `,"spec":{"policyName":"p"}`), want: []any{"b", "p", "<unset>", "5m"}},
	})
}

// TestCh01_Printers_FlowControl checks printFlowSchema and printPriorityLevelConfiguration.
func TestCh01_Printers_FlowControl(t *testing.T) {
	assertColumns(t, flowSchemaPrinter, "Name|string|name|0", "PriorityLevel|string||0", "MatchingPrecedence|string||0",
		"DistinguisherMethod|string||0", "Age|string||0", "MissingPL|string||0")
	runCellCases(t, flowSchemaPrinter, []cellCase{
		{name: "found", json: withMeta("f", `,"spec":{"priorityLevelConfiguration":{"name":"pl"},"matchingPrecedence":500,"distinguisherMethod":{"type":"ByUser"}},
			"status":{"conditions":[{"type":"Dangling","status":"False"}]}`), want: []any{"f", "pl", int64(500), "ByUser", "5m", "False"}},
		{name: "no condition yet", json: withMeta("f", `,"spec":{"priorityLevelConfiguration":{"name":"pl"},"matchingPrecedence":1000},"status":{}`),
			want: []any{"f", "pl", int64(1000), "<none>", "5m", "?"}},
	})
	assertColumns(t, priorityLevelPrinter, "Name|string|name|0", "Type|string||0", "NominalConcurrencyShares|string||0",
		"Queues|string||0", "HandSize|string||0", "QueueLengthLimit|string||0", "Age|string||0")
	runCellCases(t, priorityLevelPrinter, []cellCase{
		{name: "queued", json: withMeta("p", `,"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":30,
			"limitResponse":{"type":"Queue","queuing":{"queues":64,"handSize":6,"queueLengthLimit":50}}}}`),
			want: []any{"p", "Limited", int64(30), int64(64), int64(6), int64(50), "5m"}},
		{name: "rejecting", json: withMeta("p", `,"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":5,"limitResponse":{"type":"Reject"}}}`),
			want: []any{"p", "Limited", int64(5), "<none>", "<none>", "<none>", "5m"}},
		{name: "exempt", json: withMeta("exempt", `,"spec":{"type":"Exempt","exempt":{}}`),
			want: []any{"exempt", "Exempt", "<none>", "<none>", "<none>", "<none>", "5m"}},
	})
}

// TestCh01_Printers_CertificatesAndAPIServices checks printCertificateSigningRequest and the
// APIService convertor.
func TestCh01_Printers_CertificatesAndAPIServices(t *testing.T) {
	assertColumns(t, certificateSigningRequestPrinter, "Name|string|name|0", "Age|string||0", "SignerName|string||0",
		"Requestor|string||0", "RequestedDuration|string||0", "Condition|string||0")
	runCellCases(t, certificateSigningRequestPrinter, []cellCase{
		{name: "pending", json: withMeta("c", `,"spec":{"signerName":"example.com/s","username":"jane","expirationSeconds":86400},"status":{}`),
			want: []any{"c", "5m", "example.com/s", "jane", "24h", "Pending"}},
		{name: "approved and issued", json: withMeta("c", `,"spec":{},"status":{"conditions":[{"type":"Approved","status":"True"}],"certificate":"QQ=="}`),
			want: []any{"c", "5m", "<none>", "", "<none>", "Approved,Issued"}},
		{name: "denied wins, failed follows", json: withMeta("c", `,"spec":{},"status":{"conditions":[{"type":"Approved"},{"type":"Failed"},{"type":"Denied"}]}`),
			want: []any{"c", "5m", "<none>", "", "<none>", "Denied,Failed"}},
	})
	assertColumns(t, apiServicePrinter, "Name|string|name|0", "Service|string||0", "Available|string||0", "Age|string||0")
	runCellCases(t, apiServicePrinter, []cellCase{
		{name: "local", json: withMeta("v1.apps", `,"spec":{},"status":{"conditions":[{"type":"Available","status":"True","reason":"Local"}]}`),
			want: []any{"v1.apps", "Local", "True", "5m"}},
		{name: "down", json: withMeta("v1.x", `,"spec":{"service":{"name":"s","namespace":"n"}},"status":{"conditions":[{"type":"Available","status":"False","reason":"ServiceNotFound"}]}`),
			want: []any{"v1.x", "n/s", "False (ServiceNotFound)", "5m"}},
		{name: "unknown", json: withMeta("v1.x", `,"spec":{"service":{"name":"s","namespace":"n"}},"status":{}`),
			want: []any{"v1.x", "n/s", "Unknown", "5m"}},
	})
}
