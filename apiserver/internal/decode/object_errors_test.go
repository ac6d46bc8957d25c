package decode

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

// TestCh01_DecodeObjectTypeErrors: E3 with encoding/json's text, derived from the schema:
// the Go struct holding the field, the member path without indices or map keys, and the
// Go type from the definition name or from type and format.
func TestCh01_DecodeObjectTypeErrors(t *testing.T) {
	tests := []struct {
		name string
		gvk  api.GroupVersionKind
		body string
		msg  string
	}{
		{"replicas string", decodeDeployGVK, `{"spec":{"replicas":"3"}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{"replicas fraction", decodeDeployGVK, `{"spec":{"replicas":1.5}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{"int32 overflow", decodePodGVK, `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":3000000000}]}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 3000000000 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`},
		{"int64 from string", decodePodGVK, `{"spec":{"activeDeadlineSeconds":"1"}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64`},
		{"struct from string", decodeDeployGVK, `{"spec":"web"}`,
			`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec`},
		{"slice from string", decodePodGVK, `{"spec":{"containers":"web"}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`},
		{"element of the wrong type", decodePodGVK, `{"spec":{"containers":[5]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type v1.Container`},
		{"slice from object", decodePodGVK, `{"spec":{"containers":[{"name":"a","env":{}}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field Container.spec.containers.env of type []v1.EnvVar`},
		{"string element", decodePodGVK, `{"spec":{"containers":[{"name":"a","command":[1]}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.command of type string`},
		{"map from array", decodePodGVK, `{"spec":{"nodeSelector":[]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field PodSpec.spec.nodeSelector of type map[string]string`},
		{"map value", decodePodGVK, `{"metadata":{"labels":{"a":5}}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`},
		{"resource list", decodePodGVK, `{"spec":{"containers":[{"name":"a","resources":{"limits":["1"]}}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList`},
		{"bool", decodePodGVK, `{"spec":{"hostNetwork":"yes"}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool`},
		{"first error wins", decodeDeployGVK, `{"spec":{"replicas":"3","paused":1}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{"a decoder's own error wins over a saved one", decodeDeployGVK, `{"spec":{"replicas":"3","template":{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"lots"}}}]}}}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: ` + quantityText},
		{"inline embedded structs are named in the path", decodePodGVK, `{"spec":{"containers":[{"name":"a","livenessProbe":{"httpGet":{"path":5}}}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field HTTPGetAction.spec.containers.livenessProbe.ProbeHandler.httpGet.path of type string`},
		{"two levels of inline structs", decodePodGVK, `{"spec":{"volumes":[{"name":"v","configMap":{"name":5}}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ConfigMapVolumeSource.spec.volumes.VolumeSource.configMap.LocalObjectReference.name of type string`},
		{"own members are not promoted", decodePodGVK, `{"spec":{"volumes":[{"name":5}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Volume.spec.volumes.name of type string`},
		{"status is typed too", decodePodGVK, `{"status":{"phase":1}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field PodStatus.status.phase of type string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, _, err := Object([]byte(tc.body), mustSchema(t, tc.gvk), tc.gvk, "Warn")
			require.EqualError(t, err, tc.msg)
			assert.Equal(t, int32(400), api.CodeForError(err))
			assert.Nil(t, u)
		})
	}
}

const quantityText = `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`

// TestCh01_DecodeObjectFormats: each format with the text of the Go type that decodes it.
func TestCh01_DecodeObjectFormats(t *testing.T) {
	pod := func(container string) string {
		return `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c",` + container + `}]}}`
	}
	svc := func(target string) string {
		return `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":` + target + `}]}}`
	}
	const podPrefix = `Pod in version "v1" cannot be handled as a Pod: `
	const svcPrefix = `Service in version "v1" cannot be handled as a Service: `
	const secretPrefix = `Secret in version "v1" cannot be handled as a Secret: `
	tests := []struct {
		name string
		gvk  api.GroupVersionKind
		body string
		msg  string // "" accepted
	}{
		{"int-or-string int", decodeServiceGVK, svc(`8080`), ""},
		{"int-or-string string", decodeServiceGVK, svc(`"http"`), ""},
		{"int-or-string fraction", decodeServiceGVK, svc(`80.5`), svcPrefix + "json: cannot unmarshal number 80.5 into Go value of type int32"},
		{"int-or-string bool", decodeServiceGVK, svc(`true`), svcPrefix + "json: cannot unmarshal bool into Go value of type int32"},
		{"int-or-string object", decodeServiceGVK, svc(`{}`), svcPrefix + "json: cannot unmarshal object into Go value of type int32"},
		{"int-or-string too big", decodeServiceGVK, svc(`4294967296`), svcPrefix + "json: cannot unmarshal number 4294967296 into Go value of type int32"},
		{"quantity string", decodePodGVK, pod(`"resources":{"limits":{"cpu":"500m","memory":"1536Mi"}}`), ""},
		{"quantity bad", decodePodGVK, pod(`"resources":{"limits":{"cpu":"two"}}`), podPrefix + quantityText},
		{"quantity bad suffix", decodePodGVK, pod(`"resources":{"limits":{"cpu":"2mK"}}`), podPrefix + "unable to parse quantity's suffix"},
		{"quantity bool", decodePodGVK, pod(`"resources":{"limits":{"cpu":true}}`), podPrefix + quantityText},
		{"date-time", decodePodGVK, `{"metadata":{"creationTimestamp":"2026-01-02T03:04:05+01:00"}}`, ""},
		{"date-time bad", decodePodGVK, `{"metadata":{"creationTimestamp":"2026-01-02 03:04:05"}}`,
			podPrefix + `parsing time "2026-01-02 03:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05" as "T"`},
		{"date-time number", decodePodGVK, `{"metadata":{"creationTimestamp":5}}`, podPrefix + "json: cannot unmarshal number into Go value of type string"},
		{"byte", decodeSecretGVK, `{"data":{"k":"aGVsbG8="}}`, ""},
		{"byte bad", decodeSecretGVK, `{"data":{"k":"hello world"}}`, secretPrefix + "illegal base64 data at input byte 5"},
		{"byte unpadded", decodeSecretGVK, `{"data":{"k":"aGVsbG8"}}`, secretPrefix + "illegal base64 data at input byte 4"},
		{"byte number", decodeSecretGVK, `{"data":{"k":1}}`, secretPrefix + "json: cannot unmarshal number into Go struct field Secret.data of type []uint8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, _, err := Object([]byte(tc.body), mustSchema(t, tc.gvk), tc.gvk, "Strict")
			if tc.msg == "" {
				require.NoError(t, err)
				assert.Empty(t, cmp.Diff(tree(t, tc.body), withoutKind(u)))
				return
			}
			require.EqualError(t, err, tc.msg)
			assert.Equal(t, int32(400), api.CodeForError(err))
		})
	}
}

func withoutKind(u *api.Unstructured) map[string]any {
	out := map[string]any{}
	for k, v := range u.Object {
		if k != "kind" && k != "apiVersion" {
			out[k] = v
		}
	}
	return out
}

// TestCh01_DecodeObjectRequired: missing required members are one 422 with a
// FieldValueRequired cause each, worded as the real validation words them.
func TestCh01_DecodeObjectRequired(t *testing.T) {
	tests := []struct {
		name   string
		gvk    api.GroupVersionKind
		body   string
		msg    string
		fields []string
	}{
		{"container name", decodePodGVK, `{"metadata":{"name":"x"},"spec":{"containers":[{"image":"nginx"}]}}`,
			`Pod "x" is invalid: spec.containers[0].name: Required value`, []string{"spec.containers[0].name"}},
		{"containers", decodePodGVK, `{"metadata":{"name":"x"},"spec":{}}`,
			`Pod "x" is invalid: spec.containers: Required value`, []string{"spec.containers"}},
		{"null is missing", decodePodGVK, `{"metadata":{"name":"x"},"spec":{"containers":null}}`,
			`Pod "x" is invalid: spec.containers: Required value`, []string{"spec.containers"}},
		{"null element", decodePodGVK, `{"metadata":{"name":"x"},"spec":{"containers":[null]}}`,
			`Pod "x" is invalid: spec.containers[0].name: Required value`, []string{"spec.containers[0].name"}},
		{"several", decodePodGVK, `{"metadata":{"name":"x"},"spec":{"containers":[{},{"name":"b","env":[{"value":"v"}]}],"initContainers":[{}]}}`,
			`Pod "x" is invalid: [spec.containers[0].name: Required value, spec.containers[1].env[0].name: Required value, spec.initContainers[0].name: Required value]`,
			[]string{"spec.containers[0].name", "spec.containers[1].env[0].name", "spec.initContainers[0].name"}},
		{"deployment", decodeDeployGVK, `{"metadata":{"name":"web"},"spec":{"replicas":1}}`,
			`Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template: Required value]`, []string{"spec.selector", "spec.template"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Object([]byte(tc.body), mustSchema(t, tc.gvk), tc.gvk, "Strict")
			require.EqualError(t, err, tc.msg)
			st, ok := err.(*api.Status)
			require.True(t, ok)
			assert.Equal(t, int32(422), st.Code)
			assert.Equal(t, api.StatusReasonInvalid, st.Reason)
			var fields []string
			for _, c := range st.Details.Causes {
				assert.Equal(t, api.CauseTypeFieldValueRequired, c.Type)
				assert.Equal(t, "Required value", c.Message)
				fields = append(fields, c.Field)
			}
			assert.Equal(t, tc.fields, fields)
		})
	}
	// Status is not checked for presence, as the real strategies do not.
	_, _, err := Object([]byte(`{"metadata":{"name":"x"},"spec":{"containers":[{"name":"c"}]},"status":{"containerStatuses":[{"ready":true}]}}`),
		mustSchema(t, decodePodGVK), decodePodGVK, "Strict")
	assert.NoError(t, err)
	// Warnings found before the 422 come back with it.
	_, warnings, err := Object([]byte(`{"metadata":{"name":"x"},"spec":{"containers":[{"zz":1}]}}`), mustSchema(t, decodePodGVK), decodePodGVK, "")
	assert.Equal(t, int32(422), api.CodeForError(err))
	assert.Equal(t, []string{`unknown field "spec.containers[0].zz"`}, warnings)
}

// TestCh01_DecodeObjectBoundedWork: decode's doc.go item 4 holds for Object.
func TestCh01_DecodeObjectBoundedWork(t *testing.T) {
	s := mustSchema(t, decodeConfigMapGVK)
	t.Run("3 MiB value", func(t *testing.T) {
		big := strings.Repeat("x", 3<<20)
		u, _, err := Object([]byte(`{"metadata":{"name":"a"},"data":{"k":"`+big+`"}}`), s, decodeConfigMapGVK, "Strict")
		require.NoError(t, err)
		assert.Len(t, u.Object["data"].(map[string]any)["k"], 3<<20)
	})
	t.Run("too deep", func(t *testing.T) {
		body := `{"metadata":{"managedFields":[{"fieldsV1":` + strings.Repeat(`{"a":`, 10001) + `1` + strings.Repeat(`}`, 10001) + `}]}}`
		_, _, err := Object([]byte(body), s, decodeConfigMapGVK, "Strict")
		require.Error(t, err)
		assert.Equal(t, int32(400), api.CodeForError(err))
		assert.Contains(t, err.Error(), "exceeded max depth")
	})
	t.Run("deep but allowed, in a free-form member", func(t *testing.T) {
		const n = 9990
		body := `{"metadata":{"managedFields":[{"fieldsV1":` + strings.Repeat(`[`, n) + strings.Repeat(`]`, n) + `}]}}`
		_, _, err := Object([]byte(body), s, decodeConfigMapGVK, "Strict")
		require.NoError(t, err)
	})
	t.Run("deep in an unknown member is skipped", func(t *testing.T) {
		const n = 9990
		body := `{"zz":` + strings.Repeat(`[`, n) + strings.Repeat(`]`, n) + `}`
		_, warnings, err := Object([]byte(body), s, decodeConfigMapGVK, "Warn")
		require.NoError(t, err)
		assert.Equal(t, []string{`unknown field "zz"`}, warnings)
	})
	t.Run("invalid UTF-8 becomes U+FFFD", func(t *testing.T) {
		u, warnings, err := Object([]byte("{\"data\":{\"k\xff\":\"v\xfe\\u00e9\"},\"z\xff\":1}"), s, decodeConfigMapGVK, "Warn")
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"k\uFFFD": "v\uFFFDé"}, u.Object["data"])
		assert.Equal(t, []string{"unknown field \"z\uFFFD\""}, warnings)
	})
	t.Run("many duplicates are capped at 100 problems", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"data":{`)
		for i := range 300 {
			fmt.Fprintf(&b, `"k%d":"a","k%d":"b",`, i, i)
		}
		b.WriteString(`"end":"x"}}`)
		_, warnings, err := Object([]byte(b.String()), s, decodeConfigMapGVK, "Warn")
		require.NoError(t, err)
		assert.Len(t, warnings, 100)
		assert.Equal(t, `duplicate field "data.k0"`, warnings[0])
	})
}

// TestCh01_DecodeObjectGrammar: the one-pass reader accepts exactly what encoding/json
// accepts, and for anything else Object gives Body's E1 text.
func TestCh01_DecodeObjectGrammar(t *testing.T) {
	bodies := []string{
		`{"data":{"a":"b",}}`, `{"data":{"a":"b"},}`, `{"data":["a",]}`, `{"data":{"a" "b"}}`, `{"data":{"a":01}}`,
		`{"data":{"a":-}}`, `{"data":{"a":1.}}`, `{"data":{"a":1e}}`, `{"data":{"a":.5}}`, `{"data":{"a":+1}}`,
		`{"data":{"a":"\x"}}`, `{"data":{"a":"\u12"}}`, "{\"data\":{\"a\":\"\t\"}}", `{"data":{"a":tru}}`, `{"data":{"a":nul}}`,
		`{"data":{"a":"b"}} x`, `{"data":{"a":"b"}}{}`, `{"data":{"a":"b"`, `{"data":{"a":"b}}`, `{"zz":[1,]}`, `{"zz":{"a"}}`,
		`{"data":{"a":NaN}}`, `{"data":{'a':1}}`, `{"data":{"a":1}}` + "\x00",
		`{"metadata":{"managedFields":[{"fieldsV1":` + strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10000) + `}]}}`,
		`{"zz":` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `}`,
		`{"metadata":{"managedFields":[{"fieldsV1":{"a":1e5, "b":-0.5E-3, "c":0, "d":-0, "e":"\u00e9\n\/", "f":[true,false,null]}}]}}  `, " \r\n\t{}\n",
	}
	s := mustSchema(t, decodeConfigMapGVK)
	for _, body := range bodies {
		name := body
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			_, _, oerr := Object([]byte(body), s, decodeConfigMapGVK, "Ignore")
			_, _, berr := Body(api.DefaultScheme, []byte(body), decodeConfigMapGVK, "Ignore")
			if json.Valid([]byte(body)) {
				assert.NoError(t, oerr)
				return
			}
			require.Error(t, oerr)
			assert.Equal(t, berr.Error(), oerr.Error())
		})
	}
}

// TestCh01_DecodeObjectCanonicalQuantities: every member the schema types as a Quantity is
// stored as the real server stores it, the Go type's canonical text, whether it came as a
// string or as a number; members of other types are untouched.
func TestCh01_DecodeObjectCanonicalQuantities(t *testing.T) {
	tests := []struct {
		name       string
		gvk        api.GroupVersionKind
		body, want string
	}{
		{"pod resources", decodePodGVK,
			`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":0.5,"memory":"1.5Gi"},"limits":{"cpu":"1000m","memory":1e3,"ephemeral-storage":1000}}}]}}`,
			`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"500m","memory":"1536Mi"},"limits":{"cpu":"1","memory":"1e3","ephemeral-storage":"1k"}}}]}}`},
		{"pod overhead and emptyDir", decodePodGVK,
			`{"spec":{"overhead":{"cpu":"0.25"},"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1024Mi"}}],"containers":[{"name":"c"}]}}`,
			`{"spec":{"overhead":{"cpu":"250m"},"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1Gi"}}],"containers":[{"name":"c"}]}}`},
		{"deployment template", decodeDeployGVK,
			`{"spec":{"selector":{},"replicas":2,"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":2}}}]}}}}`,
			`{"spec":{"selector":{},"replicas":2,"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"2"}}}]}}}}`},
		{"kept when canonical", decodePodGVK,
			`{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"+1","memory":"01Gi"}}}]}}`,
			`{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"+1","memory":"01Gi"}}}]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, _, err := Object([]byte(tc.body), mustSchema(t, tc.gvk), tc.gvk, api.FieldValidationStrict)
			require.NoError(t, err)
			assert.Empty(t, cmp.Diff(tree(t, tc.want), withoutKind(u)))
		})
	}
}
