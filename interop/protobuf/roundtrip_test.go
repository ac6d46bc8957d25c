package protobuf

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"

	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	k8sproto "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/restmapper"

	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/interop/internal/wiretest"
)

// roundtripScheme knows every kind client-go knows and the CRD kind, as kube-apiserver's.
func roundtripScheme(t *testing.T) *k8sruntime.Scheme {
	t.Helper()
	s := k8sruntime.NewScheme()
	require.NoError(t, scheme.AddToScheme(s))
	require.NoError(t, apiextensionsv1.AddToScheme(s))
	require.NoError(t, apiregistrationv1.AddToScheme(s))
	return s
}

// roundtripManifests reads the main module's round-trip manifests (apiserver/testdata/roundtrip,
// one realistic object per served kind; the last document of a file is the kind's object).
func roundtripManifests(t *testing.T) map[string][][]byte {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "apiserver", "testdata", "roundtrip")
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	out := map[string][][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		r := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		var docs [][]byte
		for {
			doc, err := r.Read()
			if err != nil {
				break
			}
			if js, err := yaml.ToJSON(doc); err == nil && len(bytes.TrimSpace(js)) > 0 && string(js) != "null" {
				docs = append(docs, js)
			}
		}
		out[strings.TrimSuffix(filepath.Base(p), ".yaml")] = docs
	}
	return out
}

