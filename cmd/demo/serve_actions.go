package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync/atomic"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
	"github.com/informer-lab/informer-lab/internal/dashboard"
)

// serveActions is what the dashboard's buttons do to `demo serve`: the server's faults, which
// every controller's informers then live through, and a pod made or removed in namespace
// default for the scheduler and the kubelets to act on.
type serveActions struct {
	srv  *apiserver.Server
	next atomic.Int64
}

var _ dashboard.Actions = (*serveActions)(nil)

// DropNextEvents makes the server lose the next n watch events.
func (a *serveActions) DropNextEvents(n int) error {
	a.srv.DropNextEvents(apiserver.DropRule{Count: n})
	return nil
}

// Compact compacts the history and cuts every watch: each controller's reflectors get 410 and
// relist.
func (a *serveActions) Compact() error {
	a.srv.CompactAll()
	a.srv.CloseAllWatches()
	return nil
}

// CloseWatches ends every watch; reflectors resume from their last resourceVersion.
func (a *serveActions) CloseWatches() error {
	a.srv.CloseAllWatches()
	return nil
}

// ToggleSlowHandler has nothing to slow down here: the slow handler is `demo run`'s.
func (a *serveActions) ToggleSlowHandler() (bool, error) {
	return false, errors.New("demo serve has no slow handler (demo run --ui has one)")
}

// CreatePod creates a bare pod in namespace default, unscheduled.
func (a *serveActions) CreatePod() (string, error) {
	name := "dashboard-pod-" + strconv.FormatInt(a.next.Add(1), 10)
	_, err := a.srv.Create(context.Background(), "pods", "default", newPod(name, nil))
	return name, err
}

// DeletePod deletes one pod of namespace default, at random; a controller that owns it makes
// another.
func (a *serveActions) DeletePod() (string, error) {
	obj, err := a.srv.List(context.Background(), "pods", "default", api.ListOptions{})
	if err != nil {
		return "", err
	}
	list, ok := obj.(*api.PodList)
	if !ok || len(list.Items) == 0 {
		return "", errors.New("there is no pod in namespace default")
	}
	name := list.Items[rand.IntN(len(list.Items))].Name
	_, err = a.srv.Delete(context.Background(), "pods", "default", name, nil)
	return name, err
}
