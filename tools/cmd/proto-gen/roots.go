package main

import (
	"reflect"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// roots are the Go types whose messages, and every message they reach, the descriptor
// files hold: the kinds the simulated apiserver serves with their Lists, the meta types
// its routes read and write (Status, WatchEvent, DeleteOptions, …), and the types that
// have their own encoding. Adding a kind here and running make protos is all it takes.
var roots = []any{
	// core/v1
	corev1.Pod{}, corev1.PodList{},
	corev1.ConfigMap{}, corev1.ConfigMapList{},
	corev1.Namespace{}, corev1.NamespaceList{},
	corev1.Node{}, corev1.NodeList{},
	corev1.Service{}, corev1.ServiceList{},
	//lint:ignore SA1019 the simulated apiserver still serves Endpoints, as kube-apiserver v1.36 does
	corev1.Endpoints{}, corev1.EndpointsList{},
	corev1.Secret{}, corev1.SecretList{},
	corev1.ServiceAccount{}, corev1.ServiceAccountList{},
	corev1.Event{}, corev1.EventList{},
	corev1.PersistentVolumeClaim{}, corev1.PersistentVolumeClaimList{},
	corev1.ComponentStatus{}, corev1.ComponentStatusList{},
	corev1.LimitRange{}, corev1.LimitRangeList{},
	corev1.PersistentVolume{}, corev1.PersistentVolumeList{},
	corev1.PodTemplate{}, corev1.PodTemplateList{},
	corev1.ReplicationController{}, corev1.ReplicationControllerList{},
	corev1.ResourceQuota{}, corev1.ResourceQuotaList{},
	corev1.Binding{},
	// admissionregistration.k8s.io/v1
	admissionregistrationv1.MutatingAdmissionPolicy{}, admissionregistrationv1.MutatingAdmissionPolicyList{},
	admissionregistrationv1.MutatingAdmissionPolicyBinding{}, admissionregistrationv1.MutatingAdmissionPolicyBindingList{},
	admissionregistrationv1.MutatingWebhookConfiguration{}, admissionregistrationv1.MutatingWebhookConfigurationList{},
	admissionregistrationv1.ValidatingAdmissionPolicy{}, admissionregistrationv1.ValidatingAdmissionPolicyList{},
	admissionregistrationv1.ValidatingAdmissionPolicyBinding{}, admissionregistrationv1.ValidatingAdmissionPolicyBindingList{},
	admissionregistrationv1.ValidatingWebhookConfiguration{}, admissionregistrationv1.ValidatingWebhookConfigurationList{},
	// apiextensions.k8s.io/v1
	apiextensionsv1.CustomResourceDefinition{}, apiextensionsv1.CustomResourceDefinitionList{},
	// apiregistration.k8s.io/v1
	apiregistrationv1.APIService{}, apiregistrationv1.APIServiceList{},
	// authentication.k8s.io/v1 and authorization.k8s.io/v1: the reviews, and TokenRequest
	authenticationv1.TokenReview{}, authenticationv1.SelfSubjectReview{}, authenticationv1.TokenRequest{},
	authorizationv1.SubjectAccessReview{}, authorizationv1.SelfSubjectAccessReview{},
	authorizationv1.LocalSubjectAccessReview{}, authorizationv1.SelfSubjectRulesReview{},
	// autoscaling/v1 and v2
	autoscalingv1.HorizontalPodAutoscaler{}, autoscalingv1.HorizontalPodAutoscalerList{},
	autoscalingv2.HorizontalPodAutoscaler{}, autoscalingv2.HorizontalPodAutoscalerList{},
	// certificates.k8s.io/v1
	certificatesv1.CertificateSigningRequest{}, certificatesv1.CertificateSigningRequestList{},
	// flowcontrol.apiserver.k8s.io/v1
	flowcontrolv1.FlowSchema{}, flowcontrolv1.FlowSchemaList{},
	flowcontrolv1.PriorityLevelConfiguration{}, flowcontrolv1.PriorityLevelConfigurationList{},
	// networking.k8s.io/v1
	networkingv1.Ingress{}, networkingv1.IngressList{},
	networkingv1.IngressClass{}, networkingv1.IngressClassList{},
	networkingv1.NetworkPolicy{}, networkingv1.NetworkPolicyList{},
	networkingv1.IPAddress{}, networkingv1.IPAddressList{},
	networkingv1.ServiceCIDR{}, networkingv1.ServiceCIDRList{},
	// node.k8s.io/v1
	nodev1.RuntimeClass{}, nodev1.RuntimeClassList{},
	// policy/v1 (Eviction is pods/eviction's body)
	policyv1.PodDisruptionBudget{}, policyv1.PodDisruptionBudgetList{}, policyv1.Eviction{},
	// rbac.authorization.k8s.io/v1
	rbacv1.Role{}, rbacv1.RoleList{}, rbacv1.RoleBinding{}, rbacv1.RoleBindingList{},
	rbacv1.ClusterRole{}, rbacv1.ClusterRoleList{}, rbacv1.ClusterRoleBinding{}, rbacv1.ClusterRoleBindingList{},
	// resource.k8s.io/v1
	resourcev1.DeviceClass{}, resourcev1.DeviceClassList{},
	resourcev1.ResourceClaim{}, resourcev1.ResourceClaimList{},
	resourcev1.ResourceClaimTemplate{}, resourcev1.ResourceClaimTemplateList{},
	resourcev1.ResourceSlice{}, resourcev1.ResourceSliceList{},
	// scheduling.k8s.io/v1
	schedulingv1.PriorityClass{}, schedulingv1.PriorityClassList{},
	// storage.k8s.io/v1
	storagev1.CSIDriver{}, storagev1.CSIDriverList{},
	storagev1.CSINode{}, storagev1.CSINodeList{},
	storagev1.CSIStorageCapacity{}, storagev1.CSIStorageCapacityList{},
	storagev1.StorageClass{}, storagev1.StorageClassList{},
	storagev1.VolumeAttachment{}, storagev1.VolumeAttachmentList{},
	storagev1.VolumeAttributesClass{}, storagev1.VolumeAttributesClassList{},
	// apps/v1
	appsv1.Deployment{}, appsv1.DeploymentList{},
	appsv1.ReplicaSet{}, appsv1.ReplicaSetList{},
	appsv1.StatefulSet{}, appsv1.StatefulSetList{},
	appsv1.DaemonSet{}, appsv1.DaemonSetList{},
	appsv1.ControllerRevision{}, appsv1.ControllerRevisionList{},
	// batch/v1
	batchv1.Job{}, batchv1.JobList{},
	batchv1.CronJob{}, batchv1.CronJobList{},
	// coordination.k8s.io/v1
	coordinationv1.Lease{}, coordinationv1.LeaseList{},
	// events.k8s.io/v1
	eventsv1.Event{}, eventsv1.EventList{},
	// discovery.k8s.io/v1
	discoveryv1.EndpointSlice{}, discoveryv1.EndpointSliceList{},
	// autoscaling/v1 (the scale subresource)
	autoscalingv1.Scale{},
	// meta/v1: what every group-version's routes use
	metav1.ObjectMeta{}, metav1.ListMeta{}, metav1.TypeMeta{},
	metav1.Status{}, metav1.StatusDetails{}, metav1.StatusCause{},
	metav1.WatchEvent{}, metav1.DeleteOptions{}, metav1.Preconditions{},
	metav1.OwnerReference{}, metav1.ManagedFieldsEntry{},
	metav1.Time{}, metav1.MicroTime{}, metav1.Timestamp{}, metav1.Duration{}, metav1.FieldsV1{},
	metav1.LabelSelector{}, metav1.LabelSelectorRequirement{},
	// the specially encoded types of their own packages
	resource.Quantity{}, intstr.IntOrString{},
	runtime.RawExtension{}, runtime.Unknown{}, runtime.TypeMeta{},
}

// rootTypes returns roots as reflect types.
func rootTypes() []reflect.Type {
	types := make([]reflect.Type, len(roots))
	for i, r := range roots {
		types[i] = reflect.TypeOf(r)
	}
	return types
}
