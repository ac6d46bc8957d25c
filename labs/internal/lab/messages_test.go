package lab

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLabs_Messages: every message the lab command prints exists in English and in Chinese
// under the same ID (the labs' and steps' titles included), and both take the same arguments:
// formatted with the same values, neither says %!, and each shows every value.
func TestLabs_Messages(t *testing.T) {
	var en, zh []string
	for id := range messages[EN] {
		en = append(en, id)
	}
	for id := range messages[ZH] {
		zh = append(zh, id)
	}
	slices.Sort(en)
	slices.Sort(zh)
	for _, id := range en {
		assert.Contains(t, zh, id, "the English message %q has no Chinese twin", id)
	}
	for _, id := range zh {
		assert.Contains(t, en, id, "the Chinese message %q has no English twin", id)
	}
	for _, l := range Catalogue {
		assert.Contains(t, zh, "lab"+l.ID+".title")
		for _, s := range l.Steps {
			assert.Contains(t, zh, fmt.Sprintf("lab%s.step%d", l.ID, s.N))
		}
	}
	verb := regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*\d*[sdvq]`)
	for _, id := range en {
		f := messages[EN][id]
		var args []any
		for i, v := range verb.FindAllString(f, -1) {
			if strings.HasSuffix(v, "d") {
				args = append(args, 9001+i)
			} else {
				args = append(args, fmt.Sprintf("ARG%d", i))
			}
		}
		for _, lang := range []Lang{EN, ZH} {
			out := T(lang, id, args...)
			assert.NotContains(t, out, "%!", "%s %s", lang, id)
			for _, a := range args {
				assert.Contains(t, out, fmt.Sprint(a), "%s %s drops an argument", lang, id)
			}
		}
	}
}

// TestLabs_LangFromEnv: ZH=1 wins, then the first locale variable that is set, as gettext
// reads them; Chinese is any zh_* locale.
func TestLabs_LangFromEnv(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want Lang
	}{
		{nil, EN},
		{map[string]string{"ZH": "1"}, ZH},
		{map[string]string{"ZH": "0", "LANG": "en_US.UTF-8"}, EN},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, ZH},
		{map[string]string{"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, ZH},
		{map[string]string{"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, EN},
		{map[string]string{"ZH": "1", "LC_ALL": "C"}, ZH},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, LangFromEnv(func(k string) string { return tt.env[k] }), "%v", tt.env)
	}
}
