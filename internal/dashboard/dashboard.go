package dashboard

import (
	_ "embed"
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/informer-lab/informer-lab/internal/msgcat"
	"github.com/informer-lab/informer-lab/internal/origin"
)

//go:embed index.html
var indexHTML string

// DefaultStatsInterval (no client-go counterpart) is how often /events pushes a "stats"
// message.
const DefaultStatsInterval = 500 * time.Millisecond

// Options configures New. It has no client-go counterpart.
type Options struct {
	// Hub supplies the trace records streamed on /events. Nil streams stats only.
	Hub *Hub
	// Actions backs POST /actions/{name}. Nil answers every action with 501.
	Actions Actions
	// Stats is called for /stats and for every "stats" message. Nil reports zeroes.
	Stats func() Stats
	// Title is shown in the page's heading and tab. Empty means "informer-lab".
	Title string
	// StatsInterval is the period of "stats" messages on /events. Zero means
	// DefaultStatsInterval.
	StatsInterval time.Duration
	// CheckHost answers 403 to a request whose Host is not an IP literal, localhost or a
	// *.localhost name: a page that points its own DNS name at the dashboard's address (DNS
	// rebinding) would otherwise count as same-origin and could fire the fault buttons. Set
	// it when serving on a real listener, as demo run --ui does.
	CheckHost bool
	// Lang is the page's language when the address names none (?lang=zh or ?lang=en): the
	// demo's --lang. Empty leaves it to the browser's Accept-Language, then English.
	Lang msgcat.Lang
}

// dashboard is the http.Handler New returns.
type dashboard struct {
	opts  Options
	pages map[msgcat.Lang][]byte
}

// New returns the dashboard's handler. It has no client-go counterpart. It binds nothing: the
// caller mounts it, e.g. with http.Server{Handler: dashboard.New(opts)}. Routes:
//
//	GET  /                 the page (HTML, CSS and JS inline; no external assets)
//	GET  /events           Server-Sent Events: unnamed messages are trace records as JSON,
//	                       "stats" messages carry Stats, "dropped" messages the number of
//	                       records this subscriber lost because it was too slow
//	GET  /stats            Stats as JSON
//	POST /actions/{name}   drop (?n=1), compact, close-watches, toggle-slow, create-pod,
//	                       delete-pod; the answer is JSON
//
// Another method on a known path is 405, an unknown path or action 404, a failed action 500,
// all with a JSON body {"error": "…"}.
func New(opts Options) http.Handler {
	if opts.Title == "" {
		opts.Title = "informer-lab"
	}
	if opts.StatsInterval <= 0 {
		opts.StatsInterval = DefaultStatsInterval
	}
	fill := strings.NewReplacer(
		"{{TITLE}}", html.EscapeString(opts.Title),
		"{{ACTIONS}}", boolString(opts.Actions != nil),
	)
	pages := map[msgcat.Lang][]byte{}
	for _, l := range []msgcat.Lang{msgcat.En, msgcat.Zh} {
		pages[l] = []byte(fill.Replace(string(renderPage(indexHTML, l)))) // labels first: a title is not a slot
	}
	return &dashboard{opts: opts, pages: pages}
}

func (d *dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if d.opts.CheckHost && !origin.HostAllowed(r.Host, nil) {
		writeError(w, http.StatusForbidden, "Host "+strconv.Quote(r.Host)+" is not this dashboard's: open it by IP address or localhost")
		return
	}
	switch p := r.URL.Path; {
	case p == "/" || p == "/index.html":
		if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
			return
		}
		d.servePage(w, r)
	case p == "/events":
		if !allowMethod(w, r, http.MethodGet) {
			return
		}
		d.serveEvents(w, r)
	case p == "/stats":
		if !allowMethod(w, r, http.MethodGet, http.MethodHead) {
			return
		}
		writeJSON(w, http.StatusOK, d.stats())
	case strings.HasPrefix(p, "/actions/"):
		d.serveAction(w, r, strings.TrimPrefix(p, "/actions/"))
	default:
		writeError(w, http.StatusNotFound, "no such path: "+p)
	}
}

func (d *dashboard) servePage(w http.ResponseWriter, r *http.Request) {
	lang, source := d.pageLang(r)
	page := strings.Replace(string(d.pages[lang]), "{{LANGSOURCE}}", source, 1)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Language", labels.Text(lang, "lang.html"))
	h.Set("Vary", "Accept-Language")
	h.Set("Cache-Control", "no-store")
	// Everything is inline, so the policy can forbid every other origin.
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; "+
		"style-src 'unsafe-inline'; img-src data:; connect-src 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(page))
}

// stats returns the current snapshot; Listeners is never nil so the page can iterate it.
func (d *dashboard) stats() Stats {
	var s Stats
	if d.opts.Stats != nil {
		s = d.opts.Stats()
	}
	if s.Listeners == nil {
		s.Listeners = []ListenerStats{}
	}
	return s
}

// allowMethod answers 405 with an Allow header unless r uses one of methods.
func allowMethod(w http.ResponseWriter, r *http.Request, methods ...string) bool {
	for _, m := range methods {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path)
	return false
}

type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, errorBody{Error: msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{Error: "encoding the answer: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write(append(b, '\n'))
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
