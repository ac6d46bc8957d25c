// Command ssaeval runs this repository's field manager for the differential check in the
// tools module, which compares it with structured-merge-diff and kube-apiserver's manager
// chain: the field manager is internal to the main module, so the tools module talks to it
// over this line protocol. Each line of stdin is a JSON request (one Apply or Update); each
// line of stdout the JSON response.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/fieldmanager"
	"github.com/informer-lab/informer-lab/apiserver/internal/openapi"
	"github.com/informer-lab/informer-lab/apiserver/internal/typed"
)

type request struct {
	Op          string          `json:"op"` // "apply" or "update"
	Group       string          `json:"group"`
	Version     string          `json:"version"`
	Kind        string          `json:"kind"`
	Live        json.RawMessage `json:"live,omitempty"` // absent or null: the object does not exist
	Object      json.RawMessage `json:"object"`
	Manager     string          `json:"manager"`
	Subresource string          `json:"subresource,omitempty"`
	Force       bool            `json:"force,omitempty"`
	Time        time.Time       `json:"time"`
	// CustomResource, when set, is the custom resource's version: its type comes from its
	// schema instead of the built-in documents.
	CustomResource *openapi.CustomResource `json:"customResource,omitempty"`
}

// crTypes caches the type of each custom resource schema seen, by its JSON.
var crTypes = map[string]*typed.Atom{}

func typeOf(req request, gvk api.GroupVersionKind) (*typed.Atom, error) {
	if req.CustomResource == nil {
		return typed.ForBuiltin(gvk, "")
	}
	key, err := json.Marshal(req.CustomResource)
	if err != nil {
		return nil, err
	}
	if t, ok := crTypes[string(key)]; ok {
		return t, nil
	}
	t, err := typed.ForCustomResource(*req.CustomResource)
	if err != nil {
		return nil, err
	}
	crTypes[string(key)] = t
	return t, nil
}

type response struct {
	Object json.RawMessage `json:"object,omitempty"`
	Error  string          `json:"error,omitempty"`
	Code   int32           `json:"code,omitempty"` // of a *api.Status error
}

func decode(raw json.RawMessage) (*api.Unstructured, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	u := &api.Unstructured{}
	if err := json.Unmarshal(raw, u); err != nil {
		return nil, err
	}
	return u, nil
}

func run(req request) response {
	gvk := api.GroupVersionKind{Group: req.Group, Version: req.Version, Kind: req.Kind}
	typ, err := typeOf(req, gvk)
	if err != nil {
		return response{Error: "type: " + err.Error()}
	}
	live, err := decode(req.Live)
	if err != nil {
		return response{Error: "live: " + err.Error()}
	}
	obj, err := decode(req.Object)
	if err != nil || obj == nil {
		return response{Error: fmt.Sprintf("object: %v", err)}
	}
	f := fieldmanager.New(typ, gvk)
	now := api.NewTime(req.Time)
	var out *api.Unstructured
	switch req.Op {
	case "apply":
		out, err = f.Apply(live, obj, req.Manager, req.Subresource, req.Force, now)
	case "update":
		out, err = f.Update(live, obj, req.Manager, req.Subresource, now)
	default:
		err = fmt.Errorf("unknown op %q", req.Op)
	}
	if err != nil {
		resp := response{Error: err.Error()}
		var st *api.Status
		if errors.As(err, &st) {
			resp.Code = st.Code
		}
		return resp
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return response{Error: "encode: " + err.Error()}
	}
	return response{Object: bytes.TrimSpace(b.Bytes())}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "ssaeval:", err)
			os.Exit(2)
		}
		if err := enc.Encode(run(req)); err != nil {
			os.Exit(2)
		}
		if err := out.Flush(); err != nil {
			os.Exit(2)
		}
	}
}
