//go:build unix

package cdp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// This file is a minimal Chrome DevTools Protocol client for the browser tests, written with
// the standard library only. It talks to Chromium over --remote-debugging-pipe: Chromium reads
// commands from file descriptor 3 and writes answers and events to descriptor 4, each message
// a JSON object ended by a NUL byte. A pipe needs no port, no WebSocket and no Origin check,
// and it dies with the browser, which makes it the sturdiest transport on a fresh machine.

// cdpMessage is any message on the pipe: a command (ID, Method, Params), its answer (ID,
// Result or Error) or an event (Method, Params). SessionID routes it to one attached page.
type cdpMessage struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *cdpError       `json:"error,omitempty"`
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *cdpError) Error() string { return fmt.Sprintf("cdp error %d: %s", e.Code, e.Message) }

// Browser is one Chromium process driven over the pipe.
type Browser struct {
	cmd      *exec.Cmd
	toChrome *os.File // our end of Chromium's fd 3
	stderr   *limitedBuffer
	profile  string

	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan cdpMessage
	// pageErrors collects uncaught exceptions and console errors from the page.
	pageErrors []string
	readDone   chan struct{}
	readErr    error
}

// chromiumFlags are those of a quiet, headless, throwaway browser: no sandbox (CI runs as
// root), no GPU, and none of the background traffic a closed network would refuse.
var chromiumFlags = []string{
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-extensions",
	"--disable-dev-shm-usage",
	"--hide-scrollbars",
	"--mute-audio",
	"--remote-debugging-pipe",
	"--window-size=1280,1000",
}

// Launch starts a headless Chromium at path, with a throwaway profile. Close must be called.
func Launch(path string) (*Browser, error) {
	profile, err := os.MkdirTemp("", "dashboard-e2e-profile-")
	if err != nil {
		return nil, err
	}
	chromeIn, toChrome, err := os.Pipe() // Chromium reads commands on fd 3
	if err != nil {
		return nil, err
	}
	fromChrome, chromeOut, err := os.Pipe() // and writes answers on fd 4
	if err != nil {
		_ = chromeIn.Close()
		_ = toChrome.Close()
		return nil, err
	}
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+profile, "about:blank")
	cmd := exec.Command(path, args...)
	cmd.ExtraFiles = []*os.File{chromeIn, chromeOut}
	stderr := &limitedBuffer{max: 64 << 10}
	cmd.Stdout = stderr
	cmd.Stderr = stderr
	// Its own process group, so that a hung browser can be killed with its helpers.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{chromeIn, toChrome, fromChrome, chromeOut} {
			_ = f.Close()
		}
		_ = os.RemoveAll(profile)
		return nil, err
	}
	// Chromium holds its ends now; closing ours lets EOF reach us when it exits.
	_ = chromeIn.Close()
	_ = chromeOut.Close()
	b := &Browser{
		cmd: cmd, toChrome: toChrome, stderr: stderr, profile: profile,
		pending: map[int64]chan cdpMessage{}, readDone: make(chan struct{}),
	}
	go b.readLoop(fromChrome)
	return b, nil
}

func (b *Browser) readLoop(r *os.File) {
	defer close(b.readDone)
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			b.mu.Unlock()
			return
		}
		var m cdpMessage
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.pending[m.ID]; ok {
				delete(b.pending, m.ID)
				ch <- m
			}
		} else {
			b.noteEvent(m)
		}
		b.mu.Unlock()
	}
}

