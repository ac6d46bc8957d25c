package cel

import (
	"fmt"
	"strconv"
	"strings"
)

func init() { libraries = append(libraries, semverLib) }

// Semver is Kubernetes' kubernetes.Semver: a semantic version as blang/semver parses it.
type Semver struct {
	Major, Minor, Patch uint64
	Pre                 []prVersion
	Build               []string
}

type prVersion struct {
	num   uint64
	str   string
	isNum bool
}

// SemverType is kubernetes.Semver.
var SemverType = OpaqueType("kubernetes.Semver")

func (v Semver) celType() *Type     { return SemverType }
func (v Semver) equal(o Value) bool { w, ok := o.(Semver); return ok && v.Compare(w) == 0 }

// String prints the version back.
func (v Semver) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	for i, p := range v.Pre {
		sep := "."
		if i == 0 {
			sep = "-"
		}
		if p.isNum {
			s += sep + strconv.FormatUint(p.num, 10)
		} else {
			s += sep + p.str
		}
	}
	if len(v.Build) > 0 {
		s += "+" + strings.Join(v.Build, ".")
	}
	return s
}

const (
	semverNumbers  = "0123456789"
	semverAlphanum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789"
)

func containsOnly(s, set string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(set, r) }) == -1
}

func leadingZero(s string) bool { return len(s) > 1 && s[0] == '0' }

// ParseSemver parses as blang/semver/v4's Parse, with its errors.
func ParseSemver(s string) (Semver, error) {
	if s == "" {
		return Semver{}, errorf("Version string empty")
	}
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return Semver{}, errorf("No Major.Minor.Patch elements found")
	}
	var v Semver
	for i, name := range []string{"major", "minor"} {
		if !containsOnly(parts[i], semverNumbers) {
			return Semver{}, errorf("Invalid character(s) found in %s number %q", name, parts[i])
		}
		if leadingZero(parts[i]) {
			return Semver{}, errorf("%s number must not contain leading zeroes %q", strings.ToUpper(name[:1])+name[1:], parts[i])
		}
		n, err := strconv.ParseUint(parts[i], 10, 64)
		if err != nil {
			return Semver{}, err
		}
		if i == 0 {
			v.Major = n
		} else {
			v.Minor = n
		}
	}
	patch := parts[2]
	var build, pre []string
	if i := strings.IndexRune(patch, '+'); i != -1 {
		build = strings.Split(patch[i+1:], ".")
		patch = patch[:i]
	}
	if i := strings.IndexRune(patch, '-'); i != -1 {
		pre = strings.Split(patch[i+1:], ".")
		patch = patch[:i]
	}
	if !containsOnly(patch, semverNumbers) {
		return Semver{}, errorf("Invalid character(s) found in patch number %q", patch)
	}
	if leadingZero(patch) {
		return Semver{}, errorf("Patch number must not contain leading zeroes %q", patch)
	}
	n, err := strconv.ParseUint(patch, 10, 64)
	if err != nil {
		return Semver{}, err
	}
	v.Patch = n
	for _, p := range pre {
		switch {
		case p == "":
			return Semver{}, errorf("Prerelease is empty")
		case containsOnly(p, semverNumbers):
			if leadingZero(p) {
				return Semver{}, errorf("Numeric PreRelease version must not contain leading zeroes %q", p)
			}
			n, err := strconv.ParseUint(p, 10, 64)
			if err != nil {
				return Semver{}, err
			}
			v.Pre = append(v.Pre, prVersion{num: n, isNum: true})
		case containsOnly(p, semverAlphanum):
			v.Pre = append(v.Pre, prVersion{str: p})
		default:
			return Semver{}, errorf("Invalid character(s) found in prerelease %q", p)
		}
	}
	for _, b := range build {
		if b == "" {
			return Semver{}, errorf("Build meta data is empty")
		}
		if !containsOnly(b, semverAlphanum) {
			return Semver{}, errorf("Invalid character(s) found in build meta data %q", b)
		}
	}
	v.Build = build
	return v, nil
}

