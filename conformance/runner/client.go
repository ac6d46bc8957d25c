package runner

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// Target is one server under comparison: the reference or the simulator.
type Target struct {
	Name       string // "reference" or "simulator"
	URL        string
	Token      string // bearer token, or "" for none
	Kubeconfig string // file for kubectl steps
	CacheDir   string // kubectl --cache-dir (discovery cache), one per target
	client     *http.Client
}

// NewTarget returns a Target whose HTTP client trusts any certificate (loopback only).
func NewTarget(name, url, token, kubeconfig, cacheDir string) *Target {
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // loopback test servers
		MaxIdleConnsPerHost: 64,
	}
	return &Target{Name: name, URL: strings.TrimRight(url, "/"), Token: token, Kubeconfig: kubeconfig,
		CacheDir: cacheDir, client: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// Outcome is what one step observed on one server, before normalisation.
type Outcome struct {
	Code        int
	ContentType string
	Warnings    []string
	Body        []byte   // raw response body (HTTP) or stdout (kubectl)
	Events      [][]byte // watch events, one JSON object each
	Stderr      string   // kubectl only
	Err         string   // transport error
}

// Do runs one HTTP request and returns the outcome.
func (t *Target) Do(ctx context.Context, method, path string, headers map[string]string, body []byte) Outcome {
	req, err := http.NewRequestWithContext(ctx, method, t.URL+path, bytes.NewReader(body))
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	if body == nil {
		req.Body = nil
	}
	if t.Token != "" {
		req.Header.Set("Authorization", "Bearer "+t.Token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	o := Outcome{Code: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Warnings: resp.Header.Values("Warning"), Body: b}
	if err != nil {
		o.Err = "reading body: " + err.Error()
	}
	return o
}

// Watch opens a watch request and collects its events until the server ends the stream.
func (t *Target) Watch(ctx context.Context, path string, headers map[string]string) Outcome {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.URL+path, nil)
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	if t.Token != "" {
		req.Header.Set("Authorization", "Bearer "+t.Token)
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	defer resp.Body.Close()
	o := Outcome{Code: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Warnings: resp.Header.Values("Warning")}
	if resp.StatusCode != http.StatusOK {
		o.Body, _ = io.ReadAll(resp.Body)
		return o
	}
	dec := json.NewDecoder(bufio.NewReader(resp.Body))
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if err != io.EOF && !strings.Contains(err.Error(), "EOF") {
				o.Err = "watch stream: " + err.Error()
			}
			break
		}
		o.Events = append(o.Events, raw)
	}
	return o
}

// Kubectl runs kubectl against the target with the given args and stdin.
func (t *Target) Kubectl(ctx context.Context, args []string, stdin []byte) Outcome {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	full := append([]string{"--kubeconfig=" + t.Kubeconfig, "--cache-dir=" + t.CacheDir}, args...)
	cmd := exec.CommandContext(ctx, "kubectl", full...)
	cmd.Env = append(cmd.Environ(), "KUBECONFIG="+t.Kubeconfig, "KUBECTL_KUBERC=false")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	o := Outcome{Body: out.Bytes(), Stderr: errb.String()}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			o.Code = ee.ExitCode()
		} else {
			o.Err = fmt.Sprintf("kubectl: %v", err)
		}
	}
	return o
}