// noteEvent keeps what the test must fail on: exceptions, console errors, a crashed page.
// Called with b.mu held.
func (b *Browser) noteEvent(m cdpMessage) {
	switch m.Method {
	case "Runtime.exceptionThrown":
		var p struct {
			ExceptionDetails struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		_ = json.Unmarshal(m.Params, &p)
		b.pageErrors = append(b.pageErrors, "exception: "+p.ExceptionDetails.Text+" "+p.ExceptionDetails.Exception.Description)
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if p.Type == "error" || p.Type == "assert" {
			b.pageErrors = append(b.pageErrors, fmt.Sprintf("console.%s: %+v", p.Type, p.Args))
		}
	case "Inspector.targetCrashed":
		b.pageErrors = append(b.pageErrors, "the page crashed")
	}
}

// call sends one command and decodes its result into out (which may be nil).
func (b *Browser) call(ctx context.Context, session, method string, params, out any) error {
	rawParams, err := json.Marshal(params)
	if err != nil {
		return err
	}
	if params == nil {
		rawParams = []byte("{}")
	}
	ch := make(chan cdpMessage, 1)
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return fmt.Errorf("%s: browser gone: %w", method, b.readErr)
	}
	b.nextID++
	id := b.nextID
	b.pending[id] = ch
	b.mu.Unlock()

	msg, err := json.Marshal(cdpMessage{ID: id, Method: method, Params: rawParams, SessionID: session})
	if err != nil {
		return err
	}
	b.writeMu.Lock()
	_, err = b.toChrome.Write(append(msg, 0))
	b.writeMu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case reply := <-ch:
		if reply.Error != nil {
			return fmt.Errorf("%s: %w", method, reply.Error)
		}
		if out != nil {
			return json.Unmarshal(reply.Result, out)
		}
		return nil
	case <-b.readDone:
		return fmt.Errorf("%s: browser exited", method)
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Output returns the start of Chromium's own stdout and stderr (64 KiB at most), for a
// failure message.
func (b *Browser) Output() string { return b.stderr.String() }

// Errors returns the uncaught exceptions, console errors and crashes of every page so far.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.pageErrors...)
}

// Close asks Chromium to quit, kills its process group if it does not within a few seconds,
// and waits for it, so nothing outlives the test.
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.call(ctx, "", "Browser.close", nil, nil)
	_ = b.toChrome.Close()
	waited := make(chan error, 1)
	go func() { waited <- b.cmd.Wait() }()
	var err error
	select {
	case err = <-waited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		err = errors.Join(errors.New("chromium did not quit; killed"), <-waited)
	}
	<-b.readDone
	// Helpers of the same group may linger an instant after the main process.
	_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
	_ = os.RemoveAll(b.profile)
	var exit *exec.ExitError
	if errors.As(err, &exit) { // killed by its own Browser.close or by us: not a failure
		return nil
	}
	return err
}

// Page is one tab, attached in flattened mode so commands carry its session ID.
type Page struct {
	b       *Browser
	session string
}

// NewPage opens a tab of width×height CSS pixels and attaches to it.
func (b *Browser) NewPage(ctx context.Context, width, height int) (*Page, error) {
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &created); err != nil {
		return nil, err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget",
		map[string]any{"targetId": created.TargetID, "flatten": true}, &attached); err != nil {
		return nil, err
	}
	p := &Page{b: b, session: attached.SessionID}
	for _, m := range []string{"Runtime.enable", "Page.enable", "Inspector.enable"} {
		if err := p.call(ctx, m, nil, nil); err != nil {
			return nil, err
		}
	}
	if err := p.setViewport(ctx, width, height); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Page) call(ctx context.Context, method string, params, out any) error {
	return p.b.call(ctx, p.session, method, params, out)
}

func (p *Page) setViewport(ctx context.Context, width, height int) error {
	return p.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false,
	}, nil)
}

// Navigate loads url in the tab.
func (p *Page) Navigate(ctx context.Context, url string) error {
	var res struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.call(ctx, "Page.navigate", map[string]any{"url": url}, &res); err != nil {
		return err
	}
	if res.ErrorText != "" {
		return fmt.Errorf("navigate %s: %s", url, res.ErrorText)
	}
	return nil
}