func cmpU(a, b uint64) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// Compare orders versions by precedence; build metadata does not count.
func (v Semver) Compare(o Semver) int {
	if c := cmpU(v.Major, o.Major); c != 0 {
		return c
	}
	if c := cmpU(v.Minor, o.Minor); c != 0 {
		return c
	}
	if c := cmpU(v.Patch, o.Patch); c != 0 {
		return c
	}
	switch {
	case len(v.Pre) == 0 && len(o.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(o.Pre) == 0:
		return -1
	}
	for i := 0; i < len(v.Pre) && i < len(o.Pre); i++ {
		a, b := v.Pre[i], o.Pre[i]
		var c int
		switch {
		case a.isNum && !b.isNum:
			c = -1
		case !a.isNum && b.isNum:
			c = 1
		case a.isNum:
			c = cmpU(a.num, b.num)
		default:
			c = strings.Compare(a.str, b.str)
		}
		if c != 0 {
			return c
		}
	}
	return cmpOrdered(int64(len(v.Pre)), int64(len(o.Pre)))
}

// normalizeSemver accepts a leading v, leading zeros and missing minor or patch, as
// Kubernetes' normalizeAndParse.
func normalizeSemver(s string) (Semver, error) {
	s = strings.TrimPrefix(s, "v")
	parts := strings.SplitN(s, ".", 3)
	for i, p := range parts {
		if len(p) > 1 {
			p = strings.TrimLeft(p, "0")
			if p == "" || !strings.ContainsAny(p[0:1], semverNumbers) {
				p = "0" + p
			}
			parts[i] = p
		}
	}
	if len(parts) < 3 {
		if strings.ContainsAny(parts[len(parts)-1], "+-") {
			return Semver{}, errorf("short version cannot contain PreRelease/Build meta data")
		}
		for len(parts) < 3 {
			parts = append(parts, "0")
		}
	}
	return ParseSemver(strings.Join(parts, "."))
}

// semverLib is Kubernetes' semver library at version 1.
func semverLib(l *library) {
	S, SV := StringType, SemverType
	parse := func(s string, normalize bool) (Semver, error) {
		if normalize {
			return normalizeSemver(s)
		}
		return ParseSemver(s)
	}
	l.global("semver", "string_to_semver", SV, ts(S), func(v Value) Value {
		s, err := parse(v.(string), false)
		if err != nil {
			return errorf("%s", err.Error())
		}
		return s
	})
	l.global("isSemver", "is_semver_string", BoolType, ts(S), func(v Value) Value {
		_, err := parse(v.(string), false)
		return err == nil
	})
	l.member("isGreaterThan", "semver_is_greater_than", BoolType, ts(SV, SV), func(a, b Value) Value { return a.(Semver).Compare(b.(Semver)) == 1 })
	l.member("isLessThan", "semver_is_less_than", BoolType, ts(SV, SV), func(a, b Value) Value { return a.(Semver).Compare(b.(Semver)) == -1 })
	l.member("compareTo", "semver_compare_to", IntType, ts(SV, SV), func(a, b Value) Value { return int64(a.(Semver).Compare(b.(Semver))) })
	l.member("major", "semver_major", IntType, ts(SV), func(v Value) Value { return int64(v.(Semver).Major) })
	l.member("minor", "semver_minor", IntType, ts(SV), func(v Value) Value { return int64(v.(Semver).Minor) })
	l.member("patch", "semver_patch", IntType, ts(SV), func(v Value) Value { return int64(v.(Semver).Patch) })
	l.global("semver", "string_bool_to_semver", SV, ts(S, BoolType), func(v, n Value) Value {
		s, err := parse(v.(string), n.(bool))
		if err != nil {
			return errorf("%s", err.Error())
		}
		return s
	})
	l.global("isSemver", "is_semver_string_bool", BoolType, ts(S, BoolType), func(v, n Value) Value {
		_, err := parse(v.(string), n.(bool))
		return err == nil
	})
}
