package main

import "github.com/informer-lab/informer-lab/internal/msgcat"

// messages is every line the demo prints for a human, in English and Chinese, by ID: the
// tour's narration, the detail column of its journey lines, the summary, and the start-up
// lines of demo run and demo serve. The journey's other columns (component, op, key, rv)
// and the values the components log are the trace itself and stay as they are logged.
// The Chinese follows GLOSSARY.md: API terms stay English, a hop of the trace is 一步 (its logged line: 一条追踪日志).
var messages = msgcat.Catalog{
	// The tour's header.
	"tour.header": {"informer-lab tour · profile %s (%s)", "informer-lab 导览 · profile %s（%s）"},
	"profile.classic": {"client-go ≤ v0.32, the informer the articles describe: DeltaFIFO, LIST then WATCH",
		"client-go ≤ v0.32，即文章里讲的 Informer：DeltaFIFO，先 LIST 再 WATCH"},
	"profile.inorder": {"client-go v0.33–v0.34: RealFIFO (events in arrival order), LIST then WATCH",
		"client-go v0.33–v0.34：RealFIFO，事件按到达顺序排队，先 LIST 再 WATCH"},
	"profile.current": {"client-go v0.36+: atomic RealFIFO, batched pops, watch-list instead of LIST",
		"client-go v0.36 及以上：原子模式的 RealFIFO，批量 Pop，用 watch-list 代替 LIST"},
	"tour.apiserver": {"  apiserver  simulated, served at %s: everything below crosses real HTTP",
		"  apiserver  模拟 apiserver，地址 %s：下面的每个请求都走真实的 HTTP"},
	"tour.pipeline": {"  pipeline   reflector → fifo → indexer → processor ─┬─ listener %q → handler → workqueue → 2 workers → PATCH",
		"  流水线     reflector → fifo → indexer → processor ─┬─ listener %q → handler → workqueue → 2 个 worker → PATCH"},
	"tour.pipeline.audit": {"                                                    └─ listener %q     → handler (only logs; resync every %v)",
		"                                                    └─ listener %q     → handler（只记日志；每 %v 一次 Resync）"},
	"tour.eachline": {"  each line  %s", "  每一行     %s"},
	"tour.eachline.columns": {"component  op  key  rv  what happened: one slog trace record, printed as it is logged",
		"component  op  key  rv  发生了什么：一条 slog 追踪记录，记下的同时打印出来"},

	// Steps.
	"tour.enter":      {"  (press Enter for the next step)", "  （按 Enter 进入下一步）"},
	"tour.step":       {"━━ Step %d/%d · %s ━━", "━━ 第 %d/%d 步 · %s ━━"},
	"tour.you.create": {"create pod %s (POST)", "创建 Pod %s（POST）"},
	"tour.you.delete": {"delete pod %s (DELETE)", "删除 Pod %s（DELETE）"},

	"step1.title":         {"Initial sync", "初始同步"},
	"step1.how.list":      {"LISTs", "发一次 LIST"},
	"step1.how.watchlist": {"opens a watch-list stream (no LIST at all)", "打开一条 watch-list 流，完全不发 LIST"},
	"step1.explain": {"Three pending pods exist. The reflector %s,\n" +
		"fills the queue with one Replace, and the informer writes each object to the indexer BEFORE the\n" +
		"processor tells the handlers (cache first, then notify).\n" +
		"Following demo/web-1; web-2 and web-3 take the same path.",
		"已有三个 Pending 状态的 Pod。Reflector %s，\n" +
			"用一次 Replace 填满队列；Informer 把每个对象写入 Indexer 之后，\n" +
			"processor 才通知各个 handler：先写缓存，再发通知。\n" +
			"下面跟踪 demo/web-1；web-2 和 web-3 走的是同一条路。"},
	"step1.synced": {"synced: %d pods in the cache (%d more trace lines about web-2 and web-3 not shown)",
		"同步完成：缓存中有 %d 个 Pod（另有 %d 行关于 web-2 和 web-3 的追踪记录没有显示）"},
	"step1.writes": {"the scheduler reconciled %d times and wrote %d PATCHes (bind to a node, then mark Running); each write\n" +
		"    came back through the whole pipeline as an update (%d OnUpdate) and caused the next reconcile:\n" +
		"    a controller sees its own writes",
		"scheduler 调谐了 %d 次，发出 %d 个 PATCH（先绑定到节点，再标记为 Running）；每次写入都作为一次更新\n" +
			"    走完整条流水线回到控制器（%d 次 OnUpdate），并引起下一次调谐：\n" +
			"    控制器会看到自己的写入"},

	"step2.title": {"Create, update, delete", "创建、更新、删除"},
	"step2.explain": {"Each change is one watch event (ADDED, MODIFIED, DELETED) that becomes one delta in the queue\n" +
		"(Added, Updated, Deleted) and one handler call. Following demo/web-4.",
		"每次变更是一个 watch 事件（ADDED、MODIFIED、DELETED），在队列里变成一个 delta\n" +
			"（Added、Updated、Deleted），再变成一次 handler 调用。下面跟踪 demo/web-4。"},
	"step2.label": {"label pod web-4 tier=frontend (PATCH)", "给 Pod web-4 打上标签 tier=frontend（PATCH）"},
	"step2.result": {"events in: ADDED %d, MODIFIED %d, DELETED %d; scheduler calls: OnAdd %d, OnUpdate %d, OnDelete %d",
		"收到的事件：ADDED %d，MODIFIED %d，DELETED %d；scheduler 的调用：OnAdd %d，OnUpdate %d，OnDelete %d"},

	"step3.title": {"Level-triggered: many updates, fewer reconciles", "水平触发：更新很多，调谐很少"},
	"step3.explain": {"%d quick updates of web-1 while a worker is busy reconciling it. The workqueue never hands one key\n" +
		"to two workers: later Adds only mark the key dirty, so they collapse into one more reconcile, which\n" +
		"reads the newest state from the lister. Informers promise the latest state, not every state.",
		"一个 worker 正忙着调谐 web-1，这时快速更新它 %d 次。workqueue 从不把同一个 key 同时交给\n" +
			"两个 worker：后来的 Add 只把 key 标记为 dirty，于是合并成一次额外的调谐，\n" +
			"这次调谐从 Lister 读到最新状态。Informer 保证的是最新状态，而不是每一个中间状态。"},
	"step3.first": {"label web-1 tick=1 (PATCH)", "给 web-1 打上标签 tick=1（PATCH）"},
	"step3.more": {"label web-1 tick=2 … tick=%d while the worker is busy (PATCH ×%d)",
		"趁 worker 还在忙，给 web-1 打上标签 tick=2 … tick=%d（PATCH ×%d）"},
	"step3.queue": {"%d updates → %d OnUpdate → workqueue: %d queued, %d deferred (key in processing), %d collapsed (already dirty)",
		"%d 次更新 → %d 次 OnUpdate → workqueue：%d 次 queued，%d 次 deferred（key 正在处理），%d 次合并（已经是 dirty）"},
	"step3.reconciles": {"→ %d reconciles, each reading the final state (rv=%s) from the lister",
		"→ %d 次调谐，每次都从 Lister 读到最终状态（rv=%s）"},

	"step4.title": {"A slow handler", "一个慢 handler"},
	"step4.explain": {"The audit handler gets stuck (a slow disk, say) while web-2 is updated %d times. Its listener\n" +
		"keeps accepting notifications into a growing ring buffer (initial capacity 1024, doubled when full,\n" +
		"never shrunk); the informer and the scheduler's listener do not wait for it. Lines sampled.",
		"audit handler 卡住了（比如磁盘很慢），同时 web-2 被更新 %d 次。它的 listener 仍然\n" +
			"把通知收进一个不断变大的环形缓冲区（初始容量 1024，满了就翻倍，从不缩小）；\n" +
			"Informer 和 scheduler 的 listener 都不等它。以下各行是抽样。"},
	"step4.burst": {"label web-2 burst=1 … burst=%d, as fast as the server takes them (Go API PATCH ×%d)",
		"以服务器能接受的最快速度给 web-2 打上标签 burst=1 … burst=%d（Go API PATCH ×%d）"},
	"step4.stuck": {"scheduler: all %d updates handled, %d pending in its ring; audit: stuck, %d pending, ring capacity %d",
		"scheduler：%d 次更新全部处理完，环形缓冲区里还剩 %d 个；audit：卡住了，积压 %d 个，环形缓冲区容量 %d"},
	"step4.unstick": {"unstick the audit handler", "让 audit handler 恢复"},
	"step4.caught": {"audit caught up: %d calls, in order (%d out of order); its ring peaked at %d pending, capacity %d (it never shrinks)",
		"audit 追上来了：%d 次调用，按顺序到达（乱序 %d 次）；环形缓冲区最多积压 %d 个，容量 %d（从不缩小）"},
	"step4.collapse": {"the workqueue turned the scheduler's %d OnUpdate into %d reconciles of web-2",
		"workqueue 把 scheduler 的 %d 次 OnUpdate 合并成 web-2 的 %d 次调谐"},

	"step5.title": {"Lost events, compaction, 410, relist, DeletedFinalStateUnknown",
		"丢失的事件、压缩、410、Relist、DeletedFinalStateUnknown"},
	"step5.explain": {"The network loses the DELETED event of web-3, so the cache keeps a pod that is gone. Then etcd\n" +
		"compacts its history and the watch is cut. Resuming from its last RV gets 410 Gone (\"too old\n" +
		"resource version\"), so the reflector relists. web-3 is missing from the list: the informer can only\n" +
		"say \"deleted, final state unknown\", and OnDelete gets a DeletedFinalStateUnknown, not a *Pod.\n" +
		"Following demo/web-3.",
		"网络丢掉了 web-3 的 DELETED 事件，缓存里于是留着一个已经不存在的 Pod。接着 etcd\n" +
			"压缩历史，watch 被切断。从最后的 RV 接着 watch，得到 410 Gone（\"too old resource version\"），\n" +
			"于是 Reflector 重新 List。列表里没有 web-3，Informer 只能说“已删除，最终状态未知”：\n" +
			"OnDelete 收到的是 DeletedFinalStateUnknown，而不是 *Pod。\n" +
			"下面跟踪 demo/web-3。"},
	"step5.drop": {"apiserver fault: drop the next DELETED event of web-3", "apiserver 故障：丢掉 web-3 的下一个 DELETED 事件"},
	"step5.stale": {"the server has deleted web-3, but the cache still holds it at rv=%s: nothing told the informer",
		"服务器已经删除了 web-3，缓存里却还留着 rv=%s 的它：没有谁告诉 Informer"},
	"step5.compact": {"apiserver faults: compact the whole history, then close every watch",
		"apiserver 故障：压缩全部历史，再关闭所有 watch"},
	"step5.result": {"%d relist (one Replace), %d tombstones delivered (one per handler); the scheduler keyed it with\n" +
		"    DeletionHandlingMetaNamespaceKeyFunc and found web-3 gone: the safe unwrap",
		"%d 次 Relist（一次 Replace），送达 %d 个 tombstone（每个 handler 一个）；scheduler 用\n" +
			"    DeletionHandlingMetaNamespaceKeyFunc 算出 key，发现 web-3 已经不在了：这才是安全的解包方式"},

	"step6.title": {"Retries with rate-limited backoff, then Forget", "限流退避重试，然后 Forget"},
	"step6.explain": {"Pod flaky cannot be scheduled three times in a row. Each failure goes back with AddRateLimited: the\n" +
		"limiter doubles the delay per key (5ms, 10ms, 20ms, …). Success calls Forget, which resets it.\n" +
		"Following demo/flaky.",
		"Pod flaky 连续三次调度失败。每次失败都用 AddRateLimited 放回队列：限流器按 key\n" +
			"把延迟翻倍（5ms、10ms、20ms……）。成功后调用 Forget，延迟随之清零。\n" +
			"下面跟踪 demo/flaky。"},
	"step6.create": {"create pod flaky, annotated %s=3 (POST)", "创建 Pod flaky，带注解 %s=3（POST）"},
	"step6.result": {"%d failures, %d rate-limited requeues, then success: Forget cleared %d requeues",
		"失败 %d 次，限流后重新入队 %d 次，然后成功：Forget 清掉了 %d 次重新入队的记录"},

	"step7.title": {"Resync is not relist", "Resync 不是 Relist"},
	"step7.explain": {"Every %v the reflector asks the processor whether a handler wants a resync. audit inherits that\n" +
		"period; the scheduler asked for none. A resync replays the %d cached pods from the indexer as\n" +
		"updates with an unchanged resourceVersion: no LIST, no request at all. Following demo/web-1.",
		"Reflector 每隔 %v 问一次 processor：有没有 handler 要 Resync。audit 沿用这个周期，\n" +
			"scheduler 没有要求 Resync。一次 Resync 把 Indexer 里缓存的 %d 个 Pod 当作更新重放一遍，\n" +
			"resourceVersion 不变：不发 LIST，也不发任何请求。下面跟踪 demo/web-1。"},
	"step7.wait": {"wait for the next resync (up to %v); API requests so far: %d",
		"等待下一次 Resync（最多 %v）；到目前为止的 API 请求：%d 个"},
	"step7.result": {"audit got %d resync updates, the scheduler %d; API requests during the step: %d",
		"audit 收到 %d 次 Resync 更新，scheduler 收到 %d 次；这一步的 API 请求：%d 个"},

	// The summary.
	"sum.title":        {"━━ Summary · profile %s · %.1fs ━━", "━━ 小结 · profile %s · %.1fs ━━"},
	"sum.none":         {"none", "无"},
	"sum.requests":     {"API requests", "API 请求"},
	"sum.requests.src": {"(apiserver RequestCounts, by verb)", "（apiserver RequestCounts，按 verb 统计）"},
	"sum.events":       {"watch events", "watch 事件"},
	"sum.events.src":   {"(reflector)", "（reflector）"},
	"sum.deltas":       {"queue deltas", "队列中的 delta"},
	"sum.deltas.src":   {"(fifo)", "（fifo）"},
	"sum.handler":      {"handler %s", "handler %s"},
	"sum.handler.src":  {"(%d tombstones, %d resyncs)", "（%d 个 tombstone，%d 次 Resync）"},
	"sum.reconciles":   {"reconciles", "调谐"},
	"sum.reconciles.v": {"%d for %d scheduler calls", "%d 次，对应 scheduler 的 %d 次调用"},
	"sum.reconciles.src": {"(level-triggered: the workqueue collapses keys)",
		"（水平触发：workqueue 会合并同一个 key）"},
	"sum.writes":         {"writes", "写入"},
	"sum.writes.v":       {"%d PATCH by the scheduler", "scheduler 发出 %d 个 PATCH"},
	"sum.writes.src":     {"(each came back as an update)", "（每个都作为一次更新回来）"},
	"sum.relists":        {"relists", "Relist"},
	"sum.relists.src":    {"(after the initial sync: only the 410 of step 5)", "（初始同步之后：只有第 5 步的 410 引起的那一次）"},
	"sum.tombstones":     {"tombstones", "tombstone"},
	"sum.tombstones.src": {"(OnDelete(DeletedFinalStateUnknown), all handlers)", "（所有 handler 的 OnDelete(DeletedFinalStateUnknown)）"},
	"sum.retries":        {"retries", "重试"},
	"sum.retries.v":      {"%d, then Forget", "%d 次，然后 Forget"},
	"sum.retries.src":    {"(AddRateLimited)", "（AddRateLimited）"},
	"sum.resyncs":        {"resyncs", "Resync"},
	"sum.resyncs.v":      {"%d (step 7 made %d API requests)", "%d 次（第 7 步发出 %d 个 API 请求）"},
	"sum.ring":           {"audit ring", "audit 环形缓冲区"},
	"sum.ring.v":         {"peak %d pending, capacity %d", "最多积压 %d 个，容量 %d"},
	"sum.ring.src":       {"(RingGrowing)", "（RingGrowing）"},

	// The detail column of a journey line: what the hop adds to the story.
	"hop.fault":          {"FAULT %s", "故障 %s"},
	"hop.list":           {"%s items over HTTP", "经 HTTP 收到 %s 个对象"},
	"hop.decoded":        {"%s decoded from the stream", "从流中解码出 %s"},
	"hop.replace":        {"%s items → queue", "%s 个对象 → 队列"},
	"hop.initial-end":    {"initial-events-end: the snapshot is complete", "initial-events-end：快照已经完整"},
	"hop.bookmark":       {"RV moves, nothing stored", "RV 前移，不存任何对象"},
	"hop.backoff":        {"wait %s before the next ListAndWatch", "等 %s 再开始下一次 ListAndWatch"},
	"hop.reflector-list": {`LIST from the watch cache (rv "0")`, `从 watch cache 做 LIST（rv "0"）`},
	"hop.relist":         {"LIST again", "再做一次 LIST"},
	"hop.watch-list":     {"WATCH with sendInitialEvents (watch-list)", "带 sendInitialEvents 的 WATCH（watch-list）"},
	"hop.watch-start":    {"WATCH from here", "从这里开始 WATCH"},
	"hop.resync":         {"replay the cache: no API call", "重放缓存：不调用 API"},
	"hop.tombstone":      {"Deleted(DeletedFinalStateUnknown): gone from the list", "Deleted(DeletedFinalStateUnknown)：列表里已经没有它"},
	"hop.pop-batch":      {"%s deltas", "%s 个 delta"},
	"hop.items":          {"%s items", "%s 个对象"},
	"hop.initial":        {"%s (initial list) → %s listener(s)", "%s（初始列表）→ %s 个 listener"},
	"hop.distribute":     {"%s → %s listener(s)", "%s → %s 个 listener"},
	"hop.ring":           {"  ring: %s pending", "  环形缓冲区：积压 %s 个"},
	"hop.cap":            {", cap %s", "，容量 %s"},
	"hop.unwrap":         {" got DeletedFinalStateUnknown: unwrap .Obj", " 收到 DeletedFinalStateUnknown：取出 .Obj"},
	"hop.requeue":        {"AddRateLimited: back in %s", "AddRateLimited：%s 后重新入队"},
	"hop.forget":         {"Forget: %s requeues cleared", "Forget：清掉 %s 次重新入队的记录"},
	"hop.get":            {"→ a worker", "→ 交给一个 worker"},
	"hop.error":          {"error: %s", "错误：%s"},
	"hop.no-change":      {"(no change)", "（无变化）"},

	// The notes of the demo's handlers and workers (notes.go).
	"note.worker":        {"worker %s: ", "worker %s："},
	"note.enqueue":       {"enqueue the key", "把 key 放入 workqueue"},
	"note.logged":        {"logged", "已记日志"},
	"note.logged-resync": {"logged a resync (same resourceVersion)", "记下一次 Resync（resourceVersion 不变）"},
	"note.stuck":         {", then stuck (a slow disk, say)", "，随后卡住（比如磁盘很慢）"},
	"note.retry":         {"retry later", "稍后重试"},
	"note.gone":          {"not in the cache: deleted, nothing to do", "缓存里没有：已删除，无事可做"},
	"note.hold":          {"a slow reconcile: busy with this key for a while", "一次慢调谐：这个 key 要忙上一阵"},
	"note.pending":       {"Pending, no node", "Pending，还没有节点"},
	"note.running":       {"on %s, Running: nothing to do", "在 %s 上，已是 Running：无事可做"},
	"note.not-running":   {"on %s, not running → PATCH status.phase=Running", "在 %s 上，还没运行 → PATCH status.phase=Running"},
	"note.bind":          {"Pending, no node → bind: POST pods/binding to %s", "Pending，还没有节点 → 绑定：POST pods/binding 到 %s"},
	"note.give-up":       {"giving up after %s retries", "重试 %s 次后放弃"},
	"note.sep":           {": %s", "：%s"},

	// demo run.
	"run.running": {"pipeline running: profile %s, apiserver %s, %d pods, %.3g changes/s; Ctrl-C stops",
		"流水线已启动：profile %s，apiserver %s，%d 个 Pod，每秒 %.3g 次变更；按 Ctrl-C 停止"},
	"run.dashboard": {"dashboard: http://%s/", "仪表盘：http://%s/"},
	"run.stopping":  {"stopping: %s", "正在停止：%s"},

	// demo serve's start-up lines.
	"serve.serving":          {"informer-lab apiserver (simulated) serving %s", "informer-lab apiserver（模拟）已在 %s 提供服务"},
	"serve.seeded":           {"  seeded     %d pods and configmap app-config in namespace default", "  预置对象   namespace default 里的 %d 个 Pod 和 configmap app-config"},
	"serve.crd":              {"  crd        %s (from %s)", "  crd        %s（来自 %s）"},
	"serve.kubeconfig":       {"  kubeconfig %s", "  kubeconfig %s"},
	"serve.controllers":      {"  controllers %s", "  控制器     %s"},
	"serve.controllers.none": {"  controllers none: the apiserver alone, as envtest runs it", "  控制器     无：只有 apiserver，与 envtest 的运行方式相同"},
	"serve.nodes.none":       {"  nodes      none: --nodes %d needs the kubelet controller (add it to --controllers)", "  节点       无：--nodes %d 需要 kubelet 控制器，请把它加进 --controllers"},
	"serve.nodes":            {"  nodes      %d simulated", "  节点       模拟 %d 个"},
	"serve.dashboard":        {"  dashboard  %s", "  仪表盘     %s"},
	"serve.tls":              {"  tls        self-signed CA in the kubeconfig and in %s", "  tls        自签名 CA，写在 kubeconfig 里，也写在 %s"},
	"serve.auth.both":        {"  auth       client certificate (user %s, group %s) or bearer token required (both are in the kubeconfig)", "  认证       需要客户端证书（用户 %s，组 %s）或 bearer token，两者都在 kubeconfig 里"},
	"serve.auth.cert":        {"  auth       client certificate required (user %s, group %s, in the kubeconfig as kind writes it)", "  认证       需要客户端证书（用户 %s，组 %s，像 kind 那样写在 kubeconfig 里）"},
	"serve.auth.token":       {"  auth       bearer token required (it is in the kubeconfig)", "  认证       需要 bearer token（在 kubeconfig 里）"},
	"serve.warning":          {"  warning    %s is not loopback and there is no --token or --client-certs: anyone who can reach it can write", "  警告       %s 不是回环地址，又没有 --token 或 --client-certs：谁能访问它，谁就能写入"},
	"serve.client":           {"  client     the admin certificate also in %s and %s", "  客户端     admin 证书也写在 %s 和 %s"},
	"serve.authz":            {"  authz      RBAC: the bootstrap roles and bindings are in place; try kubectl auth can-i --list --as someone", "  授权       RBAC：bootstrap 角色和绑定已经就位；试试 kubectl auth can-i --list --as someone"},
	"serve.try":              {"\nTry:", "\n试试："},
	"serve.stop":             {"\nCtrl-C stops the server.", "\n按 Ctrl-C 停止服务器。"},
	"serve.stopped":          {"stopped", "已停止"},

	// demo watch.
	"watch.all": {"all namespaces", "所有 namespace"},
	"watch.ns":  {"namespace %s", "namespace %s"},
	"watch.watching": {"watching %s in %s at %s with our informer (profile %s); Ctrl-C stops",
		"在 %[3]s 上用我们的 Informer watch %[1]s（%[2]s，profile %[4]s）；按 Ctrl-C 停止"},
	"watch.synced":  {"synced: %d %s in the cache at resourceVersion %s", "同步完成：缓存中有 %d 个 %s，resourceVersion 为 %s"},
	"watch.initial": {"(initial list)", "（初始列表）"},
	"watch.resync":  {"(resync: unchanged)", "（Resync：没有变化）"},
	"watch.tombstone": {"(DeletedFinalStateUnknown: the delete was missed, a relist found it gone)",
		"（DeletedFinalStateUnknown：删除事件丢了，Relist 时发现它已不在）"},

	// The tour's flags (demo tour -h), and --lang of every command.
	"flag.profile": {"informer profile: classic, inorder, current, a comma-separated list, or all",
		"Informer 的 profile：classic、inorder、current，逗号分隔的列表，或 all"},
	"flag.fast":  {"no pauses, 1s resync: the whole tour in a few seconds (for tests)", "不停顿，Resync 周期 1s：几秒钟走完整个导览（供测试用）"},
	"flag.short": {"same as --fast", "同 --fast"},
	"flag.pause": {"reading time between steps", "两步之间留给读者的阅读时间"},
	"flag.step":  {"wait for Enter before each step (for instructors)", "每一步之前等待按 Enter（供讲师使用）"},
	"flag.burst": {"updates sent while the audit handler is stuck (step 4); >1024 grows the ring",
		"audit handler 卡住期间发出的更新次数（第 4 步）；超过 1024 时环形缓冲区会扩容"},
	"flag.resync": {"the informer's resync period (at least 1s)", "Informer 的 Resync 周期（至少 1s）"},
	"flag.color":  {"colour: auto (a terminal, unless NO_COLOR is set), always or never", "颜色：auto（输出到终端且没有设置 NO_COLOR 时着色）、always 或 never"},
	"flag.lang": {"language of the narration: en or zh (default: from LC_ALL, LC_MESSAGES or LANG; zh_CN.UTF-8 and every zh* locale mean zh)",
		"解说的语言：en 或 zh（默认依次看 LC_ALL、LC_MESSAGES、LANG；zh_CN.UTF-8 以及其他 zh 开头的 locale 都算 zh）"},

	// demo help.
	"demo.usage": {`demo: the informer-lab workshop CLI

Usage:
  demo [tour] [flags]   the guided tour of the informer pipeline (what make demo runs)
  demo run [flags]      the pipeline with a steady mutator until Ctrl-C (--ui for the dashboard)
  demo watch [flags]    our informer against any apiserver, a real cluster included
  demo serve [flags]    the simulated cluster (apiserver, controllers, nodes) for kubectl, curl and client-go

Run "demo <command> -h" for the flags of a command; --lang=zh narrates in Chinese.
`, `demo：informer-lab 工作坊的命令行工具

用法：
  demo [tour] [参数]    Informer 流水线的导览（make demo 运行的就是它）
  demo run [参数]       运行流水线，并持续制造变更，直到按 Ctrl-C（--ui 打开仪表盘）
  demo watch [参数]     用我们的 Informer 对接任意 apiserver，包括真实集群
  demo serve [参数]     模拟集群（apiserver、控制器、节点），供 kubectl、curl 和 client-go 使用

"demo <命令> -h" 列出该命令的参数；--lang=en 改用英文。
`},
}
