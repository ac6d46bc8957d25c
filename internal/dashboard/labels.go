package dashboard

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strings"

	"github.com/informer-lab/informer-lab/internal/msgcat"
)

// labels is every text of the page, in English and Chinese, by ID. The page's HTML names
// them as {{T:id}}, filled in on the server; its script reads the same table, given to it
// as JSON, through T('id', {name: value}), which fills {name} placeholders. The answers of
// POST /actions/{name} take their English message from here too. The Chinese follows the
// repository's GLOSSARY.md: API terms stay English, a hop of the trace is 一步 (its logged line: 一条追踪日志).
var labels = msgcat.Catalog{
	"page.title":      {"informer pipeline", "Informer 流水线"},
	"lang.other":      {"中文", "English"},
	"lang.other.code": {"zh", "en"},
	"lang.html":       {"en", "zh-CN"},
	"sub.pipeline":    {"the client-go informer pipeline, live", "实时运行中的 client-go Informer 流水线"},
	"sub.cluster":     {"the cluster's controllers, live", "实时运行中的集群控制器"},
	"conn.connecting": {"connecting…", "连接中…"},
	"conn.live":       {"live", "已连接"},
	"conn.down":       {"reconnecting…", "重新连接中…"},
	"meta.rate":       {"records/s", "记录/秒"},
	"meta.shown":      {"shown", "显示"},
	"meta.dropped":    {"dropped by this tab", "本页丢弃"},

	// The diagram.
	"diagram.aria": {"pipeline diagram", "流水线示意图"},
	"diagram.svg": {"apiserver, Reflector, DeltaFIFO or RealFIFO, Indexer, processor, listeners, handlers, workqueue and workers, with live counters",
		"apiserver、Reflector、DeltaFIFO 或 RealFIFO、Indexer、processor、listener、handler、workqueue 和 worker，带实时计数"},
	"arrow.notify":   {"notify", "通知"},
	"arrow.writes":   {"API writes", "API 写入"},
	"box.objects":    {"objects", "对象"},
	"box.lists":      {"lists", "List"},
	"box.watches":    {"watches", "Watch"},
	"box.relists":    {"relists", "Relist"},
	"box.events":     {"events", "事件"},
	"box.orreal":     {"or RealFIFO", "或 RealFIFO"},
	"box.queue":      {"queue", "队列"},
	"box.tombstones": {"tombstones", "tombstone"},
	"box.size":       {"size", "大小"},
	"box.listeners":  {"listeners", "listener"},
	"box.distribute": {"distribute to each", "分发给每个 listener"},
	"box.depth":      {"depth", "深度"},
	"box.processing": {"processing", "处理中"},
	"box.retries":    {"retries", "重试"},
	"box.reconciles": {"reconciles", "调谐"},
	"box.workers":    {"read the lister, write", "读 Lister，写 API"},
	"row.listener":   {"listener {name}", "listener {name}"},
	"row.handler":    {"handler {name}", "handler {name}"},
	"row.pending":    {"pending ", "积压 "},
	"row.ring":       {" / ring ", " / 容量 "},
	"diagram.caption": {"Boxes light up as trace records pass through them; counters refresh from the server every half second. Each listener's bar is its pending buffer against the RingGrowing ring's capacity.",
		"追踪记录经过哪个方框，哪个方框就亮一下；计数每半秒从服务器刷新一次。每个 listener 的进度条是它积压的通知占 RingGrowing 环形缓冲区容量的比例。"},

	// demo serve's controllers.
	"cl.aria":    {"the cluster's controllers", "集群的控制器"},
	"cl.title":   {"The cluster's controllers", "集群的控制器"},
	"cl.rv":      {"apiserver RV", "apiserver RV"},
	"cl.lists":   {"lists", "List"},
	"cl.watches": {"watches", "Watch"},
	"cl.queued":  {"queued keys", "排队的 key"},
	"cl.name":    {"controller", "控制器"},
	"cl.depth":   {"queue depth", "队列深度"},
	"cl.hops":    {"hops", "步数"},
	"cl.writes":  {"writes", "写入"},
	"cl.last":    {"last hop (a write shows its cause)", "最近一步（写入会注明原因）"},

	// The buttons.
	"ctl.aria":         {"fault controls", "故障控制"},
	"ctl.title":        {"Make the server misbehave", "让服务器出点故障"},
	"ctl.drop":         {"Drop next", "丢弃接下来的"},
	"ctl.drop.aria":    {"how many events to drop", "要丢弃几个事件"},
	"ctl.drop.unit":    {"events", "个事件"},
	"ctl.drop.hint":    {"Missed events: a delete that never arrives shows up later as DeletedFinalStateUnknown.", "丢失事件：一个没送到的删除，之后会以 DeletedFinalStateUnknown 的形式出现。"},
	"ctl.compact":      {"Compact", "压缩"},
	"ctl.compact.hint": {"Old RVs answer 410 Gone: watch the reflector's relists rise.", "旧的 RV 会得到 410 Gone：看 Reflector 的 Relist 计数上升。"},
	"ctl.close":        {"Close watches", "关闭 watch"},
	"ctl.close.hint":   {"Streams end; reflectors re-watch from their last RV.", "流被关闭，Reflector 从最后的 RV 重新 Watch。"},
	"ctl.slow":         {"Toggle slow handler", "切换慢 handler"},
	"ctl.slow.state":   {"slow:", "慢："},
	"ctl.slow.hint":    {"One listener's buffer grows; the other stays prompt.", "一个 listener 的缓冲区不断变大，另一个照样及时处理。"},
	"ctl.on":           {"on", "开"},
	"ctl.off":          {"off", "关"},
	"ctl.pods":         {"Pods", "Pod"},
	"ctl.create":       {"Create pod", "创建 Pod"},
	"ctl.delete":       {"Delete pod", "删除 Pod"},
	"ctl.result":       {"Click a button, then follow the boxes and the log.", "点一个按钮，然后看方框和日志怎么变化。"},
	"ctl.none":         {"this dashboard has no actions", "这个仪表盘不能执行操作"},
	"ctl.done":         {"{name}: done", "{name}：完成"},
	"ctl.failed":       {"{name} failed: {error}", "{name} 失败：{error}"},

	// The answers of POST /actions/{name}.
	"act.drop":     {"the server drops the next {n} watch event(s)", "服务器将丢弃接下来的 {n} 个 watch 事件"},
	"act.compact":  {"history compacted: resuming watches get 410 Gone and relist", "历史已压缩：接着 watch 会得到 410 Gone，然后重新 List"},
	"act.close":    {"every watch closed: reflectors re-watch from their last RV", "所有 watch 已关闭：Reflector 从最后的 RV 重新 Watch"},
	"act.slow.on":  {"slow handler on: watch its listener's buffer grow", "慢 handler 已开启：看它的 listener 缓冲区变大"},
	"act.slow.off": {"slow handler off", "慢 handler 已关闭"},
	"act.create":   {"created pod {name}", "已创建 Pod {name}"},
	"act.delete":   {"deleted pod {name}", "已删除 Pod {name}"},

	// The log.
	"log.aria":   {"event log", "事件日志"},
	"log.title":  {"Event log", "事件日志"},
	"log.filter": {"filter, e.g. a key such as default/pod-3 or a component", "过滤：输入 key（如 default/pod-3）或组件名"},
	"log.pause":  {"Pause", "暂停"},
	"log.resume": {"Resume", "继续"},
	"log.clear":  {"Clear", "清空"},
	"log.paused": {"{n} new while paused", "暂停期间新增 {n} 条"},
}

