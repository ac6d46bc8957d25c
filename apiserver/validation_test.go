package apiserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// causeReasons lists a Status's causes as "field: reason".
func causeReasons(t *testing.T, r response) []string {
	st := r.status(t)
	var out []string
	if st.Details != nil {
		for _, c := range st.Details.Causes {
			out = append(out, c.Field+": "+string(c.Type))
		}
	}
	return out
}

// TestCh01_Validation_InvalidObjects checks that invalid pods, Services and workloads are
// refused with the reference's 422: its message and causes (texts taken from
// kube-apiserver v1.36.3's answers).
func TestCh01_Validation_InvalidObjects(t *testing.T) {
	const pod = `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox"%s}]%s}}`
	tests := []struct {
		name, path, body string
		wantMsg          string
		wantCauses       []string
	}{
		{"pod imagePullPolicy", "/api/v1/namespaces/default/pods", fmtBody(pod, `,"imagePullPolicy":"Sometimes"`, ""),
			`Pod "p" is invalid: spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`,
			[]string{"spec.containers[0].imagePullPolicy: FieldValueNotSupported"}},
		{"pod restartPolicy", "/api/v1/namespaces/default/pods", fmtBody(pod, "", `,"restartPolicy":"Sometimes"`),
			`Pod "p" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
			[]string{"spec.restartPolicy: FieldValueNotSupported"}},
		{"pod container port", "/api/v1/namespaces/default/pods", fmtBody(pod, `,"ports":[{"containerPort":70000}]`, ""),
			`Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`,
			[]string{"spec.containers[0].ports[0].containerPort: FieldValueInvalid"}},
		{"pod missing volume", "/api/v1/namespaces/default/pods", fmtBody(pod, `,"volumeMounts":[{"name":"gone","mountPath":"/a"}]`, ""),
			`Pod "p" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "gone"`,
			[]string{"spec.containers[0].volumeMounts[0].name: FieldValueNotFound"}},
		{"pod requests above limits", "/api/v1/namespaces/default/pods", fmtBody(pod, `,"resources":{"requests":{"cpu":"2"},"limits":{"cpu":"1"}}`, ""),
			`Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
			[]string{"spec.containers[0].resources.requests: FieldValueInvalid"}},
		{"pod dnsPolicy", "/api/v1/namespaces/default/pods", fmtBody(pod, "", `,"dnsPolicy":"Nope"`),
			`Pod "p" is invalid: spec.dnsPolicy: Unsupported value: "Nope": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"`,
			[]string{"spec.dnsPolicy: FieldValueNotSupported"}},
		{"pod empty valueFrom", "/api/v1/namespaces/default/pods", fmtBody(pod, `,"env":[{"name":"A","valueFrom":{}}]`, ""),
			"Pod \"p\" is invalid: spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
			[]string{"spec.containers[0].env[0].valueFrom: FieldValueInvalid"}},
		{"pod container names", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"Bad_Name","image":"x"},{"name":"Bad_Name","image":"x"}]}}`,
			`Pod "p" is invalid: [spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.containers[1].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.containers[1].name: Duplicate value: "Bad_Name"]`,
			[]string{"spec.containers[0].name: FieldValueInvalid", "spec.containers[1].name: FieldValueInvalid", "spec.containers[1].name: FieldValueDuplicate"}},
		{"service type", "/api/v1/namespaces/default/services", `{"metadata":{"name":"s"},"spec":{"type":"Foo","ports":[{"port":80}]}}`,
			`Service "s" is invalid: spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`,
			[]string{"spec.type: FieldValueNotSupported"}},
		{"service unnamed ports", "/api/v1/namespaces/default/services", `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80},{"port":81}]}}`,
			`Service "s" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]`,
			[]string{"spec.ports[0].name: FieldValueRequired", "spec.ports[1].name: FieldValueRequired"}},
		{"service externalName", "/api/v1/namespaces/default/services", `{"metadata":{"name":"s"},"spec":{"type":"ExternalName"}}`,
			`Service "s" is invalid: spec.externalName: Required value`,
			[]string{"spec.externalName: FieldValueRequired"}},
		{"service name is a label", "/api/v1/namespaces/default/services", `{"metadata":{"name":"a.b"},"spec":{"ports":[{"port":80}]}}`,
			`Service "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots`,
			[]string{"metadata.name: FieldValueInvalid"}},
		{"deployment replicas", "/apis/apps/v1/namespaces/default/deployments",
			`{"metadata":{"name":"d"},"spec":{"replicas":-1,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`,
			`Deployment.apps "d" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
			[]string{"spec.replicas: FieldValueInvalid"}},
		{"deployment without selector", "/apis/apps/v1/namespaces/default/deployments",
			`{"metadata":{"name":"d"},"spec":{"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`,
			"Deployment.apps \"d\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`]",
			[]string{"spec.selector: FieldValueRequired", "spec.template.metadata.labels: FieldValueInvalid"}},
		{"claim access mode", "/api/v1/namespaces/default/persistentvolumeclaims",
			`{"metadata":{"name":"c1"},"spec":{"accessModes":["Nope"],"resources":{"requests":{"storage":"1Gi"}}}}`,
			`PersistentVolumeClaim "c1" is invalid: spec.accessModes: Unsupported value: "Nope": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`,
			[]string{"spec.accessModes: FieldValueNotSupported"}},
		{"endpoints port", "/api/v1/namespaces/default/endpoints",
			`{"metadata":{"name":"e"},"subsets":[{"addresses":[{"ip":"10.1.2.3"}],"ports":[{"port":0}]}]}`,
			`Endpoints "e" is invalid: subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`,
			[]string{"subsets[0].ports[0].port: FieldValueInvalid"}},
		{"ingress path type", "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
			`{"metadata":{"name":"i"},"spec":{"rules":[{"host":"a.b","http":{"paths":[{"path":"/","backend":{"service":{"name":"s","port":{"number":80}}}}]}}]}}`,
			`Ingress.networking.k8s.io "i" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified`,
			[]string{"spec.rules[0].http.paths[0].pathType: FieldValueRequired"}},
		{"autoscaler policy", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
			`{"metadata":{"name":"h"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"d"},"maxReplicas":3,"behavior":{"scaleDown":{"policies":[{"type":"Pods","value":1,"periodSeconds":5000}]}}}}`,
			`HorizontalPodAutoscaler.autoscaling "h" is invalid: spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 5000: must be less than or equal to 1800`,
			[]string{"spec.behavior.scaleDown.policies[0].periodSeconds: FieldValueInvalid"}},
		// A core/v1 Event's strategy checks no metadata: a bad label shows only once the
		// legacy check passes (the reference answers only the namespace mismatch here).
		{"event metadata after the legacy check", "/api/v1/namespaces/default/events",
			`{"metadata":{"name":"e","labels":{"bad key!":"x"}},"involvedObject":{"kind":"Pod","name":"p","namespace":"other"}}`,
			`Event "e" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace`,
			[]string{"involvedObject.namespace: FieldValueInvalid"}},
		{"event metadata when the legacy check passes", "/api/v1/namespaces/default/events",
			`{"metadata":{"name":"e","labels":{"bad key!":"x"}},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"}}`,
			`Event "e" is invalid: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			[]string{"metadata.labels: FieldValueInvalid"}},
		{"pod volume of two types", "/api/v1/namespaces/default/pods",
			`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox"}],"volumes":[{"name":"v","emptyDir":{},"hostPath":{"path":"/x"}}]}}`,
			`Pod "p" is invalid: spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type`,
			[]string{"spec.volumes[0].hostPath: FieldValueForbidden"}},
		{"endpoints empty ip", "/api/v1/namespaces/default/endpoints",
			`{"metadata":{"name":"e"},"subsets":[{"addresses":[{"ip":""}],"ports":[{"port":80}]}]}`,
			`Endpoints "e" is invalid: [subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address]`,
			[]string{"subsets[0].addresses[0].ip: FieldValueInvalid", "subsets[0].addresses[0].ip: FieldValueInvalid"}},
		{"endpoints loopback and no addresses", "/api/v1/namespaces/default/endpoints",
			`{"metadata":{"name":"e"},"subsets":[{"notReadyAddresses":[{"ip":"127.0.0.1"}]},{"ports":[{"port":80}]}]}`,
			"Endpoints \"e\" is invalid: [subsets[0].notReadyAddresses[0].ip: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128), subsets[1]: Required value: must specify `addresses` or `notReadyAddresses`]",
			[]string{"subsets[0].notReadyAddresses[0].ip: FieldValueInvalid", "subsets[1]: FieldValueRequired"}},
		{"ip address name", "/apis/networking.k8s.io/v1/ipaddresses",
			`{"metadata":{"name":"Bad_Name"},"spec":{"parentRef":{"resource":"services","name":"s","namespace":"default"}}}`,
			`IPAddress.networking.k8s.io "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
			[]string{"metadata.name: FieldValueInvalid"}},
		{"ip address canonical name", "/apis/networking.k8s.io/v1/ipaddresses",
			`{"metadata":{"name":"2001:db8:0::1"},"spec":{"parentRef":{"resource":"services","name":"s"}}}`,
			`IPAddress.networking.k8s.io "2001:db8:0::1" is invalid: metadata.name: Invalid value: "2001:db8:0::1": must be in canonical form ("2001:db8::1")`,
			[]string{"metadata.name: FieldValueInvalid"}},
		{"ip address without spec", "/apis/networking.k8s.io/v1/ipaddresses", `{"metadata":{"name":"10.1.2.3"}}`,
			`IPAddress.networking.k8s.io "10.1.2.3" is invalid: spec.parentRef: Required value`,
			[]string{"spec.parentRef: FieldValueRequired"}},
	}
	_, c := newServer(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", tt.path, tt.body)
			require.Equal(t, 422, r.code, "%s", r.body)
			assert.Equal(t, tt.wantMsg, r.status(t).Message)
			assert.Equal(t, tt.wantCauses, causeReasons(t, r))
		})
	}
}

func fmtBody(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// TestCh01_Validation_ImmutableUpdates checks the update rules: each patch is refused with
// the reference's 422 and leaves the object as it was.
func TestCh01_Validation_ImmutableUpdates(t *testing.T) {
	const mergeCT = "application/merge-patch+json"
	tests := []struct {
		name, coll, create, item, patch, ct string
		wantMsg                             string
		wantCauses                          []string
	}{
		{"uid", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"u"}}`, "/api/v1/namespaces/default/configmaps/u",
			`[{"op":"add","path":"/metadata/uid","value":"00000000-0000-0000-0000-000000000001"}]`, "application/json-patch+json",
			`ConfigMap "u" is invalid: metadata.uid: Invalid value: "00000000-0000-0000-0000-000000000001": field is immutable`,
			[]string{"metadata.uid: FieldValueInvalid", "metadata.uid: FieldValueInvalid"}},
		{"deployment selector", "/apis/apps/v1/namespaces/default/deployments",
			`{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`,
			"/apis/apps/v1/namespaces/default/deployments/d",
			`{"spec":{"selector":{"matchLabels":{"x":"y"}},"template":{"metadata":{"labels":{"x":"y"}}}}}`, mergeCT,
			`Deployment.apps "d" is invalid: spec.selector: Invalid value: {"matchLabels":{"a":"b","x":"y"}}: field is immutable`,
			[]string{"spec.selector: FieldValueInvalid"}},
		{"statefulset serviceName", "/apis/apps/v1/namespaces/default/statefulsets",
			`{"metadata":{"name":"s"},"spec":{"serviceName":"a","selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`,
			"/apis/apps/v1/namespaces/default/statefulsets/s",
			`{"spec":{"serviceName":"other"}}`, mergeCT,
			`StatefulSet.apps "s" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
			[]string{"spec: FieldValueForbidden"}},
		{"immutable configmap data", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"frozen"},"immutable":true,"data":{"a":"1"}}`,
			"/api/v1/namespaces/default/configmaps/frozen", `{"data":{"a":"2"}}`, mergeCT,
			"ConfigMap \"frozen\" is invalid: data: Forbidden: field is immutable when `immutable` is set",
			[]string{"data: FieldValueForbidden"}},
		{"pod restartPolicy", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x"}]}}`,
			"/api/v1/namespaces/default/pods/p", `{"spec":{"restartPolicy":"Never"}}`, mergeCT,
			// The real message goes on with a diff of the internal specs.
			"Pod \"p\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
			[]string{"spec: FieldValueForbidden"}},
		{"service clusterIP", "/api/v1/namespaces/default/services", `{"metadata":{"name":"s"},"spec":{"clusterIP":"10.96.0.77","ports":[{"port":80}]}}`,
			"/api/v1/namespaces/default/services/s", `{"spec":{"clusterIP":"10.96.0.78"}}`, mergeCT,
			`Service "s" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.78"]: may not change once set`,
			[]string{"spec.clusterIPs[0]: FieldValueInvalid"}},
	}
	_, c := newServer(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", tt.coll, tt.create)
			require.Equal(t, 201, r.code, "%s", r.body)
			before := c.get(tt.item)
			r = c.do("PATCH", tt.item, tt.patch, "Content-Type", tt.ct)
			require.Equal(t, 422, r.code, "%s", r.body)
			assert.Equal(t, tt.wantMsg, r.status(t).Message)
			assert.Equal(t, tt.wantCauses, causeReasons(t, r))
			assert.JSONEq(t, string(before.body), string(c.get(tt.item).body), "nothing stored")
		})
	}
}

