package watch

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/api"
	"github.com/informer-lab/informer-lab/api/watch"
	"github.com/informer-lab/informer-lab/internal/resttest"
)

// chunkReader returns its chunks one Read at a time, then end (io.EOF when nil).
type chunkReader struct {
	chunks []string
	end    error
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		if r.end == nil {
			return 0, io.EOF
		}
		return 0, r.end
	}
	n := copy(p, r.chunks[0])
	if n < len(r.chunks[0]) {
		r.chunks[0] = r.chunks[0][n:]
	} else {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

// bytewise splits s into one-byte chunks: every frame spans many reads.
func bytewise(s string) []string {
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i : i+1]
	}
	return out
}

// W4, N6, LW-4, LW-5 and contract items 1–2: what the decoder makes of each kind of stream.
func TestCh02_StreamDecoder(t *testing.T) {
	checkNoLeak(t)
	added, modified := resttest.PodEvent(watch.Added, "a", "11"), resttest.PodEvent(watch.Modified, "a", "12")
	deleted := resttest.PodEvent(watch.Deleted, "a", "13")
	tests := []struct {
		name     string
		chunks   []string
		end      error
		maxFrame int
		want     []string
		// wantErr is a substring of the final ERROR event's message; "" means a clean close.
		wantErr string
	}{
		{name: "newline-delimited events", chunks: []string{added + "\n" + modified + "\n" + deleted + "\n"},
			want: []string{"ADDED demo/a@11 *api.Pod", "MODIFIED demo/a@12 *api.Pod", "DELETED demo/a@13 *api.Pod"}},
		{name: "W4: no newline needed between frames", chunks: []string{added + modified},
			want: []string{"ADDED demo/a@11 *api.Pod", "MODIFIED demo/a@12 *api.Pod"}},
		{name: "frames split at every byte", chunks: bytewise(added + "\r\n" + modified + "\n"),
			want: []string{"ADDED demo/a@11 *api.Pod", "MODIFIED demo/a@12 *api.Pod"}},
		{name: "braces and escaped quotes inside strings",
			chunks: []string{`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x","namespace":"n}\"{[","resourceVersion":"1"}}}`},
			want:   []string{`ADDED n}"{[/x@1 *api.Pod`}},
		{name: "unknown kind decodes as Unstructured",
			chunks: []string{`{"type":"ADDED","object":{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w","namespace":"demo","resourceVersion":"3"}}}`},
			want:   []string{"ADDED demo/w@3 *api.Unstructured"}},
		{name: "LW-5: ERROR carries a Status", chunks: []string{added + "\n" + resttest.ExpiredEvent + "\n"},
			want: []string{"ADDED demo/a@11 *api.Pod", "ERROR 410 Expired"}},
		{name: "empty body closes cleanly", chunks: nil},
		{name: "whitespace only closes cleanly", chunks: []string{"\n\n  \r\n"}},
		{name: "connection reset between events closes quietly", chunks: []string{added + "\n"},
			end: fmt.Errorf("read tcp: %w", syscall.ECONNRESET), want: []string{"ADDED demo/a@11 *api.Pod"}},
		{name: "other read error between events is reported", chunks: []string{added + "\n"}, end: errors.New("disk on fire"),
			want: []string{"ADDED demo/a@11 *api.Pod", "ERROR 500 InternalError"}, wantErr: "disk on fire"},
		{name: "truncated frame", chunks: []string{added + "\n" + modified[:40]},
			want: []string{"ADDED demo/a@11 *api.Pod", "ERROR 500 InternalError"}, wantErr: "the stream ended in the middle of an event after 40 bytes: unexpected EOF"},
		{name: "read error inside a frame is a truncated frame", chunks: []string{modified[:10]}, end: fmt.Errorf("read tcp: %w", syscall.ECONNRESET),
			want: []string{"ERROR 500 InternalError"}, wantErr: "the stream ended in the middle of an event after 10 bytes"},
		{name: "garbage bytes", chunks: []string{added + "\nhello world\n" + modified},
			want: []string{"ADDED demo/a@11 *api.Pod", "ERROR 500 InternalError"}, wantErr: `invalid character 'h' looking for the beginning of a watch event`},
		{name: "garbage inside a frame", chunks: []string{`{"type":"ADDED","object":{kind}}`},
			want: []string{"ERROR 500 InternalError"}, wantErr: "unable to decode watch event"},
		{name: "N6: missing kind", chunks: []string{`{"type":"ADDED","object":{"apiVersion":"v1","metadata":{"name":"a"}}}` + "\n" + added},
			want: []string{"ERROR 500 InternalError"}, wantErr: "object 'Kind' is missing"},
		{name: "W4: unknown event type", chunks: []string{strings.Replace(added, "ADDED", "CREATED", 1)},
			want: []string{"ERROR 500 InternalError"}, wantErr: "got invalid watch event type: CREATED"},
		{name: "event without a type", chunks: []string{`{"object":{"kind":"Pod","apiVersion":"v1"}}`},
			want: []string{"ERROR 500 InternalError"}, wantErr: "watch event has no type"},
		{name: "event without an object", chunks: []string{`{"type":"ADDED"}`},
			want: []string{"ERROR 500 InternalError"}, wantErr: "ADDED watch event has no object"},
		{name: "null object", chunks: []string{`{"type":"MODIFIED","object":null}`},
			want: []string{"ERROR 500 InternalError"}, wantErr: "MODIFIED watch event has no object"},
		{name: "ERROR whose object is not a Status", chunks: []string{strings.Replace(added, "ADDED", "ERROR", 1)},
			want: []string{"ERROR 500 InternalError"}, wantErr: "ERROR event carries a Pod, not a Status"},
		{name: "ERROR without kind", chunks: []string{`{"type":"ERROR","object":{"code":410}}`},
			want: []string{"ERROR 500 InternalError"}, wantErr: "object 'Kind' is missing"},
		{name: "type that is not a string", chunks: []string{`{"type":7,"object":{}}`},
			want: []string{"ERROR 500 InternalError"}, wantErr: "event type must be a string"},
		{name: "frame over the size limit", maxFrame: 200, chunks: []string{added + "\n" + resttest.PodEvent(watch.Added, strings.Repeat("b", 300), "14")},
			want: []string{"ADDED demo/a@11 *api.Pod", "ERROR 500 InternalError"}, wantErr: "object to decode was longer than maximum allowed size"},
		{name: "frame over the size limit, split", maxFrame: 200, chunks: bytewise(resttest.PodEvent(watch.Added, strings.Repeat("b", 300), "14")),
			want: []string{"ERROR 500 InternalError"}, wantErr: "object to decode was longer than maximum allowed size"},
		{name: "frame exactly at the limit", maxFrame: len(added), chunks: []string{added},
			want: []string{"ADDED demo/a@11 *api.Pod"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := io.NopCloser(&chunkReader{chunks: append([]string(nil), tc.chunks...), end: tc.end})
			w := NewStreamWatcher(NewDecoder(body, DecoderOptions{MaxFrameBytes: tc.maxFrame}), nil)
			events := resttest.Collect(t, w)
			got := make([]string, len(events))
			for i, ev := range events {
				got[i] = resttest.Summary(ev)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("events (-want +got):\n%s", diff)
			}
			if tc.wantErr == "" {
				return
			}
			last := events[len(events)-1]
			st := last.Object.(*api.Status)
			assert.Contains(t, st.Message, "unable to decode an event from the watch stream")
			assert.Contains(t, st.Message, tc.wantErr)
			require.NotNil(t, st.Details)
			assert.Equal(t, api.CauseType("ClientWatchDecoding"), st.Details.Causes[len(st.Details.Causes)-1].Type)
		})
	}
}

