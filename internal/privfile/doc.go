// Package privfile writes files that carry credentials (a kubeconfig with a bearer token or a
// client key, a private key) so that another local user can neither read them nor redirect
// the write to a file of their choosing.
//
// Contract:
//  1. WriteFile never writes into an existing file: it creates a new file in the target's
//     directory exclusively (os.CreateTemp, mode 0600), writes, fsyncs and renames it over the
//     target. The result is always a fresh 0600 file owned by the caller, whatever mode,
//     owner or hard links the old file had.
//  2. CheckTarget (called by WriteFile) refuses a target that is a symbolic link or anything
//     but a regular file, naming the path. The rename would replace a link rather than follow
//     it, so a link planted after the check is harmless; the refusal tells the user early.
//  3. CheckDir (called by WriteFile) refuses, on Unix, a directory that others may write to
//     without the sticky bit, or that a user other than the caller or root owns: either could
//     swap the file once written.
//  4. PrivateDir creates a directory 0700 (its parents too) and accepts an existing one only
//     if it is a real directory (not a symbolic link), owned by the caller, mode exactly 0700.
//
// client-go's clientcmd writes kubeconfigs with os.WriteFile(0600),
// which keeps an existing file's mode and follows symbolic links.
package privfile
