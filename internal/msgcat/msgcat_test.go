package msgcat

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMsgcat_FromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Lang
	}{
		{"nothing set", nil, En},
		{"LANG zh_CN.UTF-8", map[string]string{"LANG": "zh_CN.UTF-8"}, Zh},
		{"LANG zh_TW", map[string]string{"LANG": "zh_TW"}, Zh},
		{"LANG en_US.UTF-8", map[string]string{"LANG": "en_US.UTF-8"}, En},
		{"LANG C.UTF-8", map[string]string{"LANG": "C.UTF-8"}, En},
		{"LC_MESSAGES beats LANG", map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, Zh},
		{"LC_ALL beats both", map[string]string{"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "zh_CN", "LC_ALL": "C"}, En},
		{"LC_ALL zh", map[string]string{"LANG": "en_US", "LC_ALL": "zh_CN.GB18030"}, Zh},
		{"an unknown locale is English", map[string]string{"LANG": "fr_FR.UTF-8"}, En},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, FromEnv(func(k string) string { return tc.env[k] }))
		})
	}
}

func TestMsgcat_Parse(t *testing.T) {
	tests := []struct {
		in   string
		want Lang
		ok   bool
	}{
		{"zh", Zh, true}, {"ZH", Zh, true}, {"zh-CN", Zh, true}, {"zh-Hans-CN", Zh, true},
		{"zh_CN.UTF-8", Zh, true}, {"zh_CN.utf8@pinyin", Zh, true},
		{"en", En, true}, {"en-GB", En, true}, {"C", En, true}, {"POSIX", En, true},
		{"", En, false}, {"fr", En, false}, {"zhx", En, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := Parse(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.ok, ok)
		})
	}
}

func TestMsgcat_FromAcceptLanguage(t *testing.T) {
	tests := []struct {
		header string
		want   Lang
		ok     bool
	}{
		{"", En, false},
		{"zh-CN,zh;q=0.9,en;q=0.8", Zh, true},
		{"en-US,en;q=0.9,zh-CN;q=0.8", En, true},
		{"fr-FR, zh;q=0.5", Zh, true},
		{"en;q=0.2, zh-TW;q=0.7", Zh, true},
		{"zh;q=0, en;q=0.1", En, true},
		{"fr, de", En, false},
		{"*", En, false},
	}
	for _, tc := range tests {
		t.Run(tc.header, func(t *testing.T) {
			got, ok := FromAcceptLanguage(tc.header)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.ok, ok)
		})
	}
}

func TestMsgcat_Check(t *testing.T) {
	tests := []struct {
		name string
		cat  Catalog
		want []string
	}{
		{"complete", Catalog{"a": {"%d pods in %s", "%[2]s 里有 %[1]d 个 Pod"}, "b": {"100%% done", "全部完成"}}, nil},
		{"no twin", Catalog{"a": {"hello", ""}}, []string{"a: no Chinese twin"}},
		{"no English", Catalog{"a": {"", "你好"}}, []string{"a: no English text"}},
		{"empty ID", Catalog{"": {"x", "x"}}, []string{"a message has an empty ID"}},
		{"verb lost", Catalog{"a": {"%d pods", "若干 Pod"}}, []string{"a: format verbs differ: en [1:d], zh []"}},
		{"verb changed", Catalog{"a": {"%d pods", "%s 个 Pod"}}, []string{"a: format verbs differ: en [1:d], zh [1:s]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.cat.Check())
		})
	}
}

func TestMsgcat_T(t *testing.T) {
	c := Catalog{"pods": {"%d pods in %s", "%[2]s 里有 %[1]d 个 Pod"}, "half": {"only English", ""}}
	assert.Equal(t, "3 pods in demo", c.T(En, "pods", 3, "demo"))
	assert.Equal(t, "demo 里有 3 个 Pod", c.T(Zh, "pods", 3, "demo"))
	assert.Equal(t, "only English", c.T(Zh, "half"), "a missing twin falls back to English")
	assert.Equal(t, "nope", c.T(Zh, "nope"), "an unknown ID comes back as itself")
	assert.Equal(t, map[string]string{"pods": "%[2]s 里有 %[1]d 个 Pod", "half": "only English"}, c.Map(Zh))
}
