package inproc_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/inproc"
)

func TestInproc_StreamsAndCancels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ended := make(chan struct{})
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer close(ended)
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusAccepted)
			_, _ = io.WriteString(w, "first\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done() // a watch that streams until its client leaves
		})
		c := &http.Client{Transport: inproc.Transport(h)}
		resp, err := c.Get("http://inproc/watch")
		require.NoError(t, err)
		require.Equal(t, http.StatusAccepted, resp.StatusCode)
		require.Equal(t, "text/plain", resp.Header.Get("Content-Type"))
		line, err := bufio.NewReader(resp.Body).ReadString('\n')
		require.NoError(t, err)
		require.Equal(t, "first\n", line)
		require.NoError(t, resp.Body.Close())
		<-ended // contract 2: closing the body ends the handler
	})
}

func TestInproc_BodyAndPanic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/panic" {
				panic("boom")
			}
			b, _ := io.ReadAll(r.Body)
			_, _ = w.Write(b)
		})
		c := &http.Client{Transport: inproc.Transport(h)}
		resp, err := c.Post("http://inproc/echo", "text/plain", io.NopCloser(stringsReader("hello")))
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, "hello", string(b))
		require.Equal(t, http.StatusOK, resp.StatusCode)

		resp, err = c.Get("http://inproc/panic")
		require.NoError(t, err)
		require.Equal(t, http.StatusInternalServerError, resp.StatusCode)
		_, err = io.ReadAll(resp.Body)
		require.ErrorContains(t, err, "boom")
		_ = resp.Body.Close()

		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inproc/echo", nil)
		_, err = c.Do(req)
		require.Error(t, err)
	})
}

type sr struct{ s string }

func (r *sr) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := copy(p, r.s)
	r.s = r.s[n:]
	return n, nil
}

func stringsReader(s string) io.Reader { return &sr{s} }
