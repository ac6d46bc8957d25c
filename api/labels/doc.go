// Package labels mirrors k8s.io/apimachinery/pkg/labels: label sets and the label selectors
// that LIST and WATCH accept in ?labelSelector= (docs/behaviour/wire.md L17, E29).
//
// The contract:
//
//  1. Parse never panics; a bad selector returns an error naming the offending token, worded as
//     the real kube-apiserver words it (e.g. "unable to parse requirement: found 'b', expected:
//     in, notin, =, ==, !=, gt, lt" for "a b").
//  2. Parse of "" (or of blanks only) returns a selector that matches everything and is Empty.
//  3. A comma means AND. The syntax is k=v, k==v, k!=v, k in (a,b), k notin (a,b), k (exists),
//     !k (does not exist), k>5 and k<5. Blanks around tokens are ignored.
//  4. The greater/less operators are written '>' and '<' as upstream; their Operator values are
//     "gt" and "lt", which is why the error text lists "gt, lt". Both sides must be base-10
//     integers; a label value that is not one never matches.
//  5. !=, notin and !k match an object that lacks the key; =, ==, in, >, < and k need it.
//  6. Keys are qualified names (optional DNS-subdomain prefix and '/', then a name of at most
//     63 characters); values are at most 63 characters and may be empty. Both are checked.
//  7. "k in ()" is accepted and means the set holding only the empty value, as upstream.
//  8. String is canonical: requirements sorted by key (ties keep their order) and set values
//     sorted and deduplicated, so Parse(sel.String()).String() == sel.String().
//  9. Everything matches every label set and is Empty. Nothing matches none, is not Empty, and
//     MatchesNothing reports it, so a caller can tell the two apart although both print "".
//  10. Selectors are immutable values, safe for concurrent use; Add returns a new selector.
package labels