// LW-4: a BOOKMARK keeps its RV and the initial-events-end annotation.
func TestCh02_LW4_BookmarkAnnotation(t *testing.T) {
	checkNoLeak(t)
	bm := `{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"10245","annotations":{"k8s.io/initial-events-end":"true"}}}}`
	w := NewStreamWatcher(NewDecoder(io.NopCloser(strings.NewReader(bm)), DecoderOptions{}), nil)
	events := resttest.Collect(t, w)
	require.Len(t, events, 1)
	assert.Equal(t, watch.Bookmark, events[0].Type)
	p := events[0].Object.(*api.Pod)
	assert.Equal(t, "10245", p.ResourceVersion)
	assert.Equal(t, "true", p.Annotations[api.InitialEventsAnnotationKey])
}

// LW-5: the ERROR event's Status is an API error a caller can classify.
func TestCh02_LW5_ErrorEventIsAPIError(t *testing.T) {
	checkNoLeak(t)
	w := NewStreamWatcher(NewDecoder(io.NopCloser(strings.NewReader(resttest.ExpiredEvent)), DecoderOptions{}), nil)
	events := resttest.Collect(t, w)
	require.Len(t, events, 1)
	var err error = events[0].Object.(*api.Status)
	assert.Equal(t, api.StatusReasonExpired, api.ReasonForError(err))
	assert.EqualError(t, err, "too old resource version: 5 (1000)")
}

// An empty scheme decodes every kind as Unstructured, as a dynamic client would; ERROR
// events still carry *api.Status.
func TestCh02_StreamDecoderUnstructured(t *testing.T) {
	checkNoLeak(t)
	in := resttest.PodEvent(watch.Added, "a", "1") + "\n" + resttest.ExpiredEvent
	w := NewStreamWatcher(NewDecoder(io.NopCloser(strings.NewReader(in)), DecoderOptions{Scheme: api.NewScheme()}), nil)
	events := resttest.Collect(t, w)
	require.Len(t, events, 2)
	assert.IsType(t, &api.Unstructured{}, events[0].Object)
	assert.IsType(t, &api.Status{}, events[1].Object)
}

// Contract item 3: Stop while the reader is blocked in Read ends it without an ERROR event.
func TestCh02_StopUnblocksRead(t *testing.T) {
	checkNoLeak(t)
	pr, pw := io.Pipe()
	defer pw.Close()
	w := NewStreamWatcher(NewDecoder(pr, DecoderOptions{}), nil)
	go func() { _, _ = io.WriteString(pw, resttest.PodEvent(watch.Added, "a", "1")+"\n") }()
	ev := <-w.ResultChan()
	assert.Equal(t, watch.Added, ev.Type)
	w.Stop()
	w.Stop() // idempotent
	assert.Empty(t, resttest.Collect(t, w), "no ERROR after Stop")
}

// Contract item 3: Stop while the reader waits for a consumer that never comes.
func TestCh02_StopUnblocksSend(t *testing.T) {
	checkNoLeak(t)
	in := strings.Repeat(resttest.PodEvent(watch.Added, "a", "1")+"\n", 5)
	w := NewStreamWatcher(NewDecoder(io.NopCloser(strings.NewReader(in)), DecoderOptions{}), nil)
	w.Stop()
	assert.LessOrEqual(t, len(resttest.Collect(t, w)), 1, "at most the event already being handed over")
}
