package ssacheck

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/informer-lab/informer-lab/tools/internal/linecmd"
)

// request and response are ssaeval's line protocol.
type request struct {
	Op          string          `json:"op"`
	Group       string          `json:"group"`
	Version     string          `json:"version"`
	Kind        string          `json:"kind"`
	Live        json.RawMessage `json:"live,omitempty"`
	Object      json.RawMessage `json:"object"`
	Manager     string          `json:"manager"`
	Subresource string          `json:"subresource,omitempty"`
	Force       bool            `json:"force,omitempty"`
	Time        time.Time       `json:"time"`
	// CustomResource, when set, gives the type of a custom resource.
	CustomResource *customResource `json:"customResource,omitempty"`
}

type response struct {
	Object json.RawMessage `json:"object,omitempty"`
	Error  string          `json:"error,omitempty"`
	Code   int32           `json:"code,omitempty"`
}

// ours runs the main module's field manager through its ssaeval command.
type ours struct{ cmd *linecmd.Cmd }

func startOurs(t testing.TB) *ours {
	t.Helper()
	return &ours{linecmd.Start(t, "./apiserver/internal/fieldmanager/ssaeval")}
}

func (o *ours) run(req request) (response, error) {
	var resp response
	err := o.cmd.Do(req, &resp)
	return resp, err
}
