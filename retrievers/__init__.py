"""Query -> ranked evidence over the MFDS corpus. Nothing in this package calls an LM."""
