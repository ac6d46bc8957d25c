package admission

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// fakeStore holds objects by group/resource, namespace and name.
type fakeStore map[string][]*api.Unstructured

func (f fakeStore) Get(group, resource, ns, name string) *api.Unstructured {
	for _, o := range f[group+"/"+resource] {
		if o.GetNamespace() == ns && o.GetName() == name {
			return o
		}
	}
	return nil
}

func (f fakeStore) List(group, resource, ns string) []*api.Unstructured {
	var out []*api.Unstructured
	for _, o := range f[group+"/"+resource] {
		if ns == "" || o.GetNamespace() == ns {
			out = append(out, o)
		}
	}
	return out
}

func (f fakeStore) UpdateStatus(string, string, *api.Unstructured) error { return nil }

func obj(m map[string]any) *api.Unstructured { return &api.Unstructured{Object: m} }

// A CSR for kube-apiserver-client with O=system:masters.
const mastersCSR = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIZ01JR0hBZ0VBTUNVeENqQUlCZ05WQkFNTUFYVXhGekFWQmdOVkJBb01Ebk41YzNSbGJUcHRZWE4wWlhKegpNRmt3RXdZSEtvWkl6ajBDQVFZSUtvWkl6ajBEQVFjRFFnQUVtTWxaZTF2NU4wdGoxTFFONkJyUXhEUm1NTWVuCmVxWnVUUDZTaDZXNDNxelhiWStpV1RBUU5URnQrc3pGd1U2SzE0NC9FSFhPUDZmUTR5Nkw3eGdsa3FBQU1Bb0cKQ0NxR1NNNDlCQU1DQTBnQU1FVUNJUURsa1BnbTdGL25WMVVOazU5MHZJd2NSaGdtMnFqMm1ma0hJY1AzSUlqbQpiUUlnTEs5cDVRMWpBc3hWRlFJZ0tjZkVITXpWcVkzd3JyTmpRbDZnRlEydXBSST0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg=="

