package fieldmanager

import (
	"encoding/json"
	"testing"

	"github.com/informer-lab/informer-lab/api"
)

// FuzzCh01_SSA_Chain runs Update and Apply on arbitrary live objects, request objects and
// managedFields (clients send managedFields of their own): nothing panics, and what
// succeeds writes entries the next write can read.
func FuzzCh01_SSA_Chain(f *testing.F) {
	f.Add(`{"metadata":{"name":"a","managedFields":[{"manager":"m","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]},"spec":{"replicas":1}}`,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"replicas":2}}`, true)
	f.Add(`{"metadata":{"managedFields":[{}]}}`, `{"metadata":{"managedFields":[]},"spec":{"template":{"spec":{"containers":[{"name":"x"}]}}}}`, false)
	f.Add(`{"metadata":{"managedFields":[{"manager":"m","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"k:{\"a\":1}":{"i:0":{}}}}]}}`,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"a":"b"}}}`, true)
	fm := deploymentManager(f)
	f.Fuzz(func(t *testing.T, live, body string, apply bool) {
		var l, b api.Unstructured
		if json.Unmarshal([]byte(live), &l) != nil || json.Unmarshal([]byte(body), &b) != nil || l.Object == nil || b.Object == nil {
			return
		}
		var out *api.Unstructured
		var err error
		if apply {
			out, err = fm.Apply(&l, &b, "fuzz", "", true, at(1))
		} else {
			out, err = fm.Update(&l, &b, "fuzz", "", at(1))
		}
		if err != nil {
			return
		}
		raw, err := json.Marshal(out)
		if err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
		var again api.Unstructured
		if err := json.Unmarshal(raw, &again); err != nil {
			t.Fatal(err)
		}
		if _, err := decodeManaged(&again); err != nil {
			t.Fatalf("written entries do not decode: %v\n%s", err, raw)
		}
	})
}
