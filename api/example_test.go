package api_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/api"
)

func ExampleScheme_Decode() {
	for _, data := range []string{
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"demo"}}`,
		`{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"}}`,
		`{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{},"items":[]}`,
		`{"metadata":{"name":"web"}}`,
	} {
		obj, err := api.DefaultScheme.Decode([]byte(data))
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		name := ""
		if m, err := api.Accessor(obj); err == nil {
			name = m.GetName()
		}
		fmt.Printf("%T %s %q\n", obj, obj.GetObjectKind().GroupVersionKind(), name)
	}
	// Output:
	// *api.Pod /v1, Kind=Pod "web"
	// *api.Unstructured apps/v1, Kind=Deployment "web"
	// *api.UnstructuredList apps/v1, Kind=DeploymentList ""
	// error: object 'Kind' is missing in "{\"metadata\":{\"name\":\"web\"}}"
}

func ExampleScheme_Encode() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
	data, _ := api.DefaultScheme.Encode(pod)
	fmt.Println(string(data))
	fmt.Printf("caller's TypeMeta untouched: %+v\n", pod.TypeMeta)
	// Output:
	// {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","creationTimestamp":null},"spec":{"containers":null},"status":{}}
	// caller's TypeMeta untouched: {Kind: APIVersion:}
}

func ExampleExtractList() {
	list := &api.PodList{Items: []api.Pod{
		{ObjectMeta: api.ObjectMeta{Namespace: "demo", Name: "a"}},
		{ObjectMeta: api.ObjectMeta{Namespace: "demo", Name: "b"}},
	}}
	items, _ := api.ExtractList(list)
	for _, item := range items {
		m, _ := api.Accessor(item)
		fmt.Println(m.GetNamespace() + "/" + m.GetName())
	}
	// Output:
	// demo/a
	// demo/b
}

func ExampleUnstructured() {
	u := &api.Unstructured{}
	_ = u.UnmarshalJSON([]byte(`{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w","generation":3}}`))
	u.SetLabels(map[string]string{"app": "demo"})
	data, _ := u.MarshalJSON()
	fmt.Println(u.GetName(), u.GetGeneration())
	fmt.Println(string(data))
	// Output:
	// w 3
	// {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":3,"labels":{"app":"demo"},"name":"w"}}
}

func ExampleStatus() {
	var err error = &api.Status{
		Status:  api.StatusFailure,
		Message: `pods "x" not found`,
		Reason:  api.StatusReasonNotFound,
		Details: &api.StatusDetails{Name: "x", Kind: "pods"},
		Code:    404,
	}
	fmt.Println(err)
	data, _ := api.DefaultScheme.Encode(err.(*api.Status))
	fmt.Println(string(data))
	// Output:
	// pods "x" not found
	// {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}
}
