package cli

import (
	"itformer/checkpoint"
	"itformer/cmd/internal/defaultmodel"
	"itformer/config"
	"itformer/configs"
	"itformer/history"
	"itformer/inference"
)

// LoadModel loads the checkpoint at path (a run folder or its
// checkpoint.json), or the embedded default model when path is empty.
func LoadModel(path string) (*inference.Predictor, error) {
	var ck *checkpoint.Checkpoint
	var err error
	if path == "" {
		ck, err = defaultmodel.Load()
	} else {
		ck, err = checkpoint.Load(path)
	}
	if err != nil {
		return nil, err
	}
	return inference.New(ck), nil
}

// LoadConfig reads the run config at path with overrides, or, when path is
// empty, the shipped configs/default.json built into the binary, so that a
// command needs no checkout to find its default.
func LoadConfig(path string, overrides ...string) (config.Run, error) {
	if path == "" {
		return configs.Load(configs.Default, overrides...)
	}
	return config.Load(path, overrides...)
}

// ConfigName is how messages name the config LoadConfig(path) reads.
func ConfigName(path string) string {
	if path == "" {
		return "configs/" + configs.Default + " (built in)"
	}
	return path
}

// LoadHistory reads the history.json (package history) of the run at path (a
// run folder or its checkpoint.json), or the embedded default model's when
// path is empty. An error wrapping fs.ErrNotExist means the run has none.
func LoadHistory(path string) (*history.History, error) {
	if path == "" {
		return defaultmodel.History()
	}
	return history.Load(path)
}

// ModelName is how messages name the model LoadModel(path) loads.
func ModelName(path string) string {
	if path == "" {
		return "the embedded default model"
	}
	return path
}
