package labels

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLabels_Lexer(t *testing.T) {
	tests := []struct {
		in   string
		want []token
	}{
		{"", nil},
		{"a=b", []token{{tokIdent, "a"}, {tokEquals, "="}, {tokIdent, "b"}}},
		{" a == b ", []token{{tokIdent, "a"}, {tokDoubleEquals, "=="}, {tokIdent, "b"}}},
		{"a!=b", []token{{tokIdent, "a"}, {tokNotEquals, "!="}, {tokIdent, "b"}}},
		{"!a", []token{{tokBang, "!"}, {tokIdent, "a"}}},
		{"k>1,k<9", []token{{tokIdent, "k"}, {tokGreater, ">"}, {tokIdent, "1"}, {tokComma, ","},
			{tokIdent, "k"}, {tokLess, "<"}, {tokIdent, "9"}}},
		// in and notin are plain identifiers; the parser gives them meaning.
		{"k in (x,)", []token{{tokIdent, "k"}, {tokIdent, "in"}, {tokOpen, "("}, {tokIdent, "x"},
			{tokComma, ","}, {tokClose, ")"}}},
		// Two-byte symbols win: "!==" is "!=" then "=", "===" is "==" then "=".
		{"!==", []token{{tokNotEquals, "!="}, {tokEquals, "="}}},
		{"===", []token{{tokDoubleEquals, "=="}, {tokEquals, "="}}},
		{"=!", []token{{tokEquals, "="}, {tokBang, "!"}}},
		// Anything else, NUL and non-ASCII included, is part of an identifier.
		{"a\x00é@b", []token{{tokIdent, "a\x00é@b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			lx := lexer{s: tt.in}
			var got []token
			for tok := lx.next(); tok.kind != tokEnd; tok = lx.next() {
				got = append(got, tok)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(token{})); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}
