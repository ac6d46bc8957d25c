package testbed

import (
	"sync"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
)

// DropInitialEventsEnd is a fault for Options.WatchFilter: it forwards a watch's events but
// swallows the initial-events-end BOOKMARK, as a server that accepts watch-list but never
// ends the initial list would. The reflector then waits for the end of a list that never
// comes. It has no client-go counterpart.
func DropInitialEventsEnd(in watch.Interface) watch.Interface {
	b := &bookmarkEater{in: in, out: make(chan watch.Event), stop: make(chan struct{})}
	go b.run()
	return b
}

// bookmarkEater is the watch DropInitialEventsEnd returns.
type bookmarkEater struct {
	in   watch.Interface
	out  chan watch.Event
	stop chan struct{}
	once sync.Once
}

func (b *bookmarkEater) run() {
	defer close(b.out)
	defer b.in.Stop()
	for {
		select {
		case <-b.stop:
			return
		case ev, ok := <-b.in.ResultChan():
			if !ok {
				return
			}
			if ev.Type == watch.Bookmark {
				if m, err := api.Accessor(ev.Object); err == nil && m.GetAnnotations()[api.InitialEventsAnnotationKey] == "true" {
					continue
				}
			}
			select {
			case b.out <- ev:
			case <-b.stop:
				return
			}
		}
	}
}

// Stop ends the forwarding and the server's watch.
func (b *bookmarkEater) Stop() { b.once.Do(func() { close(b.stop) }) }

// ResultChan is the filtered event channel.
func (b *bookmarkEater) ResultChan() <-chan watch.Event { return b.out }
