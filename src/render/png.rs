//! The `png` format: an RGB image of the wall grid, streamed row by row from one buffer.

use super::*;

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
    let (pw, ph) = (cols as u64 * scale as u64, rows as u64 * scale as u64);
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
    let mut row = vec![0u8; pw as usize * 3];
    for r in 0..rows {
        for (c, px) in row.chunks_exact_mut(3 * k).enumerate() {
            let colour = match g.kind(r, c as u32) {
                Kind::Wall => PNG_WALL,
                Kind::Open => PNG_PASSAGE,
                Kind::Path => PNG_SOLUTION,
            };
            for p in px.chunks_exact_mut(3) {
                p.copy_from_slice(&colour);
            }
        }
        for _ in 0..k {
            stream.write_all(&row)?;
        }
    }
    stream.finish()?;
    writer.finish()?;
    Ok(())
}
