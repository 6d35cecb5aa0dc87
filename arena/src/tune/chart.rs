//! `tune.svg`: each tuned parameter over the iterations, one panel per parameter, drawn with the
//! `plotters` crate's SVG backend (a self-contained file that opens in any browser).

use std::path::Path;

use anyhow::Result;
use plotters::prelude::*;

use super::TuneParam;

/// Panel size, px.
const WIDTH: u32 = 900;
const PANEL_HEIGHT: u32 = 220;

/// Writes the chart of `history` (iteration, θ after it; iteration 0 is the start) to `path`: per
/// parameter a panel with θ over the iterations, its y axis spanning the values taken (and the start),
/// titled with the parameter's name, start and range.
///
/// # Errors
/// The file cannot be written, or plotters fails to draw.
pub fn write_svg(
    path: &Path,
    title: &str,
    params: &[TuneParam],
    history: &[(u64, Vec<f64>)],
) -> Result<()> {
    let height = PANEL_HEIGHT * params.len().max(1) as u32 + 40;
    let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("drawing {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(title, ("sans-serif", 22))
        .map_err(|e| err(&e))?;
    let panels = root.split_evenly((params.len().max(1), 1));
    let last = history.last().map_or(1, |(i, _)| (*i).max(1));
    for (k, (p, area)) in params.iter().zip(panels.iter()).enumerate() {
        let values: Vec<(u64, f64)> = history.iter().map(|(i, t)| (*i, t[k])).collect();
        let (lo, hi) = values.iter().fold((p.start, p.start), |(lo, hi), (_, v)| {
            (lo.min(*v), hi.max(*v))
        });
        let pad = ((hi - lo) * 0.1).max(1.0);
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!(
                    "{}  (start {}, range {}..{})",
                    p.name, p.start, p.min, p.max
                ),
                ("sans-serif", 16),
            )
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(55)
            .build_cartesian_2d(0u64..last, (lo - pad)..(hi + pad))
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new(values, Palette99::pick(k).stroke_width(2)))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_is_an_svg_with_a_panel_per_parameter() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tune.svg");
        let param = |name: &str| TuneParam {
            name: name.into(),
            start: 0.0,
            min: -10.0,
            max: 10.0,
            c_end: 1.0,
            r_end: 0.01,
            integer: true,
        };
        let history = vec![
            (0, vec![0.0, 0.0]),
            (1, vec![1.5, -2.0]),
            (2, vec![2.0, -1.0]),
        ];
        write_svg(&path, "t", &[param("alpha_w"), param("beta_w")], &history).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(svg.contains("alpha_w") && svg.contains("beta_w"));
        // One line per parameter in its palette colour (Palette99's first two: #E6194B, #3CB44B).
        let lower = svg.to_lowercase();
        assert!(
            lower.contains("#e6194b") && lower.contains("#3cb44b"),
            "{svg}"
        );
    }
}
