// Package defaultmodel embeds the default model, so that infer, explain and
// serve work on a fresh clone with no training. The model folder is the run
// folder written by
//
//	go run ./cmd/train -out cmd/internal/defaultmodel/model -overwrite
//
// (-overwrite: the folder holds the run it replaces) with configs/default.json
// and its seed; training is deterministic, so that command reproduces the
// embedded weights bit for bit. The test beside this file fails if the
// model's config drifts from configs/default.json.
//
// The run's history.json (package history: the probe sentences' attention as
// it was learned) is embedded with it, for the page's playback.
package defaultmodel

import (
	"embed"
	"fmt"

	"itformer/checkpoint"
	"itformer/history"
)

// Member 1's part of the run folder that the commands read: checkpoint.json
// (which holds the config), history.json and the weights. config.json,
// metrics.json and epochs.jsonl stay on disk for people to read, as the
// members' do: nothing reads them from the binary, and the browser module,
// which embeds this, has 6 MB gzip-compressed for everything (docs/site.md).
// Members 2..K, in model/members/<k>/ (train/members.go), are embedded by
// members.go.
//
//go:embed model/checkpoint.json model/history.json model/*.safetensors
var embedded embed.FS

// Load reads and verifies the embedded checkpoint.
func Load() (*checkpoint.Checkpoint, error) {
	ck, err := checkpoint.LoadFS(embedded, "model/"+checkpoint.FileName)
	if err != nil {
		return nil, fmt.Errorf("the embedded default model: %w", err)
	}
	return ck, nil
}

// Members reads and verifies the embedded model's other members, for
// inference.Predictor.SetMembers; ck is what Load returned. A build without
// them (the browser module: members_js.go) returns none.
func Members(ck *checkpoint.Checkpoint) ([]*checkpoint.Checkpoint, error) {
	if membersFS == nil {
		return nil, nil
	}
	m, err := checkpoint.LoadMembers(membersFS, "model", ck)
	if err != nil {
		return nil, fmt.Errorf("the embedded default model: %w", err)
	}
	return m, nil
}

// History reads the embedded model's history.json; an error wrapping
// fs.ErrNotExist means the model was trained before histories were recorded.
func History() (*history.History, error) {
	h, err := history.LoadFS(embedded, "model/"+history.FileName)
	if err != nil {
		return nil, fmt.Errorf("the embedded default model's history: %w", err)
	}
	return h, nil
}
