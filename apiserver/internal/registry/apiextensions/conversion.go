package apiextensions

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver/internal/validation"
)

// Converter converts the custom objects of one CRD between its versions. It mirrors
// crConverter of pkg/apiserver/conversion with the nopConverter (strategy None: only
// apiVersion changes) or the webhookConverter (strategy Webhook: a ConversionReview is
// POSTed to the CRD's webhook over HTTPS, the caBundle trusted).
type Converter struct {
	webhook *ClientConfig
	reviews []string
	// Resolve gives the host:port a service reference is dialled at; see DialService.
	Resolve func(namespace, name string, port int32) string
	// Timeout bounds one webhook call; 30 s, as the real client's.
	Timeout time.Duration
}

// NewConverter returns the converter of a CRD.
func NewConverter(spec Spec) *Converter {
	c := &Converter{Timeout: 30 * time.Second}
	if spec.Strategy() == "Webhook" && spec.Conversion.Webhook != nil {
		c.webhook = spec.Conversion.Webhook.ClientConfig
		c.reviews = spec.Conversion.Webhook.ConversionReviewVersions
	}
	return c
}

// Webhook reports whether objects go through a webhook.
func (c *Converter) Webhook() bool { return c != nil && c.webhook != nil }

// Convert converts objs to apiVersion to, in place where only apiVersion changes; objects
// already at to are left alone. gvk names what is converted in errors, as
// GroupVersionKind.String prints it ("example.com/v1, Kind=Foo"). The error is the real
// webhook converter's.
func (c *Converter) Convert(ctx context.Context, objs []map[string]any, to, gvk string) ([]map[string]any, error) {
	var idx []int
	for i, o := range objs {
		if o["apiVersion"] != to {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return objs, nil
	}
	if !c.Webhook() {
		for _, i := range idx {
			objs[i]["apiVersion"] = to
		}
		return objs, nil
	}
	in := make([]any, len(idx))
	for j, i := range idx {
		in[j] = objs[i]
	}
	converted, err := c.review(ctx, in, to)
	if err != nil {
		return nil, fmt.Errorf("conversion webhook for %s failed: %v", gvk, err)
	}
	if len(converted) != len(in) {
		return nil, fmt.Errorf("conversion webhook for %s returned %d objects, expected %d", gvk, len(converted), len(in))
	}
	out := make([]map[string]any, len(objs))
	copy(out, objs)
	for j, i := range idx {
		m, ok := converted[j].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("conversion webhook for %s returned invalid converted object at index %d: invalid type, expected=Unstructured, got=%T", gvk, j, converted[j])
		}
		at := fmt.Sprintf("at index %d", j)
		if len(objs) == 1 {
			at = "at index 0"
		}
		if got := m["apiVersion"]; got != to {
			return nil, fmt.Errorf("conversion webhook for %s returned invalid converted object %s: invalid groupVersion (expected %v, received %v)", gvk, at, to, got)
		}
		if err := checkConverted(objs[i], m); err != nil {
			return nil, fmt.Errorf("conversion webhook for %s returned invalid converted object %s: %v", gvk, at, err)
		}
		if err := restoreMeta(objs[i], m); err != nil {
			return nil, fmt.Errorf("conversion webhook for %s returned invalid metadata in object %s: %v", gvk, at, err)
		}
		out[i] = m
	}
	return out, nil
}

func meta(o map[string]any, k string) any {
	md, _ := o["metadata"].(map[string]any)
	return md[k]
}

// checkConverted mirrors validateConvertedObject.
func checkConverted(in, out map[string]any) error {
	if e, a := in["kind"], out["kind"]; e != a {
		return fmt.Errorf("must have the same kind: %v != %v", e, a)
	}
	for _, k := range []string{"name", "namespace", "uid"} {
		e, _ := meta(in, k).(string)
		a, _ := meta(out, k).(string)
		if e != a {
			word := map[string]string{"name": "name", "namespace": "namespace", "uid": "UID"}[k]
			return fmt.Errorf("must have the same %s: %v != %v", word, e, a)
		}
	}
	return nil
}

// restoreMeta mirrors restoreObjectMeta: the converted object keeps the original metadata,
// but for the labels and annotations the webhook may change (valid ones).
func restoreMeta(orig, conv map[string]any) error {
	raw, found := conv["metadata"]
	if !found {
		return errors.New("missing metadata in converted object")
	}
	resp, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf("invalid metadata of type %T in converted object", raw)
	}
	md := map[string]any{}
	if om, ok := orig["metadata"].(map[string]any); ok {
		md = api.DeepCopyJSONValue(om).(map[string]any)
	}
	for _, f := range []string{"labels", "annotations"} {
		v, found := resp[f]
		if !found || v == nil {
			delete(md, f)
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("invalid metadata.%s of type %T in converted object", f, v)
		}
		strs := map[string]string{}
		for k, e := range m {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("metadata.%s[%s] must be a string, but is %T in converted object", f, k, e)
			}
			strs[k] = s
		}
		var causes []api.StatusCause
		if f == "labels" {
			causes = validation.LabelCauses(strs, "metadata.labels")
		} else {
			causes = validation.AnnotationCauses(strs, "metadata.annotation")
		}
		if len(causes) > 0 {
			return errors.New(causesText(causes))
		}
		md[f] = m
	}
	conv["metadata"] = md
	return nil
}