// TestCh01_RoundTripProtobufMatchesK8sAPI creates every round-trip manifest in the simulator,
// once with a JSON body and once with the body k8s.io/api's protobuf serializer writes for
// it, and for each object checks that the simulator's protobuf answer to a GET is, byte for
// byte, what the real serializer writes for the Go object decoded from the simulator's JSON
// answer to the same GET.
func TestCh01_RoundTripProtobufMatchesK8sAPI(t *testing.T) {
	env := wiretest.Start(t, apiserver.Options{})
	sch := roundtripScheme(t)
	codecs := serializer.NewCodecFactory(sch)
	jsonDecoder := codecs.UniversalDeserializer()
	pbSerializer := k8sproto.NewSerializer(sch, sch)
	hc := &http.Client{}
	mapper := restMapper(t, env.URL)

	for name, docs := range roundtripManifests(t) {
		t.Run(name, func(t *testing.T) {
			// Objects the kind's object needs are created first, in JSON.
			for _, need := range docs[:len(docs)-1] {
				obj, gvk, err := jsonDecoder.Decode(need, nil, nil)
				require.NoError(t, err)
				code, body := do(t, hc, http.MethodPost, env.URL+collectionPath(t, mapper, obj, gvk), need, "application/json", "application/json")
				require.Contains(t, []int{http.StatusCreated, http.StatusConflict}, code, "%s", body)
			}
			manifest := docs[len(docs)-1]
			obj, gvk, err := jsonDecoder.Decode(manifest, nil, nil)
			require.NoError(t, err, "%s decodes into its k8s.io/api type", name)
			var pbBody bytes.Buffer
			require.NoError(t, pbSerializer.Encode(obj, &pbBody))

			base := collectionPath(t, mapper, obj, gvk)
			accessor, err := apimeta.Accessor(obj)
			require.NoError(t, err)
			verbs := verbsOf(t, env.URL, gvk)
			// sameInProtobuf reads one answer as JSON and as protobuf: the protobuf bytes must
			// be the real serializer's for the Go object of the JSON answer, and read back by
			// the real decoder to the same object.
			sameInProtobuf := func(t *testing.T, method, url string, body []byte, contentType string, code int) {
				t.Helper()
				c, asJSON := do(t, hc, method, url, body, contentType, "application/json")
				require.Equal(t, code, c, "%s", asJSON)
				c, asProtobuf := do(t, hc, method, url, body, contentType, protobufType)
				require.Equal(t, code, c, "%s", asProtobuf)
				got, _, err := jsonDecoder.Decode(asJSON, nil, nil)
				require.NoError(t, err)
				var want bytes.Buffer
				require.NoError(t, pbSerializer.Encode(got, &want))
				if added, skew := newerMembers[gvk.Kind]; skew {
					// k8s.io/api v0.37 writes a member v1.36's types lack: the bytes differ by
					// it alone, and the real decoder reads ours back to the same object.
					back, _, err := pbSerializer.Decode(asProtobuf, nil, nil)
					require.NoError(t, err)
					require.True(t, apiequality.Semantic.DeepEqual(got, back), "protobuf and JSON answers differ beyond %s", added)
					return
				}
				if !bytes.Equal(want.Bytes(), asProtobuf) {
					t.Fatalf("the protobuf answer differs from k8s.io/api's encoding of the JSON answer\n%s", firstDiff(want.Bytes(), asProtobuf))
				}
				back, _, err := pbSerializer.Decode(asProtobuf, nil, nil)
				require.NoError(t, err)
				var again bytes.Buffer
				require.NoError(t, pbSerializer.Encode(back, &again))
				require.True(t, bytes.Equal(want.Bytes(), again.Bytes()))
			}
			if !slices.Contains(verbs, "create") {
				// A kind that cannot be created: its collection.
				sameInProtobuf(t, http.MethodGet, env.URL+base, nil, "", http.StatusOK)
				return
			}
			for _, tc := range []struct {
				encoding, contentType string
				body                  []byte
			}{
				{"json", "application/json", manifest},
				{"protobuf", protobufType, pbBody.Bytes()},
			} {
				t.Run(tc.encoding, func(t *testing.T) {
					if gvk.Kind == "Binding" {
						// A binding binds once: the pod is made again for each request.
						for _, accept := range []string{"application/json", protobufType} {
							rebind(t, hc, env.URL, mapper, jsonDecoder, docs[:len(docs)-1])
							code, body := do(t, hc, http.MethodPost, env.URL+base, tc.body, tc.contentType, accept)
							require.Equal(t, http.StatusCreated, code, "%s", body)
						}
						return
					}
					if accessor.GetName() == "" || !slices.Contains(verbs, "get") {
						// A review: nothing is stored, the create answers it (twice, once per Accept).
						sameInProtobuf(t, http.MethodPost, env.URL+base, tc.body, tc.contentType, http.StatusCreated)
						return
					}
					code, body := do(t, hc, http.MethodPost, env.URL+base, tc.body, tc.contentType, "application/json")
					require.Equal(t, http.StatusCreated, code, "create: %s", body)
					item := env.URL + base + "/" + accessor.GetName()
					// Background: a ReplicationController's or a Job's default is to orphan, and the
					// orphan finalizer would keep it until a garbage collector runs (none does here).
					t.Cleanup(func() {
						do(t, hc, http.MethodDelete, item+"?propagationPolicy=Background", nil, "", "application/json")
					})
					sameInProtobuf(t, http.MethodGet, item, nil, "", http.StatusOK)
					code, body = do(t, hc, http.MethodDelete, item+"?propagationPolicy=Background", nil, "", "application/json")
					require.Contains(t, []int{http.StatusOK, http.StatusAccepted}, code, "delete: %s", body)
					if gvk.Kind == "Namespace" {
						// The namespace controller would empty and finalize it; none runs here.
						fin := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q},"spec":{"finalizers":[]}}`, accessor.GetName())
						code, body = do(t, hc, http.MethodPut, item+"/finalize", []byte(fin), "application/json", "application/json")
						require.Equal(t, http.StatusOK, code, "finalize: %s", body)
					}
					if code, body = do(t, hc, http.MethodGet, item, nil, "", "application/json"); code == http.StatusOK && strings.Contains(string(body), "-protection") {
						// The StorageObjectInUseProtection finalizer, which its controller
						// would lift: none runs here, so the test does.
						code, body = do(t, hc, http.MethodPatch, item, []byte(`{"metadata":{"finalizers":null}}`), "application/merge-patch+json", "application/json")
						require.Equal(t, http.StatusOK, code, "%s", body)
					}
				})
			}
		})
	}
}

// newerMembers are the kinds whose k8s.io/api v0.37 types (client-go's, and this module's)
// gained a member that kube-apiserver v1.36's, which the simulator models, do not have.
var newerMembers = map[string]string{
	"CSINode": "status (field 3, new in k8s.io/api v0.37)",
}

// rebind deletes and creates again the objects a binding needs (its pod), so that it can be
// bound once more.
func rebind(t *testing.T, hc *http.Client, url string, mapper apimeta.RESTMapper, dec k8sruntime.Decoder, needs [][]byte) {
	t.Helper()
	for _, need := range needs {
		obj, gvk, err := dec.Decode(need, nil, nil)
		require.NoError(t, err)
		accessor, err := apimeta.Accessor(obj)
		require.NoError(t, err)
		coll := url + collectionPath(t, mapper, obj, gvk)
		do(t, hc, http.MethodDelete, coll+"/"+accessor.GetName()+"?gracePeriodSeconds=0", nil, "", "application/json")
		code, body := do(t, hc, http.MethodPost, coll, need, "application/json", "application/json")
		require.Equal(t, http.StatusCreated, code, "%s", body)
	}
}

// verbsOf reads the verbs of gvk's resource from the simulator's discovery.
func verbsOf(t *testing.T, url string, gvk *schema.GroupVersionKind) []string {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(wiretest.RESTConfig(url))
	require.NoError(t, err)
	list, err := dc.ServerResourcesForGroupVersion(gvk.GroupVersion().String())
	require.NoError(t, err)
	for _, r := range list.APIResources {
		if r.Kind == gvk.Kind && !strings.Contains(r.Name, "/") {
			return r.Verbs
		}
	}
	t.Fatalf("%s is not served", gvk)
	return nil
}

// restMapper maps kinds to resources from the simulator's discovery, as kubectl does.
func restMapper(t *testing.T, url string) apimeta.RESTMapper {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(wiretest.RESTConfig(url))
	require.NoError(t, err)
	return restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
}

// collectionPath is where objects of obj's kind are created.
func collectionPath(t *testing.T, mapper apimeta.RESTMapper, obj k8sruntime.Object, gvk *schema.GroupVersionKind) string {
	t.Helper()
	mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	require.NoError(t, err, "%s is served", gvk)
	m, err := apimeta.Accessor(obj)
	require.NoError(t, err)
	p := "/apis/" + gvk.Group + "/" + gvk.Version
	if gvk.Group == "" {
		p = "/api/" + gvk.Version
	}
	if mapping.Scope.Name() == apimeta.RESTScopeNameNamespace {
		ns := m.GetNamespace()
		if ns == "" {
			ns = "default"
		}
		p += "/namespaces/" + ns
	}
	return p + "/" + mapping.Resource.Resource
}

// do sends one request and returns the code and body.
func do(t *testing.T, hc *http.Client, method, url string, body []byte, contentType, accept string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", accept)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out bytes.Buffer
	_, err = out.ReadFrom(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, out.Bytes()
}

const protobufType = "application/vnd.kubernetes.protobuf"
