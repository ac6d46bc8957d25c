package cel

import "fmt"

// formatIssue is a compile-time error of a string.format call, at the expression it blames.
type formatIssue struct {
	id  int64
	msg string
}

// checkFormat is cel-go's stringFormatValidator: a literal format string applied to a list
// literal is checked against the argument types at compile time.
func checkFormat(call *Expr, types map[int64]*Type) *formatIssue {
	f, _ := call.Target.Lit.(string)
	args := call.Args[0].Args
	requested := 0
	argIndex := 0
	for i := 0; i < len(f); {
		if f[i] != '%' {
			i++
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			i += 2
			continue
		}
		requested++
		if i+1 >= len(f) {
			return &formatIssue{call.ID, "unexpected end of string"}
		}
		if argIndex >= len(args) {
			return &formatIssue{call.ID, fmt.Sprintf("index %d out of range", argIndex)}
		}
		n, issue := checkClause(f[i+1:], args[argIndex], types, call.ID)
		if issue != nil {
			return issue
		}
		i += 1 + n
		argIndex++
	}
	if len(args) > requested {
		return &formatIssue{call.ID, fmt.Sprintf("too many arguments supplied to string.format (expected %d, got %d)", requested, len(args))}
	}
	return nil
}

func checkClause(f string, arg *Expr, types map[int64]*Type, callID int64) (int, *formatIssue) {
	i := 0
	if f[0] == '.' {
		i++
		for {
			if i >= len(f) {
				return 0, &formatIssue{callID, "could not parse formatting clause: error while parsing precision: could not find end of precision specifier"}
			}
			if f[i] < '0' || f[i] > '9' {
				break
			}
			i++
		}
	}
	c := f[i]
	i++
	during := func(id int64, format string) (int, *formatIssue) {
		return 0, &formatIssue{id, "error during formatting: " + fmt.Sprintf(format, typeAt(types, id).Name)}
	}
	switch c {
	case 's':
		if ok, bad := verifyString(arg, types); !ok {
			return during(bad, "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given %s")
		}
	case 'd':
		if !typeOneOf(types, arg.ID, IntKind, UintKind) {
			return during(arg.ID, "decimal clause can only be used on integers, was given %s")
		}
	case 'f':
		if !typeOneOf(types, arg.ID, DoubleKind, StringKind) {
			return during(arg.ID, "fixed-point clause can only be used on doubles, was given %s")
		}
	case 'e':
		if !typeOneOf(types, arg.ID, DoubleKind, StringKind) {
			return during(arg.ID, "scientific clause can only be used on doubles, was given %s")
		}
	case 'b':
		if !typeOneOf(types, arg.ID, IntKind, UintKind, BoolKind) {
			return during(arg.ID, "only integers and bools can be formatted as binary, was given %s")
		}
	case 'x', 'X':
		if !typeOneOf(types, arg.ID, IntKind, UintKind, StringKind, BytesKind) {
			return during(arg.ID, "only integers, byte buffers, and strings can be formatted as hex, was given %s")
		}
	case 'o':
		if !typeOneOf(types, arg.ID, IntKind, UintKind) {
			return during(arg.ID, "octal clause can only be used on integers, was given %s")
		}
	default:
		return 0, &formatIssue{callID, fmt.Sprintf("could not parse formatting clause: unrecognized formatting clause \"%c\"", c)}
	}
	return i, nil
}

func typeAt(types map[int64]*Type, id int64) *Type {
	if t := types[id]; t != nil {
		return t
	}
	return DynType
}

func typeOneOf(types map[int64]*Type, id int64, kinds ...Kind) bool {
	t := typeAt(types, id)
	if t.Kind == DynKind {
		return true
	}
	for _, k := range kinds {
		if t.Kind == k {
			return true
		}
	}
	return false
}

func verifyString(e *Expr, types map[int64]*Type) (bool, int64) {
	if !typeOneOf(types, e.ID, ListKind, MapKind, IntKind, UintKind, DoubleKind, BoolKind, StringKind,
		TimestampKind, BytesKind, DurationKind, TypeKind, NullKind) {
		return false, e.ID
	}
	switch e.Kind {
	case eList:
		for _, a := range e.Args {
			if ok, id := verifyString(a, types); !ok {
				return false, id
			}
		}
	case eMap:
		for _, en := range e.Entries {
			if ok, id := verifyString(en.Key, types); !ok {
				return false, id
			}
			if ok, id := verifyString(en.Value, types); !ok {
				return false, id
			}
		}
	}
	return true, e.ID
}
