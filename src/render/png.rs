//! The `png` format: an RGB image of the wall grid, streamed row by row from one buffer; a 3D
//! maze as its layers' wall grids side by side, one grid square of [`PNG_GAP`] between them.

use super::*;

/// Paint grid square `square` of a pixel row (`k` pixels a square) in `colour`.
fn fill(row: &mut [u8], square: usize, k: usize, colour: [u8; 3]) {
    for p in row[3 * k * square..3 * k * (square + 1)].chunks_exact_mut(3) {
        p.copy_from_slice(&colour);
    }
}

/// Encode the wall grid as an RGB PNG, `scale` pixels per grid square, streaming rows.
pub(super) fn png_to<W: Write + ?Sized>(
    maze: &Maze,
    solution: Option<&[u32]>,
    scale: u32,
    out: &mut W,
) -> Result<(), RenderError> {
    if scale == 0 {
        return Err(RenderError::Size(
            "PNG scale must be at least 1 pixel".into(),
        ));
    }
    let g = Grid::new(maze, solution)?;
    let (rows, cols) = g.dims();
    let layers = g.layers();
    // Grid squares across: every layer, and a gap square between two layers.
    let across = layers as u64 * cols as u64 + (layers as u64 - 1);
    let (pw, ph) = (across * scale as u64, rows as u64 * scale as u64);
    if pw > PNG_MAX_SIDE || ph > PNG_MAX_SIDE {
        return Err(RenderError::Size(format!(
            "PNG of {pw}x{ph} pixels is too large (at most {PNG_MAX_SIDE} per side); use a smaller scale"
        )));
    }
    let mut enc = ::png::Encoder::new(out, pw as u32, ph as u32);
    enc.set_color(::png::ColorType::Rgb);
    enc.set_depth(::png::BitDepth::Eight);
    let mut writer = enc.write_header()?;
    let mut stream = writer.stream_writer()?;
    let k = scale as usize;
    let is_3d = maze.size().is_3d();
    // The pixel rows through the middle of a cell with a vertical-passage mark.
    let margin = k / 4;
    let mut row = vec![0u8; pw as usize * 3];
    let mut marked = if is_3d { row.clone() } else { Vec::new() };
    for r in 0..rows {
        for z in 0..layers {
            let first = (z * (cols + 1)) as usize;
            for c in 0..cols {
                let colour = match g.kind(z, r, c) {
                    Kind::Wall => PNG_WALL,
                    Kind::Open => PNG_PASSAGE,
                    Kind::Path => match g.ends {
                        Some((a, b)) if r % 2 == 1 && c % 2 == 1 => {
                            let cell = g.cell_at(z, r, c);
                            if cell == a {
                                PNG_ENTRANCE
                            } else if cell == b {
                                PNG_EXIT
                            } else {
                                PNG_SOLUTION
                            }
                        }
                        _ => PNG_SOLUTION,
                    },
                };
                fill(&mut row, first + c as usize, k, colour);
            }
            if z + 1 < layers {
                fill(&mut row, first + cols as usize, k, PNG_GAP);
            }
        }
        let mut any_mark = false;
        if is_3d && r % 2 == 1 {
            marked.copy_from_slice(&row);
            for z in 0..layers {
                let first = (z * (cols + 1)) as usize;
                for c in (1..cols).step_by(2) {
                    let colour = match g.vertical(z, r, c) {
                        0 => continue,
                        UP => PNG_UP,
                        DOWN => PNG_DOWN,
                        _ => PNG_UP_DOWN,
                    };
                    let px = (first + c as usize) * k;
                    for p in marked[3 * (px + margin)..3 * (px + k - margin)].chunks_exact_mut(3) {
                        p.copy_from_slice(&colour);
                    }
                    any_mark = true;
                }
            }
        }
        for dy in 0..k {
            if any_mark && (margin..k - margin).contains(&dy) {
                stream.write_all(&marked)?;
            } else {
                stream.write_all(&row)?;
            }
        }
    }
    stream.finish()?;
    writer.finish()?;
    Ok(())
}
