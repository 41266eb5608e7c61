// Package train trains the model on the generated corpus and writes a run
// folder. Run (or Resume, for a stopped run) does, in order:
//
//	NewSession    the corpus (package data), its vocabulary, the initial weights and the training graph (session.go)
//	each epoch    shuffle, then for every batch: forward and backward (in train.shards shards at once,
//	              shard.go), a NaN/Inf check (numeric.go),
//	              an Adam step with warm-up (adam.go); validate (evaluate.go); keep the best checkpoint;
//	              log the epoch to epochs.jsonl and save a resumable checkpoint (epoch.go, resume.go)
//	finish        restore the best weights, score validation and test against the baselines and
//	              write metrics.json (metrics.go)
//	history       before the first step, after 1/8, 1/4 and 1/2 of the first epoch and after every
//	              epoch, the probe sentences' attention and answer probabilities go to history.json
//	              (history.go; the format is package history's), by forward passes that change nothing
//
// It prints nothing: progress and epochs reach the caller through the
// callbacks in Options, and cmd/train draws them. Checkpoints are written
// by package checkpoint; the run config is package config's.
package train
