package registry

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/registry/rest"
)

// kindRow is one built-in resource as kube-apiserver v1.36.3 serves it. Where each fact
// comes from (all under pkg/registry/<group>/<resource>/ unless named):
//   - short, categories, deleteObject: storage/storage.go (ShortNames, Categories,
//     ReturnDeletedObject);
//   - status, scale: the StatusREST and ScaleREST types of storage/storage.go;
//   - generation, createStatus: strategy.go (PrepareForCreate, PrepareForUpdate), then the
//     v1 defaults (pkg/apis/<group>/v1/defaults.go), which the storage applies on decode;
//   - collectionDelete: whether the REST type exposes the store's DeleteCollection;
//   - fields: pkg/apis/<group>/v1/conversion.go (AddFieldLabelConversionFunc: the labels
//     accepted beyond metadata.*) and strategy.go (GetAttrs: the value each one reads).
type kindRow struct {
	gr               string // resource.group
	kind             string
	namespaced       bool
	short            []string
	categories       []string
	status, scale    bool
	generation       bool
	createStatus     string // the status a create stores, as JSON; "body" keeps the body's
	deleteObject     bool   // DELETE answers with the object (else a Success Status)
	collectionDelete bool
	fields           map[string]string // label → paths read, first non-empty wins; "(zero)" absent
}

