package apiserver

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/labels"
	"github.com/informer-lab/informer-lab/apiserver/internal/decode"
	"github.com/informer-lab/informer-lab/apiserver/internal/negotiation"
	"github.com/informer-lab/informer-lab/apiserver/internal/printers"
	iprotobuf "github.com/informer-lab/informer-lab/internal/builtinproto"
)

// componentstatuses (pkg/registry/core/componentstatus): no storage; every GET probes the
// control plane's components as kube-apiserver does, the scheduler and the controller
// manager at their default secure ports on the loopback address, and the storage, which is
// this process and always answers "ok". With no scheduler or controller manager listening
// there, they read Unhealthy with the dial error, as on a server that runs without them.

// componentProbes are the components probed, in the order a list shows them.
var componentProbes = []struct{ name, url string }{
	{"scheduler", "https://127.0.0.1:10259/healthz"},
	{"controller-manager", "https://127.0.0.1:10257/healthz"},
	{"etcd-0", ""}, // the storage
}

// componentProbeTimeout mirrors the probe timeout of componentstatus' validator.
const componentProbeTimeout = 20 * time.Second

var componentStatusGVK = api.GroupVersionKind{Version: "v1", Kind: "ComponentStatus"}

// serveComponentStatuses serves GET of the collection and of one component.
func serveComponentStatuses(s *endpoints, w http.ResponseWriter, r *http.Request, info requestInfo) {
	if info.name != "" {
		for _, c := range componentProbes {
			if c.name == info.name {
				s.writeComponentStatuses(w, info, []map[string]any{componentStatus(r.Context(), c.name, c.url)}, false)
				return
			}
		}
		writeError(w, api.NewNotFound(api.GroupResource{Resource: "componentstatus"}, info.name))
		return
	}
	opts, err := decode.ParseListOptions(r.URL.Query(), false)
	if err != nil {
		writeError(w, err)
		return
	}
	sel, err := parseSelectors(info.res, opts.LabelSelector, opts.FieldSelector)
	if err != nil {
		writeError(w, err)
		return
	}
	items := make([]map[string]any, len(componentProbes))
	var wg sync.WaitGroup
	for i, c := range componentProbes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			items[i] = componentStatus(r.Context(), c.name, c.url)
		}()
	}
	wg.Wait()
	kept := items[:0]
	for _, it := range items {
		u := &api.Unstructured{Object: it}
		if sel.label != nil && !sel.label.Matches(labels.Set(u.GetLabels())) {
			continue
		}
		if sel.field != nil && !sel.field.Matches(info.res.Info.FieldsOf(u)) {
			continue
		}
		kept = append(kept, it)
	}
	s.writeComponentStatuses(w, info, kept, true)
}

// componentStatus mirrors REST.getComponentStatus: one Healthy condition from the probe.
func componentStatus(ctx context.Context, name, url string) map[string]any {
	status, msg := "True", "ok"
	if url != "" {
		status, msg = probeComponent(ctx, url)
	}
	return map[string]any{
		"kind": "ComponentStatus", "apiVersion": "v1", "metadata": map[string]any{"name": name},
		"conditions": []any{map[string]any{"type": "Healthy", "status": status, "message": msg}},
	}
}

// probeComponent mirrors the HTTP prober of pkg/probe/http as the component checks use
// it: TLS without verification, a failed connection is Failure with the error as its text,
// a status in 200–399 Success with the body, any other Failure naming the status.
func probeComponent(ctx context.Context, url string) (status, msg string) {
	ctx, cancel := context.WithTimeout(ctx, componentProbeTimeout)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, DisableKeepAlives: true}} //nolint:gosec // as the real prober
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "Unknown", ""
	}
	req.Header.Set("User-Agent", "kube-probe/1.36")
	resp, err := client.Do(req)
	if err != nil {
		return "False", err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 10*1024))
	if resp.StatusCode >= 200 && resp.StatusCode < 400 {
		return "True", string(body)
	}
	return "False", fmt.Sprintf("HTTP probe failed with statuscode: %d", resp.StatusCode)
}

// writeComponentStatuses answers with one ComponentStatus or their list, as JSON,
// protobuf or a Table.
func (s *endpoints) writeComponentStatuses(w http.ResponseWriter, info requestInfo, items []map[string]any, list bool) {
	if info.out.Shape == negotiation.Table {
		rows := make([]printers.Row, len(items))
		for i, it := range items {
			data, _ := json.Marshal(it)
			rows[i] = printers.Row{Object: &api.Unstructured{Object: it}, JSON: data}
		}
		writeRawType(w, http.StatusOK, info.out.ContentType(), append(s.tableConverter(info).Table(api.ListMeta{}, rows, true), '\n'))
		return
	}
	gvk := componentStatusGVK
	var obj any = items
	if list {
		gvk.Kind += "List"
		anyItems := make([]any, len(items))
		for i, it := range items {
			anyItems[i] = it
		}
		obj = map[string]any{"kind": gvk.Kind, "apiVersion": "v1", "metadata": map[string]any{}, "items": anyItems}
	} else {
		obj = items[0]
	}
	if info.out.Protobuf {
		data, err := iprotobuf.Codec().Encode(gvk, obj.(map[string]any))
		if err != nil {
			writeError(w, api.NewInternalError(err))
			return
		}
		writeRawType(w, http.StatusOK, negotiation.ProtobufType, data)
		return
	}
	writeJSON(w, http.StatusOK, obj)
}
