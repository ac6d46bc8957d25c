package celcheck

import (
	"testing"

	"github.com/informer-lab/informer-lab/tools/internal/linecmd"
)

// request and response are celeval's line protocol.
type request struct {
	Expr        string `json:"expr"`
	Vars        []jvar `json:"vars,omitempty"`
	NoCheck     bool   `json:"noCheck,omitempty"`
	NoMacros    bool   `json:"noMacros,omitempty"`
	Limit       uint64 `json:"costLimit,omitempty"`
	Schema      any    `json:"schema,omitempty"`
	Self        any    `json:"self,omitempty"`
	OldSelf     any    `json:"oldSelf,omitempty"`
	Root        bool   `json:"root,omitempty"`
	OptionalOld bool   `json:"optionalOldSelf,omitempty"`
}

type jvar struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value *jv    `json:"value,omitempty"`
}

type response struct {
	CompileError string `json:"compileError,omitempty"`
	OutType      string `json:"outType,omitempty"`
	Value        *jv    `json:"value,omitempty"`
	EvalError    string `json:"evalError,omitempty"`
	Cost         uint64 `json:"cost"`
	EstMin       uint64 `json:"estMin"`
	EstMax       uint64 `json:"estMax"`
}

// ours runs the main module's interpreter through its celeval command.
type ours struct{ cmd *linecmd.Cmd }

func startOurs(t testing.TB) *ours {
	t.Helper()
	return &ours{linecmd.Start(t, "./apiserver/internal/cel/celeval")}
}

func (o *ours) eval(req request) (response, error) {
	var resp response
	err := o.cmd.Do(req, &resp)
	return resp, err
}
