// The training loop both trainers run (trainer.h, seq2seq_trainer.h): pause, stop (a checkpoint first),
// evaluate every eval_interval steps and at the end (not again at the step a resumed checkpoint had
// evaluated), step, and a checkpoint when asked. The trainer supplies its steps as a class T with
// stop_requested(), evaluate(step), train_step(step), checkpoint(val_loss) and the fields m_state,
// m_cfg, m_ctl, m_skipFirstEval; returns whether it stopped early.
#pragma once
#include <cmath>
#include <cstdint>

namespace twb::nn {

template <class T>
bool run_train_loop(T& t) {
    while (true) {
        const int64_t step = t.m_state.step;
        if (t.m_ctl)
            t.m_ctl->wait_while_paused();
        if (t.stop_requested()) {
            t.checkpoint(NAN);
            return true;
        }
        if ((step % t.m_cfg.eval_interval == 0 || step == t.m_cfg.max_iters) && !t.m_skipFirstEval)
            t.evaluate(step);
        t.m_skipFirstEval = false;
        if (step >= t.m_cfg.max_iters)
            return false;
        t.train_step(step);
        if (t.m_ctl && t.m_ctl->take_checkpoint_request())
            t.checkpoint(NAN);
    }
}

}  // namespace twb::nn
