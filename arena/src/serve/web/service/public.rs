//! What the public sees of a game: a forfeit's detail without the bot's stderr, which only its
//! author reads (its check log, its stderr page), in the pages, the API, `games.csv`, PGN, SGF and
//! `report.html`.

use super::super::HttpError;

/// A game's forfeit detail as the public pages show it: without the end of the bot's stderr, which
/// only its author reads (its check log, its stderr page).
pub fn public_detail(detail: &str) -> &str {
    detail
        .split_once(crate::game::process::STDERR_ENDS)
        .map_or(detail, |(before, _)| before)
}

/// `records` as the public sees them: each detail through [`public_detail`].
pub fn public_records(records: &[crate::record::GameRecord]) -> Vec<crate::record::GameRecord> {
    records
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.detail = public_detail(&r.detail).to_string();
            r
        })
        .collect()
}

/// A competition's `games.csv` as the public downloads it: its `detail` column through
/// [`public_detail`], every other field as recorded.
///
/// # Errors
/// A file that is not CSV (the server's problem: logged, 500).
pub fn public_csv(bytes: &[u8]) -> Result<Vec<u8>, HttpError> {
    let mut reader = csv::ReaderBuilder::new().from_reader(bytes);
    let headers = reader.headers().map_err(anyhow::Error::from)?.clone();
    let detail = headers.iter().position(|h| h == "detail");
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&headers).map_err(anyhow::Error::from)?;
    for row in reader.records() {
        let row = row.map_err(anyhow::Error::from)?;
        let fields = row.iter().enumerate().map(|(i, f)| {
            if Some(i) == detail {
                public_detail(f)
            } else {
                f
            }
        });
        writer.write_record(fields).map_err(anyhow::Error::from)?;
    }
    Ok(writer.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?)
}

#[cfg(test)]
mod tests {
    use super::public_csv;

    #[test]
    fn the_public_csv_keeps_every_field_but_a_crashed_bot_s_stderr() {
        let stderr = crate::game::process::STDERR_ENDS;
        let csv = format!(
            "id,first,detail,moves\n\
             g1,a,\"b: crashed (exit 3){stderr}my secret, \"\"key\"\"\",4 4\n\
             g2,b,,3\n"
        );
        let public = String::from_utf8(public_csv(csv.as_bytes()).unwrap()).unwrap();
        assert_eq!(
            public,
            "id,first,detail,moves\ng1,a,b: crashed (exit 3),4 4\ng2,b,,3\n"
        );
    }
}
