package wiretest

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-lab/informer-lab/apiserver"
)

func TestRESTConfig(t *testing.T) {
	cfg := RESTConfig("http://127.0.0.1:1")
	assert.Equal(t, "http://127.0.0.1:1", cfg.Host)
	assert.Equal(t, "application/json", cfg.ContentType, "the simulator answers protobuf bodies 415 (CG1)")
	assert.Greater(t, cfg.QPS, float32(5), "above client-go's default of 5 (CG3)")
	assert.Greater(t, cfg.Burst, 10)
}

// TestStart: the simulator answers over loopback HTTP through the recorder, and a clientset
// from Env.Clientset reaches it.
func TestStart(t *testing.T) {
	env := Start(t, apiserver.Options{})
	resp, err := http.Get(env.URL + "/api/v1/namespaces")
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	nss, err := env.Clientset(t).CoreV1().Namespaces().List(context.Background(), metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, nss.Items, 3)

	reqs := env.Recorder.Requests()
	require.Len(t, reqs, 2)
	for _, r := range reqs {
		assert.Equal(t, "list", r.Verb())
		assert.Equal(t, "namespaces", r.Resource())
		assert.Equal(t, http.StatusOK, r.Status)
		assert.True(t, r.Done)
	}
	assert.Empty(t, env.Warnings())
}
