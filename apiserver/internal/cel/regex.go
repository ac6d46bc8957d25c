package cel

import (
	"regexp"
	"sync"
)

// regexCache holds compiled patterns: rules use few distinct patterns, evaluated often.
var regexCache sync.Map

const maxCachedRegexes = 4096

var regexCount int64
var regexMu sync.Mutex

func compileRegex(p string) (*regexp.Regexp, *Err) {
	if r, ok := regexCache.Load(p); ok {
		return r.(*regexp.Regexp), nil
	}
	r, err := regexp.Compile(p)
	if err != nil {
		return nil, errorf("%s", err.Error())
	}
	regexMu.Lock()
	if regexCount < maxCachedRegexes {
		regexCount++
		regexCache.Store(p, r)
	}
	regexMu.Unlock()
	return r, nil
}

func matches(s, p Value) Value {
	r, err := compileRegex(p.(string))
	if err != nil {
		return err
	}
	return r.MatchString(s.(string))
}
