//! The organiser's operations on competitions: create one, and pause, resume, cancel or re-rate it.

use std::sync::Arc;

use axum::http::StatusCode;

use crate::serve::db::{CompetitionStatus, Kind};
use crate::serve::web::{standings, HttpError};
use crate::serve::App;

/// Creates a competition of `kind` among the active versions now, and wakes the competition loop.
///
/// # Errors
/// Fewer than two bots would play (409), a database error.
pub async fn create(app: &App, kind: Kind) -> Result<i64, HttpError> {
    // At least two entries, or the competition could only fail.
    let references = app.contest.playing_references();
    let bots = app.db.playing_bots().await? as usize;
    if references.len() + bots < 2 {
        return Err(HttpError::new(
            StatusCode::CONFLICT,
            format!(
                "a competition needs two bots or more: it would have {} (no participant's bot has \
                 passed its check yet, or every one is disqualified)",
                references.len() + bots
            ),
        ));
    }
    let id = app.db.add_competition(kind, &references).await?;
    app.wake_competitions.notify_one();
    Ok(id)
}

/// The kind a request names: `test` or `final`.
///
/// # Errors
/// Another word (400).
pub fn kind_of(word: &str) -> Result<Kind, HttpError> {
    word.parse().map_err(|_| {
        HttpError::bad(format!(
            "kind {word:?}: a competition is a test or the final"
        ))
    })
}

/// What the organiser does to a competition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// No more games are started until it is resumed (scheduled or running only).
    Pause,
    /// A paused competition plays on.
    Resume,
    /// Stopped for good (scheduled, running or paused), with a reason shown on its page.
    Cancel,
    /// Its standings computed again and, once it is over, its `standings.csv` and `report.html`
    /// rewritten.
    Rerate,
}

impl Action {
    /// The action a URL or a request's JSON names (`pause`, `resume`, `cancel`, `rerate`).
    ///
    /// # Errors
    /// Another word (404: the URL names no action).
    pub fn of(word: &str) -> Result<Action, HttpError> {
        match word {
            "pause" => Ok(Action::Pause),
            "resume" => Ok(Action::Resume),
            "cancel" => Ok(Action::Cancel),
            "rerate" => Ok(Action::Rerate),
            _ => Err(HttpError::not_found(format!(
                "action {word:?}: pause, resume, cancel or rerate"
            ))),
        }
    }

    /// The word of the URL.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Pause => "pause",
            Action::Resume => "resume",
            Action::Cancel => "cancel",
            Action::Rerate => "rerate",
        }
    }

    /// The statuses it applies to (`None`: every status) and the status it sets (`None`: kept).
    pub fn transition(
        self,
    ) -> (
        Option<&'static [CompetitionStatus]>,
        Option<CompetitionStatus>,
    ) {
        use CompetitionStatus::*;
        match self {
            Action::Pause => (Some(&[Scheduled, Running]), Some(Paused)),
            Action::Resume => (Some(&[Paused]), Some(Running)),
            Action::Cancel => (Some(&[Scheduled, Running, Paused]), Some(Cancelled)),
            Action::Rerate => (None, None),
        }
    }

    /// Whether it applies to a competition that is `status` (the pages show its button only then).
    pub fn applies_to(self, status: CompetitionStatus) -> bool {
        self.transition()
            .0
            .is_none_or(|from| from.contains(&status))
    }
}

/// The organiser's `action` on competition `id`. A cancellation's `reason` (may be empty) is shown on
/// the competition's page. Returns its status after.
///
/// # Errors
/// No such competition (404), an action its status does not allow (409), a database error.
pub async fn act(
    app: &Arc<App>,
    id: i64,
    action: Action,
    reason: &str,
) -> Result<CompetitionStatus, HttpError> {
    let c = crate::serve::web::competition_or_404(app, id).await?;
    let stop = || {
        if let Some(tx) = app.stops.lock().expect("the stops' lock").get(&id) {
            let _ = tx.send(true);
        }
    };
    if let (from, Some(to)) = action.transition() {
        // The database decides a change that races with the runner's: the status read above may
        // be stale, so the conflict names the status found now.
        if !app.db.set_status(id, from, to).await? {
            let now = app.db.competition(id).await?.map_or(c.status, |c| c.status);
            return Err(HttpError::new(
                StatusCode::CONFLICT,
                format!("competition {id} is {now}: it cannot {}", action.as_str()),
            ));
        }
    }
    match action {
        Action::Pause => stop(),
        Action::Resume => {
            app.db.set_detail(id, "").await?;
            app.wake_competitions.notify_one();
        }
        Action::Cancel => {
            stop();
            if !reason.is_empty() {
                app.db
                    .set_detail(id, &format!("cancelled by the organiser: {reason}"))
                    .await?;
            }
        }
        Action::Rerate => {
            app.standings.lock().expect("the cache's lock").remove(&id);
            let table = standings::of(app, id).await?;
            if c.status.is_over() {
                let dir = app.data.competition(id);
                table.report.write(&dir)?;
                crate::report::html::write(
                    &dir,
                    &format!("competition-{id}"),
                    &table.records,
                    &table.report,
                )?;
            }
        }
    }
    Ok(app.db.competition(id).await?.map_or(c.status, |c| c.status))
}
