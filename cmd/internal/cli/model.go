package cli

import (
	"itformer/checkpoint"
	"itformer/cmd/internal/defaultmodel"
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
