package msgcat_test

import (
	"fmt"

	"github.com/informer-lab/informer-lab/internal/msgcat"
)

// The demo's default language: LC_ALL, then LC_MESSAGES, then LANG, as setlocale(3) reads
// them.
func ExampleFromEnv() {
	env := map[string]string{"LANG": "zh_CN.UTF-8"}
	fmt.Println(msgcat.FromEnv(func(k string) string { return env[k] }))
	env["LC_ALL"] = "C.UTF-8"
	fmt.Println(msgcat.FromEnv(func(k string) string { return env[k] }))
	// Output:
	// zh
	// en
}

// The dashboard's language when the page names none: the browser's preference.
func ExampleFromAcceptLanguage() {
	fmt.Println(msgcat.FromAcceptLanguage("zh-CN,zh;q=0.9,en;q=0.8"))
	fmt.Println(msgcat.FromAcceptLanguage("fr-FR"))
	// Output:
	// zh true
	// en false
}

func ExampleCatalog_T() {
	c := msgcat.Catalog{"synced": {"synced: %d pods in the cache", "同步完成：缓存中有 %d 个 Pod"}}
	fmt.Println(c.T(msgcat.En, "synced", 3))
	fmt.Println(c.T(msgcat.Zh, "synced", 3))
	// Output:
	// synced: 3 pods in the cache
	// 同步完成：缓存中有 3 个 Pod
}
