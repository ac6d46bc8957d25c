package defaulting_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/informer-lab/informer-lab/apiserver/internal/defaulting"
)

// A minimal Pod, defaulted as kube-apiserver v1.36 defaults it on create.
func ExampleDefault() {
	pod := map[string]any{
		"apiVersion": "v1",
		"kind":       "Pod",
		"metadata":   map[string]any{"name": "web"},
		"spec": map[string]any{
			"containers": []any{map[string]any{"name": "app", "image": "nginx"}},
		},
	}
	defaulting.Default("", "v1", "Pod", pod)
	out, _ := json.MarshalIndent(pod, "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "apiVersion": "v1",
	//   "kind": "Pod",
	//   "metadata": {
	//     "name": "web"
	//   },
	//   "spec": {
	//     "containers": [
	//       {
	//         "image": "nginx",
	//         "imagePullPolicy": "Always",
	//         "name": "app",
	//         "resources": {},
	//         "terminationMessagePath": "/dev/termination-log",
	//         "terminationMessagePolicy": "File"
	//       }
	//     ],
	//     "dnsPolicy": "ClusterFirst",
	//     "enableServiceLinks": true,
	//     "restartPolicy": "Always",
	//     "schedulerName": "default-scheduler",
	//     "securityContext": {},
	//     "terminationGracePeriodSeconds": 30
	//   }
	// }
}

// The table chapter 01 prints, here for one kind.
func ExampleDefaults() {
	for _, d := range defaulting.Defaults() {
		if d.Kind == "Deployment" && !strings.Contains(d.Path, "template") {
			fmt.Println(d)
		}
	}
	// Output:
	// Deployment.apps spec.replicas = 1
	// Deployment.apps spec.strategy.type = RollingUpdate
	// Deployment.apps spec.strategy.rollingUpdate.maxUnavailable = 25% (type RollingUpdate)
	// Deployment.apps spec.strategy.rollingUpdate.maxSurge = 25% (type RollingUpdate)
	// Deployment.apps spec.revisionHistoryLimit = 10
	// Deployment.apps spec.progressDeadlineSeconds = 600
}
