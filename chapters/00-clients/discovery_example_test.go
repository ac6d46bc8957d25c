package ch00_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/client/discovery"
	"github.com/informer-lab/informer-lab/client/dynamic"
	"github.com/informer-lab/informer-lab/client/restmapper"
)

// Example_discovery is way 5: ask the server what exists, the way `kubectl api-resources`
// does. Two requests (/api, /apis) are enough, because the server answers in the aggregated
// format (K5): every group, version and resource in one document each.
func Example_discovery() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	dc := must(discovery.NewDiscoveryClientForConfig(withWire(cfg)))

	v := must(dc.ServerVersion())
	fmt.Printf("server %s (major %s, minor %s)\n", v.GitVersion, v.Major, v.Minor)

	_, lists, err := dc.ServerGroupsAndResources()
	check(err)
	// Columns as kubectl aligns them: a tabwriter with three spaces of padding.
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND")
	for _, l := range lists {
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") {
				continue // subresources, hidden as kubectl hides them (K6)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%t\t%s\n", r.Name, strings.Join(r.ShortNames, ","), l.GroupVersion, r.Namespaced, r.Kind)
		}
	}
	check(tw.Flush())
	// Output:
	// GET /version → 200
	// server v1.32.0 (major 1, minor 32)
	//   GET /api → 200
	//   GET /apis → 200
	// NAME                                SHORTNAMES   APIVERSION                        NAMESPACED   KIND
	// bindings                                         v1                                true         Binding
	// componentstatuses                   cs           v1                                false        ComponentStatus
	// configmaps                          cm           v1                                true         ConfigMap
	// endpoints                           ep           v1                                true         Endpoints
	// events                              ev           v1                                true         Event
	// limitranges                         limits       v1                                true         LimitRange
	// namespaces                          ns           v1                                false        Namespace
	// nodes                               no           v1                                false        Node
	// persistentvolumeclaims              pvc          v1                                true         PersistentVolumeClaim
	// persistentvolumes                   pv           v1                                false        PersistentVolume
	// pods                                po           v1                                true         Pod
	// podtemplates                                     v1                                true         PodTemplate
	// replicationcontrollers              rc           v1                                true         ReplicationController
	// resourcequotas                      quota        v1                                true         ResourceQuota
	// secrets                                          v1                                true         Secret
	// serviceaccounts                     sa           v1                                true         ServiceAccount
	// services                            svc          v1                                true         Service
	// apiservices                                      apiregistration.k8s.io/v1         false        APIService
	// controllerrevisions                              apps/v1                           true         ControllerRevision
	// daemonsets                          ds           apps/v1                           true         DaemonSet
	// deployments                         deploy       apps/v1                           true         Deployment
	// replicasets                         rs           apps/v1                           true         ReplicaSet
	// statefulsets                        sts          apps/v1                           true         StatefulSet
	// events                              ev           events.k8s.io/v1                  true         Event
	// selfsubjectreviews                               authentication.k8s.io/v1          false        SelfSubjectReview
	// tokenreviews                                     authentication.k8s.io/v1          false        TokenReview
	// localsubjectaccessreviews                        authorization.k8s.io/v1           true         LocalSubjectAccessReview
	// selfsubjectaccessreviews                         authorization.k8s.io/v1           false        SelfSubjectAccessReview
	// selfsubjectrulesreviews                          authorization.k8s.io/v1           false        SelfSubjectRulesReview
	// subjectaccessreviews                             authorization.k8s.io/v1           false        SubjectAccessReview
	// horizontalpodautoscalers            hpa          autoscaling/v2                    true         HorizontalPodAutoscaler
	// horizontalpodautoscalers            hpa          autoscaling/v1                    true         HorizontalPodAutoscaler
	// cronjobs                            cj           batch/v1                          true         CronJob
	// jobs                                             batch/v1                          true         Job
	// certificatesigningrequests          csr          certificates.k8s.io/v1            false        CertificateSigningRequest
	// ingressclasses                                   networking.k8s.io/v1              false        IngressClass
	// ingresses                           ing          networking.k8s.io/v1              true         Ingress
	// ipaddresses                         ip           networking.k8s.io/v1              false        IPAddress
	// networkpolicies                     netpol       networking.k8s.io/v1              true         NetworkPolicy
	// servicecidrs                                     networking.k8s.io/v1              false        ServiceCIDR
	// poddisruptionbudgets                pdb          policy/v1                         true         PodDisruptionBudget
	// clusterrolebindings                              rbac.authorization.k8s.io/v1      false        ClusterRoleBinding
	// clusterroles                                     rbac.authorization.k8s.io/v1      false        ClusterRole
	// rolebindings                                     rbac.authorization.k8s.io/v1      true         RoleBinding
	// roles                                            rbac.authorization.k8s.io/v1      true         Role
	// csidrivers                                       storage.k8s.io/v1                 false        CSIDriver
	// csinodes                                         storage.k8s.io/v1                 false        CSINode
	// csistoragecapacities                             storage.k8s.io/v1                 true         CSIStorageCapacity
	// storageclasses                      sc           storage.k8s.io/v1                 false        StorageClass
	// volumeattachments                                storage.k8s.io/v1                 false        VolumeAttachment
	// volumeattributesclasses             vac          storage.k8s.io/v1                 false        VolumeAttributesClass
	// mutatingadmissionpolicies                        admissionregistration.k8s.io/v1   false        MutatingAdmissionPolicy
	// mutatingadmissionpolicybindings                  admissionregistration.k8s.io/v1   false        MutatingAdmissionPolicyBinding
	// mutatingwebhookconfigurations                    admissionregistration.k8s.io/v1   false        MutatingWebhookConfiguration
	// validatingadmissionpolicies                      admissionregistration.k8s.io/v1   false        ValidatingAdmissionPolicy
	// validatingadmissionpolicybindings                admissionregistration.k8s.io/v1   false        ValidatingAdmissionPolicyBinding
	// validatingwebhookconfigurations                  admissionregistration.k8s.io/v1   false        ValidatingWebhookConfiguration
	// customresourcedefinitions           crd,crds     apiextensions.k8s.io/v1           false        CustomResourceDefinition
	// priorityclasses                     pc           scheduling.k8s.io/v1              false        PriorityClass
	// leases                                           coordination.k8s.io/v1            true         Lease
	// runtimeclasses                                   node.k8s.io/v1                    false        RuntimeClass
	// endpointslices                                   discovery.k8s.io/v1               true         EndpointSlice
	// deviceclasses                                    resource.k8s.io/v1                false        DeviceClass
	// resourceclaims                                   resource.k8s.io/v1                true         ResourceClaim
	// resourceclaimtemplates                           resource.k8s.io/v1                true         ResourceClaimTemplate
	// resourceslices                                   resource.k8s.io/v1                false        ResourceSlice
	// flowschemas                                      flowcontrol.apiserver.k8s.io/v1   false        FlowSchema
	// prioritylevelconfigurations                      flowcontrol.apiserver.k8s.io/v1   false        PriorityLevelConfiguration
}

