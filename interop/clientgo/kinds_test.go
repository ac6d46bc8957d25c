//lint:file-ignore SA1019 core/v1 Endpoints is deprecated but still served by v1.36, and by the simulator: the test drives it on purpose.

package clientgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// The served kinds through client-go's typed clients: each is created, read, updated and
// watched, and what client-go sent comes back whole.

func ptr[T any](v T) *T { return &v }

// podSpec is a realistic pod spec: ports, env, resources, probes, volumes, tolerations,
// affinity and a security context.
func podSpec() corev1.PodSpec {
	return corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "init", Image: "busybox:1.36", Command: []string{"sh", "-c", "true"}}},
		Containers: []corev1.Container{{
			Name: "web", Image: "nginx:1.27",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
			Env: []corev1.EnvVar{{Name: "MODE", Value: "prod"}, {Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{
				FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")},
			},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
				Path: "/", Port: intstr.FromString("http")}}, PeriodSeconds: 5},
			VolumeMounts:    []corev1.VolumeMount{{Name: "cache", MountPath: "/cache"}},
			SecurityContext: &corev1.SecurityContext{RunAsNonRoot: ptr(true), AllowPrivilegeEscalation: ptr(false)},
		}},
		Volumes: []corev1.Volume{{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		// What the admission chain would add is sent already (no token volume; both
		// default tolerations), so that every list comes back as long as it went.
		AutomountServiceAccountToken: ptr(false),
		Tolerations: []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "web", Effect: corev1.TaintEffectNoSchedule},
			{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
			{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))}},
		Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
				{Key: "kubernetes.io/os", Operator: corev1.NodeSelectorOpIn, Values: []string{"linux"}}}}}}}},
	}
}

func template() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: podSpec()}
}

var selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}

// subset reports where got lacks something of want (both as JSON trees).
func subset(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		for k, v := range w {
			if miss := subset(path+"."+k, v, g[k]); miss != "" {
				return miss
			}
		}
	case []any:
		g, _ := got.([]any)
		if len(g) != len(w) {
			return fmt.Sprintf("%s: %d elements sent, %d back", path, len(w), len(g))
		}
		for i := range w {
			if miss := subset(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); miss != "" {
				return miss
			}
		}
	default:
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("%s: sent %v, back %v", path, want, got)
		}
	}
	return ""
}

func tree(t *testing.T, obj runtime.Object) map[string]any {
	t.Helper()
	data, err := json.Marshal(obj)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	md, _ := m["metadata"].(map[string]any)
	delete(md, "creationTimestamp") // null when sent, set by the server
	return m
}

func meta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}}
}

