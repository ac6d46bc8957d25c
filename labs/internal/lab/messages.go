package lab

import (
	"fmt"
	"os"
	"strings"
)

// Lang is the language the grader, lab-start, lab-status and the hints speak: "en" or "zh".
type Lang string

// The languages of the messages.
const (
	EN Lang = "en"
	ZH Lang = "zh"
)

// LangFromEnv is ZH when ZH is set to anything but "0", or when the locale (LC_ALL, then
// LC_MESSAGES, then LANG, as gettext reads them) is Chinese; else EN.
func LangFromEnv(getenv func(string) string) Lang {
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := getenv("ZH"); v != "" && v != "0" {
		return ZH
	}
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			if strings.HasPrefix(s, "zh") {
				return ZH
			}
			return EN
		}
	}
	return EN
}

// T formats the message id in lang. A message missing in lang (a defect TestLabs_Messages
// catches) falls back to English, then to the id itself.
func T(lang Lang, id string, args ...any) string {
	f, ok := messages[lang][id]
	if !ok {
		if f, ok = messages[EN][id]; !ok {
			f = id
		}
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}

// Title is the lab's title in lang; StepTitle a step's.
func (l *Lab) TitleIn(lang Lang) string { return T(lang, "lab"+l.ID+".title") }

// StepTitle is step s's title in lang.
func (l *Lab) StepTitle(lang Lang, s Step) string {
	return T(lang, fmt.Sprintf("lab%s.step%d", l.ID, s.N))
}

// messages is the one catalogue of what the lab command prints, keyed by ID, in both
// languages. The labs' and steps' titles join it from the Catalogue (English) and zhTitles.
// Chinese follows GLOSSARY.md: API terms (Pop, Replace, Resync, watch, informer …) stay
// English; a controller's sync is sync, never 同步.
var messages = map[Lang]map[string]string{
	EN: {
		"board.header":        "\nLab %s · %s\ngraded: %s\n",
		"board.graded.yours":  "your files in %s",
		"board.graded.ref":    "the reference implementation (REF=1)",
		"board.functions":     "\nYour functions\n",
		"board.step":          "  step %d  %s\n",
		"board.written":       "written",
		"board.notwritten":    "not written yet",
		"board.first":         "; write this one first: alone it turns %s green",
		"board.behaviours":    "\nBehaviours (tests)",
		"board.col.pass":      "pass",
		"board.col.fail":      "fail",
		"board.col.optional":  "optional",
		"board.kind.step":     "step %d",
		"board.unwritten":     "\nFailing because a function still panics with \"lab %s: not implemented\"\n",
		"board.unwritten.one": "  ✗ %s%s: %d test, e.g. %s\n",
		"board.unwritten.n":   "  ✗ %s%s: %d tests, e.g. %s\n",
		"board.andmore":       "and %d more",
		"board.ofstep":        " (step %d)",
		"board.failing":       "\nFailing behaviours\n",
		"board.failing.more":  "  … and %d more (ALL=1 shows every one)\n",
		"board.build":         "      the package does not compile with your files, so none of its tests ran\n",
		"board.testmain":      "      the package's TestMain failed, before the tests or after them (often: goroutines still running)\n",
		"board.teaches":       "teaches:",
		"board.read":          "read:   ",
		"board.why":           "why:    ",
		"board.passing":       "\nPassing behaviours\n",
		"board.optional": "\nNot graded: %d trace test(s) fail (%s).\nThey check the trace lines the reference logs inside these functions, which are not the lesson;\n" +
			"add the same trace hops (the chapter's \"Follow one event\" shows them) if you want them green.\n",
		"board.stopped":  "\nStopped at step %d of %d: its tests fail, so the later steps' tests and the lab's whole suite did not run (ALL=1 runs every test).\n",
		"board.score":    "\nStep %d of %d · Score: %d of %d graded behaviours pass.",
		"board.done":     "\nAll %d steps · Score: %d of %d graded behaviours pass. Lab %s is done.\n",
		"board.next.fn":  " Write the functions marked · above, step by step; make lab-hint LAB=%s N=1 when stuck.\n",
		"board.next.fix": " Read the failing behaviours above; make lab-hint LAB=%s N=3 names the tricky cases.\n",
		"check.byhand":   "\nOne test by hand, with its full output:\n  go test -overlay=%s -run '^%s$' %s\n",
		"start.wrote":    "  wrote %s\n",
		"start.kept":     "  kept  %s (yours already; FORCE=1 starts it again)\n",
		"start.order":    "\nThe functions you write, in this order (everything around them is the reference):\n",
		"start.first":    "          (%s alone turns %s green: write it first)\n",
		"start.read":     "\nRead %s first. Then:\n",
		"start.check":    "  make lab-check LAB=%s        grade your files, step by step (seconds; ALL=1 runs every test)\n",
		"start.hint":     "  make lab-hint LAB=%s N=1     the idea (N=2 the data structure, N=3 the tricky case; ZH=1 中文)\n",
		"start.ref":      "  make lab-check LAB=%s REF=1  the same tests against the reference\n",
		"status.head":    "lab",
		"status.title":   "title",
		"status.fns":     "functions",
		"status.last":    "last lab-check",
		"status.notyet":  "not started",
		"status.nofm":    "%d of %d",
		"status.score":   "%d/%d pass, %s (%s)",
		"status.done":    "DONE",
		"status.failing": "failing",
		"status.foot":    "\nmake lab-start LAB=NN begins one; make lab-check LAB=NN grades it.\n",
		"hint.next":      "\n(make lab-hint LAB=%s N=%d for the next level)\n",
		"hint.levels":    "the hint level N is 1 (the idea), 2 (the data structure) or 3 (the tricky case)",
		"example.point":  "the example's printed output (its // Output: block) must match",
	},
	ZH: {
		"board.header":        "\n实验 %s · %s\n评分对象：%s\n",
		"board.graded.yours":  "你在 %s 中的文件",
		"board.graded.ref":    "参考实现（REF=1）",
		"board.functions":     "\n你要写的函数\n",
		"board.step":          "  第 %d 步  %s\n",
		"board.written":       "已写",
		"board.notwritten":    "尚未写",
		"board.first":         "；先写这个：单独写好它，%s 就会通过",
		"board.behaviours":    "\n行为（测试）",
		"board.col.pass":      "通过",
		"board.col.fail":      "失败",
		"board.col.optional":  "不计分",
		"board.kind.step":     "第 %d 步",
		"board.unwritten":     "\n失败原因：函数仍在 panic \"lab %s: not implemented\"\n",
		"board.unwritten.one": "  ✗ %s%s：%d 个测试，例如 %s\n",
		"board.unwritten.n":   "  ✗ %s%s：%d 个测试，例如 %s\n",
		"board.andmore":       "另外 %d 个",
		"board.ofstep":        "（第 %d 步）",
		"board.failing":       "\n失败的行为\n",
		"board.failing.more":  "  …… 另外还有 %d 个（ALL=1 逐个列出）\n",
		"board.build":         "      用你的文件编译这个包失败，所以它的测试一个也没有运行\n",
		"board.testmain":      "      这个包的 TestMain 失败了，在测试之前或之后（常见原因：还有 goroutine 在运行）\n",
		"board.teaches":       "要点：",
		"board.read":          "阅读：",
		"board.why":           "原因：",
		"board.passing":       "\n通过的行为\n",
		"board.optional": "\n不计分：%d 个 trace 测试失败（%s）。\n它们检查参考实现在这些函数里记录的 trace 行，这不是本实验的内容；\n" +
			"如果想让它们通过，请加上同样的 trace hop（章节的“Follow one event”一节列出了它们）。\n",
		"board.stopped":  "\n停在第 %d 步（共 %d 步）：这一步的测试失败，所以后面各步的测试和整个实验的测试都没有运行（ALL=1 运行全部测试）。\n",
		"board.score":    "\n第 %d 步，共 %d 步 · 得分：计分的 %[4]d 个行为中通过 %[3]d 个。",
		"board.done":     "\n全部 %d 步 · 得分：计分的 %[3]d 个行为中通过 %[2]d 个。实验 %[4]s 完成。\n",
		"board.next.fn":  "请按步骤写上面标记为 · 的函数；卡住时运行 make lab-hint LAB=%s N=1。\n",
		"board.next.fix": "请阅读上面失败的行为；make lab-hint LAB=%s N=3 会指出棘手的情况。\n",
		"check.byhand":   "\n手动运行一个测试，查看完整输出：\n  go test -overlay=%s -run '^%s$' %s\n",
		"start.wrote":    "  已写入 %s\n",
		"start.kept":     "  保留  %s（已是你的文件；FORCE=1 重新开始）\n",
		"start.order":    "\n你要写的函数，按这个顺序（它们周围的一切都是参考实现）：\n",
		"start.first":    "          （单独写好 %s，%s 就会通过：先写它）\n",
		"start.read":     "\n先读 %s。然后：\n",
		"start.check":    "  make lab-check LAB=%s        逐步给你的文件打分（几秒钟；ALL=1 运行全部测试）\n",
		"start.hint":     "  make lab-hint LAB=%s N=1     思路（N=2 数据结构，N=3 棘手的情况；ZH=1 中文）\n",
		"start.ref":      "  make lab-check LAB=%s REF=1  用同样的测试检查参考实现\n",
		"status.head":    "实验",
		"status.title":   "标题",
		"status.fns":     "函数",
		"status.last":    "上次 lab-check",
		"status.notyet":  "未开始",
		"status.nofm":    "%d / %d",
		"status.score":   "%d/%d 通过，%s（%s）",
		"status.done":    "完成",
		"status.failing": "未通过",
		"status.foot":    "\nmake lab-start LAB=NN 开始一个实验；make lab-check LAB=NN 给它打分。\n",
		"hint.next":      "\n（下一级提示：make lab-hint LAB=%s N=%d）\n",
		"hint.levels":    "提示级别 N 是 1（思路）、2（数据结构）或 3（棘手的情况）",
		"example.point":  "示例打印的输出（它的 // Output: 块）必须一致",
	},
}

// zhTitles are the Chinese titles of the labs and their steps; the English ones are the
// Catalogue's.
var zhTitles = map[string]string{
	"lab03.title": "Indexer：threadSafeMap 和它的索引",
	"lab03.step1": "storeIndex.updateSingleIndex：在一个索引里重新登记一个 key",
	"lab03.step2": "threadSafeMap 的写操作：更新、用存储的对象删除、Replace",
	"lab04.title": "DeltaFIFO，然后是 RealFIFO",
	"lab04.step1": "DeltaFIFO：去重、入队、带 tombstone 的 Replace、Pop",
	"lab04.step2": "RealFIFO：非原子的 relist 和 Resync",
	"lab05.title": "Reflector 的 ListAndWatch",
	"lab05.step1": "list：请求哪个 resourceVersion，以及 410 之后的 relist",
	"lab05.step2": "watch：续接、bookmark、错误和退避",
	"lab05.step3": "watch-list：以流的形式接收初始事件",
	"lab06.title": "sharedIndexInformer：HandleDeltas 和后加入的 handler",
	"lab06.step1": "processDeltas：把一个 key 的 Deltas 应用到缓存，然后通知",
	"lab06.step2": "handler 一侧：OnUpdate 判断是否为 resync，以及给后加入的 handler 回放",
	"lab07.title": "RingGrowing 和 processorListener",
	"lab07.step1": "RingGrowing：写满时容量翻倍的 FIFO 环形缓冲区",
	"lab07.step2": "processorListener.pop 和 run：永远不让 handler 阻塞 informer",
	"lab09.title": "workqueue：dirty 和 processing 集合、延迟与限速",
	"lab09.step1": "队列：用 dirty 和 processing 集合实现 Add、Get 和 Done",
	"lab09.step2": "延迟队列：AddAfter 的等待循环和它的堆",
	"lab09.step3": "限速器和 AddRateLimited",
	"lab10.title": "控制器：worker 循环和水平触发的 sync",
	"lab10.step1": "worker 循环：Get、调谐、Done，以及用 Forget 结束的重试",
	"lab10.step2": "syncHandler：读 lister 而不是事件；绝不修改缓存",
	"lab13.title": "Foo 控制器：事件 handler 和 syncHandler",
	"lab13.step1": "事件 handler：把 Foo 和它的 Deployment 的变化变成 Foo 的 key",
	"lab13.step2": "syncHandler：让 Deployment 和状态与缓存中的 Foo 一致",
	"lab14.title": "ReplicaSet 控制器的 sync：差值、慢启动和 expectations",
	"lab14.step1": "manageReplicas：差值、慢启动批次、删除哪些 Pod",
	"lab14.step2": "expectations：在缓存看到自己的写入之前暂缓 sync",
}

func init() {
	for _, l := range Catalogue {
		messages[EN]["lab"+l.ID+".title"] = l.Title
		for _, s := range l.Steps {
			messages[EN][fmt.Sprintf("lab%s.step%d", l.ID, s.N)] = s.Title
		}
	}
	for k, v := range zhTitles {
		messages[ZH][k] = v
	}
}

// Width is the number of terminal columns s takes: two for a CJK character, one otherwise.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x2E80 {
			n++
		}
	}
	return n
}

// Pad pads s with spaces to w terminal columns.
func Pad(s string, w int) string {
	if d := w - Width(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}
