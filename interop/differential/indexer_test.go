package differential

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-lab/informer-lab/store"
)

// iobj is the object of the indexer scripts: one colour (a single-valued index) and any
// number of tags (a multi-valued index, possibly empty).
type iobj struct {
	Name  string
	Color string
	Tags  []string
	RV    int
}

func (o *iobj) String() string {
	return fmt.Sprintf("%s@%d{%s %v}", o.Name, o.RV, o.Color, o.Tags)
}

func ikey(o any) (string, error) {
	if v, ok := o.(*iobj); ok {
		return v.Name, nil
	}
	return "", fmt.Errorf("no key for %T", o)
}

func byColor(o any) ([]string, error) { return []string{o.(*iobj).Color}, nil }
func byTag(o any) ([]string, error)   { return o.(*iobj).Tags, nil }
func byNameLen(o any) ([]string, error) {
	return []string{fmt.Sprint(len(o.(*iobj).Name))}, nil
}

type indexerOp struct {
	Kind string // Add Update Delete Replace AddIndexers
	Obj  *iobj
	List []*iobj
}

func (op indexerOp) String() string {
	switch op.Kind {
	case "Replace":
		s := make([]string, len(op.List))
		for i, o := range op.List {
			s[i] = o.String()
		}
		return "Replace([" + strings.Join(s, " ") + "])"
	case "AddIndexers":
		return "AddIndexers(byNameLen)"
	}
	return fmt.Sprintf("%s(%s)", op.Kind, op.Obj)
}

var (
	colors = []string{"red", "green", "blue"}
	tags   = []string{"x", "y", "z", "w"}
	inames = []string{"a", "bb", "c", "dd", "e", "ff"}
)

func genIndexer(r *rand.Rand) []indexerOp {
	rv := 0
	mk := func() *iobj {
		rv++
		o := &iobj{Name: inames[r.IntN(len(inames))], Color: colors[r.IntN(len(colors))], RV: rv}
		for _, t := range tags {
			if r.IntN(3) == 0 {
				o.Tags = append(o.Tags, t)
			}
		}
		if r.IntN(6) == 0 && len(o.Tags) > 0 { // a value repeated within one object
			o.Tags = append(o.Tags, o.Tags[0])
		}
		return o
	}
	n := 20 + r.IntN(40)
	ops := make([]indexerOp, 0, n)
	for range n {
		switch p := r.IntN(100); {
		case p < 35:
			ops = append(ops, indexerOp{Kind: "Add", Obj: mk()})
		case p < 65:
			ops = append(ops, indexerOp{Kind: "Update", Obj: mk()})
		case p < 85:
			ops = append(ops, indexerOp{Kind: "Delete", Obj: mk()})
		case p < 97:
			var list []*iobj
			for range r.IntN(5) {
				list = append(list, mk())
			}
			ops = append(ops, indexerOp{Kind: "Replace", List: list})
		default:
			ops = append(ops, indexerOp{Kind: "AddIndexers"})
		}
	}
	return ops
}

// indexerView is everything a reader can ask an indexer, in comparable form: lists whose
// order client-go does not promise are sorted.
type indexerView struct {
	Err                 string
	List, Keys          []string
	Values              map[string][]string            // ListIndexFuncValues, sorted
	ByIndex             map[string]map[string][]string // index → value → objects, sorted
	IndexKeys           map[string]map[string][]string // index → value → keys, in returned order
	IndexOf             map[string]map[string][]string // index → object name → Index(...) objects, sorted
	UnknownIndexErrors  [3]bool
	UnknownIndexValues  int
	GetByKey            map[string]string
	AddIndexersConflict bool
}

type indexerSide struct {
	add, update, del func(any) error
	replace          func([]any, string) error
	list             func() []any
	listKeys         func() []string
	getByKey         func(string) (any, bool, error)
	byIndex          func(string, string) ([]any, error)
	indexKeys        func(string, string) ([]string, error)
	values           func(string) []string
	index            func(string, any) ([]any, error)
	addByNameLen     func() error
}

func strs(objs []any) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.(*iobj).String()
	}
	sort.Strings(out)
	return out
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

