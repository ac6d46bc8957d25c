package ch01_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/internal/trace"
)

// Example_resourceVersionIsOneCounter: a pod, a configmap, a pod update. Every write, of any
// kind, takes the next revision. The configmap list reports the store revision at read time
// (6, the pod update), which is newer than its only item (5). The server starts at 3: it
// created default, kube-system and kube-public.
func Example_resourceVersionIsOneCounter() {
	l := newLab(apiserver.Options{})
	defer l.close()
	l.curl("POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"web"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`)
	l.curl("POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"cfg"},"data":{"k":"v"}}`)
	l.curlH("PATCH", "/api/v1/namespaces/default/pods/web", "application/merge-patch+json", `{"metadata":{"labels":{"tier":"front"}}}`)
	l.curl("GET", "/api/v1/namespaces/default/configmaps", "")
	// Output:
	// $ curl -X POST '/api/v1/namespaces/default/pods' -H 'Content-Type: application/json' -d '{"metadata":{"name":"web"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}'
	// 201 Created
	// {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","uid":"…","resourceVersion":"4","generation":1,"creationTimestamp":"…","managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}},"manager":"Go-http-client","operation":"Update","time":"…"}]},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}
	// $ curl -X POST '/api/v1/namespaces/default/configmaps' -H 'Content-Type: application/json' -d '{"metadata":{"name":"cfg"},"data":{"k":"v"}}'
	// 201 Created
	// {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cfg","namespace":"default","uid":"…","resourceVersion":"5","creationTimestamp":"…","managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:k":{}}},"manager":"Go-http-client","operation":"Update","time":"…"}]},"data":{"k":"v"}}
	// $ curl -X PATCH '/api/v1/namespaces/default/pods/web' -H 'Content-Type: application/merge-patch+json' -d '{"metadata":{"labels":{"tier":"front"}}}'
	// 200 OK
	// {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","uid":"…","resourceVersion":"6","generation":1,"creationTimestamp":"…","labels":{"tier":"front"},"managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:tier":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}},"manager":"Go-http-client","operation":"Update","time":"…"}]},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}
	// $ curl -X GET '/api/v1/namespaces/default/configmaps'
	// 200 OK
	// {"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"6"},"items":[{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cfg","namespace":"default","uid":"…","resourceVersion":"5","creationTimestamp":"…","managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:k":{}}},"manager":"Go-http-client","operation":"Update","time":"…"}]},"data":{"k":"v"}}]}
}

// Example_listThenWatch is the informer's contract (W11): LIST, then WATCH from the list's
// resourceVersion. The watch is one chunked response, one JSON event per line, flushed as it
// happens; it sends exactly the changes after the list, nothing before.
func Example_listThenWatch() {
	l := newLab(apiserver.Options{})
	defer l.close()
	l.create("default", "a", nil)
	body := l.curl("GET", "/api/v1/namespaces/default/pods", "")
	var list api.PodList
	_ = json.Unmarshal([]byte(body), &list)

	next, stop := l.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + list.ResourceVersion)
	defer stop()
	l.create("default", "b", map[string]string{"app": "web"})
	_, _ = l.srv.Delete(context.Background(), "pods", "default", "a", nil)
	next(2)
	// Output:
	// $ curl -X GET '/api/v1/namespaces/default/pods'
	// 200 OK
	// {"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"4"},"items":[{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default","uid":"…","resourceVersion":"4","generation":1,"creationTimestamp":"…"},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}]}
	// $ curl -N '/api/v1/namespaces/default/pods?watch=true&resourceVersion=4'
	// 200 OK, Content-Type: application/json, Transfer-Encoding: chunked
	// {"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b","namespace":"default","uid":"…","resourceVersion":"5","generation":1,"creationTimestamp":"…","labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}}
	// {"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default","uid":"…","resourceVersion":"6","generation":1,"creationTimestamp":"…"},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}}
}

// Example_pagingSnapshot: limit=2 pages through three pods while a fourth is created
// between pages. Every page has the first page's resourceVersion, so "d" never shows: the
// list is one consistent snapshot (L7). remainingItemCount counts what is left.
func Example_pagingSnapshot() {
	l := newLab(apiserver.Options{})
	defer l.close()
	for _, n := range []string{"a", "b", "c"} {
		l.create("default", n, nil)
	}
	var page struct {
		Metadata api.ListMeta `json:"metadata"`
		Items    []api.Pod    `json:"items"`
	}
	show := func(body string) {
		page.Metadata = api.ListMeta{}
		_ = json.Unmarshal([]byte(body), &page)
	}
	path := "/api/v1/namespaces/default/pods?limit=2"
	for i := 0; ; i++ {
		fmt.Println("$ curl '" + path + "'")
		show(string(mustGet(l, path)))
		var names []string
		for _, p := range page.Items {
			names = append(names, p.Name)
		}
		rem := "-"
		if page.Metadata.RemainingItemCount != nil {
			rem = fmt.Sprint(*page.Metadata.RemainingItemCount)
		}
		fmt.Printf("  resourceVersion=%s items=%v remainingItemCount=%s continue=%t\n", page.Metadata.ResourceVersion, names, rem, page.Metadata.Continue != "")
		if page.Metadata.Continue == "" {
			break
		}
		if i == 0 {
			l.create("default", "d", nil)
			fmt.Println("  (pod d created: the store is now at resourceVersion 7)")
		}
		path = "/api/v1/namespaces/default/pods?limit=2&continue=" + url.QueryEscape(page.Metadata.Continue)
	}
	// Output:
	// $ curl '/api/v1/namespaces/default/pods?limit=2'
	//   resourceVersion=6 items=[a b] remainingItemCount=1 continue=true
	//   (pod d created: the store is now at resourceVersion 7)
	// $ curl '/api/v1/namespaces/default/pods?limit=2&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Niwic3RhcnQiOiJiXHUwMDAwIn0'
	//   resourceVersion=6 items=[c] remainingItemCount=- continue=false
}

func mustGet(l *lab, path string) []byte {
	resp, err := l.hc.Get(l.base + path)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	buf, _ := io.ReadAll(resp.Body)
	return buf
}

// Example_compactionAnd410: after a compaction, a watch from an old resourceVersion is not an
// HTTP error: it is 200 with one ERROR event (410 Expired), then the end of the stream. A
// LIST with an expired continue token is an HTTP 410 (L12).
func Example_compactionAnd410() {
	l := newLab(apiserver.Options{})
	defer l.close()
	l.create("default", "a", nil)
	l.create("default", "b", nil)
	tok := mustGet(l, "/api/v1/namespaces/default/pods?limit=1")
	var first api.PodList
	_ = json.Unmarshal(tok, &first)
	l.create("default", "c", nil)
	l.srv.Compact(l.srv.ResourceVersion())
	fmt.Println("(compacted up to resourceVersion 6)")

	next, stop := l.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=4")
	next(2) // only one line comes
	stop()
	body := l.curl("GET", "/api/v1/namespaces/default/pods?limit=1&continue="+url.QueryEscape(first.Continue), "")
	_ = body
	// Output:
	// (compacted up to resourceVersion 6)
	// $ curl -N '/api/v1/namespaces/default/pods?watch=true&resourceVersion=4'
	// 200 OK, Content-Type: application/json, Transfer-Encoding: chunked
	// {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 4 (6)","reason":"Expired","code":410}}
	// $ curl -X GET '/api/v1/namespaces/default/pods?limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NSwic3RhcnQiOiJhXHUwMDAwIn0'
	// 410 Gone
	// {"kind":"Status","apiVersion":"v1","metadata":{"continue":"eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiYVx1MDAwMCJ9"},"status":"Failure","message":"The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.","reason":"Expired","code":410}
}

// Example_bookmarks: with allowWatchBookmarks=true a quiet watch still learns the current
// revision (here 5, moved by a configmap the pod watch does not see). One bookmark comes
// shortly before timeoutSeconds (here half of the 1 s), then the stream ends.
func Example_bookmarks() {
	l := newLab(apiserver.Options{})
	defer l.close()
	_, _ = l.srv.Create(context.Background(), "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}})
	_, _ = l.srv.Create(context.Background(), "configmaps", "default", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg2"}})
	next, stop := l.watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=4&allowWatchBookmarks=true&timeoutSeconds=1")
	defer stop()
	next(5) // the stream ends after one line
	fmt.Println("(stream ended)")
	// Output:
	// $ curl -N '/api/v1/namespaces/default/pods?watch=true&resourceVersion=4&allowWatchBookmarks=true&timeoutSeconds=1'
	// 200 OK, Content-Type: application/json, Transfer-Encoding: chunked
	// {"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"5","creationTimestamp":null},"spec":{"containers":null},"status":{}}}
	// (stream ended)
}

// Example_watchList is how a client-go v0.37 informer syncs (CG4): one WATCH with
// sendInitialEvents=true. The current pods come as ADDED, then the BOOKMARK annotated
// k8s.io/initial-events-end at the snapshot revision, then live events on the same stream.
func Example_watchList() {
	l := newLab(apiserver.Options{})
	defer l.close()
	l.create("default", "a", nil)
	next, stop := l.watch("/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
	defer stop()
	next(2)
	l.create("default", "b", nil)
	next(1)
	// Output:
	// $ curl -N '/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true'
	// 200 OK, Content-Type: application/json, Transfer-Encoding: chunked
	// {"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default","uid":"…","resourceVersion":"4","generation":1,"creationTimestamp":"…"},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}}
	// {"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"4","creationTimestamp":null,"annotations":{"k8s.io/initial-events-end":"true"}},"spec":{"containers":null},"status":{}}}
	// {"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b","namespace":"default","uid":"…","resourceVersion":"5","generation":1,"creationTimestamp":"…"},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"c","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-…","readOnly":true}]}],"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],"volumes":[{"name":"kube-api-access-…","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},"status":{"phase":"Pending","qosClass":"BestEffort"}}}
}

// Example_followOneEvent shows the server's trace hops: the three namespaces New creates
// (revisions 1–3), a watch opened at revision 3, the create of one pod, its delivery to the
// watch, and the watch's close.
func Example_followOneEvent() {
	s := apiserver.New(apiserver.Options{Logger: trace.NewPlainLogger(os.Stdout)})
	defer s.Close()
	ctx := context.Background()
	timeout := int64(1)
	w, _ := s.Watch(ctx, "pods", "default", api.ListOptions{ResourceVersion: "3", TimeoutSeconds: &timeout})
	_, _ = s.Create(ctx, "pods", "default", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
	<-w.ResultChan()
	w.Stop()
	for range w.ResultChan() {
	}
	// Output:
	// msg="apiserver create" component=apiserver op=create key=default rv=1
	// msg="apiserver create" component=apiserver op=create key=kube-system rv=2
	// msg="apiserver create" component=apiserver op=create key=kube-public rv=3
	// msg="apiserver watch-open" component=apiserver op=watch-open key=pods rv=3 watcher=1
	// msg="apiserver create" component=apiserver op=create key=default/a rv=4
	// msg="apiserver watch-send" component=apiserver op=watch-send key=default/a rv=4 type=ADDED watcher=1
	// msg="apiserver watch-close" component=apiserver op=watch-close key=pods rv="" watcher=1
}
