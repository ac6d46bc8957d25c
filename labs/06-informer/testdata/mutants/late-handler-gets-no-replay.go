// A handler added to a running informer is registered but not told about the objects
// already in the cache.
//
// Plausible because those objects' events went by before the handler existed; but a
// controller that starts late would then never reconcile them (SI-14, T13): a late handler
// gets one synthetic add per cached object first.
//
// File: informer/shared_informer.go
// Caught by: TestCh08_SharedInformer_SI14_LateHandler
package informer

import (
	"fmt"

	"github.com/informer-lab/informer-lab/processor"
)

func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler processor.ResourceEventHandler, options HandlerOptions) (processor.ResourceEventHandlerRegistration, error) {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to shared informer because it has stopped already", handlerName(handler, options))
	}
	resync := s.defaultEventHandlerResyncPeriod
	if options.ResyncPeriod != nil {
		resync = *options.ResyncPeriod
	}
	if resync > 0 {
		if resync < minimumResyncPeriod {
			resync = minimumResyncPeriod
		}
		if resync < s.resyncCheckPeriod {
			if s.started {
				resync = s.resyncCheckPeriod
			} else {
				s.resyncCheckPeriod = resync
				s.processor.ResyncCheckPeriodChanged(resync)
			}
		}
	}
	logger := s.logger
	if options.Logger != nil {
		logger = options.Logger
	}
	l, err := processor.NewProcessorListener(handler, resync, processor.DetermineResyncPeriod(resync, s.resyncCheckPeriod),
		s.clock.Now(), processor.InitialBufferSize, s.HasSyncedChecker(), processor.ListenerOptions{
			Name:        handlerName(handler, options),
			Logger:      logger,
			Clock:       s.clock,
			PanicPolicy: s.panicPolicy,
		})
	if err != nil {
		return nil, err
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	reg, running := s.processor.AddListener(l)
	if running {
		s.processor.StartWatchSynced(l)
	}
	return reg, nil
}