// TestCh01_BuiltinKindsMatchV136 pins the built-in kinds table (table.go and the kinds'
// files under registry/<group>/) to the facts of
// kube-apiserver v1.36.3's registries, one row per resource.
func TestCh01_BuiltinKindsMatchV136(t *testing.T) {
	all := []string{"all"}
	apiExt := []string{"api-extensions"}
	clusterNS := map[string]string{"metadata.namespace": "metadata.namespace"}
	want := []kindRow{
		// No storage: create only, and get and list only (their verbs are pinned by discovery).
		{gr: "bindings", kind: "Binding", namespaced: true, createStatus: "body", collectionDelete: true},
		{gr: "componentstatuses", kind: "ComponentStatus", short: []string{"cs"}, createStatus: "body", collectionDelete: true},
		{gr: "configmaps", kind: "ConfigMap", namespaced: true, short: []string{"cm"}, createStatus: "body", collectionDelete: true},
		{gr: "endpoints", kind: "Endpoints", namespaced: true, short: []string{"ep"}, createStatus: "body", collectionDelete: true},
		{gr: "events", kind: "Event", namespaced: true, short: []string{"ev"}, createStatus: "body", collectionDelete: true,
			fields: map[string]string{
				"involvedObject.apiVersion": "involvedObject.apiVersion", "involvedObject.fieldPath": "involvedObject.fieldPath",
				"involvedObject.kind": "involvedObject.kind", "involvedObject.name": "involvedObject.name",
				"involvedObject.namespace": "involvedObject.namespace", "involvedObject.resourceVersion": "involvedObject.resourceVersion",
				"involvedObject.uid": "involvedObject.uid", "reason": "reason", "reportingComponent": "reportingComponent",
				"source": "source.component|reportingComponent", "type": "type",
			}},
		{gr: "limitranges", kind: "LimitRange", namespaced: true, short: []string{"limits"}, createStatus: "body", collectionDelete: true},
		{gr: "namespaces", kind: "Namespace", short: []string{"ns"}, status: true, createStatus: `{"phase":"Active"}`, deleteObject: true,
			fields: map[string]string{"status.phase": "status.phase"}},
		{gr: "nodes", kind: "Node", short: []string{"no"}, status: true, createStatus: "body", collectionDelete: true,
			fields: map[string]string{"spec.unschedulable": "spec.unschedulable (false)"}},
		{gr: "persistentvolumeclaims", kind: "PersistentVolumeClaim", namespaced: true, short: []string{"pvc"}, status: true,
			createStatus: `{"phase":"Pending"}`, deleteObject: true, collectionDelete: true},
		{gr: "persistentvolumes", kind: "PersistentVolume", short: []string{"pv"}, status: true,
			createStatus: `{"lastPhaseTransitionTime":"1970-01-01T00:00:00Z","phase":"Pending"}`, deleteObject: true, collectionDelete: true},
		// Not v1.36.3: the real PrepareForCreate replaces the body's status with {phase:
		// Pending, qosClass}; object.go keeps it and only fills in a missing phase.
		{gr: "pods", kind: "Pod", namespaced: true, short: []string{"po"}, categories: all, status: true, generation: true,
			createStatus: `{"fromBody":"kept","phase":"Pending"}`, deleteObject: true, collectionDelete: true,
			fields: map[string]string{
				"spec.hostNetwork": "spec.hostNetwork (false)", "spec.nodeName": "spec.nodeName",
				"spec.restartPolicy": "spec.restartPolicy", "spec.schedulerName": "spec.schedulerName",
				"spec.serviceAccountName": "spec.serviceAccountName|spec.serviceAccount", "status.nominatedNodeName": "status.nominatedNodeName",
				"status.phase": "status.phase", "status.podIP": "status.podIP|status.podIPs.0.ip", "status.podIPs": "",
			}},
		{gr: "podtemplates", kind: "PodTemplate", namespaced: true, generation: true, createStatus: "body", deleteObject: true, collectionDelete: true},
		{gr: "replicationcontrollers", kind: "ReplicationController", namespaced: true, short: []string{"rc"}, categories: all,
			status: true, scale: true, generation: true, createStatus: `{"replicas":0}`, collectionDelete: true,
			fields: map[string]string{"status.replicas": "status.replicas (0)"}},
		{gr: "resourcequotas", kind: "ResourceQuota", namespaced: true, short: []string{"quota"}, status: true, createStatus: "{}",
			deleteObject: true, collectionDelete: true},
		{gr: "secrets", kind: "Secret", namespaced: true, createStatus: "body", collectionDelete: true,
			fields: map[string]string{"type": "type"}},
		{gr: "serviceaccounts", kind: "ServiceAccount", namespaced: true, short: []string{"sa"}, createStatus: "body",
			deleteObject: true, collectionDelete: true},
		{gr: "services", kind: "Service", namespaced: true, short: []string{"svc"}, categories: all, status: true,
			createStatus: `{"loadBalancer":{}}`, deleteObject: true, collectionDelete: true,
			fields: map[string]string{"spec.clusterIP": "spec.clusterIP", "spec.type": "spec.type"}},
		// The stores without GetAttrs of their own accept metadata.namespace, always empty
		// (DefaultClusterScopedAttr).
		{gr: "mutatingadmissionpolicies.admissionregistration.k8s.io", kind: "MutatingAdmissionPolicy", categories: apiExt,
			generation: true, createStatus: "body", collectionDelete: true, fields: clusterNS},
		{gr: "mutatingadmissionpolicybindings.admissionregistration.k8s.io", kind: "MutatingAdmissionPolicyBinding", categories: apiExt,
			generation: true, createStatus: "body", collectionDelete: true, fields: clusterNS},
		{gr: "mutatingwebhookconfigurations.admissionregistration.k8s.io", kind: "MutatingWebhookConfiguration", categories: apiExt,
			generation: true, createStatus: "body", collectionDelete: true, fields: clusterNS},
		{gr: "validatingadmissionpolicies.admissionregistration.k8s.io", kind: "ValidatingAdmissionPolicy", categories: apiExt,
			status: true, generation: true, createStatus: "{}", collectionDelete: true, fields: clusterNS},
		{gr: "validatingadmissionpolicybindings.admissionregistration.k8s.io", kind: "ValidatingAdmissionPolicyBinding", categories: apiExt,
			generation: true, createStatus: "body", collectionDelete: true, fields: clusterNS},
		{gr: "validatingwebhookconfigurations.admissionregistration.k8s.io", kind: "ValidatingWebhookConfiguration", categories: apiExt,
			generation: true, createStatus: "body", collectionDelete: true, fields: clusterNS},
		// The status stored before the CRD's controllers write theirs (crd.go).
		{gr: "customresourcedefinitions.apiextensions.k8s.io", kind: "CustomResourceDefinition", short: []string{"crd", "crds"},
			categories: []string{"api-extensions"}, status: true, generation: true, collectionDelete: true,
			createStatus: `{"acceptedNames":{"kind":"","plural":""},"conditions":null,"storedVersions":null}`},
		// A local APIService is Available at once (kube-aggregator's apiServerStrategy).
		{gr: "apiservices.apiregistration.k8s.io", kind: "APIService", categories: apiExt, status: true, collectionDelete: true, fields: clusterNS,
			createStatus: `{"conditions":[{"lastTransitionTime":"T","message":"Local APIServices are always available","reason":"Local","status":"True","type":"Available"}]}`},
		{gr: "controllerrevisions.apps", kind: "ControllerRevision", namespaced: true, createStatus: "body", collectionDelete: true},
		{gr: "daemonsets.apps", kind: "DaemonSet", namespaced: true, short: []string{"ds"}, categories: all, status: true, generation: true,
			createStatus:     `{"currentNumberScheduled":0,"desiredNumberScheduled":0,"numberMisscheduled":0,"numberReady":0}`,
			collectionDelete: true},
		{gr: "deployments.apps", kind: "Deployment", namespaced: true, short: []string{"deploy"}, categories: all, status: true, scale: true,
			generation: true, createStatus: `{}`, collectionDelete: true},
		{gr: "replicasets.apps", kind: "ReplicaSet", namespaced: true, short: []string{"rs"}, categories: all, status: true, scale: true,
			generation: true, createStatus: `{"replicas":0}`, collectionDelete: true},
		{gr: "statefulsets.apps", kind: "StatefulSet", namespaced: true, short: []string{"sts"}, categories: all, status: true, scale: true,
			generation: true, createStatus: `{"availableReplicas":0,"replicas":0}`, collectionDelete: true},
		// The reviews store nothing: rest.Kind.Verbs leaves them only create.
		{gr: "selfsubjectreviews.authentication.k8s.io", kind: "SelfSubjectReview", createStatus: "body", collectionDelete: true},
		{gr: "tokenreviews.authentication.k8s.io", kind: "TokenReview", createStatus: "body", collectionDelete: true},
		{gr: "localsubjectaccessreviews.authorization.k8s.io", kind: "LocalSubjectAccessReview", namespaced: true, createStatus: "body",
			collectionDelete: true},
		{gr: "selfsubjectaccessreviews.authorization.k8s.io", kind: "SelfSubjectAccessReview", createStatus: "body", collectionDelete: true},
		{gr: "selfsubjectrulesreviews.authorization.k8s.io", kind: "SelfSubjectRulesReview", createStatus: "body", collectionDelete: true},
		{gr: "subjectaccessreviews.authorization.k8s.io", kind: "SubjectAccessReview", createStatus: "body", collectionDelete: true},
		// Stored at v2; CanonicalV2 writes the null currentMetrics out.
		{gr: "horizontalpodautoscalers.autoscaling", kind: "HorizontalPodAutoscaler", namespaced: true, short: []string{"hpa"},
			categories: all, status: true, createStatus: `{"currentMetrics":null,"desiredReplicas":0}`, collectionDelete: true},
		{gr: "cronjobs.batch", kind: "CronJob", namespaced: true, short: []string{"cj"}, categories: all, status: true, generation: true,
			createStatus: `{}`, collectionDelete: true},
		{gr: "jobs.batch", kind: "Job", namespaced: true, categories: all, status: true, generation: true, createStatus: `{}`,
			collectionDelete: true, fields: map[string]string{"status.successful": "status.succeeded (0)"}},
		{gr: "certificatesigningrequests.certificates.k8s.io", kind: "CertificateSigningRequest", short: []string{"csr"}, status: true,
			createStatus: "{}", collectionDelete: true, fields: map[string]string{"spec.signerName": "spec.signerName"}},
		{gr: "leases.coordination.k8s.io", kind: "Lease", namespaced: true, createStatus: "body", collectionDelete: true},
		{gr: "endpointslices.discovery.k8s.io", kind: "EndpointSlice", namespaced: true, generation: true, createStatus: "body",
			collectionDelete: true},
		{gr: "events.events.k8s.io", kind: "Event", namespaced: true, short: []string{"ev"}, createStatus: "body", collectionDelete: true,
			// events/v1 conversion.go maps each label onto the core one, read from the
			// stored core Event.
			fields: map[string]string{
				"reason": "reason", "regarding.apiVersion": "involvedObject.apiVersion", "regarding.fieldPath": "involvedObject.fieldPath",
				"regarding.kind": "involvedObject.kind", "regarding.name": "involvedObject.name", "regarding.namespace": "involvedObject.namespace",
				"regarding.resourceVersion": "involvedObject.resourceVersion", "regarding.uid": "involvedObject.uid",
				"reportingController": "reportingComponent", "type": "type",
			}},
		{gr: "ingressclasses.networking.k8s.io", kind: "IngressClass", generation: true, createStatus: "body", collectionDelete: true},
		{gr: "ingresses.networking.k8s.io", kind: "Ingress", namespaced: true, short: []string{"ing"}, status: true, generation: true,
			createStatus: `{"loadBalancer":{}}`, collectionDelete: true},
		{gr: "ipaddresses.networking.k8s.io", kind: "IPAddress", short: []string{"ip"}, createStatus: "body", collectionDelete: true},
		{gr: "networkpolicies.networking.k8s.io", kind: "NetworkPolicy", namespaced: true, short: []string{"netpol"}, generation: true,
			createStatus: "body", collectionDelete: true},
		{gr: "servicecidrs.networking.k8s.io", kind: "ServiceCIDR", status: true, createStatus: `{}`, collectionDelete: true},
		{gr: "runtimeclasses.node.k8s.io", kind: "RuntimeClass", createStatus: "body", collectionDelete: true},
		{gr: "deviceclasses.resource.k8s.io", kind: "DeviceClass", generation: true, createStatus: "body", deleteObject: true, collectionDelete: true},
		{gr: "resourceclaims.resource.k8s.io", kind: "ResourceClaim", namespaced: true, status: true, createStatus: `{}`,
			deleteObject: true, collectionDelete: true},
		{gr: "resourceclaimtemplates.resource.k8s.io", kind: "ResourceClaimTemplate", namespaced: true, createStatus: "body",
			deleteObject: true, collectionDelete: true},
		{gr: "resourceslices.resource.k8s.io", kind: "ResourceSlice", generation: true, createStatus: "body", deleteObject: true,
			collectionDelete: true, fields: map[string]string{"spec.driver": "spec.driver", "spec.nodeName": "spec.nodeName"}},
		{gr: "csidrivers.storage.k8s.io", kind: "CSIDriver", createStatus: "body", deleteObject: true, collectionDelete: true},
		{gr: "csinodes.storage.k8s.io", kind: "CSINode", createStatus: "body", deleteObject: true, collectionDelete: true},
		{gr: "csistoragecapacities.storage.k8s.io", kind: "CSIStorageCapacity", namespaced: true, createStatus: "body", collectionDelete: true},
		{gr: "storageclasses.storage.k8s.io", kind: "StorageClass", short: []string{"sc"}, createStatus: "body", deleteObject: true,
			collectionDelete: true},
		{gr: "volumeattachments.storage.k8s.io", kind: "VolumeAttachment", status: true, createStatus: `{"attached":false}`,
			deleteObject: true, collectionDelete: true},
		{gr: "volumeattributesclasses.storage.k8s.io", kind: "VolumeAttributesClass", short: []string{"vac"}, createStatus: "body",
			deleteObject: true, collectionDelete: true},
		{gr: "flowschemas.flowcontrol.apiserver.k8s.io", kind: "FlowSchema", status: true, generation: true, createStatus: "{}",
			collectionDelete: true, fields: clusterNS},
		{gr: "prioritylevelconfigurations.flowcontrol.apiserver.k8s.io", kind: "PriorityLevelConfiguration", status: true, generation: true,
			createStatus: "{}", collectionDelete: true, fields: clusterNS},
		{gr: "clusterrolebindings.rbac.authorization.k8s.io", kind: "ClusterRoleBinding", createStatus: "body", collectionDelete: true},
		{gr: "clusterroles.rbac.authorization.k8s.io", kind: "ClusterRole", createStatus: "body", collectionDelete: true},
		{gr: "rolebindings.rbac.authorization.k8s.io", kind: "RoleBinding", namespaced: true, createStatus: "body", collectionDelete: true},
		{gr: "roles.rbac.authorization.k8s.io", kind: "Role", namespaced: true, createStatus: "body", collectionDelete: true},
		{gr: "poddisruptionbudgets.policy", kind: "PodDisruptionBudget", namespaced: true, short: []string{"pdb"}, status: true,
			generation: true, createStatus: `{"currentHealthy":0,"desiredHealthy":0,"disruptionsAllowed":0,"expectedPods":0}`,
			collectionDelete: true},
		{gr: "priorityclasses.scheduling.k8s.io", kind: "PriorityClass", short: []string{"pc"}, generation: true, createStatus: "body",
			collectionDelete: true},
	}

	var got []kindRow
	for _, k := range builtinKinds(nil) {
		ri := infoOf(k)
		st := k.Strategy
		wantVersion := "v1"
		if k.Version != "" {
			wantVersion = k.Version // autoscaling: stored and preferred at v2
		}
		require.Equal(t, wantVersion, ri.Version, ri.Resource)
		row := kindRow{
			gr: ri.GroupResource().String(), kind: ri.Kind, namespaced: ri.Namespaced,
			short: ri.ShortNames, categories: ri.Categories,
			status: st.HasStatus(), scale: st.HasScale(), generation: st.HasGeneration(),
			createStatus: createdStatus(t, k), deleteObject: ri.ReturnDeletedObject,
			collectionDelete: !k.NoCollectionDelete,
		}
		if len(k.Fields) > 0 {
			row.fields = map[string]string{}
			for label, r := range k.Fields {
				d := strings.Join(r.Paths, "|")
				if r.Zero != "" {
					d += " (" + r.Zero + ")"
				}
				row.fields[label] = d
			}
			labels := make([]string, 0, len(row.fields))
			for l := range row.fields {
				labels = append(labels, l)
			}
			sort.Strings(labels)
			assert.Equal(t, labels, ri.FieldLabels, "%s: FieldLabels follow the reads", row.gr)
		}
		got = append(got, row)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(kindRow{})); diff != "" {
		t.Errorf("built-in kinds differ from v1.36.3 (-want +got):\n%s", diff)
	}
}

