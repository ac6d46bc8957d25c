package dashboard

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/informer-lab/informer-lab/internal/msgcat"
	"github.com/informer-lab/informer-lab/internal/origin"
)

// maxDrop bounds ?n= of the drop action, so a typo cannot silence the server for good.
const maxDrop = 1000

// ActionResult is the JSON answer of POST /actions/{name}. It has no client-go counterpart.
type ActionResult struct {
	Action  string `json:"action"`
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
	// Name is the pod that create-pod or delete-pod touched.
	Name string `json:"name,omitempty"`
	// Slow is the slow handler's new state, set by toggle-slow only.
	Slow *bool `json:"slow,omitempty"`
	// Error explains a failure (OK false).
	Error string `json:"error,omitempty"`
}

// actionNames lists the routes under /actions/, in the order the page shows their buttons.
var actionNames = []string{"drop", "compact", "close-watches", "toggle-slow", "create-pod", "delete-pod"}

func (d *dashboard) serveAction(w http.ResponseWriter, r *http.Request, name string) {
	known := false
	for _, n := range actionNames {
		known = known || n == name
	}
	if !known {
		writeError(w, http.StatusNotFound, fmt.Sprintf("unknown action %q (want one of %v)", name, actionNames))
		return
	}
	if !allowMethod(w, r, http.MethodPost) {
		return
	}
	// Browsers send Origin on every cross-site POST, so a foreign page cannot fire the fault
	// buttons; curl sends none and is allowed.
	if !origin.Same(r) {
		writeError(w, http.StatusForbidden, "cross-origin action refused")
		return
	}
	if d.opts.Actions == nil {
		writeError(w, http.StatusNotImplemented, label(msgcat.En, "ctl.none"))
		return
	}
	a := d.opts.Actions
	res := ActionResult{Action: name}
	var err error
	switch name {
	case "drop":
		n, perr := dropCount(r)
		if perr != nil {
			writeError(w, http.StatusBadRequest, perr.Error())
			return
		}
		if err = a.DropNextEvents(n); err == nil {
			res.Message = label(msgcat.En, "act.drop", "n", strconv.Itoa(n))
		}
	case "compact":
		if err = a.Compact(); err == nil {
			res.Message = label(msgcat.En, "act.compact")
		}
	case "close-watches":
		if err = a.CloseWatches(); err == nil {
			res.Message = label(msgcat.En, "act.close")
		}
	case "toggle-slow":
		var slow bool
		if slow, err = a.ToggleSlowHandler(); err == nil {
			res.Slow = &slow
			res.Message = label(msgcat.En, "act.slow.off")
			if slow {
				res.Message = label(msgcat.En, "act.slow.on")
			}
		}
	case "create-pod":
		if res.Name, err = a.CreatePod(); err == nil {
			res.Message = label(msgcat.En, "act.create", "name", res.Name)
		}
	case "delete-pod":
		if res.Name, err = a.DeletePod(); err == nil {
			res.Message = label(msgcat.En, "act.delete", "name", res.Name)
		}
	}
	if err != nil {
		res.OK, res.Error = false, err.Error()
		writeJSON(w, http.StatusInternalServerError, res)
		return
	}
	res.OK = true
	writeJSON(w, http.StatusOK, res)
}

// dropCount reads ?n= of the drop action; it defaults to 1.
func dropCount(r *http.Request) (int, error) {
	s := r.URL.Query().Get("n")
	if s == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxDrop {
		return 0, fmt.Errorf("n must be an integer from 1 to %d, got %q", maxDrop, s)
	}
	return n, nil
}
