package dashboard

// ListenerStats is one processorListener as the dashboard draws it: the notifications waiting
// in its RingGrowing buffer and the ring's current capacity. It mirrors what client-go's
// processorListener keeps in pendingNotifications (tools/cache/shared_informer.go), which
// client-go itself does not expose.
type ListenerStats struct {
	Name     string `json:"name"`
	Pending  int    `json:"pending"`
	Capacity int    `json:"capacity"`
}

// Stats is one snapshot of the pipeline's counters, one field per box of the diagram. It has
// no client-go counterpart: client-go exposes such numbers only as metrics, which we leave out.
type Stats struct {
	// ServerRV and ServerObjects describe the apiserver box: its current resourceVersion and
	// how many objects it stores.
	ServerRV      string `json:"serverRV"`
	ServerObjects int    `json:"serverObjects"`
	// QueueLen is the DeltaFIFO/RealFIFO length; IndexerSize the number of cached objects.
	QueueLen    int             `json:"queueLen"`
	IndexerSize int             `json:"indexerSize"`
	Listeners   []ListenerStats `json:"listeners"`
	// WorkqueueDepth counts keys waiting (Len); Processing counts keys handed to a worker and
	// not yet Done.
	WorkqueueDepth int `json:"workqueueDepth"`
	Processing     int `json:"processing"`
	// Running totals since the pipeline started.
	Retries    int64 `json:"retries"`
	Reconciles int64 `json:"reconciles"`
	Relists    int64 `json:"relists"`
	Lists      int64 `json:"lists"`
	Watches    int64 `json:"watches"`
	Events     int64 `json:"events"`
	Tombstones int64 `json:"tombstones"`
	// Controllers are the cluster's own controllers when `demo serve` runs them: one per
	// controller, sorted by name. Empty for the informer pipeline of `demo run`.
	Controllers []ControllerStats `json:"controllers,omitempty"`
}

// ControllerStats is one controller of the simulated cluster as the dashboard draws it: the
// depth of its workqueue (controllers.Manager.QueueDepths), how many trace hops it has logged
// (records whose component is its name) and how many of those were writes (hops with a
// cause attribute). It mirrors nothing in client-go, which shows queue depth only as the
// workqueue_depth metric.
type ControllerStats struct {
	Name   string `json:"name"`
	Depth  int    `json:"depth"`
	Hops   int64  `json:"hops"`
	Writes int64  `json:"writes"`
}

// Actions is the fault API and the pod buttons of the dashboard. Each method runs on the
// request's goroutine and should return promptly. It has no client-go counterpart.
type Actions interface {
	// DropNextEvents makes the apiserver drop the next n watch events (n ≥ 1).
	DropNextEvents(n int) error
	// Compact compacts the apiserver's event history, so that resuming watches get 410 Gone.
	Compact() error
	// CloseWatches ends every open watch stream, as a server restart or a proxy timeout would.
	CloseWatches() error
	// ToggleSlowHandler switches the deliberately slow handler on or off and reports the new
	// state.
	ToggleSlowHandler() (slow bool, err error)
	// CreatePod creates a pod and returns its name.
	CreatePod() (name string, err error)
	// DeletePod deletes a pod and returns its name.
	DeletePod() (name string, err error)
}