// Example_discoveryThenDynamic is what kubectl does with `kubectl label po web-1 …`: resolve
// the short name through discovery (RESTMapper), then use the dynamic client on whatever it
// resolved to. That is "list pods, then update one" knowing only the word "po".
func Example_discoveryThenDynamic() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	ctx := context.Background()
	wired := withWire(cfg)
	dc := must(discovery.NewDiscoveryClientForConfig(wired))
	mapper := must(restmapper.NewDiscoveryRESTMapperForClient(ctx, dc))
	for _, arg := range []string{"po", "Pod", "deploy", "deployments.v1.apps"} {
		m := must(mapper.MappingFor(arg))
		fmt.Printf("%-20s → resource %s, kind %s, scope %s\n", arg, m.Resource.GroupResource(), m.GroupVersionKind.Kind, m.Scope)
	}

	mapping := must(mapper.MappingFor("po"))
	dyn := must(dynamic.NewForConfig(wired))
	pods := dyn.Resource(mapping.Resource).Namespace("demo")
	list := must(pods.List(ctx, api.ListOptions{}))
	fmt.Println("listed", len(list.Items), mapping.Resource.Resource)
	patched := must(pods.Patch(ctx, list.Items[0].GetName(), api.MergePatchType,
		[]byte(`{"metadata":{"labels":{"tier":"frontend"}}}`), api.PatchOptions{FieldManager: "kubectl-label"}))
	fmt.Printf("labelled %s: %v\n", patched.GetName(), patched.GetLabels())
	// Output:
	//   GET /api → 200
	//   GET /apis → 200
	// po                   → resource pods, kind Pod, scope namespace
	// Pod                  → resource pods, kind Pod, scope namespace
	// deploy               → resource deployments.apps, kind Deployment, scope namespace
	// deployments.v1.apps  → resource deployments.apps, kind Deployment, scope namespace
	//   GET /api/v1/namespaces/demo/pods → 200
	// listed 2 pods
	//   PATCH /api/v1/namespaces/demo/pods/web-1?fieldManager=kubectl-label → 200
	// labelled web-1: map[app:web tier:frontend]
}
