package exec

import (
	"context"
	"io"
	"net/http"
)

// The hooks the tests of package exec_test reach through a REST client's transport.

// APIVersionV1 and APIVersionV1beta1 are the plugin API versions this package speaks.
const (
	APIVersionV1      = apiVersionV1
	APIVersionV1beta1 = apiVersionV1beta1
	InfoEnv           = infoEnv
	MaxExecStdout     = maxExecStdout
	MaxExecStderr     = maxExecStderr
)

// CommandRunner is the type of the function that runs a plugin.
type CommandRunner = commandRunner

// RunCommand is the real CommandRunner.
var RunCommand CommandRunner = runCommand

// SetRunner puts run in place of the command runner of the plugin behind rt, the transport
// of a REST client with an exec plugin; it must be called before the client's first request.
func SetRunner(rt http.RoundTripper, run func(ctx context.Context, name string, args, env []string, stdout, stderr io.Writer) error) bool {
	r, ok := rt.(*roundTripper)
	if ok {
		r.a.run = run
	}
	return ok
}

// Credential is the plugin's input and output document.
type Credential = execCredential