// causesText prints causes as an aggregate of field errors does.
func causesText(causes []api.StatusCause) string {
	var parts []string
	for _, c := range causes {
		parts = append(parts, c.Field+": "+c.Message)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + joinComma(parts) + "]"
}

func joinComma(ss []string) string {
	var b bytes.Buffer
	for i, s := range ss {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}

// review sends one ConversionReview (the first version of the CRD's list the server speaks)
// and returns the converted objects.
func (c *Converter) review(ctx context.Context, objs []any, to string) ([]any, error) {
	reviewVersion := ""
	for _, v := range c.reviews {
		if contains(acceptedReviewVersions, v) {
			reviewVersion = v
			break
		}
	}
	if reviewVersion == "" {
		return nil, errors.New("no supported conversion review versions")
	}
	uid := newUID()
	body, _ := json.Marshal(map[string]any{
		"kind": "ConversionReview", "apiVersion": "apiextensions.k8s.io/" + reviewVersion,
		"request": map[string]any{"uid": uid, "desiredAPIVersion": to, "objects": objs},
	})
	target, client, err := c.endpoint()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, */*")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("the server responded with the status code %d but did not return more information", resp.StatusCode)
	}
	var out struct {
		APIVersion, Kind string
		Response         *struct {
			UID              string `json:"uid"`
			ConvertedObjects []any  `json:"convertedObjects"`
			Result           struct {
				Status, Message string
			} `json:"result"`
		} `json:"response"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	if want := "apiextensions.k8s.io/" + reviewVersion; out.APIVersion != want || out.Kind != "ConversionReview" {
		return nil, fmt.Errorf("expected webhook response of %s, Kind=ConversionReview, got %s, Kind=%s", want, out.APIVersion, out.Kind)
	}
	if out.Response == nil {
		return nil, errors.New("no response provided")
	}
	if reviewVersion == "v1" && out.Response.UID != uid {
		return nil, fmt.Errorf("expected response.uid=%q, got %q", uid, out.Response.UID)
	}
	if out.Response.Result.Status != "Success" {
		if out.Response.Result.Message != "" {
			return nil, errors.New(out.Response.Result.Message)
		}
		return nil, fmt.Errorf("response.result.status was '%s', not 'Success'", out.Response.Result.Status)
	}
	conv := make([]any, len(out.Response.ConvertedObjects))
	for i, o := range out.Response.ConvertedObjects {
		conv[i] = fromNumbers(o)
	}
	return conv, nil
}

// fromNumbers turns json.Number into int64 or float64, as stored objects hold numbers.
func fromNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = fromNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = fromNumbers(e)
		}
	}
	return v
}

// endpoint is the URL a review is POSTed to (with the client's ?timeout, as client-go adds
// it) and an HTTPS client trusting the caBundle, or the system roots without one. A
// service reference is https://<name>.<namespace>.svc:<port><path>, its certificate checked
// for that name, dialled at the address Resolve gives.
func (c *Converter) endpoint() (string, *http.Client, error) {
	cc := c.webhook
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(cc.CABundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(cc.CABundle) {
			return "", nil, errors.New("unable to load root certificates: unable to parse bytes as PEM block")
		}
		tlsConf.RootCAs = pool
	}
	transport := &http.Transport{TLSClientConfig: tlsConf, ForceAttemptHTTP2: true, DisableKeepAlives: true}
	var target string
	if cc.URL != nil {
		u, err := url.Parse(*cc.URL)
		if err != nil {
			return "", nil, err
		}
		target = u.String()
	} else {
		svc := cc.Service
		port := int32(443)
		if svc.Port != nil {
			port = *svc.Port
		}
		host := svc.Name + "." + svc.Namespace + ".svc"
		tlsConf.ServerName = host
		path := ""
		if svc.Path != nil {
			path = *svc.Path
		}
		target = "https://" + net.JoinHostPort(host, strconv.Itoa(int(port))) + path
		if c.Resolve != nil {
			addr := c.Resolve(svc.Namespace, svc.Name, port)
			dialer := &net.Dialer{Timeout: c.Timeout}
			transport.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
				return dialer.DialContext(ctx, network, addr)
			}
		}
	}
	u, _ := url.Parse(target)
	q := u.Query()
	q.Set("timeout", c.Timeout.String())
	u.RawQuery = q.Encode()
	return u.String(), &http.Client{Transport: transport, Timeout: c.Timeout}, nil
}

// newUID returns an RFC 4122 version 4 UUID.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
