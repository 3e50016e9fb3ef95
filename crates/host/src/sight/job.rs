//! Long experiments spread over frames. Calibrating a player can take thousands of frames
//! on forks; run inside one `on_frame` that froze the game (and a window) for seconds. A
//! [`Job`] runs the experiment on its own thread as straight-line code, but only while the
//! game's frame grants it work: each `step(grant)` lets it run `grant` more fork frames
//! and waits until it has used them or finished. So the game's frame costs at most the
//! grant, and the result arrives on the same game frame on every machine (the work done
//! per frame is counted in emulated frames, not in wall time), which keeps runs
//! reproducible.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// The experiment's side: charges emulated frames against the grants it is given.
/// Cloning a meter gives another handle to the same account (one thread only).
#[derive(Clone)]
pub struct Meter {
    account: Rc<RefCell<Account>>,
}

struct Account {
    grants: Receiver<u64>,
    yielded: Sender<()>,
    left: u64,
    spent: u64,
}

/// Why a job stopped early: its owner dropped it (the game was reset, the player detached).
pub const CANCELLED: &str = "the experiment was cancelled";

thread_local! {
    /// The meter of the job running on this thread, for code that charges frames without
    /// being handed a meter (see [`charge_current`]).
    static CURRENT: RefCell<Option<Meter>> = const { RefCell::new(None) };
}

/// Charges `n` frames to the meter of the job this thread runs, if any (on a thread that
/// runs no job, e.g. a tool's own, nothing is charged and nothing waits).
pub fn charge_current(n: u64) -> Result<(), String> {
    let meter = CURRENT.with(|c| c.borrow().clone());
    match meter {
        Some(mut m) => m.charge(n),
        None => Ok(()),
    }
}

/// Steps of pure computation (a search over candidates) that cost as much as one emulated
/// frame. A job's game frame waits for it to use its grant, so a search that runs no fork
/// frames must still charge for its work, or it would hold the game's frame for as long as
/// it searches. Counting steps, not time, keeps the result on the same frame everywhere.
pub const STEPS_PER_FRAME: u64 = 1 << 16;

/// Counts a search's steps and charges the running job a frame per [`STEPS_PER_FRAME`].
#[derive(Default)]
pub struct Effort {
    steps: u64,
}

impl Effort {
    /// One more step; `Err` means the job was cancelled: stop searching.
    pub fn step(&mut self) -> Result<(), String> {
        self.steps += 1;
        if self.steps.is_multiple_of(STEPS_PER_FRAME) {
            charge_current(1)
        } else {
            Ok(())
        }
    }
}

impl Meter {
    /// Charges `n` frames about to be run; waits for the next grant when this one is used
    /// up. An error means the job was dropped: unwind.
    pub fn charge(&mut self, n: u64) -> Result<(), String> {
        let mut a = self.account.borrow_mut();
        while a.left == 0 {
            a.yielded.send(()).map_err(|_| CANCELLED.to_string())?;
            a.left = a.grants.recv().map_err(|_| CANCELLED.to_string())?;
        }
        a.left = a.left.saturating_sub(n);
        a.spent += n;
        Ok(())
    }

    /// Frames charged in all.
    pub fn spent(&self) -> u64 {
        self.account.borrow().spent
    }

    fn with(grants: Receiver<u64>, yielded: Sender<()>, left: u64) -> Meter {
        Meter {
            account: Rc::new(RefCell::new(Account {
                grants,
                yielded,
                left,
                spent: 0,
            })),
        }
    }

    /// A meter that never waits (for tools and tests that may take their time).
    pub fn unlimited() -> Meter {
        let (grant_tx, grants) = channel();
        let (yielded, _) = channel();
        // The sender is dropped: `left` never reaches zero in practice.
        drop(grant_tx);
        Meter::with(grants, yielded, u64::MAX)
    }
}

enum Done<T> {
    Value(T),
    Panicked(String),
}

