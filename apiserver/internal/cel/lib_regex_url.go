package cel

import "net/url"

func init() { libraries = append(libraries, regexLib, urlLib) }

// regexLib is Kubernetes' regex library: find and findAll.
func regexLib(l *library) {
	S := StringType
	l.member("find", "string_find_string", S, ts(S, S), func(s, p Value) Value {
		re, err := compileRegex(p.(string))
		if err != nil {
			return errorf("Illegal regex: %s", err.msg)
		}
		return re.FindString(s.(string))
	})
	findAll := func(s, p string, n int64) Value {
		re, err := compileRegex(p)
		if err != nil {
			return errorf("Illegal regex: %s", err.msg)
		}
		return stringList(re.FindAllString(s, int(n)))
	}
	l.member("findAll", "string_find_all_string", ListType(S), ts(S, S), func(s, p Value) Value {
		return findAll(s.(string), p.(string), -1)
	})
	l.member("findAll", "string_find_all_string_int", ListType(S), ts(S, S, IntType), func(a []Value) Value {
		return findAll(a[0].(string), a[1].(string), a[2].(int64))
	})
}

// URL is Kubernetes' kubernetes.URL value.
type URL struct{ U *url.URL }

// URLType is kubernetes.URL.
var URLType = OpaqueType("kubernetes.URL")

func (u URL) celType() *Type { return URLType }
func (u URL) String() string { return u.U.String() }
func (u URL) equal(o Value) bool {
	v, ok := o.(URL)
	return ok && *u.U == *v.U && (u.U.User == nil) == (v.U.User == nil) && (u.U.User == nil || *u.U.User == *v.U.User)
}

// urlLib is Kubernetes' URL library.
func urlLib(l *library) {
	S := StringType
	l.global("url", "string_to_url", URLType, ts(S), func(v Value) Value {
		s := v.(string)
		if _, err := url.ParseRequestURI(s); err != nil {
			return errorf("URL parse error during conversion from string: %v", err)
		}
		u, err := url.Parse(s)
		if err != nil {
			return errorf("URL parse error during conversion from string: %v", err)
		}
		return URL{u}
	})
	get := func(name, id string, f func(*url.URL) string) {
		l.member(name, id, S, ts(URLType), func(v Value) Value { return f(v.(URL).U) })
	}
	get("getScheme", "url_get_scheme", func(u *url.URL) string { return u.Scheme })
	get("getHost", "url_get_host", func(u *url.URL) string { return u.Host })
	get("getHostname", "url_get_hostname", func(u *url.URL) string { return u.Hostname() })
	get("getPort", "url_get_port", func(u *url.URL) string { return u.Port() })
	get("getEscapedPath", "url_get_escaped_path", func(u *url.URL) string { return u.EscapedPath() })
	l.member("getQuery", "url_get_query", MapType(S, ListType(S)), ts(URLType), func(v Value) Value {
		m := newMapOf(0)
		for k, vs := range v.(URL).U.Query() {
			m.put(k, stringList(vs))
		}
		return m
	})
	l.global("isURL", "is_url_string", BoolType, ts(S), func(v Value) Value {
		_, err := url.ParseRequestURI(v.(string))
		return err == nil
	})
}