func (s *indexerSide) view(err error, indexNames []string) indexerView {
	v := indexerView{Err: errString(err), List: strs(s.list()), Keys: sorted(s.listKeys()),
		Values: map[string][]string{}, ByIndex: map[string]map[string][]string{},
		IndexKeys: map[string]map[string][]string{}, IndexOf: map[string]map[string][]string{},
		GetByKey: map[string]string{}}
	probe := map[string][]string{"byColor": colors, "byTag": tags, "byNameLen": {"1", "2", "3"}}
	for _, ix := range indexNames {
		v.Values[ix] = sorted(s.values(ix))
		v.ByIndex[ix], v.IndexKeys[ix], v.IndexOf[ix] = map[string][]string{}, map[string][]string{}, map[string][]string{}
		for _, val := range probe[ix] {
			objs, err := s.byIndex(ix, val)
			v.ByIndex[ix][val] = append(strs(objs), errString(err))
			keys, err := s.indexKeys(ix, val)
			v.IndexKeys[ix][val] = append(keys, errString(err)) // IndexKeys is sorted (TS-10)
		}
		for _, name := range inames {
			objs, err := s.index(ix, &iobj{Name: name, Color: "red", Tags: []string{"x", "w"}})
			v.IndexOf[ix][name] = append(strs(objs), errString(err))
		}
	}
	_, err1 := s.byIndex("nope", "red")
	_, err2 := s.indexKeys("nope", "red")
	_, err3 := s.index("nope", &iobj{Name: "a"})
	v.UnknownIndexErrors = [3]bool{err1 != nil, err2 != nil, err3 != nil}
	v.UnknownIndexValues = len(s.values("nope"))
	for _, name := range inames {
		o, ok, err := s.getByKey(name)
		switch {
		case err != nil:
			v.GetByKey[name] = "error"
		case ok:
			v.GetByKey[name] = o.(*iobj).String()
		}
	}
	return v
}

// TestDifferential_Indexer covers §2 (TS-1 … TS-12): after every write, every read of the
// indexer agrees with client-go's threadSafeMap behind cache.NewIndexer.
func TestDifferential_Indexer(t *testing.T) {
	runSeeds(t, scenario[indexerOp]{
		name:   "Indexer",
		gen:    genIndexer,
		format: indexerOp.String,
		run: func(t *testing.T, ops []indexerOp) *mismatch {
			oi := store.NewIndexer(ikey, store.Indexers{"byColor": byColor, "byTag": byTag})
			ci := cache.NewIndexer(ikey, cache.Indexers{"byColor": byColor, "byTag": byTag})
			ours := &indexerSide{add: oi.Add, update: oi.Update, del: oi.Delete, replace: oi.Replace,
				list: oi.List, listKeys: oi.ListKeys, getByKey: oi.GetByKey, byIndex: oi.ByIndex,
				indexKeys: oi.IndexKeys, values: oi.ListIndexFuncValues, index: oi.Index,
				addByNameLen: func() error { return oi.AddIndexers(store.Indexers{"byNameLen": byNameLen}) }}
			theirs := &indexerSide{add: ci.Add, update: ci.Update, del: ci.Delete, replace: ci.Replace,
				list: ci.List, listKeys: ci.ListKeys, getByKey: ci.GetByKey, byIndex: ci.ByIndex,
				indexKeys: ci.IndexKeys, values: ci.ListIndexFuncValues, index: ci.Index,
				addByNameLen: func() error { return ci.AddIndexers(cache.Indexers{"byNameLen": byNameLen}) }}
			indexNames := []string{"byColor", "byTag"}
			added := false
			for i, op := range ops {
				var errs [2]error
				for j, s := range []*indexerSide{ours, theirs} {
					switch op.Kind {
					case "Add":
						errs[j] = s.add(op.Obj)
					case "Update":
						errs[j] = s.update(op.Obj)
					case "Delete":
						errs[j] = s.del(op.Obj)
					case "Replace":
						list := make([]any, len(op.List))
						for k, o := range op.List {
							list[k] = o
						}
						errs[j] = s.replace(list, "")
					case "AddIndexers":
						errs[j] = s.addByNameLen()
					}
				}
				if op.Kind == "AddIndexers" && !added {
					added = true
					indexNames = append(indexNames, "byNameLen")
				}
				o, th := ours.view(errs[0], indexNames), theirs.view(errs[1], indexNames)
				if d := cmp.Diff(o, th); d != "" {
					return &mismatch{step: i, diff: d}
				}
			}
			return nil
		},
	})
}
