package ch01_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/informer-lab/informer-lab/apiserver"
)

// How an object travels through the server: decode (against the kind's OpenAPI schema),
// default, validate (schema, then semantics), store whole, encode. These examples send
// bodies the way kubectl does and print what comes back.

// send posts body and prints the status, every Warning header, and either the Status
// message or the fields of the stored object named by paths ("spec.replicas").
func (l *lab) send(method, path, body string, paths ...string) {
	fmt.Printf("$ curl -X %s '%s'\n", method, path)
	req, _ := http.NewRequest(method, l.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := l.hc.Do(req)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	for _, w := range resp.Header.Values("Warning") {
		fmt.Println("Warning:", w)
	}
	var obj map[string]any
	_ = json.Unmarshal(data, &obj)
	if obj["kind"] == "Status" {
		fmt.Println(obj["message"])
		return
	}
	for _, p := range paths {
		var cur any = obj
		for _, f := range strings.Split(p, ".") {
			if m, ok := cur.(map[string]any); ok {
				cur = m[f]
			} else if l, ok := cur.([]any); ok && len(l) > 0 && f == "0" {
				cur = l[0]
			} else {
				cur = nil
			}
		}
		out, _ := json.Marshal(cur)
		fmt.Printf("  %s = %s\n", p, out)
	}
}

const typoDeployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s"},
 "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
 "spec":{"containers":[{"name":"web","image":"nginx:1.27","imagePullPolicyy":"Always"}]}}}}`

// Example_fieldValidation sends one Deployment with a misspelt field three times: Strict
// refuses it with the decoder's message, Warn (the default) stores it without the field and
// says so in a Warning header, Ignore drops it silently.
func Example_fieldValidation() {
	l := newLab(apiserver.Options{})
	defer l.close()
	for _, mode := range []string{"Strict", "Warn", "Ignore"} {
		name := "web-" + strings.ToLower(mode)
		l.send("POST", "/apis/apps/v1/namespaces/default/deployments?fieldValidation="+mode,
			fmt.Sprintf(typoDeployment, name), "spec.template.spec.containers.0.imagePullPolicyy")
	}
	// Output:
	// $ curl -X POST '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict'
	// 400 Bad Request
	// Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolicyy"
	// $ curl -X POST '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Warn'
	// 201 Created
	// Warning: 299 - "unknown field \"spec.template.spec.containers[0].imagePullPolicyy\""
	//   spec.template.spec.containers.0.imagePullPolicyy = null
	// $ curl -X POST '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Ignore'
	// 201 Created
	//   spec.template.spec.containers.0.imagePullPolicyy = null
}

// Example_defaults creates a Deployment that says only what it must, and prints some of the
// fields the server filled in: the defaults kube-apiserver applies.
func Example_defaults() {
	l := newLab(apiserver.Options{})
	defer l.close()
	l.send("POST", "/apis/apps/v1/namespaces/default/deployments",
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
		 "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}`,
		"spec.replicas", "spec.strategy", "spec.revisionHistoryLimit", "spec.progressDeadlineSeconds",
		"spec.template.spec.restartPolicy", "spec.template.spec.dnsPolicy", "spec.template.spec.schedulerName",
		"spec.template.spec.terminationGracePeriodSeconds", "spec.template.spec.containers.0.imagePullPolicy",
		"spec.template.spec.containers.0.terminationMessagePath", "status")
	// Output:
	// $ curl -X POST '/apis/apps/v1/namespaces/default/deployments'
	// 201 Created
	//   spec.replicas = 1
	//   spec.strategy = {"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}
	//   spec.revisionHistoryLimit = 10
	//   spec.progressDeadlineSeconds = 600
	//   spec.template.spec.restartPolicy = "Always"
	//   spec.template.spec.dnsPolicy = "ClusterFirst"
	//   spec.template.spec.schedulerName = "default-scheduler"
	//   spec.template.spec.terminationGracePeriodSeconds = 30
	//   spec.template.spec.containers.0.imagePullPolicy = "IfNotPresent"
	//   spec.template.spec.containers.0.terminationMessagePath = "/dev/termination-log"
	//   status = {}
}

// Example_schemaErrors shows the three ways a body can fail before it is stored: a value of
// the wrong type and a bad quantity are decoding errors (400), a missing required field is a
// validation error (422) naming the field path.
func Example_schemaErrors() {
	l := newLab(apiserver.Options{})
	defer l.close()
	l.send("POST", "/apis/apps/v1/namespaces/default/deployments",
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":"three"}}`)
	l.send("POST", "/api/v1/namespaces/default/pods",
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"web","image":"nginx","resources":{"limits":{"cpu":"lots"}}}]}}`)
	l.send("POST", "/api/v1/namespaces/default/pods",
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"image":"nginx"}]}}`)
	// Output:
	// $ curl -X POST '/apis/apps/v1/namespaces/default/deployments'
	// 400 Bad Request
	// Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
	// $ curl -X POST '/api/v1/namespaces/default/pods'
	// 400 Bad Request
	// Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
	// $ curl -X POST '/api/v1/namespaces/default/pods'
	// 422 Unprocessable Entity
	// Pod "web" is invalid: spec.containers[0].name: Required value
}
