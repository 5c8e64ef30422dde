"""Dies at start with an import error, as a bot with a missing dependency does."""
import numpy_that_is_not_installed  # noqa: F401
