package defaulting

import "testing"

// adminCases cover the admissionregistration, flowcontrol, apiregistration and
// certificates kinds; each kind's first case is its full one (TableMatchesCode reads it).
var adminCases = []defaultCase{
	{
		name: "validating webhook configuration", group: "admissionregistration.k8s.io", version: "v1", kind: "ValidatingWebhookConfiguration",
		in: `{"webhooks":[{"name":"a.example.com","clientConfig":{"service":{"name":"s","namespace":"ns"}},
			"rules":[{"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"]}],
			"sideEffects":"None","admissionReviewVersions":["v1"]}]}`,
		want: `{"webhooks":[{"name":"a.example.com","clientConfig":{"service":{"name":"s","namespace":"ns","port":443}},
			"rules":[{"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"scope":"*"}],
			"sideEffects":"None","admissionReviewVersions":["v1"],"failurePolicy":"Fail","matchPolicy":"Equivalent",
			"namespaceSelector":{},"objectSelector":{},"timeoutSeconds":10}]}`,
	},
	{
		name: "validating webhook keeps what is set", group: "admissionregistration.k8s.io", version: "v1", kind: "ValidatingWebhookConfiguration",
		in: `{"webhooks":[{"name":"b.example.com","clientConfig":{"url":"https://h/p"},"failurePolicy":"Ignore","matchPolicy":"Exact",
			"namespaceSelector":{"matchLabels":{"a":"b"}},"timeoutSeconds":5,"rules":[{"scope":"Namespaced"}]}]}`,
		want: `{"webhooks":[{"name":"b.example.com","clientConfig":{"url":"https://h/p"},"failurePolicy":"Ignore","matchPolicy":"Exact",
			"namespaceSelector":{"matchLabels":{"a":"b"}},"objectSelector":{},"timeoutSeconds":5,"rules":[{"scope":"Namespaced"}]}]}`,
	},
	{
		name: "mutating webhook configuration", group: "admissionregistration.k8s.io", version: "v1", kind: "MutatingWebhookConfiguration",
		in: `{"webhooks":[{"name":"m.example.com","clientConfig":{"url":"https://h"}}]}`,
		want: `{"webhooks":[{"name":"m.example.com","clientConfig":{"url":"https://h"},"failurePolicy":"Fail","matchPolicy":"Equivalent",
			"namespaceSelector":{},"objectSelector":{},"timeoutSeconds":10,"reinvocationPolicy":"Never"}]}`,
	},
	{
		name: "validating admission policy", group: "admissionregistration.k8s.io", version: "v1", kind: "ValidatingAdmissionPolicy",
		in: `{"spec":{"matchConstraints":{"resourceRules":[{"operations":["CREATE"]}],"excludeResourceRules":[{"scope":"Cluster"}]},
			"validations":[{"expression":"true"}]}}`,
		want: `{"spec":{"failurePolicy":"Fail","matchConstraints":{"matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},
			"resourceRules":[{"operations":["CREATE"],"scope":"*"}],"excludeResourceRules":[{"scope":"Cluster"}]},
			"validations":[{"expression":"true"}]}}`,
	},
	{
		name: "validating admission policy without spec", group: "admissionregistration.k8s.io", version: "v1", kind: "ValidatingAdmissionPolicy",
		in:   `{"metadata":{"name":"p"}}`,
		want: `{"metadata":{"name":"p"},"spec":{"failurePolicy":"Fail"}}`,
	},
	{
		name: "mutating admission policy", group: "admissionregistration.k8s.io", version: "v1", kind: "MutatingAdmissionPolicy",
		in:   `{"spec":{"failurePolicy":"Ignore","matchConstraints":{"matchPolicy":"Exact"},"reinvocationPolicy":"IfNeeded"}}`,
		want: `{"spec":{"failurePolicy":"Ignore","matchConstraints":{"matchPolicy":"Exact","namespaceSelector":{},"objectSelector":{}},"reinvocationPolicy":"IfNeeded"}}`,
	},
	{
		name: "validating binding without match resources", group: "admissionregistration.k8s.io", version: "v1", kind: "ValidatingAdmissionPolicyBinding",
		in:   `{"spec":{"policyName":"p","validationActions":["Deny"]}}`,
		want: `{"spec":{"policyName":"p","validationActions":["Deny"]}}`,
	},
	{
		name: "mutating binding with match resources", group: "admissionregistration.k8s.io", version: "v1", kind: "MutatingAdmissionPolicyBinding",
		in:   `{"spec":{"policyName":"p","matchResources":{"resourceRules":[{}]}}}`,
		want: `{"spec":{"policyName":"p","matchResources":{"matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},"resourceRules":[{"scope":"*"}]}}}`,
	},
	{
		name: "flow schema", group: "flowcontrol.apiserver.k8s.io", version: "v1", kind: "FlowSchema",
		in:   `{"spec":{"priorityLevelConfiguration":{"name":"p"}}}`,
		want: `{"spec":{"priorityLevelConfiguration":{"name":"p"},"matchingPrecedence":1000}}`,
	},
	{
		name: "flow schema keeps its precedence", group: "flowcontrol.apiserver.k8s.io", version: "v1", kind: "FlowSchema",
		in:   `{"spec":{"matchingPrecedence":7}}`,
		want: `{"spec":{"matchingPrecedence":7}}`,
	},
	{
		name: "limited priority level with queuing", group: "flowcontrol.apiserver.k8s.io", version: "v1", kind: "PriorityLevelConfiguration",
		in:   `{"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Queue","queuing":{"queues":16}}}}}`,
		want: `{"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":30,"lendablePercent":0,"limitResponse":{"type":"Queue","queuing":{"queues":16,"handSize":8,"queueLengthLimit":50}}}}}`,
	},
	{
		name: "limited priority level keeps zero shares", group: "flowcontrol.apiserver.k8s.io", version: "v1", kind: "PriorityLevelConfiguration",
		in:   `{"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":0,"limitResponse":{"type":"Reject"}}}}`,
		want: `{"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":0,"lendablePercent":0,"limitResponse":{"type":"Reject"}}}}`,
	},
	{
		name: "exempt priority level", group: "flowcontrol.apiserver.k8s.io", version: "v1", kind: "PriorityLevelConfiguration",
		in:   `{"spec":{"type":"Exempt","exempt":{}}}`,
		want: `{"spec":{"type":"Exempt","exempt":{"nominalConcurrencyShares":0,"lendablePercent":0}}}`,
	},
	{
		name: "api service with a service", group: "apiregistration.k8s.io", version: "v1", kind: "APIService",
		in:   `{"spec":{"group":"g","version":"v1","service":{"name":"s","namespace":"ns"}}}`,
		want: `{"spec":{"group":"g","version":"v1","service":{"name":"s","namespace":"ns","port":443}}}`,
	},
	{
		name: "local api service", group: "apiregistration.k8s.io", version: "v1", kind: "APIService",
		in:   `{"spec":{"group":"g","version":"v1"}}`,
		want: `{"spec":{"group":"g","version":"v1"}}`,
	},
	{
		name: "certificate signing request has no defaults", group: "certificates.k8s.io", version: "v1", kind: "CertificateSigningRequest",
		in:   `{"spec":{"signerName":"example.com/s","usages":["client auth"]}}`,
		want: `{"spec":{"signerName":"example.com/s","usages":["client auth"]}}`,
	},
}

// TestCh01_Defaulting_AdminKinds checks the defaults of the admission, flow-control,
// API-registration and certificate kinds against the upstream functions' behaviour.
func TestCh01_Defaulting_AdminKinds(t *testing.T) { runCases(t, adminCases) }
