package kubectl_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/clientcmd"
)

// roundtripDir holds one realistic manifest per served kind (the apiserver's round-trip
// suite); the last document of a file is the kind's object, the ones before it what it needs.
const roundtripDir = "../../../apiserver/testdata/roundtrip"

// kindManifest is one round-trip manifest as JSON documents.
type kindManifest struct {
	name       string // file name without .yaml
	docs       []map[string]any
	apiVersion string
	kind       string
}

func kindManifests(t *testing.T) []kindManifest {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(roundtripDir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	var out []kindManifest
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		m := kindManifest{name: strings.TrimSuffix(filepath.Base(p), ".yaml")}
		for _, doc := range clientcmd.SplitYAMLDocuments(data) {
			js, err := clientcmd.YAMLToJSON(doc)
			require.NoError(t, err)
			var obj map[string]any
			require.NoError(t, json.Unmarshal(js, &obj))
			m.docs = append(m.docs, obj)
		}
		last := m.docs[len(m.docs)-1]
		m.apiVersion, m.kind = last["apiVersion"].(string), last["kind"].(string)
		out = append(out, m)
	}
	return out
}

// writeManifests writes each manifest as a stream of JSON documents under a new directory,
// the kind's object changed by edit (when not nil), and returns the directory. (Not a List:
// kubectl validates a List on the client, as the kind List has no PATCH operation.)
func writeManifests(t *testing.T, e *env, dir string, ms []kindManifest, edit func(obj map[string]any)) string {
	t.Helper()
	full := filepath.Join(e.dir, dir)
	require.NoError(t, os.MkdirAll(full, 0o755))
	for _, m := range ms {
		items := make([]any, len(m.docs))
		for i, d := range m.docs {
			items[i] = d
		}
		if edit != nil {
			last := deepCopy(m.docs[len(m.docs)-1])
			edit(last)
			items[len(items)-1] = last
		}
		var docs []string
		for _, item := range items {
			data, err := json.Marshal(item)
			require.NoError(t, err)
			docs = append(docs, string(data))
		}
		require.NoError(t, os.WriteFile(filepath.Join(full, m.name+".yaml"), []byte(strings.Join(docs, "\n---\n")+"\n"), 0o644))
	}
	return full
}

func deepCopy(m map[string]any) map[string]any {
	data, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

// addUnknownField puts a field no schema has at the top of the object.
func addUnknownField(obj map[string]any) { obj["bogusField"] = "x" }

// verbsByKind reads the verbs of every served kind ("apps/v1 Deployment") from discovery.
func verbsByKind(t *testing.T, e *env) map[string][]string {
	t.Helper()
	get := func(path string, into any) {
		resp, err := http.Get(e.url + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.NoError(t, json.NewDecoder(resp.Body).Decode(into))
	}
	var groups api.APIGroupList
	get("/apis", &groups)
	gvs := []string{"v1"}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gvs = append(gvs, v.GroupVersion)
		}
	}
	out := map[string][]string{}
	for _, gv := range gvs {
		path := "/apis/" + gv
		if gv == "v1" {
			path = "/api/v1"
		}
		var list api.APIResourceList
		get(path, &list)
		for _, r := range list.APIResources {
			if !strings.Contains(r.Name, "/") {
				out[gv+" "+r.Kind] = r.Verbs
			}
		}
	}
	return out
}