// TestCh01_Validation_RefusedCreateFreesNodePort checks that a Service refused by validation
// gives back the node port it asked for, so that a valid one can take it.
func TestCh01_Validation_RefusedCreateFreesNodePort(t *testing.T) {
	_, c := newServer(t, Options{})
	bad := `{"metadata":{"name":"Bad_Name"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30900}]}}`
	r := c.do("POST", "/api/v1/namespaces/default/services", bad)
	require.Equal(t, 422, r.code, "%s", r.body)
	good := `{"metadata":{"name":"good"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30900}]}}`
	r = c.do("POST", "/api/v1/namespaces/default/services", good)
	require.Equal(t, 201, r.code, "%s", r.body)
}

// TestCh01_Validation_PodTemplateWarnings checks the Warning header of a negative grace
// period on a workload's template, in the reference's words.
func TestCh01_Validation_PodTemplateWarnings(t *testing.T) {
	_, c := newServer(t, Options{})
	tests := []struct{ name, path, body, want string }{
		{"deployment", "/apis/apps/v1/namespaces/default/deployments",
			`{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"terminationGracePeriodSeconds":-1,"containers":[{"name":"c","image":"x"}]}}}}`,
			`299 - "spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", tt.path, tt.body)
			require.Equal(t, 201, r.code, "%s", r.body)
			assert.Equal(t, []string{tt.want}, r.header.Values("Warning"))
		})
	}
}

// TestCh01_Validation_NodeTaints checks validateNodeTaints, whose causes the reference
// places under metadata.
func TestCh01_Validation_NodeTaints(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("POST", "/api/v1/nodes", `{"metadata":{"name":"n1"},"spec":{"taints":[{"key":"a","effect":""},{"key":"b","effect":"Weird"},{"key":"c","effect":"NoSchedule"},{"key":"c","effect":"NoSchedule"}]}}`)
	require.Equal(t, 422, r.code, "%s", r.body)
	assert.Equal(t, `Node "n1" is invalid: [metadata.taints[0].effect: Required value, metadata.taints[1].effect: Unsupported value: "Weird": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute", metadata.taints[3]: Duplicate value: {"Key":"c","Value":"","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair]`, r.status(t).Message)
	assert.Equal(t, []string{"metadata.taints[0].effect: FieldValueRequired", "metadata.taints[1].effect: FieldValueNotSupported", "metadata.taints[3]: FieldValueDuplicate"}, causeReasons(t, r))
}

// TestCh01_Validation_NegativeGracePeriodIsOne: a pod's negative terminationGracePeriodSeconds
// is stored as 1, as Convert_v1_Pod_To_core_Pod forces it (a template's is left alone).
func TestCh01_Validation_NegativeGracePeriodIsOne(t *testing.T) {
	_, c := newServer(t, Options{})
	r := c.do("POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"terminationGracePeriodSeconds":-5,"containers":[{"name":"c","image":"busybox"}]}}`)
	require.Equal(t, 201, r.code, "%s", r.body)
	var pod struct {
		Spec struct{ TerminationGracePeriodSeconds int64 } `json:"spec"`
	}
	r.decode(t, &pod)
	assert.Equal(t, int64(1), pod.Spec.TerminationGracePeriodSeconds)
}
