package protobuf

import (
	"time"

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
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// The fixtures: one realistic object of every served kind, using only fields that exist in
// v1.36 (the descriptors' version) as well as in the k8s.io/api these tests import.

var (
	created = metav1.NewTime(time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC))
	later   = metav1.NewTime(time.Date(2026, 3, 14, 16, 0, 0, 0, time.UTC))
	micro   = metav1.NewMicroTime(time.Date(2026, 3, 14, 15, 9, 26, 535897000, time.UTC))
)

func meta(name, ns string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: ns, UID: "6f1e2c3a-0d4b-4c5e-9f8a-1b2c3d4e5f60",
		ResourceVersion: "12345", Generation: 3, CreationTimestamp: created,
		Labels:      map[string]string{"app": "web", "tier": "frontend", "": "empty-key"},
		Annotations: map[string]string{"kubernetes.io/description": "a <fixture> & more", "empty": ""},
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9f", UID: "0a1b2c3d",
			Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(false),
		}},
		Finalizers: []string{"example.com/cleanup"},
		ManagedFields: []metav1.ManagedFieldsEntry{{
			Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate,
			APIVersion: "v1", Time: &created, FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`),
		}},
	}
}

func quantity(s string) resource.Quantity { return resource.MustParse(s) }

func podSpec() corev1.PodSpec {
	return corev1.PodSpec{
		Volumes: []corev1.Volume{
			{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"},
				Items:                []corev1.KeyToPath{{Key: "app.yaml", Path: "app.yaml", Mode: ptr.To[int32](0o644)}},
				DefaultMode:          ptr.To[int32](0o644),
			}}},
			{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{
				Medium: corev1.StorageMediumMemory, SizeLimit: ptr.To(quantity("64Mi")),
			}}},
			{Name: "token", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
				Sources: []corev1.VolumeProjection{{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{
					ExpirationSeconds: ptr.To[int64](3607), Path: "token"}}},
			}}},
		},
		InitContainers: []corev1.Container{{Name: "init", Image: "busybox:1.36", Command: []string{"sh", "-c", "true"}}},
		Containers: []corev1.Container{{
			Name: "web", Image: "nginx:1.27", Args: []string{"-g", "daemon off;"},
			WorkingDir: "/srv",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
				{Name: "metrics", ContainerPort: 9090, HostPort: 0, Protocol: corev1.ProtocolUDP}},
			EnvFrom: []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "env"}, Optional: ptr.To(true)}}},
			Env: []corev1.EnvVar{
				{Name: "MODE", Value: "production"},
				{Name: "EMPTY"},
				{Name: "PASSWORD", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: "db"}, Key: "password"}}},
				{Name: "NODE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
					APIVersion: "v1", FieldPath: "spec.nodeName"}}},
			},
			Resources: corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{corev1.ResourceCPU: quantity("2"), corev1.ResourceMemory: quantity("1Gi")},
				Requests: corev1.ResourceList{corev1.ResourceCPU: quantity("250m"), corev1.ResourceMemory: quantity("512Mi")},
			},
			VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/web", ReadOnly: true}},
			LivenessProbe: &corev1.Probe{
				ProbeHandler:        corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
				InitialDelaySeconds: 5, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
			ReadinessProbe: &corev1.Probe{
				ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}},
			},
			Lifecycle:              &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"sleep", "5"}}}},
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy: corev1.PullIfNotPresent,
			SecurityContext: &corev1.SecurityContext{
				RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](1000), AllowPrivilegeEscalation: ptr.To(false),
				Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
			},
		}},
		RestartPolicy:                 corev1.RestartPolicyAlways,
		TerminationGracePeriodSeconds: ptr.To[int64](30),
		DNSPolicy:                     corev1.DNSClusterFirst,
		NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
		ServiceAccountName:            "web",
		NodeName:                      "node-1",
		SecurityContext: &corev1.PodSecurityContext{FSGroup: ptr.To[int64](2000),
			SupplementalGroups: []int64{3000, 4000}, RunAsGroup: ptr.To[int64](-1)},
		ImagePullSecrets: []corev1.LocalObjectReference{{Name: "registry"}},
		Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}}},
			}}},
		}},
		SchedulerName: "default-scheduler",
		Tolerations: []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists,
			Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)}},
		Priority:           ptr.To[int32](0),
		EnableServiceLinks: ptr.To(true),
		PreemptionPolicy:   ptr.To(corev1.PreemptLowerPriority),
	}
}

func pod() *corev1.Pod {
	p := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: meta("web-7d9f-abcde", "default"),
		Spec: podSpec(),
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: later},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}},
			HostIP: "10.0.0.1", PodIP: "10.244.1.7", PodIPs: []corev1.PodIP{{IP: "10.244.1.7"}},
			StartTime: &created, QOSClass: corev1.PodQOSBurstable,
			ContainerStatuses: []corev1.ContainerStatus{{
				Name: "web", Ready: true, RestartCount: 2, Image: "nginx:1.27", ImageID: "docker.io/library/nginx@sha256:abc",
				ContainerID: "containerd://123", Started: ptr.To(true),
				State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: later}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: -1, Reason: "Error", StartedAt: created, FinishedAt: later}},
			}},
		},
	}
	p.DeletionTimestamp = &later
	p.DeletionGracePeriodSeconds = ptr.To[int64](30)
	return p
}

// listItem is a pod as a list holds it: without kind and apiVersion, which a list item does
// not carry on the wire.
func listItem() corev1.Pod {
	p := pod()
	p.TypeMeta = metav1.TypeMeta{}
	return *p
}

func podTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: podSpec()}
}

// fixtures returns one object of every served kind, plus lists, Status and DeleteOptions.
func fixtures() map[string]runtime.Object {
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"db"}}}}
	return map[string]runtime.Object{
		"Pod": pod(),
		"PodMinimal": &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{Name: "x"}},
		"PodList": &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"},
			ListMeta: metav1.ListMeta{ResourceVersion: "99", Continue: "token", RemainingItemCount: ptr.To[int64](7)},
			Items:    []corev1.Pod{listItem(), {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}},
		"EmptyList": &corev1.ConfigMapList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMapList"}},
		"ConfigMap": &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: meta("cfg", "default"),
			Immutable: ptr.To(false), Data: map[string]string{"a": "b", "z": "", "app.yaml": "x: 1\n"},
			BinaryData: map[string][]byte{"bin": {0, 1, 2, 255}, "none": {}}},
		"Namespace": &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: "team-a", Labels: map[string]string{"kubernetes.io/metadata.name": "team-a"}},
			Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{corev1.FinalizerKubernetes}},
			Status:     corev1.NamespaceStatus{Phase: corev1.NamespaceActive}},
		"Node": &corev1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: meta("node-1", ""),
			Spec: corev1.NodeSpec{PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24"}, ProviderID: "kind://node-1",
				Taints: []corev1.Taint{{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule, TimeAdded: &created}}},
			Status: corev1.NodeStatus{
				Capacity:    corev1.ResourceList{"cpu": quantity("8"), "memory": quantity("32Gi"), "pods": quantity("110"), "ephemeral-storage": quantity("100G")},
				Allocatable: corev1.ResourceList{"cpu": quantity("7800m"), "memory": quantity("31Gi")},
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: later,
					LastTransitionTime: created, Reason: "KubeletReady", Message: "kubelet is posting ready status"}},
				Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}, {Type: corev1.NodeHostName, Address: "node-1"}},
				DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
				NodeInfo: corev1.NodeSystemInfo{MachineID: "m", KernelVersion: "6.8", OSImage: "Debian", ContainerRuntimeVersion: "containerd://2.0",
					KubeletVersion: "v1.36.3", OperatingSystem: "linux", Architecture: "amd64"},
				Images: []corev1.ContainerImage{{Names: []string{"nginx:1.27"}, SizeBytes: 73_000_000}},
			}},
		"Service": &corev1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: meta("web", "default"),
			Spec: corev1.ServiceSpec{
				Ports: []corev1.ServicePort{{Name: "http", Protocol: corev1.ProtocolTCP, Port: 80, TargetPort: intstr.FromString("http")},
					{Name: "https", Protocol: corev1.ProtocolTCP, Port: 443, TargetPort: intstr.FromInt32(8443), NodePort: 30443}},
				Selector: map[string]string{"app": "web"}, ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"},
				Type: corev1.ServiceTypeNodePort, SessionAffinity: corev1.ServiceAffinityNone,
				IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol}, IPFamilyPolicy: ptr.To(corev1.IPFamilyPolicySingleStack),
				ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyCluster, InternalTrafficPolicy: ptr.To(corev1.ServiceInternalTrafficPolicyCluster),
			},
			Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "1.2.3.4"}}}}},
		//lint:ignore SA1019 Endpoints is deprecated upstream but still a served kind
		"Endpoints": &corev1.Endpoints{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Endpoints"}, ObjectMeta: meta("web", "default"),
			//lint:ignore SA1019 as above
			Subsets: []corev1.EndpointSubset{{
				Addresses: []corev1.EndpointAddress{{IP: "10.244.1.7", NodeName: ptr.To("node-1"),
					TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-7d9f-abcde", UID: "u"}}},
				NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.244.1.8"}},
				Ports:             []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}},
			}}},
		"Secret": &corev1.Secret{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: meta("db", "default"),
			Type: corev1.SecretTypeOpaque, Data: map[string][]byte{"password": []byte("s3cr3t"), "empty": {}},
			StringData: map[string]string{"note": "write-only"}},
		"ServiceAccount": &corev1.ServiceAccount{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: meta("web", "default"),
			Secrets: []corev1.ObjectReference{{Name: "web-token"}}, ImagePullSecrets: []corev1.LocalObjectReference{{Name: "registry"}},
			AutomountServiceAccountToken: ptr.To(false)},
		"Event": &corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"}, ObjectMeta: meta("web.1", "default"),
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web", UID: "u", APIVersion: "v1", ResourceVersion: "1", FieldPath: "spec.containers{web}"},
			Reason:         "Pulled", Message: "Successfully pulled image", Source: corev1.EventSource{Component: "kubelet", Host: "node-1"},
			FirstTimestamp: created, LastTimestamp: later, Count: 3, Type: corev1.EventTypeNormal, EventTime: micro,
			Series: &corev1.EventSeries{Count: 2, LastObservedTime: micro}, Action: "Pull", ReportingController: "kubelet", ReportingInstance: "node-1"},
		"PersistentVolumeClaim": &corev1.PersistentVolumeClaim{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}, ObjectMeta: meta("data", "default"),
			Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": quantity("10Gi")}},
				StorageClassName: ptr.To("standard"), VolumeMode: ptr.To(corev1.PersistentVolumeFilesystem), VolumeName: "pv-1"},
			Status: corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound, Capacity: corev1.ResourceList{"storage": quantity("10Gi")}}},
		"Deployment": &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: meta("web", "default"),
			Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3), Selector: selector, Template: podTemplate(),
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{
					MaxUnavailable: ptr.To(intstr.FromString("25%")), MaxSurge: ptr.To(intstr.FromInt32(1))}},
				RevisionHistoryLimit: ptr.To[int32](10), ProgressDeadlineSeconds: ptr.To[int32](600)},
			Status: appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
				Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, LastUpdateTime: later, LastTransitionTime: created, Reason: "MinimumReplicasAvailable"}}}},
		"ReplicaSet": &appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}, ObjectMeta: meta("web-7d9f", "default"),
			Spec:   appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](0), Selector: selector, Template: podTemplate()},
			Status: appsv1.ReplicaSetStatus{Replicas: 0, ObservedGeneration: 1}},
		"StatefulSet": &appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"}, ObjectMeta: meta("db", "default"),
			Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](2), Selector: selector, Template: podTemplate(), ServiceName: "db",
				PodManagementPolicy: appsv1.ParallelPodManagement,
				UpdateStrategy:      appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr.To[int32](0)}},
				VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"},
					Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}}}}},
			Status: appsv1.StatefulSetStatus{Replicas: 2, CurrentRevision: "db-1", UpdateRevision: "db-1", CollisionCount: ptr.To[int32](0)}},
		"DaemonSet": &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}, ObjectMeta: meta("agent", "kube-system"),
			Spec: appsv1.DaemonSetSpec{Selector: selector, Template: podTemplate(),
				UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType,
					RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: ptr.To(intstr.FromInt32(1)), MaxSurge: ptr.To(intstr.FromInt32(0))}}},
			Status: appsv1.DaemonSetStatus{CurrentNumberScheduled: 3, DesiredNumberScheduled: 3, NumberReady: 3}},
		"Job": &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: meta("migrate", "default"),
			Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](1), Completions: ptr.To[int32](1), BackoffLimit: ptr.To[int32](6),
				ActiveDeadlineSeconds: ptr.To[int64](600), Template: podTemplate(), CompletionMode: ptr.To(batchv1.NonIndexedCompletion), Suspend: ptr.To(false)},
			Status: batchv1.JobStatus{StartTime: &created, CompletionTime: &later, Succeeded: 1,
				Conditions: []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastProbeTime: later, LastTransitionTime: later}}}},
		"CronJob": &batchv1.CronJob{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"}, ObjectMeta: meta("nightly", "default"),
			Spec: batchv1.CronJobSpec{Schedule: "0 3 * * *", TimeZone: ptr.To("Etc/UTC"), ConcurrencyPolicy: batchv1.ForbidConcurrent,
				JobTemplate:                batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: podTemplate()}},
				SuccessfulJobsHistoryLimit: ptr.To[int32](3), FailedJobsHistoryLimit: ptr.To[int32](1)},
			Status: batchv1.CronJobStatus{Active: []corev1.ObjectReference{{Kind: "Job", Name: "nightly-1"}}, LastScheduleTime: &created}},
		"Lease": &coordinationv1.Lease{TypeMeta: metav1.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"}, ObjectMeta: meta("node-1", "kube-node-lease"),
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("node-1"), LeaseDurationSeconds: ptr.To[int32](40),
				AcquireTime: &micro, RenewTime: &micro, LeaseTransitions: ptr.To[int32](0)}},
		"EventsV1Event": &eventsv1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "events.k8s.io/v1", Kind: "Event"}, ObjectMeta: meta("web.2", "default"),
			EventTime: micro, Series: &eventsv1.EventSeries{Count: 4, LastObservedTime: micro}, ReportingController: "kubelet",
			ReportingInstance: "node-1", Action: "Pull", Reason: "Pulled", Regarding: corev1.ObjectReference{Kind: "Pod", Name: "web"},
			Related: &corev1.ObjectReference{Kind: "Node", Name: "node-1"}, Note: "pulled", Type: "Normal",
			DeprecatedFirstTimestamp: created, DeprecatedCount: 1},
		"EndpointSlice": &discoveryv1.EndpointSlice{TypeMeta: metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"}, ObjectMeta: meta("web-abc", "default"),
			AddressType: discoveryv1.AddressTypeIPv4,
			Endpoints: []discoveryv1.Endpoint{{Addresses: []string{"10.244.1.7"},
				Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)},
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Name: "web"}, NodeName: ptr.To("node-1"), Zone: ptr.To("a"),
				DeprecatedTopology: map[string]string{"kubernetes.io/hostname": "node-1"}}},
			Ports: []discoveryv1.EndpointPort{{Name: ptr.To("http"), Protocol: ptr.To(corev1.ProtocolTCP), Port: ptr.To[int32](8080), AppProtocol: ptr.To("http")}}},
		"Scale": &autoscalingv1.Scale{TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}, ObjectMeta: meta("web", "default"),
			Spec: autoscalingv1.ScaleSpec{Replicas: 5}, Status: autoscalingv1.ScaleStatus{Replicas: 3, Selector: "app=web"}},
		"Status": &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, ListMeta: metav1.ListMeta{},
			Status: metav1.StatusFailure, Message: `pods "x" is invalid`, Reason: metav1.StatusReasonInvalid, Code: 422,
			Details: &metav1.StatusDetails{Name: "x", Kind: "pods", UID: "u", RetryAfterSeconds: 0,
				Causes: []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueRequired, Message: "Required value", Field: "spec.containers"}}}},
		"DeleteOptions": &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"},
			GracePeriodSeconds: ptr.To[int64](0), Preconditions: &metav1.Preconditions{UID: ptr.To(k8stypes.UID("u")), ResourceVersion: ptr.To("5")},
			PropagationPolicy: ptr.To(metav1.DeletePropagationForeground), DryRun: []string{"All"}},
	}
}
