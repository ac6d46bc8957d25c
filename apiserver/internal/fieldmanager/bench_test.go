package fieldmanager

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

// fullDeployment is a Deployment as a real one looks after defaulting: two containers
// with ports, env, probes, resources and mounts, volumes, strategy, status.
const fullDeployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default",
 "labels":{"app":"web","tier":"frontend","team":"a"},"annotations":{"deployment.kubernetes.io/revision":"3","owner":"team-a"}},
 "spec":{"replicas":3,"revisionHistoryLimit":10,"progressDeadlineSeconds":600,
  "selector":{"matchLabels":{"app":"web"}},
  "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},
  "template":{"metadata":{"labels":{"app":"web","tier":"frontend"},"annotations":{"prometheus.io/scrape":"true"}},
   "spec":{"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler",
    "securityContext":{"runAsNonRoot":true,"fsGroup":2000},
    "containers":[
     {"name":"web","image":"nginx:1.27","imagePullPolicy":"IfNotPresent",
      "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},{"name":"metrics","containerPort":9090,"protocol":"TCP"}],
      "env":[{"name":"MODE","value":"prod"},{"name":"LOG","value":"info"},{"name":"POD","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],
      "resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"cpu":"1","memory":"512Mi"}},
      "readinessProbe":{"httpGet":{"path":"/ready","port":8080,"scheme":"HTTP"},"periodSeconds":5,"timeoutSeconds":1,"successThreshold":1,"failureThreshold":3},
      "livenessProbe":{"httpGet":{"path":"/live","port":8080,"scheme":"HTTP"},"periodSeconds":10,"timeoutSeconds":1,"successThreshold":1,"failureThreshold":3},
      "volumeMounts":[{"name":"config","mountPath":"/etc/web"},{"name":"cache","mountPath":"/cache"}],
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"},
     {"name":"sidecar","image":"envoy:1.30","imagePullPolicy":"IfNotPresent","args":["--config","/etc/envoy/envoy.yaml"],
      "ports":[{"name":"admin","containerPort":9901,"protocol":"TCP"}],
      "resources":{"requests":{"cpu":"50m","memory":"64Mi"}},
      "volumeMounts":[{"name":"config","mountPath":"/etc/envoy"}],
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
    "volumes":[{"name":"config","configMap":{"name":"web-config","defaultMode":420}},{"name":"cache","emptyDir":{}}]}}},
 "status":{"observedGeneration":3,"replicas":3,"updatedReplicas":3,"readyReplicas":3,"availableReplicas":3,
  "conditions":[{"type":"Available","status":"True","reason":"MinimumReplicasAvailable","message":"ok","lastUpdateTime":"2026-01-02T03:04:05Z","lastTransitionTime":"2026-01-02T03:04:05Z"},
   {"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable","message":"ok","lastUpdateTime":"2026-01-02T03:04:05Z","lastTransitionTime":"2026-01-02T03:04:05Z"}]}}`

// threeManagers builds the live object: the whole Deployment applied by "platform", the
// replicas taken by "autoscaler", the sidecar's image by "injector".
func threeManagers(b testing.TB) (*FieldManager, *api.Unstructured, *api.Unstructured) {
	f := deploymentManager(b)
	platform := obj(b, fullDeployment)
	delete(platform.Object, "status")
	live, err := f.Apply(nil, platform, "platform", "", false, at(1))
	require.NoError(b, err)
	live, err = f.Apply(roundTrip(b, live), obj(b, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":5}}`), "autoscaler", "", true, at(2))
	require.NoError(b, err)
	live, err = f.Apply(roundTrip(b, live), obj(b, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},
		"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"envoy:1.31"}]}}}}`), "injector", "", true, at(3))
	require.NoError(b, err)
	live = roundTrip(b, live)
	require.Len(b, entriesOf(b, live), 3)
	platform.Object["metadata"].(map[string]any)["labels"].(map[string]any)["team"] = "b"
	return f, live, platform
}

// BenchmarkCh01_SSA_ApplyFullDeployment: "platform" re-applies its whole configuration with
// one label changed, on the object three managers share.
func BenchmarkCh01_SSA_ApplyFullDeployment(b *testing.B) {
	f, live, cfg := threeManagers(b)
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Apply(live, cfg, "platform", "", true, at(4)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCh01_SSA_UpdateFullDeployment: the same change as an update of the whole object.
func BenchmarkCh01_SSA_UpdateFullDeployment(b *testing.B) {
	f, live, _ := threeManagers(b)
	next := setLabel(&testing.T{}, live, "team", "b")
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Update writes managedFields into its argument; give it the same input each time.
		in := &api.Unstructured{Object: shallowWithMeta(next.Object)}
		if _, err := f.Update(live, in, "controller", "", at(4)); err != nil {
			b.Fatal(err)
		}
	}
}

// shallowWithMeta copies the top level and metadata, the only parts Update writes to.
func shallowWithMeta(o map[string]any) map[string]any {
	out := make(map[string]any, len(o))
	for k, v := range o {
		out[k] = v
	}
	md := map[string]any{}
	for k, v := range o["metadata"].(map[string]any) {
		md[k] = v
	}
	out["metadata"] = md
	return out
}

// cpuPerOp reports the process's CPU time per operation ("cpu-ns/op") beside the wall
// clock, which a loaded machine inflates; call it as defer cpuPerOp(b)().
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCh01_SSA_ApplyDroppingAField: "platform" re-applies without the team label, so
// the prune runs (the field it owned alone goes).
func BenchmarkCh01_SSA_ApplyDroppingAField(b *testing.B) {
	f, live, cfg := threeManagers(b)
	delete(cfg.Object["metadata"].(map[string]any)["labels"].(map[string]any), "team")
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Apply(live, cfg, "platform", "", true, at(4)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCh01_SSA_CreateConfigMap: the ownership step of a ConfigMap create, as a
// client-go program's create reaches it (no managedFields sent, nothing live yet).
func BenchmarkCh01_SSA_CreateConfigMap(b *testing.B) {
	gvk := api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	typ, err := typed.ForBuiltin(gvk, "")
	require.NoError(b, err)
	f := New(typ, gvk)
	body := obj(b, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-1","namespace":"bench","labels":{"app":"bench"}},"data":{"key":"value-1"}}`)
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := &api.Unstructured{Object: shallowWithMeta(body.Object)}
		if _, err := f.Update(nil, in, "bench.test", "", at(4)); err != nil {
			b.Fatal(err)
		}
	}
}
