package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCh01_UpdateOptimisticRetries: an update is prepared and admitted outside the write
// lock, then written only if the object is still the one it was prepared from. A webhook that
// deletes and recreates the object while it admits the update (a new uid) makes the update
// try again: an unconditional one from the body as sent (no uid carried over from the first
// try, so no UID precondition failure) and succeeds on the new object; one that names the
// resourceVersion it read, or a patch, is a 409.
func TestCh01_UpdateOptimisticRetries(t *testing.T) {
	for _, tc := range []struct {
		name, method, body string
		withRV             bool
		code               int
		labels             map[string]any
	}{
		{name: "unconditional PUT", method: "PUT", code: http.StatusOK, labels: map[string]any{"mine": "yes"}},
		{name: "PUT with the resourceVersion read", method: "PUT", withRV: true, code: http.StatusConflict, labels: map[string]any{"recreated": "yes"}},
		{name: "merge patch", method: "PATCH", body: `{"metadata":{"labels":{"mine":"yes"}},"data":{"k":"v"}}`, code: http.StatusOK,
			labels: map[string]any{"recreated": "yes", "mine": "yes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c *client
			var mu sync.Mutex
			recreated := false
			hs := newHookServer(t, map[string]reply{
				"/recreate": func(req map[string]any) map[string]any {
					mu.Lock()
					first := !recreated
					recreated = true
					mu.Unlock()
					if first && req["operation"] == "UPDATE" {
						if r := c.do("DELETE", "/api/v1/namespaces/default/configmaps/cm", nil); r.code != http.StatusOK {
							return map[string]any{"allowed": false, "status": map[string]any{"message": string(r.body)}}
						}
						if r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", map[string]any{"recreated": "yes"})); r.code != http.StatusCreated {
							return map[string]any{"allowed": false, "status": map[string]any{"message": string(r.body)}}
						}
					}
					return map[string]any{"allowed": true}
				},
			})
			_, c = newServer(t, Options{})
			r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
			require.Equal(t, http.StatusCreated, r.code, string(r.body))
			var before map[string]any
			r.decode(t, &before)
			registerWebhooks(t, c, "ValidatingWebhookConfiguration", "v", hs.webhookFor("v.example.com", "/recreate", map[string]any{"timeoutSeconds": 5}))

			switch {
			case tc.method == "PATCH":
				r = c.do("PATCH", "/api/v1/namespaces/default/configmaps/cm", tc.body, "Content-Type", "application/merge-patch+json")
			case tc.withRV:
				body := configMap("cm", map[string]any{"mine": "yes"})
				body["metadata"].(map[string]any)["resourceVersion"] = before["metadata"].(map[string]any)["resourceVersion"]
				r = c.do("PUT", "/api/v1/namespaces/default/configmaps/cm", body)
			default:
				r = c.do("PUT", "/api/v1/namespaces/default/configmaps/cm", configMap("cm", map[string]any{"mine": "yes"}))
			}
			require.Equal(t, tc.code, r.code, string(r.body))

			var got map[string]any
			c.get("/api/v1/namespaces/default/configmaps/cm").decode(t, &got)
			md := got["metadata"].(map[string]any)
			assert.NotEqual(t, before["metadata"].(map[string]any)["uid"], md["uid"], "the object was recreated")
			assert.Equal(t, tc.labels, md["labels"])
		})
	}
}

// TestCh01_ConcurrentWritesOfOneObject: many clients write one object at once. Creates of
// one name: exactly one 201, every other a 409 AlreadyExists. PUTs naming the same
// resourceVersion: exactly one 200, every other a 409 Conflict. PUTs naming none: all 200,
// each one write (the resourceVersion moves by exactly their number), none lost.
func TestCh01_ConcurrentWritesOfOneObject(t *testing.T) {
	const n = 16
	for _, tc := range []struct {
		name     string
		method   string
		withRV   bool
		want     map[int]int // status code → how many
		advances int         // writes the resourceVersion counts after the first create
	}{
		{name: "creates of one name", method: "POST", want: map[int]int{http.StatusCreated: 1, http.StatusConflict: n - 1}},
		{name: "PUTs naming the same resourceVersion", method: "PUT", withRV: true, want: map[int]int{http.StatusOK: 1, http.StatusConflict: n - 1}, advances: 1},
		{name: "PUTs naming none", method: "PUT", want: map[int]int{http.StatusOK: n}, advances: n},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newServer(t, Options{})
			rv0 := ""
			if tc.method == "PUT" {
				r := c.do("POST", "/api/v1/namespaces/default/configmaps", configMap("cm", nil))
				require.Equal(t, http.StatusCreated, r.code, string(r.body))
				var got map[string]any
				r.decode(t, &got)
				rv0 = got["metadata"].(map[string]any)["resourceVersion"].(string)
			}
			start := s.store.ResourceVersion()
			codes := make([]int, n)
			var wg sync.WaitGroup
			for i := range n {
				body := configMap("cm", map[string]any{"writer": fmt.Sprint(i)})
				if tc.withRV {
					body["metadata"].(map[string]any)["resourceVersion"] = rv0
				}
				data, err := json.Marshal(body)
				require.NoError(t, err)
				path := "/api/v1/namespaces/default/configmaps"
				if tc.method == "PUT" {
					path += "/cm"
				}
				wg.Go(func() {
					req, err := http.NewRequest(tc.method, c.base+path, bytes.NewReader(data))
					if err != nil {
						return
					}
					req.Header.Set("Content-Type", "application/json")
					resp, err := c.hc.Do(req)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					codes[i] = resp.StatusCode
				})
			}
			wg.Wait()
			count := map[int]int{}
			for _, code := range codes {
				count[code]++
			}
			assert.Equal(t, tc.want, count)
			if tc.method == "PUT" {
				assert.Equal(t, uint64(tc.advances), s.store.ResourceVersion()-start, "one revision per successful write")
			}
		})
	}
}
