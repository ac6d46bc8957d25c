package dashboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// maxBatch bounds how many queued records one write carries, so a burst cannot starve the
// stats messages.
const maxBatch = 64

// serveEvents streams Server-Sent Events until the client goes away (the request's context
// ends) or a write fails. It subscribes to the Hub only for as long as it runs.
func (d *dashboard) serveEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	// An SSE stream outlives any write timeout the caller's server may set.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		writeError(w, http.StatusInternalServerError, "clearing the write deadline: "+err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// Flushing sends the headers now; a writer that cannot flush cannot stream at all.
	if err := rc.Flush(); err != nil {
		if errors.Is(err, http.ErrNotSupported) {
			h.Del("X-Accel-Buffering")
			writeError(w, http.StatusInternalServerError,
				"cannot stream: the ResponseWriter has no Flush (a wrapping middleware needs an Unwrap method)")
		}
		return
	}

	var records <-chan []byte // nil without a Hub: that case never fires
	var sub *subscriber
	if d.opts.Hub != nil {
		var unsubscribe func()
		sub, unsubscribe = d.opts.Hub.subscribe(DefaultSubscriberBuffer)
		defer unsubscribe()
		records = sub.ch
	}

	ticker := time.NewTicker(d.opts.StatsInterval)
	defer ticker.Stop()

	var buf bytes.Buffer
	// The client reconnects after 1 s if the stream breaks; stats go out at once so the page
	// has numbers before the first tick.
	buf.WriteString("retry: 1000\n\n")
	d.appendStats(&buf)
	var reported int64
	ctx := r.Context()
	for {
		if _, err := w.Write(buf.Bytes()); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		buf.Reset()
		select {
		case <-ctx.Done():
			return
		case msg := <-records:
			appendData(&buf, msg)
			// Take what else is already queued, so a burst costs one write.
		drain:
			for i := 1; i < maxBatch; i++ {
				select {
				case msg = <-records:
					appendData(&buf, msg)
				default:
					break drain
				}
			}
		case <-ticker.C:
			d.appendStats(&buf)
			if sub != nil {
				if n := sub.dropped.Load(); n != reported {
					reported = n
					buf.WriteString("event: dropped\ndata: {\"dropped\":")
					buf.WriteString(strconv.FormatInt(n, 10))
					buf.WriteString("}\n\n")
				}
			}
		}
	}
}

func appendData(buf *bytes.Buffer, msg []byte) {
	buf.WriteString("data: ")
	buf.Write(msg)
	buf.WriteString("\n\n")
}

func (d *dashboard) appendStats(buf *bytes.Buffer) {
	b, err := json.Marshal(d.stats())
	if err != nil { // Stats holds only strings and numbers; this is defensive
		return
	}
	buf.WriteString("event: stats\ndata: ")
	buf.Write(b)
	buf.WriteString("\n\n")
}
