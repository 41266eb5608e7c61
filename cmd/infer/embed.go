package main

import (
	"embed"
	"fmt"

	"itformer/train"
)

// The default model: the run folder written by
//
//	go run ./cmd/train -out cmd/infer/model
//
// with configs/default.json and its seed. main_test.go checks that its config
// is configs/default.json's, so a stale model fails the tests.
//
//go:embed model/checkpoint.json model/*.safetensors
var embedded embed.FS

func defaultModel() (*train.Checkpoint, error) {
	ck, err := train.LoadCheckpointFS(embedded, "model/"+train.CheckpointFile)
	if err != nil {
		return nil, fmt.Errorf("the embedded default model: %w", err)
	}
	return ck, nil
}
