package dashboard

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/informer-lab/informer-lab/internal/msgcat"
)

// TestDashboard_LabelsHaveTwins fails on a label of the page without its Chinese twin (or
// its English original), or whose two texts have different {name} placeholders.
func TestDashboard_LabelsHaveTwins(t *testing.T) {
	assert.Empty(t, labels.Check())
	for id, m := range labels {
		en, zh := placeholder.FindAllString(m.En(), -1), placeholder.FindAllString(m.Zh(), -1)
		slices.Sort(en)
		slices.Sort(zh)
		assert.Equal(t, en, zh, "the placeholders of label %s", id)
	}
}

// TestDashboard_LabelsUsed checks the labels against the page and the Go code: every label
// the page or the code names exists, and every label is named somewhere.
func TestDashboard_LabelsUsed(t *testing.T) {
	used := map[string]bool{}
	for _, m := range pageLabel.FindAllStringSubmatch(indexHTML, -1) {
		used[m[1]] = true
	}
	// The script's T('id'…) and its table of action labels.
	for _, m := range regexp.MustCompile(`T\('([a-z0-9.]+)'|'(act\.[a-z.]+)'`).FindAllStringSubmatch(indexHTML, -1) {
		used[m[1]+m[2]] = true
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	call := regexp.MustCompile(`label\(msgcat\.[A-Za-z]+, "([a-z0-9.]+)"|labels\.Text\([a-z]+, "([a-z0-9.]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			used[m[1]+m[2]] = true
		}
	}
	for id := range used {
		_, ok := labels[id]
		assert.True(t, ok, "the page or the code names label %q, which does not exist", id)
	}
	for id := range labels {
		assert.True(t, used[id], "label %q is never used", id)
	}
}

// TestDashboard_PageLanguage: ?lang= decides, then Options.Lang (demo --lang), then the
// browser's Accept-Language, then English; the page says which decided, so that its script
// asks navigator.language only when none did.
func TestDashboard_PageLanguage(t *testing.T) {
	tests := []struct {
		name   string
		opt    msgcat.Lang
		target string
		accept string
		want   msgcat.Lang
		source string
	}{
		{"nothing", "", "/", "", msgcat.En, ""},
		{"query zh", "", "/?lang=zh", "", msgcat.Zh, "query"},
		{"query zh-CN beats an English browser", "", "/?lang=zh-CN", "en-US,en;q=0.9", msgcat.Zh, "query"},
		{"query en beats --lang zh", msgcat.Zh, "/?lang=en", "", msgcat.En, "query"},
		{"an unknown query is ignored", "", "/?lang=fr", "zh-CN,zh;q=0.9", msgcat.Zh, "header"},
		{"--lang zh beats an English browser", msgcat.Zh, "/", "en-US,en;q=0.9", msgcat.Zh, "option"},
		{"a Chinese browser", "", "/", "zh-CN,zh;q=0.9,en;q=0.8", msgcat.Zh, "header"},
		{"an English browser", "", "/", "en-GB,en;q=0.9", msgcat.En, "header"},
		{"a French browser", "", "/", "fr-FR,fr;q=0.9", msgcat.En, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := New(Options{Actions: &fakeActions{}, Lang: tc.opt})
			hdr := map[string]string{}
			if tc.accept != "" {
				hdr["Accept-Language"] = tc.accept
			}
			w := do(t, h, http.MethodGet, tc.target, hdr)
			require.Equal(t, http.StatusOK, w.Code)
			body := w.Body.String()
			assert.NotContains(t, body, "{{", "every slot is filled")
			assert.Contains(t, body, `data-lang-source="`+tc.source+`"`)
			assert.Equal(t, "Accept-Language", w.Header().Get("Vary"))
			if tc.want == msgcat.Zh {
				assert.Equal(t, "zh-CN", w.Header().Get("Content-Language"))
				assert.Contains(t, body, `<html lang="zh-CN">`)
				assert.Contains(t, body, "<h2>让服务器出点故障</h2>")
				assert.Contains(t, body, `<button data-action="compact">压缩</button>`)
				assert.Contains(t, body, `"log.pause":"暂停"`, "the script's labels")
				assert.Contains(t, body, `href="?lang=en"`, "the switch to English")
			} else {
				assert.Equal(t, "en", w.Header().Get("Content-Language"))
				assert.Contains(t, body, `<html lang="en">`)
				assert.Contains(t, body, "<h2>Make the server misbehave</h2>")
				assert.Contains(t, body, `"log.pause":"Pause"`)
				assert.Contains(t, body, `href="?lang=zh"`, "the switch to Chinese")
			}
		})
	}
}