// placeholder is a {name} slot of a label.
var placeholder = regexp.MustCompile(`\{[a-z]+\}`)

// label returns the label id in language l with its {name} placeholders filled from args,
// given as name, value pairs.
func label(l msgcat.Lang, id string, args ...string) string {
	s := labels.Text(l, id)
	for i := 0; i+1 < len(args); i += 2 {
		s = strings.ReplaceAll(s, "{"+args[i]+"}", args[i+1])
	}
	return s
}

// pageLabel is a {{T:id}} of the page.
var pageLabel = regexp.MustCompile(`\{\{T:([a-z0-9.]+)\}\}`)

// renderPage fills the page's labels and script table for language l.
func renderPage(page string, l msgcat.Lang) []byte {
	page = pageLabel.ReplaceAllStringFunc(page, func(m string) string {
		return html.EscapeString(labels.Text(l, pageLabel.FindStringSubmatch(m)[1]))
	})
	table, _ := json.Marshal(labels.Map(l)) // a map of strings always encodes; < > & come out escaped
	return []byte(strings.Replace(page, "{{LABELS}}", string(table), 1))
}

// pageLang picks the page's language: ?lang= first, then Options.Lang (demo --lang), then
// the browser's Accept-Language; source says which decided, "" when none did (the page's
// script then asks navigator.language).
func (d *dashboard) pageLang(r *http.Request) (l msgcat.Lang, source string) {
	if l, ok := msgcat.Parse(r.URL.Query().Get("lang")); ok {
		return l, "query"
	}
	if d.opts.Lang != "" {
		return d.opts.Lang, "option"
	}
	if l, ok := msgcat.FromAcceptLanguage(r.Header.Get("Accept-Language")); ok {
		return l, "header"
	}
	return msgcat.En, ""
}
