package ch10

import (
	"context"
	"errors"
	"fmt"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/rest"
)

// PodClient mirrors the one clientset call the controller makes,
// kubeclientset.CoreV1().Pods(ns).UpdateStatus in client-go kubernetes/typed/core/v1/pod.go:
// PUT the pod's status subresource and return what the server stored.
type PodClient interface {
	UpdateStatus(ctx context.Context, pod *api.Pod) (*api.Pod, error)
}

// PodClientFunc adapts a function to PodClient (ours; tests use it to wrap the in-process
// apiserver).
type PodClientFunc func(ctx context.Context, pod *api.Pod) (*api.Pod, error)

// UpdateStatus calls f.
func (f PodClientFunc) UpdateStatus(ctx context.Context, pod *api.Pod) (*api.Pod, error) {
	return f(ctx, pod)
}

// NewRESTPodClient mirrors the generated pods client of client-go's typed clientset, over our
// rest.RESTClient: UpdateStatus is PUT /api/v1/namespaces/{ns}/pods/{name}/status.
func NewRESTPodClient(c *rest.RESTClient) PodClient {
	return PodClientFunc(func(ctx context.Context, pod *api.Pod) (*api.Pod, error) {
		if pod == nil {
			return nil, errors.New("ch10: UpdateStatus of a nil pod")
		}
		obj, err := c.Put().Namespace(pod.Namespace).Resource("pods").Name(pod.Name).
			SubResource("status").Body(pod).Do(ctx).Get()
		if err != nil {
			return nil, err
		}
		p, ok := obj.(*api.Pod)
		if !ok {
			return nil, fmt.Errorf("ch10: UpdateStatus returned a %T, not a pod", obj)
		}
		return p, nil
	})
}