// TestInterop_EveryKindThroughTypedClients checks that client-go's typed clients create, get,
// update and watch every served kind, and that every field they send comes back, in JSON and
// in protobuf (where the watch goes through client-go's protobuf decoder).
func TestInterop_EveryKindThroughTypedClients(t *testing.T) {
	for _, tc := range []struct{ name, contentType string }{
		{"json", "application/json"},
		{"protobuf (client-go's default)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) { everyKind(t, tc.contentType) })
	}
}

func everyKind(t *testing.T, contentType string) {
	env := wiretest.Start(t, apiserver.Options{})
	cs := env.ClientsetWith(t, contentType)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	now := metav1.NewMicroTime(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))

	run := func(t *testing.T, name string, obj runtime.Object,
		create func(runtime.Object) (runtime.Object, error),
		get func() (runtime.Object, error),
		update func(runtime.Object) (runtime.Object, error),
		watchFn func() (watch.Interface, error)) {
		t.Run(name, func(t *testing.T) {
			w, err := watchFn()
			require.NoError(t, err)
			defer w.Stop()
			sent := tree(t, obj)
			created, err := create(obj)
			require.NoError(t, err)
			if miss := subset(name, sent, tree(t, created)); miss != "" {
				t.Errorf("create lost a field: %s", miss)
			}
			got, err := get()
			require.NoError(t, err)
			if miss := subset(name, sent, tree(t, got)); miss != "" {
				t.Errorf("get lost a field: %s", miss)
			}
			got.(metav1.Object).SetLabels(map[string]string{"app": "web", "changed": "yes"})
			updated, err := update(got)
			require.NoError(t, err)
			assert.Equal(t, "yes", updated.(metav1.Object).GetLabels()["changed"])
			delete(sent["metadata"].(map[string]any), "labels")
			if miss := subset(name, sent, tree(t, updated)); miss != "" {
				t.Errorf("update lost a field: %s", miss)
			}
			for _, want := range []watch.EventType{watch.Added, watch.Modified} {
				select {
				case ev := <-w.ResultChan():
					assert.Equal(t, want, ev.Type)
				case <-ctx.Done():
					t.Fatalf("no %s event", want)
				}
			}
		})
	}
	// One block per kind: the typed client of each group-version.
	{
		c := cs.CoreV1().Pods("default")
		run(t, "pods", &corev1.Pod{ObjectMeta: meta("p"), Spec: podSpec()},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.Pod), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "p", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.Pod), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().ConfigMaps("default")
		run(t, "configmaps", &corev1.ConfigMap{ObjectMeta: meta("cm"), Data: map[string]string{"a": "b"}, BinaryData: map[string][]byte{"bin": {0, 1, 2}}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.ConfigMap), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "cm", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.ConfigMap), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().Secrets("default")
		run(t, "secrets", &corev1.Secret{ObjectMeta: meta("s"), Type: corev1.SecretTypeOpaque, Data: map[string][]byte{"k": []byte("v")}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.Secret), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "s", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.Secret), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().Services("default")
		run(t, "services", &corev1.Service{ObjectMeta: meta("svc"), Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}}}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.Service), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "svc", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.Service), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().ServiceAccounts("default")
		run(t, "serviceaccounts", &corev1.ServiceAccount{ObjectMeta: meta("sa"), AutomountServiceAccountToken: ptr(false)},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.ServiceAccount), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "sa", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.ServiceAccount), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().Endpoints("default")
		run(t, "endpoints", &corev1.Endpoints{ObjectMeta: meta("ep"), Subsets: []corev1.EndpointSubset{{
			Addresses: []corev1.EndpointAddress{{IP: "10.244.0.5"}}, Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}}}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.Endpoints), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "ep", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.Endpoints), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().Events("default")
		run(t, "events", &corev1.Event{ObjectMeta: meta("ev"), InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p", Namespace: "default"},
			Reason: "Started", Message: "started", Type: corev1.EventTypeNormal, Source: corev1.EventSource{Component: "kubelet"}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.Event), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "ev", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.Event), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().PersistentVolumeClaims("default")
		run(t, "persistentvolumeclaims", &corev1.PersistentVolumeClaim{ObjectMeta: meta("pvc"), Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}}}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.PersistentVolumeClaim), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "pvc", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.PersistentVolumeClaim), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoreV1().Nodes()
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{"app": "web"}}, Spec: corev1.NodeSpec{PodCIDR: "10.244.0.0/24"}}
		run(t, "nodes", n,
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*corev1.Node), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "node-a", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*corev1.Node), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.AppsV1().Deployments("default")
		run(t, "deployments", &appsv1.Deployment{ObjectMeta: meta("d"), Spec: appsv1.DeploymentSpec{Replicas: ptr(int32(3)), Selector: selector, Template: template(),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: ptr(intstr.FromInt32(1))}}}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*appsv1.Deployment), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "d", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*appsv1.Deployment), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.AppsV1().ReplicaSets("default")
		run(t, "replicasets", &appsv1.ReplicaSet{ObjectMeta: meta("rs"), Spec: appsv1.ReplicaSetSpec{Replicas: ptr(int32(2)), Selector: selector, Template: template()}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*appsv1.ReplicaSet), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "rs", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*appsv1.ReplicaSet), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.AppsV1().StatefulSets("default")
		run(t, "statefulsets", &appsv1.StatefulSet{ObjectMeta: meta("sts"), Spec: appsv1.StatefulSetSpec{Replicas: ptr(int32(1)), Selector: selector, Template: template(), ServiceName: "web"}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*appsv1.StatefulSet), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "sts", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*appsv1.StatefulSet), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.AppsV1().DaemonSets("default")
		run(t, "daemonsets", &appsv1.DaemonSet{ObjectMeta: meta("ds"), Spec: appsv1.DaemonSetSpec{Selector: selector, Template: template()}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*appsv1.DaemonSet), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "ds", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*appsv1.DaemonSet), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	jobTemplate := template()
	jobTemplate.Spec.RestartPolicy = corev1.RestartPolicyNever
	{
		c := cs.BatchV1().Jobs("default")
		run(t, "jobs", &batchv1.Job{ObjectMeta: meta("job"), Spec: batchv1.JobSpec{BackoffLimit: ptr(int32(2)), Template: jobTemplate}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*batchv1.Job), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "job", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*batchv1.Job), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.BatchV1().CronJobs("default")
		run(t, "cronjobs", &batchv1.CronJob{ObjectMeta: meta("cj"), Spec: batchv1.CronJobSpec{Schedule: "*/5 * * * *",
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: jobTemplate}}}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*batchv1.CronJob), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "cj", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*batchv1.CronJob), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.CoordinationV1().Leases("default")
		run(t, "leases", &coordinationv1.Lease{ObjectMeta: meta("lease"), Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr("me"),
			LeaseDurationSeconds: ptr(int32(15)), RenewTime: &now}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*coordinationv1.Lease), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "lease", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*coordinationv1.Lease), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	{
		c := cs.EventsV1().Events("default")
		run(t, "events.k8s.io", &eventsv1.Event{ObjectMeta: meta("ev2"), EventTime: now, ReportingController: "example.com/ctl",
			ReportingInstance: "ctl-1", Action: "Reconcile", Reason: "Synced", Type: "Normal", Note: "in sync",
			Regarding: corev1.ObjectReference{Kind: "Deployment", Name: "d", Namespace: "default"}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*eventsv1.Event), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "ev2", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*eventsv1.Event), metav1.UpdateOptions{})
			},
			// The core Event "ev" above is one of these Events too (one storage, two views):
			// watch this one alone.
			func() (watch.Interface, error) {
				return c.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=ev2"})
			})
	}
	{
		c := cs.DiscoveryV1().EndpointSlices("default")
		run(t, "endpointslices", &discoveryv1.EndpointSlice{ObjectMeta: meta("web-abc"), AddressType: discoveryv1.AddressTypeIPv4,
			Endpoints: []discoveryv1.Endpoint{{Addresses: []string{"10.244.0.5"}, Conditions: discoveryv1.EndpointConditions{Ready: ptr(true)}}},
			Ports:     []discoveryv1.EndpointPort{{Name: ptr("http"), Port: ptr(int32(8080))}}},
			func(o runtime.Object) (runtime.Object, error) {
				return c.Create(ctx, o.(*discoveryv1.EndpointSlice), metav1.CreateOptions{})
			},
			func() (runtime.Object, error) { return c.Get(ctx, "web-abc", metav1.GetOptions{}) },
			func(o runtime.Object) (runtime.Object, error) {
				return c.Update(ctx, o.(*discoveryv1.EndpointSlice), metav1.UpdateOptions{})
			},
			func() (watch.Interface, error) { return c.Watch(ctx, metav1.ListOptions{}) })
	}
	// The real server warns on every request for a deprecated kind (v1 Endpoints); only
	// other warnings (an unknown field) would say client-go sent what we do not know.
	var others []string
	for _, w := range env.Warnings() {
		if !strings.Contains(w, " is deprecated in v") {
			others = append(others, w)
		}
	}
	assert.Empty(t, others, "client-go's typed objects carry no field the server does not know")
}

