// Package defaultmodel embeds the default model, so that infer, explain and
// serve work on a fresh clone with no training. The model folder is the run
// folder written by
//
//	go run ./cmd/train -out cmd/internal/defaultmodel/model
//
// with configs/default.json and its seed; training is deterministic, so that
// command reproduces the embedded weights bit for bit. The test beside this
// file fails if the model's config drifts from configs/default.json.
package defaultmodel

import (
	"embed"
	"fmt"

	"itformer/checkpoint"
)

//go:embed model/checkpoint.json model/*.safetensors
var embedded embed.FS

// Load reads and verifies the embedded checkpoint.
func Load() (*checkpoint.Checkpoint, error) {
	ck, err := checkpoint.LoadFS(embedded, "model/"+checkpoint.FileName)
	if err != nil {
		return nil, fmt.Errorf("the embedded default model: %w", err)
	}
	return ck, nil
}
