package itformer_test

// The layout is part of the design: each package does one job and imports
// only packages below it, so the import graph shows the architecture. These
// tests read it with `go list` and fail when a change breaks it.

import (
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// layer of every package: a package may import only packages of a lower
// layer (commands may import commands' internal packages of any layer).
var layer = map[string]int{
	"itformer/model/internal/fastexp":    -1, // arithmetic under gorgoniax
	"itformer/wordnet":                   -1, // reads WordNet's files; data reads words through its rules
	"itformer/model/internal/gorgoniax":  0,
	"itformer/model/internal/fastblas":   0,
	"itformer/data":                      0,
	"itformer/model":                     1,
	"itformer/config":                    2,
	"itformer/configs":                   3,
	"itformer/checkpoint":                3,
	"itformer/history":                   3,
	"itformer/inference":                 4,
	"itformer/inference/inferencetest":   5,
	"itformer/train":                     4,
	"itformer/experiment":                5,
	"itformer/cmd/internal/defaultmodel": 6,
	"itformer/cmd/internal/cli":          7,
	"itformer/cmd/internal/browsertest":  0,
	"itformer/internal/cputime":          0,
	"itformer/internal/gobuild":          0,
	"itformer/internal/memstat":          -1, // measures memory for tests of gorgoniax and above
	"itformer/internal/await":            0,
	"itformer/cmd/internal/viz":          5,
	"itformer/cmd/internal/site":         5,
}

type listed struct {
	ImportPath string
	Name       string
	Imports    []string
	Deps       []string
}

func goList(t *testing.T, args ...string) []listed {
	t.Helper()
	return goListFor(t, nil, args...)
}

// goListFor is goList with env added to the go command's environment (such
// as GOOS=js GOARCH=wasm, to see the files a native build leaves out).
func goListFor(t *testing.T, env []string, args ...string) []listed {
	t.Helper()
	statSources(t)
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
}

// statSources stats every Go file, so that go test's cache, which notes the
// files a test looks at, reruns these tests when an import changes (it
// cannot see into the go list subprocess).
func statSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		_, err = os.Stat(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestNoPackageImportsOneAboveIt(t *testing.T) {
	for _, p := range goList(t, "./...") {
		if p.ImportPath == "itformer" {
			continue // this test
		}
		own, known := layer[p.ImportPath]
		if p.Name == "main" {
			own, known = 100, true
		}
		if !known {
			t.Errorf("%s has no layer in layout_test.go: place it in the architecture", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			if l, ok := layer[imp]; ok && l >= own {
				t.Errorf("%s (layer %d) imports %s (layer %d)", p.ImportPath, own, imp, l)
			}
		}
	}
}

// Resolving a sentence links neither the training loop nor plotting.
func TestInferenceCommandsLinkNoTrainingOrPlotting(t *testing.T) {
	for _, p := range goList(t, "./cmd/infer", "./cmd/explain", "./cmd/serve", "./cmd/explaineval") {
		for _, dep := range p.Deps {
			for _, banned := range []string{"itformer/train", "itformer/experiment", "gonum.org/v1/plot", "github.com/schollz/progressbar"} {
				if dep == banned || strings.HasPrefix(dep, banned+"/") {
					t.Errorf("%s links %s", p.ImportPath, dep)
				}
			}
		}
	}
}

// The browser module trains, so it links train; it stays small by linking
// no plotting, no progress bar and no experiment code, under the build that
// makes it (GOOS=js GOARCH=wasm, where its js-only files count).
func TestBrowserModuleLinksNoPlotting(t *testing.T) {
	for _, p := range goListFor(t, []string{"GOOS=js", "GOARCH=wasm"}, "./cmd/wasm") {
		for _, dep := range p.Deps {
			for _, banned := range []string{"itformer/experiment", "gonum.org/v1/plot", "github.com/schollz/progressbar"} {
				if dep == banned || strings.HasPrefix(dep, banned+"/") {
					t.Errorf("%s links %s", p.ImportPath, dep)
				}
			}
		}
	}
}
