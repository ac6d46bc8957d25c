// Package clientcmd reads and writes kubeconfig files and turns one of their contexts into a
// rest.Config. It mirrors client-go tools/clientcmd (Load, Write, LoadFromFile,
// DirectClientConfig.ClientConfig, BuildConfigFromFlags) over the wire shape of
// api.Config (tools/clientcmd/api/v1). YAML is parsed by gopkg.in/yaml.v3 and typed as
// sigs.k8s.io/yaml types it; the writer is this package's own.
// Exec credential plugins run in package plugin/pkg/client/auth/exec.
//
// The contract:
//
//  1. Load reads JSON, or one YAML document as kubectl's parser reads it (YAML 1.1): the
//     library parses every YAML syntax (block and flow collections, every scalar style,
//     comments, anchors and aliases, ---, ... and directives), and this package expands
//     aliases and merge keys (<<) and takes the !!str, !!map and !!seq tags and the
//     non-specific tag ! (a scalar so tagged is text). A key given twice takes its last
//     value, as in kubectl; keys keep the text they are written with. Explicit keys
//     ("? key"), other tags and a second document are errors naming the line; a syntax error
//     is the library's, with the line it names. Aliases may expand a document to at most
//     2^20 nodes, nested at most 200 deep. On every file of testdata/corpus, Load gives what
//     `kubectl config view` gives, field by field.
//  2. A plain scalar is typed by its field, as in YAML 1.1 (which yaml.v3, a YAML 1.2
//     parser, does not do): yes, on and true are booleans for insecure-skip-tls-verify and
//     text for a token; extensions keep their YAML 1.1 types, and so does YAMLToJSON.
//  3. Write writes YAML as kubectl does (keys sorted, list items at their key's indentation),
//     quoting a string only when it would read back otherwise; Load and kubectl read it back
//     unchanged.
//  4. ClientConfig gives the context's server, CA data or file, insecure-skip-tls-verify and
//     the user's credentials: a bearer token or token file, a client certificate and key
//     (data or files, data winning), an exec credential plugin, or a token with either.
//     Relative file names resolve against the kubeconfig's directory. Auth providers, basic
//     auth, impersonation and proxy-url are refused with an error naming the field, and so
//     are a certificate without its key (or a key without its certificate), an invalid exec
//     plugin and a context, cluster or user that is not in the file.
//  5. Every error of this package starts with "clientcmd: ".
package clientcmd
