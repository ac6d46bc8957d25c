package ch01_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/apiserver"
)

// lab is one running server plus a raw HTTP client: every request and every response line
// is printed as curl would show it, so the examples read like a terminal session.
type lab struct {
	srv  *apiserver.Server
	base string
	hc   *http.Client
}

func newLab(opts apiserver.Options) *lab {
	s := apiserver.New(opts)
	base, err := s.Start("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	return &lab{srv: s, base: base, hc: &http.Client{Transport: &http.Transport{}}}
}

func (l *lab) close() {
	l.hc.CloseIdleConnections()
	l.srv.Close()
}

// Timestamps and uids differ on every run; the examples show placeholders instead.
var (
	uidRE  = regexp.MustCompile(`"uid":"[0-9a-f-]{36}"`)
	timeRE = regexp.MustCompile(`"creationTimestamp":"[0-9TZ:-]+"`)
	// The ServiceAccount admission plugin names each pod's token volume at random.
	tokenVolumeRE = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)
	// managedFields entries carry the time of their manager's last write.
	mfTimeRE = regexp.MustCompile(`"time":"[0-9TZ:-]+"`)
)

func normalise(s string) string {
	s = tokenVolumeRE.ReplaceAllString(s, "kube-api-access-…")
	s = uidRE.ReplaceAllString(s, `"uid":"…"`)
	s = mfTimeRE.ReplaceAllString(s, `"time":"…"`)
	return timeRE.ReplaceAllString(s, `"creationTimestamp":"…"`)
}

// curl sends one request and prints the request line, the status and the body. A body goes
// as JSON, which the server requires (curl -d alone would send a form).
func (l *lab) curl(method, path, body string) string {
	contentType := ""
	if body != "" {
		contentType = "application/json"
	}
	return l.curlH(method, path, contentType, body)
}

// curlH is curl with a Content-Type header (a PATCH names its patch type there).
func (l *lab) curlH(method, path, contentType, body string) string {
	fmt.Printf("$ curl -X %s '%s'", method, path)
	if contentType != "" {
		fmt.Printf(" -H 'Content-Type: %s'", contentType)
	}
	if body != "" {
		fmt.Printf(" -d '%s'", body)
	}
	fmt.Println()
	req, _ := http.NewRequest(method, l.base+path, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := l.hc.Do(req)
	if err != nil {
		fmt.Println("error:", err)
		return ""
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	out := normalise(strings.TrimSpace(string(data)))
	fmt.Println(out)
	return string(data)
}

// watchLines opens a watch and returns a function that prints the next n lines.
func (l *lab) watch(path string) (next func(n int), stop func()) {
	fmt.Printf("$ curl -N '%s'\n", path)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, l.base+path, nil)
	resp, err := l.hc.Do(req)
	if err != nil {
		cancel()
		fmt.Println("error:", err)
		return func(int) {}, func() {}
	}
	fmt.Printf("%s, Content-Type: %s, Transfer-Encoding: %s\n", resp.Status, resp.Header.Get("Content-Type"), strings.Join(resp.TransferEncoding, ","))
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	next = func(n int) {
		for i := 0; i < n && sc.Scan(); i++ {
			fmt.Println(normalise(sc.Text()))
		}
	}
	stop = func() {
		cancel()
		resp.Body.Close()
	}
	return next, stop
}

func (l *lab) create(ns, name string, labels map[string]string) {
	_, err := l.srv.Create(context.Background(), "pods", ns, &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	})
	if err != nil {
		panic(err)
	}
}