// createdStatus runs the create path's strategy and defaults on a body whose status is
// {"fromBody":"kept"} and returns the status they leave, "body" when it is untouched.
func createdStatus(t *testing.T, k rest.Kind) string {
	t.Helper()
	ri := infoOf(k)
	res := &Resource{Info: ri, Builtin: true, Strategy: k.Strategy}
	obj := &api.Unstructured{Object: map[string]any{
		"apiVersion": ri.APIVersion(), "kind": ri.Kind,
		"metadata": map[string]any{"name": "x"}, "status": map[string]any{"fromBody": "kept"},
	}}
	k.Strategy.PrepareForCreate(rest.Context{Now: api.NewTime(time.Unix(0, 0))}, obj)
	applyDefaults(res, obj)
	j, err := json.Marshal(obj.Object["status"])
	require.NoError(t, err)
	// A CRD's conditions carry the time of the write.
	j = regexp.MustCompile(`"lastTransitionTime":"[^"]*"`).ReplaceAll(j, []byte(`"lastTransitionTime":"T"`))
	if string(j) == `{"fromBody":"kept"}` {
		return "body"
	}
	return string(j)
}

// TestCh01_BuiltinFieldSets checks the values the pod, event and job labels take: fallbacks,
// the zero of an absent bool or number, and status.podIPs, which is never set.
func TestCh01_BuiltinFieldSets(t *testing.T) {
	u := func(j string) *api.Unstructured {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(j), &m))
		return &api.Unstructured{Object: m}
	}
	tests := []struct {
		name  string
		reads map[string]rest.FieldRead
		obj   string
		want  map[string]string
	}{
		{"pod with podIPs only", fieldsOf("pods"),
			`{"spec":{"serviceAccount":"old"},"status":{"podIPs":[{"ip":"fd00::7"}]}}`,
			map[string]string{"spec.hostNetwork": "false", "spec.nodeName": "", "spec.restartPolicy": "", "spec.schedulerName": "",
				"spec.serviceAccountName": "old", "status.nominatedNodeName": "", "status.phase": "", "status.podIP": "fd00::7", "status.podIPs": ""}},
		{"pod: podIP wins over podIPs, serviceAccountName over serviceAccount", fieldsOf("pods"),
			`{"spec":{"serviceAccountName":"new","serviceAccount":"old","hostNetwork":true},"status":{"podIP":"10.0.0.1","podIPs":[{"ip":"10.0.0.2"}]}}`,
			map[string]string{"spec.hostNetwork": "true", "spec.nodeName": "", "spec.restartPolicy": "", "spec.schedulerName": "",
				"spec.serviceAccountName": "new", "status.nominatedNodeName": "", "status.phase": "", "status.podIP": "10.0.0.1", "status.podIPs": ""}},
		{"core event source falls back to reportingComponent", fieldsOf("events"),
			`{"reportingComponent":"kubelet","involvedObject":{"kind":"Pod","name":"a"}}`,
			map[string]string{"involvedObject.apiVersion": "", "involvedObject.fieldPath": "", "involvedObject.kind": "Pod",
				"involvedObject.name": "a", "involvedObject.namespace": "", "involvedObject.resourceVersion": "", "involvedObject.uid": "",
				"reason": "", "reportingComponent": "kubelet", "source": "kubelet", "type": ""}},
		{"job without status", map[string]rest.FieldRead{"status.successful": rest.IntField("status.succeeded")}, `{}`,
			map[string]string{"status.successful": "0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rest.FieldSetOf(tt.reads)(u(tt.obj))
			assert.Equal(t, tt.want, map[string]string(got))
		})
	}
}

// fieldsOf returns the field reads of the core built-in resource.
func fieldsOf(resource string) map[string]rest.FieldRead {
	for _, k := range builtinKinds(nil) {
		if k.Group == "" && k.Resource == resource {
			return k.Fields
		}
	}
	return nil
}
