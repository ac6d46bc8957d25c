package sha256sums

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Parse reads a SHA256SUMS file: for each line "<64 hex digits>  <name>", name → digest.
func Parse(data []byte) (map[string]string, error) {
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		digest, name, ok := strings.Cut(line, "  ")
		if !ok || name == "" {
			return nil, fmt.Errorf("SHA256SUMS line %d %q is not \"<digest>  <name>\"", n, line)
		}
		if _, err := hex.DecodeString(digest); err != nil || len(digest) != 2*sha256.Size {
			return nil, fmt.Errorf("SHA256SUMS line %d %q: the digest is not %d hex digits", n, line, 2*sha256.Size)
		}
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("SHA256SUMS line %d: %s is listed twice", n, name)
		}
		sums[name] = digest
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return sums, nil
}

// Sum returns the SHA-256 digest of data in lowercase hex, as sha256sum prints it.
func Sum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
