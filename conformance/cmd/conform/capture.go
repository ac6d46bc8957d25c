package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// aggregatedV2 is the media type of aggregated discovery, v2, as kubectl asks for it.
const aggregatedV2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

// captures are the reference's answers written by -capture: the aggregated discovery of the
// core group and of the named groups, which list every resource type, its verbs, short names,
// categories and subresources. The legacy document of each group-version is captured too.
var captures = []struct{ file, path string }{
	{"api.json", "/api"},
	{"apis.json", "/apis"},
}

// capture starts the reference, writes its discovery documents and OpenAPI captures
// (capture_openapi.go) into dir with a SHA256SUMS, and stops it. The main module's discovery
// and OpenAPI tests compare the simulator with these files.
func capture(c config, dir string) error {
	ref, stop, err := startReference(c.refBin, c.out)
	if err != nil {
		return err
	}
	defer stop()
	ctx := context.Background()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{}
	all := captures
	// The legacy documents of every group-version the aggregated one lists.
	var groups struct {
		Groups []struct {
			Versions []struct {
				GroupVersion string `json:"groupVersion"`
			} `json:"versions"`
		} `json:"groups"`
	}
	o := ref.Do(ctx, "GET", "/apis", nil, nil)
	if err := json.Unmarshal(o.Body, &groups); err != nil || o.Code != 200 {
		return fmt.Errorf("GET /apis: %d %v", o.Code, err)
	}
	all = append(all, struct{ file, path string }{"api__v1.json", "/api/v1"})
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			all = append(all, struct{ file, path string }{"apis__" + strings.ReplaceAll(v.GroupVersion, "/", "__") + ".json", "/apis/" + v.GroupVersion})
		}
	}
	for _, cp := range all {
		accept := aggregatedV2
		if !slices.ContainsFunc(captures, func(c struct{ file, path string }) bool { return c.path == cp.path }) {
			accept = "application/json"
		}
		o := ref.Do(ctx, "GET", cp.path, map[string]string{"Accept": accept}, nil)
		if o.Err != "" || o.Code != 200 {
			return fmt.Errorf("GET %s: %d %s", cp.path, o.Code, o.Err)
		}
		var v any
		if err := json.Unmarshal(o.Body, &v); err != nil {
			return fmt.Errorf("GET %s: %w", cp.path, err)
		}
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		files[cp.file] = append(b, '\n')
	}
	files["VERSION"] = []byte(referenceVersion(ctx, ref) + "\n")
	// What kubectl makes of it: the table of `kubectl api-resources -o wide`.
	ko := ref.Kubectl(ctx, []string{"api-resources", "-o", "wide"}, nil)
	if ko.Err != "" || ko.Code != 0 {
		return fmt.Errorf("kubectl api-resources: %s %s", ko.Err, ko.Stderr)
	}
	files["api-resources.txt"] = ko.Body
	// Before the OpenAPI capture installs its CRD: built-in kinds only.
	if err := captureTables(ctx, ref, files); err != nil {
		return err
	}
	if err := captureOpenAPI(ctx, ref, files); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var sums bytes.Buffer
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(files[n]), n)
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), sums.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("captured %s from the reference into %s\n", strings.Join(names, ", "), dir)
	return nil
}