// TestInterop_DeploymentInformerSyncs checks that a client-go informer for deployments
// lists and watches them, and that the scale subresource moves spec.replicas.
func TestInterop_DeploymentInformerSyncs(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	cs := env.ClientsetWith(t, "") // client-go's default: protobuf lists, watches and writes
	ctx := context.Background()
	for i := range 3 {
		_, err := cs.AppsV1().Deployments("default").Create(ctx, &appsv1.Deployment{ObjectMeta: meta(fmt.Sprintf("d%d", i)),
			Spec: appsv1.DeploymentSpec{Selector: selector, Template: template()}}, metav1.CreateOptions{})
		require.NoError(t, err)
	}
	f := informers.NewSharedInformerFactory(cs, 0)
	inf := f.Apps().V1().Deployments()
	informer := inf.Informer()
	startFactory(t, f)
	waitSynced(t, informer)
	list, err := inf.Lister().Deployments("default").List(labels.Everything())
	require.NoError(t, err)
	assert.Len(t, list, 3)
	for _, d := range list {
		assert.Equal(t, int32(1), *d.Spec.Replicas, "defaulted")
		assert.Equal(t, "nginx:1.27", d.Spec.Template.Spec.Containers[0].Image)
	}

	sc, err := cs.AppsV1().Deployments("default").GetScale(ctx, "d0", metav1.GetOptions{})
	require.NoError(t, err)
	sc.Spec.Replicas = 4
	_, err = cs.AppsV1().Deployments("default").UpdateScale(ctx, "d0", sc, metav1.UpdateOptions{})
	require.NoError(t, err)
	waitFor(t, "the informer to see the scale", func() bool {
		d, err := inf.Lister().Deployments("default").Get("d0")
		return err == nil && *d.Spec.Replicas == 4 && d.Generation == 2
	})
}
