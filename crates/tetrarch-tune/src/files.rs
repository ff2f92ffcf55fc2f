//! Writing the output files of `tetrarch spsa` and `tetrarch calibrate`.

use std::io::Write;
use std::path::Path;

/// Writes `text` to `path` atomically: a temporary file beside it, synced,
/// then renamed over it, so a kill leaves the old file or the new one,
/// never half of one.
pub(crate) fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}