// TestCh01_Kubectl_ValidateEveryKind creates every round-trip manifest of a kind that can be
// created with an unknown field, under --validate=strict and --validate=true, with the
// kubectl of the default minor and with kubectl 1.27 (which reads /openapi/v2 before it
// writes): each is refused with the real server's error for that field. The manifests as
// written (of kinds that are stored) apply cleanly and delete.
func TestCh01_Kubectl_ValidateEveryKind(t *testing.T) {
	for _, version := range []string{"", "v1.27.16"} {
		t.Run("server "+version, func(t *testing.T) {
			e := newEnv(t, apiserver.Options{Version: version})
			verbs := verbsByKind(t, e)
			var ms, stored, clientSide []kindManifest
			for _, m := range kindManifests(t) {
				v := verbs[m.apiVersion+" "+m.kind]
				if !slices.Contains(v, "create") {
					continue // componentstatuses: nothing to validate a write of
				}
				if !slices.Contains(v, "patch") {
					// kubectl asks the server to validate only kinds whose PATCH operation
					// takes fieldValidation; a review's fields it checks itself, as with a
					// real server. (The Binding's file holds its pod too: left out.)
					if m.kind != "Binding" {
						clientSide = append(clientSide, m)
					}
					continue
				}
				ms = append(ms, m)
				if slices.Contains(v, "delete") {
					stored = append(stored, m)
				}
			}
			require.NotEmpty(t, ms)
			bad := writeManifests(t, e, "bad", ms, addUnknownField)
			for _, mode := range []string{"strict", "true"} {
				_, errOut, err := e.run("create", "--validate="+mode, "-f", bad)
				require.Error(t, err, "--validate=%s", mode)
				for _, m := range ms {
					_, v, ok := strings.Cut(m.apiVersion, "/")
					if !ok {
						v = m.apiVersion
					}
					want := m.kind + ` in version "` + v + `" cannot be handled as a ` + m.kind +
						`: strict decoding error: unknown field "bogusField"`
					assert.Contains(t, errOut, want, "--validate=%s, %s", mode, m.name)
				}
				assert.NotContains(t, errOut, "error validating data", "the server validates, as kubectl learns from OpenAPI")
			}
			require.NotEmpty(t, clientSide)
			for _, m := range clientSide {
				badReview := writeManifests(t, e, "bad-"+m.name, []kindManifest{m}, addUnknownField)
				_, errOut, err := e.run("create", "--validate=strict", "-f", badReview)
				require.Error(t, err, m.name)
				assert.Contains(t, errOut, "ValidationError("+m.kind+`): unknown field "bogusField"`, m.name)
			}
			for _, ex := range e.rec.exchanges() {
				if strings.HasPrefix(ex.URI, "/openapi/") {
					assert.Contains(t, []int{200, 304}, ex.Code, ex.String())
				}
			}
			if version != "" {
				assert.NotEmpty(t, e.rec.matching("GET", "/openapi/v2"), "kubectl 1.27 reads /openapi/v2")
			}

			good := writeManifests(t, e, "good", stored, nil)
			// apply, not create: the objects a manifest needs may exist already (the bad run
			// created them, or another manifest needs them too).
			out := e.ok("apply", "--validate=strict", "-f", good)
			for _, m := range stored {
				name, _ := m.docs[len(m.docs)-1]["metadata"].(map[string]any)["name"].(string)
				assert.Regexp(t, `(?m)/`+regexp.QuoteMeta(name)+` (created|configured|unchanged)$`, out, m.name)
			}
			// Without waiting: the PV, PVC and VolumeAttributesClass keep their protection
			// finalizers, which no controller lifts here (as on a server without one).
			e.ok("delete", "--wait=false", "-f", good)
		})
	}
}

// TestCh01_Kubectl_ExplainEveryKind runs kubectl explain for every kind, from /openapi/v3
// and from /openapi/v2 (--output=plaintext-openapiv2), then down a path: a pod's
// containers, a custom resource's spec.
func TestCh01_Kubectl_ExplainEveryKind(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	ms := kindManifests(t)
	for _, m := range ms {
		for _, output := range []string{"plaintext", "plaintext-openapiv2"} {
			out := e.ok("explain", strings.ToLower(m.kind), "--api-version="+m.apiVersion, "--output="+output)
			assert.Regexp(t, `KIND:\s+`+m.kind+`\n`, out, "%s %s", m.name, output)
			assert.Contains(t, out, "DESCRIPTION:", "%s %s", m.name, output)
		}
	}
	for _, output := range []string{"plaintext", "plaintext-openapiv2"} {
		out := e.ok("explain", "pods.spec.containers", "--output="+output)
		assert.Contains(t, out, "image", output)
		assert.Contains(t, out, "imagePullPolicy", output)
	}

	// A CRD's kind, once the CRD is served: the round-trip manifests' Backup.
	i := slices.IndexFunc(ms, func(m kindManifest) bool { return m.kind == "CustomResourceDefinition" })
	require.GreaterOrEqual(t, i, 0)
	crd := writeManifests(t, e, "crd", ms[i:i+1], nil)
	e.ok("apply", "-f", crd)
	for _, output := range []string{"plaintext", "plaintext-openapiv2"} {
		out := e.ok("explain", "backups.spec", "--output="+output)
		assert.Contains(t, out, "retentionDays", output)
		assert.Contains(t, out, "Where the backup is written.", output)
	}
}
