package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/apiserver"
)

// fooCRDYAML is the sample-controller's Foo CRD, with printer columns, the status and scale
// subresources and a schema with a required field and bounds.
const fooCRDYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.samplecontroller.k8s.io
  annotations:
    api-approved.kubernetes.io: "unapproved, experimental-only"
spec:
  group: samplecontroller.k8s.io
  scope: Namespaced
  names:
    plural: foos
    singular: foo
    kind: Foo
    listKind: FooList
    shortNames: [fo]
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources:
      status: {}
    additionalPrinterColumns:
    - {name: Deployment, type: string, jsonPath: .spec.deploymentName}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [deploymentName]
            properties:
              deploymentName:
                type: string
                description: The name of the Deployment the Foo owns.
              replicas:
                type: integer
                minimum: 1
                maximum: 10
          status:
            type: object
            properties:
              availableReplicas: {type: integer}
`

func fooYAML(name, spec string) string {
	return "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata:\n  name: " + name + "\nspec:\n" + spec
}

// TestCh13_Kubectl_CRD is the custom resource path a learner takes with kubectl: apply the
// CRD, apply a Foo, list it with its printer columns and by short name, see a bad Foo refused
// with the real messages, explain the schema, delete the CRD.
func TestCh13_Kubectl_CRD(t *testing.T) {
	e := newEnv(t, apiserver.Options{})
	out := e.ok("apply", "-f", e.file("crd.yaml", fooCRDYAML))
	assert.Contains(t, out, "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io created")
	out = e.ok("get", "crd", "foos.samplecontroller.k8s.io", "-o", "jsonpath={.status.conditions[?(@.type==\"Established\")].status}")
	assert.Equal(t, "True", out)

	out = e.ok("apply", "-f", e.file("foo.yaml", fooYAML("example-foo", "  deploymentName: example-foo\n  replicas: 1\n")))
	assert.Contains(t, out, "foo.samplecontroller.k8s.io/example-foo created")

	lines := strings.Split(strings.TrimSpace(e.ok("get", "foos")), "\n")
	require.Len(t, lines, 2, "%q", lines)
	assert.Equal(t, []string{"NAME", "DEPLOYMENT", "REPLICAS", "AGE"}, fields(lines[0]))
	row := fields(lines[1])
	require.Len(t, row, 4, "%q", lines[1])
	assert.Equal(t, []string{"example-foo", "example-foo", "1"}, row[:3])
	assert.Contains(t, e.ok("get", "fo"), "example-foo", "the short name")

	// Applied again with a change: a merge patch, which moves generation.
	out = e.ok("apply", "-f", e.file("foo.yaml", fooYAML("example-foo", "  deploymentName: example-foo\n  replicas: 2\n")))
	assert.Contains(t, out, "foo.samplecontroller.k8s.io/example-foo configured")
	assert.Equal(t, "2 2", e.ok("get", "foo", "example-foo", "-o", "jsonpath={.spec.replicas} {.metadata.generation}"))
	lines = strings.Split(strings.TrimSpace(e.ok("get", "crd")), "\n")
	assert.Equal(t, []string{"NAME", "CREATED", "AT"}, fields(lines[0]))

	_, errOut, err := e.run("apply", "-f", e.file("missing.yaml", fooYAML("missing", "  replicas: 1\n")))
	require.Error(t, err)
	assert.Contains(t, errOut, `The Foo "missing" is invalid: spec.deploymentName: Required value`)
	_, errOut, err = e.run("apply", "-f", e.file("big.yaml", fooYAML("big", "  deploymentName: big\n  replicas: 12\n")))
	require.Error(t, err)
	assert.Contains(t, errOut, `The Foo "big" is invalid: spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10`)

	out = e.ok("explain", "foo.spec")
	assert.Contains(t, out, "deploymentName")
	assert.Contains(t, out, "The name of the Deployment the Foo owns.")

	out = e.ok("delete", "crd", "foos.samplecontroller.k8s.io")
	assert.Contains(t, out, `customresourcedefinition.apiextensions.k8s.io "foos.samplecontroller.k8s.io" deleted`)
	// kubectl may still map "foos" from its discovery cache; either way the server says 404.
	_, errOut, err = e.run("get", "foos")
	require.Error(t, err)
	assert.Regexp(t, `NotFound|doesn't have a resource type "foos"`, errOut)
}