/// An experiment running on its own thread, a grant at a time.
pub struct Job<T> {
    grants: Option<Sender<u64>>,
    yielded: Receiver<()>,
    done: Receiver<Done<T>>,
    thread: Option<JoinHandle<()>>,
    finished: bool,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread; it runs nothing until the first `step`.
    pub fn start<F>(name: &str, work: F) -> Job<T>
    where
        F: FnOnce(&mut Meter) -> T + Send + 'static,
    {
        let (grants_tx, grants) = channel();
        let (yielded_tx, yielded) = channel();
        let (done_tx, done) = channel();
        let thread = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                let Ok(first) = grants.recv() else { return };
                let mut meter = Meter::with(grants, yielded_tx, first);
                CURRENT.with(|c| *c.borrow_mut() = Some(meter.clone()));
                let out =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&mut meter)));
                CURRENT.with(|c| *c.borrow_mut() = None);
                let msg = match out {
                    Ok(v) => Done::Value(v),
                    Err(e) => Done::Panicked(
                        e.downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| e.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "a panic".into()),
                    ),
                };
                let _ = done_tx.send(msg);
                // Wake the owner if it is waiting for a yield.
                drop(meter);
            })
            .ok();
        Job {
            grants: Some(grants_tx),
            yielded,
            done,
            thread,
            finished: false,
        }
    }

    /// Lets the job run `grant` more emulated frames; returns its result once it has one
    /// (`Err` if it could not start or panicked). After the result, further steps return
    /// `None`.
    pub fn step(&mut self, grant: u64) -> Option<Result<T, String>> {
        if self.finished {
            return None;
        }
        let Some(tx) = &self.grants else { return None };
        if self.thread.is_none() {
            self.finished = true;
            return Some(Err("cannot start a thread for the experiment".into()));
        }
        if tx.send(grant.max(1)).is_err() {
            return self.collect();
        }
        // Either the job used its grant (yields) or it ends (its yield sender is dropped
        // after the result is sent).
        let _ = self.yielded.recv();
        match self.done.try_recv() {
            Ok(d) => self.finish(d),
            Err(_) => None,
        }
    }

    fn collect(&mut self) -> Option<Result<T, String>> {
        match self.done.recv() {
            Ok(d) => self.finish(d),
            Err(_) => {
                self.finished = true;
                Some(Err("the experiment stopped without a result".into()))
            }
        }
    }

    fn finish(&mut self, d: Done<T>) -> Option<Result<T, String>> {
        self.finished = true;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        Some(match d {
            Done::Value(v) => Ok(v),
            Done::Panicked(why) => Err(format!("the experiment failed: {why}")),
        })
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        // Closing the grant channel makes the next `charge` fail, so the thread unwinds on
        // its own; it is not joined (it may be in the middle of a long computation).
        self.grants = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_runs_only_what_it_is_granted() {
        let mut job = Job::start("count", |m: &mut Meter| -> Result<u64, String> {
            for _ in 0..25 {
                m.charge(1)?;
            }
            Ok(m.spent())
        });
        // 10 frames a step: the result comes with the third step, on every machine.
        assert!(job.step(10).is_none());
        assert!(job.step(10).is_none());
        assert_eq!(job.step(10), Some(Ok(Ok(25))));
        assert!(job.is_finished());
        assert!(job.step(10).is_none());
    }

    #[test]
    fn a_long_search_yields_its_frame() {
        let mut job = Job::start("search", |_: &mut Meter| -> Result<(), String> {
            let mut effort = Effort::default();
            for _ in 0..STEPS_PER_FRAME * 30 {
                effort.step()?;
            }
            Ok(())
        });
        // The search runs no fork frames, yet each step of 10 frames ends after 10 frames'
        // worth of steps.
        assert!(job.step(10).is_none());
        assert!(job.step(10).is_none());
        assert_eq!(job.step(10), Some(Ok(Ok(()))));
    }

    #[test]
    fn a_dropped_job_stops_its_thread() {
        let (tx, rx) = channel();
        let mut job = Job::start("cancel", move |m: &mut Meter| {
            let r = (|| -> Result<(), String> {
                loop {
                    m.charge(1)?;
                }
            })();
            let _ = tx.send(r);
        });
        assert!(job.step(5).is_none());
        drop(job);
        assert_eq!(
            rx.recv_timeout(std::time::Duration::from_secs(10)),
            Ok(Err(CANCELLED.to_string()))
        );
    }

    #[test]
    fn a_panic_is_an_error_not_a_crash() {
        let mut job = Job::start("panic", |m: &mut Meter| -> u32 {
            let _ = m.charge(1);
            panic!("bad experiment")
        });
        let r = job.step(3).expect("finished");
        assert!(r.unwrap_err().contains("bad experiment"));
    }

    #[test]
    fn an_unlimited_meter_never_waits() {
        let mut m = Meter::unlimited();
        for _ in 0..1000 {
            m.charge(7).unwrap();
        }
        assert_eq!(m.spent(), 7000);
        // No job on this thread: nothing to charge.
        assert_eq!(charge_current(5), Ok(()));
    }

    #[test]
    fn code_deep_in_a_job_charges_the_jobs_meter() {
        let mut job = Job::start("current", |m: &mut Meter| -> Result<u64, String> {
            for _ in 0..12 {
                charge_current(1)?;
            }
            Ok(m.spent())
        });
        assert!(job.step(5).is_none());
        assert!(job.step(5).is_none());
        assert_eq!(job.step(5), Some(Ok(Ok(12))));
    }
}
