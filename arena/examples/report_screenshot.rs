//! A screenshot of a game in a `report.html`, as docs/report.png is taken:
//!
//! ```text
//! cargo run -p arena --features browser --example report_screenshot -- results/dots-report-demo/report.html g0004 160 docs/report.png
//! ```
//!
//! Opens the page in headless Chromium (Debian's `chromium`) through the DevTools protocol, as the browser
//! test does, opens the game at the ply (`report.html#<id>@<ply>`) and saves a PNG of the viewer: its
//! title, the board and the move list, with the rest of the page hidden (headless Chromium paints a page
//! scrolled to the viewer blank, with `--screenshot` too).

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [page, id, ply, out] = args.as_slice() else {
        anyhow::bail!("usage: report_screenshot <report.html> <game id> <ply> <out.png>");
    };
    let page = PathBuf::from(page)
        .canonicalize()
        .with_context(|| format!("no page {page}"))?;
    let exe = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
        .context("no chromium on the PATH (Debian: apt-get install chromium)")?;
    let profile = tempfile::tempdir()?;
    let opts = LaunchOptions::default_builder()
        .path(Some(exe))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1100, 1150)))
        .user_data_dir(Some(profile.path().to_path_buf()))
        .args(
            [
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
            ]
            .iter()
            .map(OsStr::new)
            .collect(),
        )
        .build()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let browser = Browser::new(opts)?;
    let tab = browser.new_tab()?;
    tab.set_default_timeout(Duration::from_secs(60));
    tab.navigate_to(&format!("file://{}#{id}@{ply}", page.display()))?
        .wait_until_navigated()?;
    tab.wait_for_element(&format!(
        "#board svg[data-game=\"{id}\"][data-ply=\"{ply}\"]"
    ))?;
    // Headless Chromium paints a scrolled page blank here: show the viewer alone, at the top.
    tab.evaluate(
        "document.querySelectorAll('body > *:not(#viewer), script').forEach(e => e.style.display = 'none'); \
         window.scrollTo(0, 0); 1",
        false,
    )?;
    std::thread::sleep(Duration::from_millis(500));
    let png = tab
        .wait_for_element("#viewer")?
        .capture_screenshot(CaptureScreenshotFormatOption::Png)?;
    std::fs::write(out, png).with_context(|| format!("writing {out}"))?;
    println!("wrote {out}");
    Ok(())
}
