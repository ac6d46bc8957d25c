package apiserver

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
)

const (
	coreEventsPath = "/api/v1/namespaces/default/events"
	eventsV1Path   = "/apis/events.k8s.io/v1/namespaces/default/events"
	coreEventBody  = `{"apiVersion":"v1","kind":"Event","metadata":{"name":"ev1","namespace":"default"},` +
		`"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Started","message":"hello","type":"Normal"}`
	eventsV1Body = `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"ev2","namespace":"default"},` +
		`"regarding":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Started","note":"hi","type":"Normal",` +
		`"action":"Start","reportingController":"ctl","reportingInstance":"ctl-1","eventTime":"2026-01-01T00:00:00.000000Z"}`
)

// withoutMeta decodes a body and drops its metadata (uid, RV and time are the server's).
func withoutMeta(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m), "%s", body)
	delete(m, "metadata")
	return m
}

func jsonTree(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

// TestCh01_EventsTwoViews pins both views of one stored Event against kube-apiserver
// v1.36.3's answers: an Event created through either API reads back through the other,
// converted as Convert_core_Event_To_v1_Event and its reverse convert, with the members each
// Go type writes even when empty.
func TestCh01_EventsTwoViews(t *testing.T) {
	tests := []struct {
		name, createPath, body, readPath, want string
	}{
		{"core read as events.k8s.io", coreEventsPath, coreEventBody, eventsV1Path + "/ev1",
			`{"kind":"Event","apiVersion":"events.k8s.io/v1","eventTime":null,"reason":"Started",` +
				`"regarding":{"kind":"Pod","namespace":"default","name":"p"},"note":"hello","type":"Normal","deprecatedSource":{},` +
				`"deprecatedFirstTimestamp":null,"deprecatedLastTimestamp":null}`},
		{"core read as core", coreEventsPath, coreEventBody, coreEventsPath + "/ev1",
			`{"apiVersion":"v1","eventTime":null,"firstTimestamp":null,"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},` +
				`"kind":"Event","lastTimestamp":null,"message":"hello","reason":"Started","reportingComponent":"","reportingInstance":"",` +
				`"source":{},"type":"Normal"}`},
		{"events.k8s.io read as core", eventsV1Path, eventsV1Body, coreEventsPath + "/ev2",
			`{"kind":"Event","apiVersion":"v1","involvedObject":{"kind":"Pod","namespace":"default","name":"p"},"reason":"Started",` +
				`"message":"hi","source":{},"firstTimestamp":null,"lastTimestamp":null,"type":"Normal","eventTime":"2026-01-01T00:00:00.000000Z",` +
				`"action":"Start","reportingComponent":"ctl","reportingInstance":"ctl-1"}`},
		{"events.k8s.io read as events.k8s.io", eventsV1Path, eventsV1Body, eventsV1Path + "/ev2",
			`{"action":"Start","apiVersion":"events.k8s.io/v1","deprecatedFirstTimestamp":null,"deprecatedLastTimestamp":null,` +
				`"deprecatedSource":{},"eventTime":"2026-01-01T00:00:00.000000Z","kind":"Event","note":"hi","reason":"Started",` +
				`"regarding":{"kind":"Pod","name":"p","namespace":"default"},"reportingController":"ctl","reportingInstance":"ctl-1","type":"Normal"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, Options{})
			created := c.do(http.MethodPost, tc.createPath, tc.body)
			require.Equal(t, http.StatusCreated, created.code, "%s", created.body)
			got := c.get(tc.readPath)
			require.Equal(t, http.StatusOK, got.code, "%s", got.body)
			assert.Empty(t, cmp.Diff(jsonTree(t, tc.want), withoutMeta(t, got.body)))
		})
	}
}

// TestCh01_EventsListsAndWatchesSeeBoth: a list and a watch of either view see the Events
// written through both, each in its own form; a delete through one view is the other's
// DELETED.
func TestCh01_EventsListsAndWatchesSeeBoth(t *testing.T) {
	s, c := newServer(t, Options{})
	rv := rvString(s)
	core := c.watch(coreEventsPath + "?watch=1&resourceVersion=" + rv)
	v1 := c.watch(eventsV1Path + "?watch=1&resourceVersion=" + rv)
	selected := c.watch(eventsV1Path + "?watch=1&fieldSelector=reportingController%3Dctl&resourceVersion=" + rv)
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, coreEventsPath, coreEventBody).code)
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, eventsV1Path, eventsV1Body).code)
	require.Equal(t, http.StatusOK, c.do(http.MethodDelete, eventsV1Path+"/ev1", nil).code)
	for _, tc := range []struct {
		st         *stream
		apiVersion string
	}{{core, "v1"}, {v1, "events.k8s.io/v1"}} {
		var got []string
		for range 3 {
			ev := tc.st.next()
			_, apiVersion, name, _, _ := ev.meta(t)
			assert.Equal(t, tc.apiVersion, apiVersion)
			got = append(got, ev.Type+" "+name)
		}
		assert.Equal(t, []string{"ADDED ev1", "ADDED ev2", "DELETED ev1"}, got, tc.apiVersion)
	}
	ev := selected.next()
	_, _, name, _, _ := ev.meta(t)
	assert.Equal(t, "ADDED ev2", ev.Type+" "+name, "a field selector of the view applies to the watch")
	for path, apiVersion := range map[string]string{coreEventsPath: "v1", eventsV1Path: "events.k8s.io/v1"} {
		var list struct {
			Items []struct {
				APIVersion string `json:"apiVersion"`
				Metadata   struct{ Name string }
			}
		}
		c.get(path).decode(t, &list)
		require.Len(t, list.Items, 1, path)
		assert.Equal(t, "ev2", list.Items[0].Metadata.Name)
		assert.Equal(t, apiVersion, list.Items[0].APIVersion)
	}
	for _, resource := range []string{"events", "events.events.k8s.io"} {
		l, err := s.List(context.Background(), resource, "default", api.ListOptions{})
		require.NoError(t, err)
		ll, err := api.ListAccessor(l)
		require.NoError(t, err)
		assert.NotEmpty(t, ll.GetResourceVersion())
	}
}

// TestCh01_EventsFieldSelectors: each view's labels, the events.k8s.io ones mapped onto the
// core ones, and the real 400 for a label a view does not have.
func TestCh01_EventsFieldSelectors(t *testing.T) {
	_, c := newServer(t, Options{})
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, coreEventsPath, coreEventBody).code)
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, eventsV1Path, eventsV1Body).code)
	tests := []struct {
		path, selector string
		want           []string
		msg            string // a 400's message
	}{
		{coreEventsPath, "reason=Started,involvedObject.name=p", []string{"ev1", "ev2"}, ""},
		{coreEventsPath, "reportingComponent=ctl", []string{"ev2"}, ""},
		{coreEventsPath, "source=ctl", []string{"ev2"}, ""},
		{coreEventsPath, "involvedObject.kind!=Pod", nil, ""},
		{eventsV1Path, "regarding.name=p,reportingController=ctl", []string{"ev2"}, ""},
		{eventsV1Path, "regarding.kind=Pod,type=Normal", []string{"ev1", "ev2"}, ""},
		{eventsV1Path, "reportingController=", []string{"ev1"}, ""},
		{eventsV1Path, "source=x", nil, `field label not supported: source`},
		{eventsV1Path, "involvedObject.name=p", nil, `field label not supported: involvedObject.name`},
	}
	for _, tc := range tests {
		r := c.get(tc.path + "?fieldSelector=" + tc.selector)
		if tc.msg != "" {
			require.Equal(t, http.StatusBadRequest, r.code, "%s: %s", tc.selector, r.body)
			assert.Equal(t, tc.msg, r.status(t).Message)
			continue
		}
		require.Equal(t, http.StatusOK, r.code, "%s: %s", tc.selector, r.body)
		var list struct {
			Items []struct{ Metadata struct{ Name string } }
		}
		r.decode(t, &list)
		var names []string
		for _, it := range list.Items {
			names = append(names, it.Metadata.Name)
		}
		assert.Equal(t, tc.want, names, "%s %s", tc.path, tc.selector)
	}
}

// TestCh01_EventsValidation pins ValidateEventCreate and ValidateEventUpdate for each request
// version: legacy for core/v1, strict for events.k8s.io/v1 (with core field names, the
// object being validated as the internal core Event), and the Status naming kind Event of
// the core group.
func TestCh01_EventsValidation(t *testing.T) {
	_, c := newServer(t, Options{})
	require.Equal(t, http.StatusCreated, c.do(http.MethodPost, eventsV1Path, eventsV1Body).code)
	tests := []struct {
		method, path, body, contentType string
		code                            int
		msg                             string
	}{
		{http.MethodPost, eventsV1Path, `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"ev3"},"regarding":{"kind":"Pod","name":"p"},"reason":"Started","note":"hi","type":"Bogus","deprecatedCount":3}`, "",
			422, `Event "ev3" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Bogus, count: Invalid value: "": needs to be unset]`},
		{http.MethodPost, eventsV1Path, `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"ev5"},"type":"Normal"}`, "",
			422, `Event "ev5" is invalid: eventTime: Required value`},
		{http.MethodPost, eventsV1Path, `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"ev2"},"eventTime":"2026-01-01T00:00:00.000000Z","reason":"R","action":"A","reportingController":"c","reportingInstance":"i","type":"Normal"}`, "",
			409, `events.events.k8s.io "ev2" already exists`},
		{http.MethodPost, coreEventsPath, `{"apiVersion":"v1","kind":"Event","metadata":{"name":"ev4"},"involvedObject":{"kind":"Pod","name":"p","namespace":"other"},"eventTime":"2026-01-01T00:00:00.000000Z"}`, "",
			422, `Event "ev4" is invalid: [reportingComponent: Required value, reportingComponent: Invalid value: "": name part must be non-empty, ` +
				`reportingComponent: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), ` +
				`reportingInstance: Required value, action: Required value, reason: Required value]`},
		{http.MethodPost, coreEventsPath, `{"apiVersion":"v1","kind":"Event","metadata":{"name":"ev5"},"involvedObject":{"namespace":"x"}}`, "",
			422, `Event "ev5" is invalid: involvedObject.namespace: Invalid value: "x": does not match event.namespace`},
		{http.MethodPatch, eventsV1Path + "/ev2", `{"note":"changed","series":{"count":1,"lastObservedTime":"2026-01-01T00:00:00.000000Z"}}`, "application/merge-patch+json",
			422, `Event "ev2" is invalid: [series.count: Invalid value: "": should be at least 2, message: Invalid value: "changed": field is immutable]`},
		{http.MethodPatch, eventsV1Path + "/ev2", `{"regarding":{"name":"q"},"deprecatedCount":4,"deprecatedSource":{"host":"h"},"reason":"X"}`, "application/merge-patch+json",
			422, `Event "ev2" is invalid: [involvedObject: Invalid value: {"Kind":"Pod","Namespace":"default","Name":"q","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}: field is immutable, ` +
				`reason: Invalid value: "X": field is immutable, source: Invalid value: {"Component":"","Host":"h"}: field is immutable, count: Invalid value: 4: field is immutable]`},
		{http.MethodPatch, eventsV1Path + "/ev2", `{"metadata":{"labels":{"a":"b"}}}`, "application/merge-patch+json", 200, ""},
		{http.MethodPatch, coreEventsPath + "/ev2", `{"message":"changed via core"}`, "application/merge-patch+json", 200, ""},
	}
	for _, tc := range tests {
		var r response
		if tc.contentType != "" {
			r = c.do(tc.method, tc.path, tc.body, "Content-Type", tc.contentType)
		} else {
			r = c.do(tc.method, tc.path, tc.body)
		}
		require.Equal(t, tc.code, r.code, "%s %s: %s", tc.method, tc.body, r.body)
		if tc.msg == "" {
			continue
		}
		st := r.status(t)
		assert.Equal(t, tc.msg, st.Message)
		if tc.code == 422 {
			assert.Equal(t, "Event", st.Details.Kind)
			assert.Equal(t, "", st.Details.Group, "the internal kind's group")
		}
	}
	var ev map[string]any
	c.get(eventsV1Path+"/ev2").decode(t, &ev)
	assert.Equal(t, "changed via core", ev["note"], "a core write is the events.k8s.io object's note")
}
