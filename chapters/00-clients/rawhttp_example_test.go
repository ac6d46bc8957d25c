package ch00_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/apiserver"
)

// rawDo sends one request with net/http alone and prints both sides of the exchange, the
// way `curl -v` shows them: request line and headers with ">", status and headers with "<",
// then the body.
func rawDo(hc *http.Client, base, method, path, body string, header ...string) string {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	check(err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	fmt.Printf("> %s %s HTTP/1.1\n", method, path)
	for i := 0; i+1 < len(header); i += 2 {
		fmt.Printf("> %s: %s\n", header[i], header[i+1])
	}
	if body != "" {
		fmt.Printf(">\n> %s\n", normalise(body))
	}
	resp, err := hc.Do(req)
	check(err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	check(err)
	fmt.Printf("< HTTP/1.1 %s\n< Content-Type: %s\n<\n< %s\n", resp.Status, resp.Header.Get("Content-Type"), normalise(string(data)))
	return string(data)
}

// Example_rawHTTP is way 1 of "list pods, then update one": nothing but net/http. A LIST is
// GET on the collection; an update is PUT of the whole object (as listed, plus the change) to its own URL, carrying the
// resourceVersion it was read at (optimistic concurrency, P2). The answer carries the new
// resourceVersion, 7: one more than the newest write before it.
func Example_rawHTTP() {
	srv, cfg := startLab(apiserver.Options{})
	defer srv.Close()
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()

	list := rawDo(hc, cfg.Host, "GET", "/api/v1/namespaces/demo/pods", "", "Accept", "application/json")
	fmt.Println()
	// PUT sends the whole object back, as read, with the one change: a pod's spec may not
	// lose what the server (its admission plugins) added to it.
	var pods struct{ Items []map[string]any }
	check(json.Unmarshal([]byte(list), &pods))
	pod := pods.Items[0]
	meta := pod["metadata"].(map[string]any)
	meta["labels"].(map[string]any)["tier"] = "frontend"
	delete(meta, "managedFields") // a PUT without them keeps the stored ones
	pod["apiVersion"], pod["kind"] = "v1", "Pod"
	body, err := json.Marshal(pod)
	check(err)
	rawDo(hc, cfg.Host, "PUT", "/api/v1/namespaces/demo/pods/web-1", string(body), "Content-Type", "application/json")
	// Output:
	// > GET /api/v1/namespaces/demo/pods HTTP/1.1
	// > Accept: application/json
	// < HTTP/1.1 200 OK
	// < Content-Type: application/json
	// <
	// < {"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"6"},"items":[{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"demo","uid":"…","resourceVersion":"5","generation":1,"creationTimestamp":"…","labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","imagePullPolicy":"IfNotPresent","name":"web","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}},{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-2","namespace":"demo","uid":"…","resourceVersion":"6","generation":1,"creationTimestamp":"…","labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","imagePullPolicy":"IfNotPresent","name":"web","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}]}
	//
	// > PUT /api/v1/namespaces/demo/pods/web-1 HTTP/1.1
	// > Content-Type: application/json
	// >
	// > {"apiVersion":"v1","kind":"Pod","metadata":{"creationTimestamp":"…","generation":1,"labels":{"app":"web","tier":"frontend"},"name":"web-1","namespace":"demo","resourceVersion":"5","uid":"…"},"spec":{"containers":[{"image":"nginx:1.27","imagePullPolicy":"IfNotPresent","name":"web","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}
	// < HTTP/1.1 200 OK
	// < Content-Type: application/json
	// <
	// < {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-1","namespace":"demo","uid":"…","resourceVersion":"7","generation":1,"creationTimestamp":"…","labels":{"app":"web","tier":"frontend"}},"spec":{"containers":[{"image":"nginx:1.27","imagePullPolicy":"IfNotPresent","name":"web","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}
}
