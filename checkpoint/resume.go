package checkpoint

// A resumable checkpoint (RUN/resume/) is an ordinary checkpoint of the
// current, not the best, weights whose Meta.Resume says where training
// stood, and whose weights file also holds the optimiser's moments as Extra
// tensors. The training loop writes and reads it; this file only fixes its form.

// ResumeDir is the resumable checkpoint's folder inside a run folder.
const ResumeDir = "resume"

// ResumeState is where a run stood when it was saved.
type ResumeState struct {
	Epoch        int     `json:"epoch"`         // the epoch in progress, 1-based
	Batch        int     `json:"batch"`         // its batches already taken
	Step         int     `json:"step"`          // optimiser steps in all
	TrainSeconds float64 `json:"train_seconds"` // before this epoch
	LossSum      float64 `json:"loss_sum"`      // this epoch's running sums, so that its
	Correct      int     `json:"correct"`       // logged averages come out as without a stop
	Decided      int     `json:"decided"`       // rows with an answer (accuracy's denominator)
	Seen         int     `json:"seen"`          //
	EpochSeconds float64 `json:"epoch_seconds"` // time spent in this epoch so far
	BestEpoch    int     `json:"best_epoch"`    // the best checkpoint so far
	BestAccuracy float64 `json:"best_accuracy"` //
	BestLoss     float64 `json:"best_loss"`     //
	GradNormSum  float64 `json:"grad_norm_sum"` // this epoch's sum of step gradient norms
	Interrupted  bool    `json:"interrupted"`   // saved by Ctrl-C rather than at an epoch's end
}
