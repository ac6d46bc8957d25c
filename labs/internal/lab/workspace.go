package lab

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// WorkDir is where lab-start writes the learner's files, git-ignored. A go.mod of its own makes
// it a separate module, so that the main module's ./... never compiles a half-written copy.
const WorkDir = "labs/work"

// workGoMod is the go.mod lab-start writes into WorkDir.
const workGoMod = "// Written by make lab-start: your lab files live here, outside the main module so that\n" +
	"// go test ./... and go vet ./... skip them. make lab-check builds them with go test -overlay.\n" +
	"module informer-lab.local/labs/work\n\ngo 1.25\n"

// LabWorkDir is the learner's directory of lab l, relative to the repository root.
func LabWorkDir(l *Lab) string { return filepath.Join(WorkDir, l.ID) }

// Files lists the reference files that hold l's regions, sorted.
func Files(regions []Region) []string {
	var files []string
	for _, r := range regions {
		if !slices.Contains(files, r.File) {
			files = append(files, r.File)
		}
	}
	slices.Sort(files)
	return files
}

// Start writes the skeleton of every file of l into the learner's directory. A file that is
// already there is kept unless force is set, so a second lab-start never destroys work. It
// returns the paths it wrote and those it kept.
func Start(root string, l *Lab, force bool) (wrote, kept []string, err error) {
	regions, err := Regions(root, l.ID, l.Dirs)
	if err != nil {
		return nil, nil, err
	}
	if len(regions) == 0 {
		return nil, nil, fmt.Errorf("lab %s: no function in %v carries the marker //lab:%s", l.ID, l.Dirs, l.ID)
	}
	if err := os.MkdirAll(filepath.Join(root, WorkDir), 0o755); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(root, WorkDir, "go.mod"), []byte(workGoMod), 0o644); err != nil {
		return nil, nil, err
	}
	for _, f := range Files(regions) {
		dst := filepath.Join(LabWorkDir(l), filepath.FromSlash(f))
		if _, err := os.Stat(filepath.Join(root, dst)); err == nil && !force {
			kept = append(kept, dst)
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, nil, err
		}
		out, _, err := Strip(src, l.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, dst)), 0o755); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(filepath.Join(root, dst), out, 0o644); err != nil {
			return nil, nil, err
		}
		wrote = append(wrote, dst)
	}
	return wrote, kept, nil
}

// Overlay maps reference files (absolute paths) to replacements, as go build -overlay wants.
type Overlay map[string]string

// LearnerOverlay maps each file of l to the learner's copy, and adds any new .go file the
// learner put beside them to its package. It fails when lab-start has not been run.
func LearnerOverlay(root string, l *Lab) (Overlay, error) {
	regions, err := Regions(root, l.ID, l.Dirs)
	if err != nil {
		return nil, err
	}
	ov := Overlay{}
	for _, f := range Files(regions) {
		work := filepath.Join(root, LabWorkDir(l), filepath.FromSlash(f))
		if _, err := os.Stat(work); err != nil {
			return nil, fmt.Errorf("lab %s: %s is missing: run make lab-start LAB=%s first", l.ID, filepath.Join(LabWorkDir(l), f), l.ID)
		}
		ov[filepath.Join(root, filepath.FromSlash(f))] = work
	}
	// A file of the learner's own (helpers, say) joins its package; one that would shadow a
	// reference file of another name is refused, since everything around the lab is ours.
	for _, dir := range l.Dirs {
		extra, _ := filepath.Glob(filepath.Join(root, LabWorkDir(l), filepath.FromSlash(dir), "*.go"))
		for _, work := range extra {
			ref := filepath.Join(root, filepath.FromSlash(dir), filepath.Base(work))
			if _, ok := ov[ref]; ok {
				continue
			}
			if _, err := os.Stat(ref); err == nil {
				return nil, fmt.Errorf("lab %s: %s would replace a reference file that is not part of the lab; rename it", l.ID, work)
			}
			ov[ref] = work
		}
	}
	return ov, nil
}

// Write stores the overlay in dir as the JSON file go build -overlay reads and returns its
// path; lab-check keeps the learner's in labs/work/NN/overlay.json for running one test by hand.
func (ov Overlay) Write(dir string) (string, error) {
	return ov.write(dir)
}

func (ov Overlay) write(dir string) (string, error) {
	b, err := json.Marshal(struct{ Replace map[string]string }{ov})
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "overlay.json")
	return p, os.WriteFile(p, b, 0o644)
}

// Pending returns the functions of l (Region.Func) whose body in the learner's copy still
// panics with NotImplemented, and whether the learner's directory exists at all.
func Pending(root string, l *Lab) (pending map[string]bool, started bool) {
	pending = map[string]bool{}
	regions, err := Regions(root, l.ID, l.Dirs)
	if err != nil {
		return pending, false
	}
	for _, f := range Files(regions) {
		path := filepath.Join(root, LabWorkDir(l), filepath.FromSlash(f))
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		started = true
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			continue // lab-check will show the syntax error
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				body := src[fset.Position(fd.Body.Lbrace).Offset:fset.Position(fd.Body.Rbrace).Offset]
				if strings.Contains(string(body), NotImplemented(l.ID)) {
					pending[funcName(fd)] = true
				}
			}
		}
	}
	return pending, started
}
