package main

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
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
	// apps/v1
	appsv1.Deployment{}, appsv1.DeploymentList{},
	appsv1.ReplicaSet{}, appsv1.ReplicaSetList{},
	appsv1.StatefulSet{}, appsv1.StatefulSetList{},
	appsv1.DaemonSet{}, appsv1.DaemonSetList{},
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
