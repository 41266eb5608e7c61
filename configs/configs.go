// Package configs holds the shipped run configs and experiments, built into
// the binaries as the default model is, so that train, experiment and bench
// work from any directory: default.json (the embedded model's config),
// tiny.json (what the tests train) and experiments/NAME.json.
package configs

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"itformer/config"
)

//go:embed *.json experiments/*.json
var files embed.FS

// FS holds the shipped files by their paths inside configs/.
var FS fs.FS = files

// Default is the config train and bench use when given none.
const Default = "default.json"

// Load reads the shipped config name (such as default.json) and applies
// overrides; errors name it configs/NAME.
func Load(name string, overrides ...string) (config.Run, error) {
	raw, err := fs.ReadFile(files, name)
	if err != nil {
		return config.Run{}, fmt.Errorf("configs/%s is not a shipped config", name)
	}
	c, err := config.Parse(raw, overrides...)
	if err != nil {
		return config.Run{}, config.InFile("configs/"+name, err)
	}
	return c, nil
}

// Experiments names the shipped experiments (scaling, layers, ...), sorted.
func Experiments() []string {
	entries, _ := fs.ReadDir(files, "experiments") // embedded: cannot fail
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	return names
}
