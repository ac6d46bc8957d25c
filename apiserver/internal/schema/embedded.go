package schema

import (
	"strings"
	"sync"

	"github.com/informer-lab/informer-lab/api"
)

// The embedded documents, one per group-version, each parsed on first use.

// lazyDocument indexes one embedded document once, on the first ForKind of its
// group-version; each kind's definition is then resolved on its own first use.
type lazyDocument struct {
	path string
	once sync.Once
	doc  *Definitions
}

func (l *lazyDocument) get() *Definitions {
	l.once.Do(func() {
		name, ok := documentFile(l.path)
		if !ok {
			return
		}
		// The documents and their indexes are pinned (SHA256SUMS) and their test reads
		// each one whole with ParseDefinitions, so the checks it makes are not repeated at
		// every start. A document that cannot be read serves no kinds.
		l.doc = openDocument(openAPIFiles, name)
	})
	return l.doc
}

var (
	indexOnce sync.Once
	byGV      map[string]*lazyDocument // "v1", "apps/v1"
)

// index maps group-versions to embedded documents from their paths alone: nothing is read.
func index() map[string]*lazyDocument {
	indexOnce.Do(func() {
		byGV = map[string]*lazyDocument{}
		for _, p := range Paths() {
			if gv, ok := groupVersionOf(p); ok {
				byGV[gv] = &lazyDocument{path: p}
			}
		}
	})
	return byGV
}

// groupVersionOf reads the group-version from a document path in any of the spellings in
// use: the discovery path "apis/apps/v1" (optionally under /openapi/v3/) or the file name
// kubernetes keeps in api/openapi-spec/v3, "apis__apps__v1_openapi.json".
func groupVersionOf(p string) (string, bool) {
	s := strings.TrimSuffix(p, ".json")
	s = strings.TrimSuffix(s, "_openapi")
	s = strings.ReplaceAll(s, "__", "/")
	var gv string
	if i := strings.LastIndex(s, "apis/"); i >= 0 && (i == 0 || s[i-1] == '/') {
		gv = s[i+len("apis/"):]
		if strings.Count(gv, "/") != 1 {
			return "", false
		}
	} else if i := strings.LastIndex(s, "api/"); i >= 0 && (i == 0 || s[i-1] == '/') {
		gv = s[i+len("api/"):]
		if gv == "" || strings.Contains(gv, "/") {
			return "", false
		}
	} else {
		return "", false
	}
	return gv, true
}

// ForKind finds the embedded definition whose x-kubernetes-group-version-kind names gvk,
// parsing its group-version's document on first use. It is safe for concurrent use.
func ForKind(gvk api.GroupVersionKind) (*Schema, bool) {
	l := index()[gvk.APIVersion()]
	if l == nil {
		return nil, false
	}
	d := l.get()
	if d == nil {
		return nil, false
	}
	return d.ForKind(gvk)
}

// ForKindIn is ForKind looking in the document of group-version apiVersion ("v1" for the
// core group): a subresource's kind is defined in its resource's document, as policy/v1
// Eviction is in /api/v1's.
func ForKindIn(apiVersion string, gvk api.GroupVersionKind) (*Schema, bool) {
	l := index()[apiVersion]
	if l == nil {
		return nil, false
	}
	d := l.get()
	if d == nil {
		return nil, false
	}
	return d.ForKind(gvk)
}
