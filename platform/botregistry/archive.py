"""Safe unpacking of uploaded bot archives (.zip or .tar.gz): the code lives in `arena.botarchive`, shared with
`arena bot check ARCHIVE`, so that the platform and a local check unpack every package the same way (including
executable bits); see that module for every rule."""

from arena.botarchive import ArchiveError, unpack

__all__ = ["ArchiveError", "unpack"]
