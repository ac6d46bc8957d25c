package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_HostileObjects sends malformed and schema-violating Deployments and Pods. Each
// gets a Status with the real code and text, and nothing is written: the revision does not
// move and the collection stays empty.
func TestCh01_HostileObjects(t *testing.T) {
	s, c := newServer(t, Options{})
	deploy := func(spec string) string {
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":` + spec + `}`
	}
	validSpec := `{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}`
	deep := strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001)
	tests := []struct {
		name, path, body string
		code             int
		reason, message  string
	}{
		{"3 MiB body", "/apis/apps/v1/namespaces/default/deployments",
			deploy(`{"template":{"metadata":{"annotations":{"a":"` + strings.Repeat("x", 3<<20) + `"}}}}`),
			http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "limit is 3145728"},
		{"10,001-deep nesting", "/apis/apps/v1/namespaces/default/deployments",
			deploy(`{"template":{"metadata":{"annotations":` + deep + `}}}`), http.StatusBadRequest, "BadRequest", "exceeded max depth"},
		{"duplicate keys under Strict", "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict",
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","name":"web2"},"spec":` + validSpec + `}`,
			http.StatusBadRequest, "BadRequest", `strict decoding error: duplicate field "metadata.name"`},
		{"wrong type", "/apis/apps/v1/namespaces/default/deployments", deploy(`{"replicas":"three"}`),
			http.StatusBadRequest, "BadRequest", "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"},
		{"object where a list goes", "/api/v1/namespaces/default/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":{"name":"c"}}}`,
			http.StatusBadRequest, "BadRequest", "json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container"},
		{"bad quantity", "/api/v1/namespaces/default/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1 core"}}}]}}`,
			http.StatusBadRequest, "BadRequest", "quantities must match the regular expression"},
		{"bad date-time", "/api/v1/namespaces/default/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","deletionTimestamp":"yesterday"},"spec":{"containers":[{"name":"c"}]}}`,
			http.StatusBadRequest, "BadRequest", `parsing time "yesterday"`},
		{"missing required", "/apis/apps/v1/namespaces/default/deployments", deploy(`{"replicas":1}`),
			http.StatusUnprocessableEntity, "Invalid", "Deployment.apps \"web\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`, spec.template.spec.containers: Required value]"},
		{"not base64", "/api/v1/namespaces/default/secrets",
			`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"%%%"}}`,
			http.StatusBadRequest, "BadRequest", "illegal base64 data at input byte 0"},
	}
	rv := rvString(s)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", tc.path, tc.body)
			require.Equal(t, tc.code, r.code, "%s", r.body)
			st := r.status(t)
			assert.Equal(t, tc.reason, string(st.Reason))
			assert.Contains(t, st.Message, tc.message)
			assert.Equal(t, rv, rvString(s), "nothing written")
		})
	}
	for _, p := range []string{"/apis/apps/v1/deployments", "/api/v1/pods", "/api/v1/secrets"} {
		assert.Empty(t, c.list(t, p).Items, p)
	}

	// Invalid UTF-8 inside a string is replaced by U+FFFD, as the real decoder does; the rest of
	// the object is stored as sent.
	r := c.do("POST", "/apis/apps/v1/namespaces/default/deployments",
		fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","annotations":{"note":"a%sb"}},"spec":%s}`, "\xff", validSpec))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Contains(t, string(r.body), `"note":"a`+"\ufffd"+`b"`)
}

// TestCh01_ValidationOrder checks what comes before validation, as in kube-apiserver:
// admission (a missing namespace is 404) on create, and the resourceVersion precondition (a
// stale update is 409) on update; and the semantic checks of pods, workloads and Jobs.
func TestCh01_ValidationOrder(t *testing.T) {
	s, c := newServer(t, Options{})
	mustCreate(t, s, "pods", "default", pod("default", "a", nil))
	r := c.do("POST", "/api/v1/namespaces/nope/pods", `{"metadata":{"name":"x"}}`)
	assert.Equal(t, http.StatusNotFound, r.code, "admission before validation: %s", r.body)
	r = c.do("PUT", "/api/v1/namespaces/default/pods/a", `{"metadata":{"name":"a","resourceVersion":"1"}}`)
	assert.Equal(t, http.StatusConflict, r.code, "the precondition before validation: %s", r.body)
	r = c.do("PUT", "/api/v1/namespaces/default/pods/ghost", `{"metadata":{"name":"ghost"}}`)
	assert.Equal(t, http.StatusNotFound, r.code, "%s", r.body)

	for _, tc := range []struct{ name, path, body, message string }{
		{"pod without spec", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"}}`,
			`Pod "p" is invalid: spec.containers: Required value`},
		{"container without image", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`,
			`Pod "p" is invalid: spec.containers[0].image: Required value`},
		{"selector not matching", "/apis/apps/v1/namespaces/default/deployments",
			`{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`,
			"Deployment.apps \"d\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`"},
		{"job restarting Always", "/apis/batch/v1/namespaces/default/jobs",
			`{"metadata":{"name":"j"},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`,
			`Job.batch "j" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", tc.path, tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
			assert.Equal(t, tc.message, r.status(t).Message)
		})
	}
}