// Eval runs a JavaScript expression in the page and decodes its value into out.
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.call(ctx, "Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true,
	}, &res)
	if err != nil {
		return err
	}
	if d := res.ExceptionDetails; d != nil {
		return fmt.Errorf("evaluating %q: %s %s", expr, d.Text, d.Exception.Description)
	}
	if out == nil || len(res.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// WaitFor polls the JavaScript condition expr every 50ms until it is true or ctx ends; what
// names the condition in the error.
func (p *Page) WaitFor(ctx context.Context, what, expr string) error {
	ticker := time.NewTicker(50 * time.Millisecond)
	defer ticker.Stop()
	var lastErr error
	for {
		var ok bool
		if lastErr = p.Eval(ctx, expr, &ok); lastErr == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last error: %v)", what, ctx.Err(), lastErr)
		case <-ticker.C:
		}
	}
}

// Click presses and releases the left mouse button on the centre of the element sel, as a
// person would: the element must be visible, enabled and not covered for the click to land.
// A live page can move between measuring the element and pressing the button (a counter
// widens, a line wraps), and the press then lands beside it. So each attempt arms a one-shot
// listener on the element and Click measures and presses again until that listener has seen
// the click, or ctx ends. A click that landed is never repeated.
func (p *Page) Click(ctx context.Context, sel string) error {
	const retryEvery = 50 * time.Millisecond
	var lastErr error
	for attempt := 1; ; attempt++ {
		landed, err := p.clickOnce(ctx, sel, attempt)
		if err == nil && landed {
			return nil
		}
		switch {
		case ctx.Err() != nil && lastErr != nil:
			// This attempt was cut short by ctx: the previous attempt's error says more.
		case err != nil:
			lastErr = err
		default:
			lastErr = fmt.Errorf("the click did not reach %s (attempt %d)", sel, attempt)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("clicking %s: %w (last error: %v)", sel, ctx.Err(), lastErr)
		case <-time.After(retryEvery):
		}
	}
}

// clickOnce measures sel, arms a listener that records this attempt's token, presses and
// releases the mouse there, and reports whether the element received the click. The listener
// is removed either way, so a stale one cannot claim a later click.
func (p *Page) clickOnce(ctx context.Context, sel string, attempt int) (bool, error) {
	token := fmt.Sprintf("cdp-click-%d-%d", time.Now().UnixNano(), attempt)
	var box struct{ X, Y float64 }
	expr := fmt.Sprintf(`(() => { const el = document.querySelector(%q);
		if (!el) throw new Error('no element matches ' + %q);
		if (window.__cdpClickAbort) window.__cdpClickAbort.abort();
		const ac = new AbortController(); window.__cdpClickAbort = ac; window.__cdpClicked = '';
		el.addEventListener('click', () => { window.__cdpClicked = %q; }, {capture: true, signal: ac.signal});
		el.scrollIntoView({block: 'center'}); const r = el.getBoundingClientRect();
		return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, sel, sel, token)
	if err := p.Eval(ctx, expr, &box); err != nil {
		return false, err
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		params := map[string]any{"type": typ, "x": box.X, "y": box.Y, "button": "left", "clickCount": 1}
		if typ == "mouseMoved" {
			params["button"] = "none"
		}
		if err := p.call(ctx, "Input.dispatchMouseEvent", params, nil); err != nil {
			return false, err
		}
	}
	var got string
	err := p.Eval(ctx, `(() => { const got = window.__cdpClicked || '';
		if (window.__cdpClickAbort) window.__cdpClickAbort.abort();
		window.__cdpClickAbort = null; return got; })()`, &got)
	return got == token, err
}

// Screenshot returns the whole page as PNG.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var size struct{ W, H int }
	if err := p.Eval(ctx, `({w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight})`, &size); err != nil {
		return nil, err
	}
	if err := p.setViewport(ctx, max(size.W, 1280), size.H); err != nil {
		return nil, err
	}
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON; encoding/json decodes it into bytes
	}
	if err := p.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, err
	}
	return shot.Data, nil
}

// limitedBuffer keeps the first max bytes of Chromium's output, for a failure message.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimSpace(l.buf.String())
}

var _ io.Writer = (*limitedBuffer)(nil)
