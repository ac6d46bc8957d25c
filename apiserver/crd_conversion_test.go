package apiserver

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conversionWebhook is a conversion webhook over HTTPS: example.com/v1 Widgets keep
// spec.host and spec.port, v2 ones spec.address ("host:port"). A Widget named "refuse"
// makes it answer Failure; fail makes it answer 500.
func conversionWebhook(t *testing.T, host string) (srv *httptest.Server, caPEM []byte, calls *atomic.Int32, fail *atomic.Bool) {
	t.Helper()
	calls, fail = &atomic.Int32{}, &atomic.Bool{}
	tlsConf, caPEM, err := selfSignedTLS(host)
	require.NoError(t, err)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if fail.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		var review struct {
			APIVersion, Kind string
			Request          struct {
				UID               string           `json:"uid"`
				DesiredAPIVersion string           `json:"desiredAPIVersion"`
				Objects           []map[string]any `json:"objects"`
			} `json:"request"`
		}
		if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		result := map[string]any{"status": "Success"}
		var out []any
		for _, o := range review.Request.Objects {
			spec, _ := o["spec"].(map[string]any)
			if md, _ := o["metadata"].(map[string]any); md["name"] == "refuse" {
				result = map[string]any{"status": "Failure", "message": "widget refuse cannot be converted"}
			}
			switch review.Request.DesiredAPIVersion {
			case "example.com/v1":
				host, port, _ := net.SplitHostPort(fmt.Sprint(spec["address"]))
				o["spec"] = map[string]any{"host": host, "port": port}
			case "example.com/v2":
				o["spec"] = map[string]any{"address": net.JoinHostPort(fmt.Sprint(spec["host"]), fmt.Sprint(spec["port"]))}
			}
			o["apiVersion"] = review.Request.DesiredAPIVersion
			out = append(out, o)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": review.APIVersion, "kind": "ConversionReview",
			"response": map[string]any{"uid": review.Request.UID, "convertedObjects": out, "result": result}})
	}))
	srv.TLS = tlsConf
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, caPEM, calls, fail
}

func widgetCRD(clientConfig map[string]any) map[string]any {
	obj := func(props map[string]any) map[string]any {
		return map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
			"spec": map[string]any{"type": "object", "properties": props}}}}
	}
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{"group": "example.com", "scope": "Namespaced", "names": map[string]any{"plural": "widgets", "kind": "Widget"},
			"conversion": map[string]any{"strategy": "Webhook", "webhook": map[string]any{
				"conversionReviewVersions": []any{"v1"}, "clientConfig": clientConfig}},
			"versions": []any{
				map[string]any{"name": "v1", "served": true, "storage": true, "schema": obj(map[string]any{
					"host": map[string]any{"type": "string"}, "port": map[string]any{"type": "string"}})},
				map[string]any{"name": "v2", "served": true, "storage": false, "schema": obj(map[string]any{
					"address": map[string]any{"type": "string"}})},
			}}}
}

func widget(version, name string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "example.com/" + version, "kind": "Widget", "metadata": map[string]any{"name": name}, "spec": spec}
}

// TestCh13_CRD_WebhookConversion checks a CRD with the Webhook strategy: an object written
// at v2 is converted by the webhook (trusted through the caBundle) and stored at the
// storage version v1; reads at v2 are converted back, one object and lists alike; a
// webhook that refuses or fails makes the request a 500 with the real converter's message.
func TestCh13_CRD_WebhookConversion(t *testing.T) {
	wh, caPEM, calls, fail := conversionWebhook(t, "localhost")
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, crdPath, widgetCRD(map[string]any{"url": wh.URL + "/convert", "caBundle": caPEM}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)

	const v1, v2 = "/apis/example.com/v1/namespaces/default/widgets", "/apis/example.com/v2/namespaces/default/widgets"
	r = c.do(http.MethodPost, v2, widget("v2", "w", map[string]any{"address": "db:5432"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var got map[string]any
	r.decode(t, &got)
	assert.Equal(t, "example.com/v2", got["apiVersion"])
	assert.Equal(t, map[string]any{"address": "db:5432"}, got["spec"], "the answer, converted back")
	c.get(v1+"/w").decode(t, &got)
	assert.Equal(t, map[string]any{"host": "db", "port": "5432"}, got["spec"], "stored at v1")
	assert.Equal(t, "example.com/v1", got["apiVersion"])

	before := calls.Load()
	var list struct {
		Items []map[string]any
	}
	c.get(v2).decode(t, &list)
	require.Len(t, list.Items, 1)
	assert.Equal(t, map[string]any{"address": "db:5432"}, list.Items[0]["spec"])
	assert.Equal(t, int32(1), calls.Load()-before, "a list is one review")
	c.get(v1).decode(t, &list)
	assert.Equal(t, before+1, calls.Load(), "the storage version needs no webhook")

	r = c.do(http.MethodPost, v2, widget("v2", "refuse", map[string]any{"address": "x:1"}))
	require.Equal(t, http.StatusInternalServerError, r.code, "%s", r.body)
	assert.Equal(t, "Internal error occurred: conversion webhook for example.com/v2, Kind=Widget failed: widget refuse cannot be converted", r.status(t).Message)

	fail.Store(true)
	r = c.get(v2 + "/w")
	require.Equal(t, http.StatusInternalServerError, r.code, "%s", r.body)
	assert.Equal(t, "Internal error occurred: conversion webhook for example.com/v2, Kind=Widget failed: the server responded with the status code 500 but did not return more information", r.status(t).Message)
}

// TestCh13_CRD_WebhookConversionService checks a webhook named by a Service: an
// ExternalName Service says where it is dialled, and its certificate is checked for
// <service>.<namespace>.svc, as the real server checks it.
func TestCh13_CRD_WebhookConversionService(t *testing.T) {
	wh, caPEM, calls, _ := conversionWebhook(t, "conv.default.svc")
	_, port, err := net.SplitHostPort(strings.TrimPrefix(wh.URL, "https://"))
	require.NoError(t, err)
	_, c := newServer(t, Options{})
	r := c.do(http.MethodPost, "/api/v1/namespaces/default/services", map[string]any{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "conv"}, "spec": map[string]any{"type": "ExternalName", "externalName": "127.0.0.1"}})
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	var portNum int
	_, _ = fmt.Sscan(port, &portNum)
	r = c.do(http.MethodPost, crdPath, widgetCRD(map[string]any{"caBundle": caPEM,
		"service": map[string]any{"namespace": "default", "name": "conv", "path": "/convert", "port": portNum}}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	r = c.do(http.MethodPost, "/apis/example.com/v2/namespaces/default/widgets", widget("v2", "w", map[string]any{"address": "db:5432"}))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Positive(t, calls.Load())
}