// TestCh01_Admission_PluginEffects: each mutating plugin's effect on one object and each
// refusal's message, the messages as the reference answers them.
func TestCh01_Admission_PluginEffects(t *testing.T) {
	store := fakeStore{
		"scheduling.k8s.io/priorityclasses": {
			obj(map[string]any{"metadata": map[string]any{"name": "system-node-critical"}, "value": int64(2000001000), "preemptionPolicy": "PreemptLowerPriority"}),
		},
		"storage.k8s.io/storageclasses": {
			obj(map[string]any{"metadata": map[string]any{"name": "old", "creationTimestamp": "2020-01-01T00:00:00Z", "annotations": map[string]any{"storageclass.kubernetes.io/is-default-class": "true"}}}),
			obj(map[string]any{"metadata": map[string]any{"name": "new", "creationTimestamp": "2021-01-01T00:00:00Z", "annotations": map[string]any{"storageclass.kubernetes.io/is-default-class": "true"}}}),
			obj(map[string]any{"metadata": map[string]any{"name": "newest", "creationTimestamp": "2022-01-01T00:00:00Z"}}),
		},
	}
	pod := func(spec map[string]any) *api.Unstructured {
		return obj(map[string]any{"metadata": map[string]any{"name": "p", "namespace": "ns"}, "spec": spec})
	}
	tests := []struct {
		name    string
		plugin  Interface
		gr      api.GroupResource
		object  *api.Unstructured
		want    map[string]any // the object's spec afterwards
		wantErr string
	}{
		{name: "priority from its class", plugin: Priority{}, gr: api.GroupResource{Resource: "pods"},
			object: pod(map[string]any{"priorityClassName": "system-node-critical"}),
			want:   map[string]any{"priorityClassName": "system-node-critical", "priority": int64(2000001000), "preemptionPolicy": "PreemptLowerPriority"}},
		{name: "missing priority class", plugin: Priority{}, gr: api.GroupResource{Resource: "pods"},
			object: pod(map[string]any{"priorityClassName": "nope"}), wantErr: `pods "p" is forbidden: no PriorityClass with name nope was found`},
		{name: "priority in the body", plugin: Priority{}, gr: api.GroupResource{Resource: "pods"},
			object:  pod(map[string]any{"priority": int64(5)}),
			wantErr: `pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name`},
		{name: "a toleration of every NoExecute taint", plugin: DefaultTolerationSeconds{}, gr: api.GroupResource{Resource: "pods"},
			object: pod(map[string]any{"tolerations": []any{map[string]any{"operator": "Exists", "effect": "NoExecute"}}}),
			want:   map[string]any{"tolerations": []any{map[string]any{"operator": "Exists", "effect": "NoExecute"}}}},
		{name: "the not-ready taint of a new node", plugin: TaintNodesByCondition{}, gr: api.GroupResource{Resource: "nodes"},
			object: obj(map[string]any{"metadata": map[string]any{"name": "n"}}),
			want:   map[string]any{"taints": []any{map[string]any{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"}}}},
		{name: "the newest default StorageClass", plugin: DefaultStorageClass{}, gr: api.GroupResource{Resource: "persistentvolumeclaims"},
			object: pod(map[string]any{}), want: map[string]any{"storageClassName": "new"}},
		{name: "a claim's own class", plugin: DefaultStorageClass{}, gr: api.GroupResource{Resource: "persistentvolumeclaims"},
			object: pod(map[string]any{"storageClassName": ""}), want: map[string]any{"storageClassName": ""}},
		{name: "a missing RuntimeClass", plugin: RuntimeClass{}, gr: api.GroupResource{Resource: "pods"},
			object: pod(map[string]any{"runtimeClassName": "gvisor"}), wantErr: `pods "p" is forbidden: pod rejected: RuntimeClass "gvisor" not found`},
		{name: "system:masters from the client signer", plugin: CertificateSubjectRestriction{},
			gr:      api.GroupResource{Group: "certificates.k8s.io", Resource: "certificatesigningrequests"},
			object:  obj(map[string]any{"metadata": map[string]any{"name": "csr1"}, "spec": map[string]any{"signerName": kubeAPIServerClientSigner, "request": mastersCSR}}),
			wantErr: `certificatesigningrequests.certificates.k8s.io "csr1" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &Attributes{Operation: Create, Resource: tc.gr, Namespace: tc.object.GetNamespace(), Name: tc.object.GetName(), Object: tc.object, Store: store}
			err := Chain{tc.plugin}.Admit(context.Background(), a)
			if err == nil {
				err = Chain{tc.plugin}.Validate(context.Background(), a)
			}
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantErr, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(tc.want, tc.object.Object["spec"]))
		})
	}
}

// TestCh01_Admission_StorageProtectionFinalizers: new PVs, claims and
// VolumeAttributesClasses get their protection finalizer once.
func TestCh01_Admission_StorageProtectionFinalizers(t *testing.T) {
	for gr, f := range protectionFinalizers {
		o := obj(map[string]any{"metadata": map[string]any{"name": "x", "finalizers": []any{"other"}}})
		a := &Attributes{Operation: Create, Resource: gr, Object: o}
		for range 2 {
			require.NoError(t, StorageObjectInUseProtection{}.Admit(context.Background(), a))
		}
		assert.Equal(t, []string{"other", f}, o.GetFinalizers(), gr.String())
	}
}

// TestCh01_Admission_PodSecurityLevels: the failed checks of a level, in the registry's
// order, as the reference words them; a compliant pod passes restricted.
func TestCh01_Admission_PodSecurityLevels(t *testing.T) {
	tests := []struct {
		name  string
		level string
		spec  map[string]any
		want  string
	}{
		{name: "baseline", level: "baseline", spec: map[string]any{
			"securityContext": map[string]any{"sysctls": []any{map[string]any{"name": "kernel.msgmax", "value": "1"}, map[string]any{"name": "net.ipv4.tcp_rmem", "value": "1 2 3"}}},
			"containers":      []any{map[string]any{"name": "c", "securityContext": map[string]any{"capabilities": map[string]any{"add": []any{"SYS_ADMIN", "NET_ADMIN"}}}}}},
			want: `non-default capabilities (container "c" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add), forbidden sysctls (kernel.msgmax)`},
		{name: "restricted, compliant", level: "restricted", spec: map[string]any{
			"securityContext": map[string]any{"runAsNonRoot": true, "seccompProfile": map[string]any{"type": "RuntimeDefault"}},
			"volumes":         []any{map[string]any{"name": "v", "emptyDir": map[string]any{}}},
			"containers": []any{map[string]any{"name": "c", "securityContext": map[string]any{"allowPrivilegeEscalation": false,
				"capabilities": map[string]any{"drop": []any{"ALL"}, "add": []any{"NET_BIND_SERVICE"}}}}}}},
		{name: "privileged allows anything", level: "privileged", spec: map[string]any{"hostPID": true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, psaEvaluate(levelVersion{tc.level, "latest"}, tc.spec))
		})
	}
}
