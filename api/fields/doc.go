// Package fields mirrors k8s.io/apimachinery/pkg/fields: field sets and the field selectors
// that LIST and WATCH accept in ?fieldSelector= (docs/behaviour/wire.md L18, L20, E30).
//
// The contract:
//
//  1. ParseSelector never panics; a bad selector returns an error. A term without an operator
//     gives exactly the real server's text, `invalid selector: '<selector>'; can't understand
//     '<term>'` (e.g. "invalid selector: 'a'; can't understand 'a'").
//  2. A comma means AND. Each term is field=value, field==value or field!=value; there is no
//     set syntax and no existence test. Field names are not checked here (which fields exist
//     depends on the kind, L19); blanks are not trimmed, as upstream.
//  3. A term splits at its first operator ("!=" and "==" win over "="), so a value may hold '!'
//     freely. In a value, '\' escapes ',', '=' and '\' and nothing else, as upstream ("\!" is
//     an invalid escape sequence); a bare '=' in a value is an error, and a bare ',' ends the
//     term.
//  4. A field that an object lacks compares as "": "spec.nodeName=" selects objects without a
//     node name and "spec.nodeName!=" those with one (L20). Fields.Get must return "" then.
//  5. ParseSelector of "" (or of commas only) returns a selector that is Empty and matches
//     everything. A term with both field and value empty ("=") adds nothing, as upstream.
//  6. String re-escapes values. ParseSelector sorts its terms by their printed form, so
//     ParseSelector(sel.String()).String() == sel.String(). Selectors built with AndSelectors
//     or OneTerm… print their terms in the order given; SelectorFromSet sorts.
//  7. Everything is Empty and matches all; Nothing matches none and is not Empty, although both
//     print "".
//  8. Selectors are immutable values, safe for concurrent use.
package fields
